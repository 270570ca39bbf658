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
}
