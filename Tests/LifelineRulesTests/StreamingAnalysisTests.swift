import Foundation
import Testing
import LifelineCore
@testable import LifelineRules

/// A single input is analysed as it streams (sessions checked as they end, then summarised);
/// the findings and session summaries must be those of the batch path that holds every event.
@Suite struct StreamingAnalysisTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleLogs")

    static var files: [String] {
        let all = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return all.filter { name in [".log", ".txt", ".json", ".ndjson", ".ips", ".crash", ".md"].contains { name.hasSuffix($0) } }.sorted()
    }

    @Test("streaming and batch analysis agree on every sample", arguments: files)
    func agree(file: String) {
        let path = Self.root.appendingPathComponent(file).path
        let streamed = Analysis.run(paths: [path], ingest: IngestOptions(jobs: 1))
        let events = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [path]).events
        let sessions = SessionBuilder.build(events)
        #expect(streamed.diagnostics == RuleRegistry.check(sessions))
        #expect(streamed.sessions == sessions.map { $0.summarized() })
    }

    @Test("a session silent for longer than the pid-reuse gap ends; its pid then starts a new session")
    func idleSessionsEnd() {
        var stream = SessionStream(options: SessionOptions(pidReuseGap: 3600))
        var ended: [ProcessSession] = []
        func event(_ seconds: Double, pid: Int, _ kind: String) -> Event {
            var e = Event(file: "a.log", line: Int(seconds), format: .xcode, kind: EventKind(kind), message: kind)
            e.timestamp = LogTimestamp(iso: "t\(seconds)", seconds: seconds, hasOffset: true)
            e.pid = pid
            e.process = "App\(pid)"
            return e
        }
        ended += stream.add(event(0, pid: 1, "app.didFinishLaunching"))
        for i in 1...300 { ended += stream.add(event(Double(i) * 20, pid: 2, "scene.didBecomeActive")) }
        #expect(ended.map(\.id) == ["P1"], "pid 1 fell silent for more than an hour of log time")
        ended += stream.add(event(6100, pid: 1, "scene.didBecomeActive"))
        ended += stream.finish()
        #expect(ended.map(\.id) == ["P1", "P2", "P3"])
        #expect(stream.liveCount == 0)
    }

    static func finding(_ file: String, _ line: Int, _ rule: String, _ n: Int) -> Diagnostic {
        Diagnostic(ruleId: rule, rule: rule, severity: .note, message: "m\(n)", file: file, line: line, session: "P\(n % 5)")
    }

    @Test("findings sorted in place keep report order and are stable, the same as a plain sort")
    func reportOrderInPlace() {
        var state: UInt64 = 7
        func next(_ n: UInt64) -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int((state >> 33) % n) }
        for count in [0, 1, 2, 17, 5_000] {
            let found = (0..<count).map { Self.finding(["b.log", "a.log", "c.log"][next(3)], next(50), ["LC-S03", "LC-A01"][next(2)], $0) }
            var sorted = found
            sorted.sortInReportOrder()
            let expected = found.enumerated().sorted { x, y in
                (x.element.file, x.element.line, x.element.ruleId, x.offset) < (y.element.file, y.element.line, y.element.ruleId, y.offset)
            }.map(\.element)
            #expect(sorted == expected, "\(count) findings")
        }
    }

    @Test("the JSON report is written in pieces of bounded size that join to the whole")
    func jsonInPieces() {
        let analysis = Analysis(inputs: [], sessions: [], diagnostics: (0..<3_000).map { Self.finding("a.log", $0 + 1, "LC-S03", $0) })
        var pieces: [[UInt8]] = []
        AnalysisJSON.render(analysis) { pieces.append($0) }
        #expect(pieces.count > 3, "a large report is not held whole")
        #expect(pieces.allSatisfy { $0.count < (1 << 16) + 1_024 })
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == AnalysisJSON.render(analysis))
        var lines: [String] = []
        AnalysisText(color: false).render(analysis) { lines.append($0) }
        #expect(lines.joined(separator: "\n") == AnalysisText(color: false).render(analysis))
    }
}
