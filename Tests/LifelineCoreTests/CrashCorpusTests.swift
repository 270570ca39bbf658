import Foundation
import Testing
import TestSupport
@testable import LifelineCore

/// Every real report of `../shared/corpus/` read through the whole ingest path, checked against
/// what a person read from the file (`CrashCorpusCase.all`), not against what the parser said once.
@Suite("Crash reports: every real report, field by field", .tags(.corpus), .needsCorpus)
struct CrashCorpusTests {
    static func path(_ c: CrashCorpusCase) -> String {
        Repository.corpus(c.file).path
    }

    @Test("the table covers every report in the corpus")
    func tableCoversCorpus() throws {
        let root = Repository.corpus
        var files: [String] = []
        for sub in ["", "crash-reports/"] {
            let dir = root.appendingPathComponent(sub)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path)
            where name.hasSuffix(".ips") || name.hasSuffix(".crash") { files.append(sub + name) }
        }
        #expect(Set(files) == Set(CrashCorpusCase.all.map(\.file)))
    }

    @Test("one failure event with the fields the report states", arguments: CrashCorpusCase.all)
    func fields(_ c: CrashCorpusCase) throws {
        let result = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [Self.path(c)])
        let failures = result.events.filter { $0.kind == .crashReport || $0.kind == .watchdog }
        try #require(failures.count == 1, "\(failures.count) failure events")
        let input = try #require(result.inputs.first)
        #expect(input.isBalanced, "\(input.balanceDescription)")
        #expect(input.notes.filter { $0.severity == .error }.isEmpty, "\(input.notes.map(\.message))")
        let e = failures[0]
        let d = try #require(e.details)
        #expect(e.process == c.process)
        #expect(e.pid == c.pid)
        #expect(d.bundleID == c.bundleID)
        #expect(d.appVersion == c.appVersion)
        #expect(d.appBuild == c.appBuild)
        #expect(d.osVersion == c.osVersion)
        #expect(d.deviceModel == c.deviceModel)
        #expect(d.incidentID == c.incidentID)
        #expect(e.timestamp?.iso == c.timestamp)
        #expect(d.exceptionType == c.exceptionType)
        #expect(d.signal == c.signal)
        #expect(d.terminationNamespace == c.terminationNamespace)
        #expect(d.crashedThread == c.crashedThread)
        #expect(d.crashedThreadIsMain == c.crashedThreadIsMain)
        #expect(d.crashedThreadQueue == c.crashedThreadQueue)
        #expect(d.threadName == c.crashedThreadName)
        #expect(d.exceptionName == c.exceptionName)
        #expect(d.cause == FailureCause(rawValue: c.cause))

        let report = try CrashReportParser.parse(String(contentsOfFile: Self.path(c), encoding: .utf8),
                                                 lifecycleSymbol: CallbackCatalog.isLifecycleSymbol)
        #expect(!report.lastExceptionBacktrace.isEmpty == c.hasLastExceptionBacktrace)
        #expect(report.firstAppFrame?.image == c.firstAppFrameImage)
        #expect(report.firstAppFrame?.symbol == c.firstAppFrameSymbol)
    }
}
