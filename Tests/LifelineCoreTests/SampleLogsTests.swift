import Foundation
import Testing
import TestSupport
@testable import LifelineCore

/// Holds the ingester to `SampleLogs/expected-events.tsv`, written by hand from the logs.
@Suite struct SampleLogsTests {
    struct Expected: Hashable, CustomStringConvertible {
        var file: String, line: Int, kind: String
        var description: String { "\(file):\(line) \(kind)" }
    }

    static func expected() throws -> [Expected] {
        let text = try String(contentsOf: Repo.sampleLogs.appendingPathComponent("expected-events.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { row in
            let f = row.split(separator: "\t").map(String.init)
            return Expected(file: f[0], line: Int(f[1])!, kind: f[2])
        }
    }

    static var sampleFiles: [String] {
        Repo.files(in: Repo.sampleLogs).map(\.lastPathComponent).filter { $0 != "expected-events.tsv" }
    }

    @Test("every sample yields exactly its expected events", arguments: sampleFiles)
    func expectedEvents(file: String) throws {
        let want = try Self.expected().filter { $0.file == file }
        let r = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [Repo.sampleLogs.appendingPathComponent(file).path])
        let got = r.events.map { Expected(file: file, line: $0.line, kind: $0.kind.rawValue) }
        #expect(got == want, "missing: \(Set(want).subtracting(got).sorted { $0.line < $1.line }), extra: \(Set(got).subtracting(want).sorted { $0.line < $1.line })")
        #expect(r.inputs.first?.error == nil)
    }

    @Test("the table names only existing files")
    func tableFilesExist() throws {
        for file in Set(try Self.expected().map(\.file)) {
            #expect(FileManager.default.fileExists(atPath: Repo.sampleLogs.appendingPathComponent(file).path), "\(file)")
        }
    }

    @Test("each sample is detected as the format its README names", arguments: [
        ("xcode-console.log", LogFormat.xcode), ("xcode15-metadata.log", .xcodeMetadata), ("print-function.log", .print),
        ("log-show-default.log", .logDefault), ("log-stream-default.log", .logDefault), ("log-show-syslog.log", .logSyslog),
        ("log-show-compact.log", .logCompact), ("log-show.json", .logJSON), ("log-stream.ndjson", .logNDJSON),
        ("idevicesyslog.log", .idevicesyslog), ("idevicesyslog-nodevice.log", .idevicesyslog),
        ("console-copy.txt", .console), ("catalyst-reopen.log", .xcode), ("markdown-paste.md", .xcode),
        ("watchdog-scene-create.ips", .ips), ("exception-launch.crash", .crash), ("crlf-endings.log", .xcode),
        ("device-kills.log", .idevicesyslog), ("jetsam-per-process-limit.ips", .ips), ("cpu-resource.ips", .ips),
        ("metrickit-comet-2.0.json", .metricKit), ("metrickit-comet-2.1.json", .metricKit),
    ])
    func detectedFormat(file: String, format: LogFormat) {
        let r = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [Repo.sampleLogs.appendingPathComponent(file).path])
        #expect(r.inputs.first?.format == format)
    }

    static var allInputs: [String] {
        (Repo.files(in: Repo.sampleLogs) + Repo.files(in: Repo.corpus)).map(\.path)
            .filter { !$0.hasSuffix(".tsv") }
    }

    @Test("every line of every sample and corpus file is accounted for", arguments: allInputs)
    func accounting(path: String) {
        let r = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [path])
        let s = r.inputs[0]
        #expect(s.isBalanced, "\(s.balanceDescription)")
        // Count newline bytes like `wc -l`, plus an unterminated last line.
        let bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
        let wc = bytes.filter { $0 == 10 }.count + (bytes.last.map { $0 != 10 ? 1 : 0 } ?? 0)
        #expect(s.lines == wc)
        #expect(s.events == r.events.count)
    }

    @Test("the corpus crash reports each give one failure with the crashed thread", .tags(.corpus), .needsCorpus)
    func corpusCrashReports() {
        let ips = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [Repo.corpus.appendingPathComponent("ios16-launch-crash.ips").path])
        #expect(ips.events.map(\.kind) == [.crashReport])
        #expect(ips.events.first?.details?.crashedThreadIsMain == true)
        #expect(ips.events.first?.details?.lifecycleFrames?.contains { $0.text.contains("_mainQueue_makeKeyAndVisible") } == true)
        let text = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [Repo.corpus.appendingPathComponent("macos-crash-report-plcrashreporter.crash").path])
        #expect(text.events.map(\.kind) == [.crashReport])
        #expect(text.events.first?.details?.signal == "SIGSEGV")
        #expect(text.events.first?.process == "iTubeDownloader")
    }
}

@Suite struct LogNameTests {
    @Test("rotated and compressed log names are log-like; other names are left to the content", arguments: [
        ("system.log", true), ("catalyst.log.1", true), ("app.log.2.gz", true), ("system.log.0.gz", true),
        ("carplay.out", true), ("crash.ips", true), ("device.txt.12", true),
        ("syslog", false), ("device", false), ("notes.pdf", false), ("log.1", false), (".hidden.log", false), ("archive.1", false),
    ])
    func logLike(name: String, expected: Bool) {
        #expect(InputExpansion.isLogLike(name) == expected)
    }
}
