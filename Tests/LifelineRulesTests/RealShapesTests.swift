import Foundation
import Testing
import TestSupport
import LifelineCore
import LifelinePipeline
@testable import LifelineRules

/// Holds the reader and the rules to the tables of `SampleLogs/real-shapes/` (inputs shaped like
/// what users paste and export: thin NSLog logs, CarPlay and background launches, Markdown-escaped
/// failures, unifiedlog_iterator JSON Lines), written by hand from the files: an event or finding
/// that is missing, or one that is not in the tables, fails.
@Suite struct RealShapesTests {
    static let dir = Repository.path("SampleLogs/real-shapes")

    static func table(_ name: String) throws -> [[String]] {
        try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
    }

    static var files: [String] {
        Repository.fileNames(in: dir).filter { !$0.hasSuffix(".tsv") }
    }

    @Test("each real-shape sample yields exactly its expected events", arguments: files)
    func events(file: String) throws {
        let want = try Self.table("expected-events.tsv").filter { $0[0] == file }.map { "\($0[1]) \($0[2])" }
        #expect(!want.isEmpty, "\(file) has no row in expected-events.tsv")
        let r = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [Self.dir.appendingPathComponent(file).path])
        let got = r.events.map { "\($0.line) \($0.kind.rawValue)" }
        #expect(got == want)
        #expect(r.inputs.first?.error == nil)
        #expect(r.inputs.first?.isBalanced == true)
    }

    @Test("each real-shape sample yields exactly its expected findings", arguments: files)
    func findings(file: String) throws {
        let want = Set(try Self.table("expected-findings.tsv").filter { $0[0] == file }.map { "\($0[1]) \($0[2]) \($0[3])" })
        let analysis = Analysis.run(paths: [Self.dir.appendingPathComponent(file).path], ingest: IngestOptions(jobs: 1))
        let got = Set(analysis.diagnostics.map { "\($0.line) \($0.ruleId) \($0.severity)" })
        #expect(got.subtracting(want).isEmpty, "unexpected: \(got.subtracting(want).sorted())")
        #expect(want.subtracting(got).isEmpty, "missing: \(want.subtracting(got).sorted())")
    }

    @Test("launch kinds: CarPlay, background and user launches are told apart")
    func launchKinds() {
        func kind(_ file: String) -> [LaunchKind?] {
            Analysis.run(paths: [Self.dir.appendingPathComponent(file).path], ingest: IngestOptions(jobs: 1)).sessions.map(\.launchKind)
        }
        #expect(kind("carplay-first-launch.log") == [.carPlay])
        #expect(kind("background-fetch-launch.log") == [.background])
        #expect(kind("ipad-two-windows.log") == [.user])
        #expect(kind("main-thread-reasons.log") == [.user, .user])
    }

    @Test("two iPad windows without addresses: one timeline of two scenes, marked not distinguishable")
    func indistinguishable() throws {
        let analysis = Analysis.run(paths: [Self.dir.appendingPathComponent("ipad-two-windows.log").path], ingest: IngestOptions(jobs: 1))
        let session = try #require(analysis.sessions.first)
        #expect(session.scenes.count == 1)
        #expect(session.scenes.first?.sceneCount == 2)
        #expect(SessionSummary(session).sceneObjects == 2)
        #expect(session.scenes.first?.finalState == .unknown)
    }
}
