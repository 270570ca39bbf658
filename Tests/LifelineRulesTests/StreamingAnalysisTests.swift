import Foundation
import Testing
import TestSupport
import LifelineCore
import LifelinePipeline
@testable import LifelineRules

/// A single input is analysed as it streams (sessions checked as they end, then summarised);
/// the findings and session summaries must be those of the batch path that holds every event.
@Suite struct StreamingAnalysisTests {
    static let root = Repository.sampleLogs

    static var files: [String] {
        let all = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return all.filter { name in [".log", ".txt", ".json", ".ndjson", ".ips", ".crash", ".md"].contains { name.hasSuffix($0) } }.sorted()
    }

    @Test("streaming and batch analysis agree on every sample", arguments: files)
    func agree(file: String) {
        let path = Self.root.appendingPathComponent(file).path
        let streamed = Analysis.run(paths: [path], ingest: IngestOptions(jobs: 1))
        let events = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [path]).events
        // The analysis follows the apps not from Apple (`AppSelection`); the batch path is told the same.
        let sessions = SessionBuilder.build(events).filter { AppSelection.default.follows($0) }
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

    static func reports(_ a: Analysis) -> (json: String, text: String) {
        (AnalysisJSON.render(a), AnalysisText(color: false).render(a))
    }

    static func reports(spooled paths: [String], budget: Int, minimumSeverity: Severity? = nil) -> (json: String, text: String, spool: AnalysisSpool) {
        let ingest = IngestOptions(jobs: 2)
        let json = AnalysisSpool.run(paths: paths, ingest: ingest, order: .report, minimumSeverity: minimumSeverity, budget: budget)
        var bytes: [UInt8] = []
        AnalysisJSON.render(json) { bytes.append(contentsOf: $0) }
        let text = AnalysisSpool.run(paths: paths, ingest: ingest, order: .bySession, minimumSeverity: minimumSeverity, budget: budget)
        var lines: [String] = []
        AnalysisText(color: false).render(text) { lines.append($0) }
        return (String(decoding: bytes, as: UTF8.self), lines.joined(separator: "\n"), json)
    }

    @Test("reports written from a spool that spilled every few findings are those of the analysis held in memory",
          arguments: files + [""])
    func spooledReportsAgree(file: String) {
        let path = file.isEmpty ? Self.root.path : Self.root.appendingPathComponent(file).path
        let held = Self.reports(Analysis.run(paths: [path], ingest: IngestOptions(jobs: 2)))
        let spooled = Self.reports(spooled: [path], budget: 600)
        #expect(spooled.json == held.json)
        #expect(spooled.text == held.text)
        if spooled.spool.findingCount > 10 { #expect(spooled.spool.spilledRuns > 0) }
    }

    @Test("--min-severity drops findings as they arrive, with the counts and exit severity of the filtered report")
    func spooledFloor() {
        var held = Analysis.run(paths: [Self.root.path], ingest: IngestOptions(jobs: 2))
        held.diagnostics.removeAll { $0.severity < .error }
        let spooled = Self.reports(spooled: [Self.root.path], budget: 600, minimumSeverity: .error)
        #expect(spooled.json == Self.reports(held).json)
        #expect(spooled.text == Self.reports(held).text)
        #expect(spooled.spool.highestSeverity == held.highestSeverity)
    }

    @Test("a spool holds a bounded number of findings and sessions however many the log has")
    func spoolHoldsBoundedFindings() throws {
        // Thousands of short launches, each with two findings (active without a foreground entry,
        // background without resigning).
        var text = ""
        for n in 0..<3_000 {
            let t = String(format: "%02d:%02d:%02d.000", 10 + n / 3_600, (n / 60) % 60, n % 60)
            let head = "2025-03-01 \(t) Atlas[\(1_000 + n):1]"
            text += "\(head) -[AppDelegate application:didFinishLaunchingWithOptions:]\n"
            text += "\(head) -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x1\(n)>\n"
            text += "\(head) -[SceneDelegate sceneDidBecomeActive:] <UIWindowScene: 0x1\(n)>\n"
            text += "\(head) -[SceneDelegate sceneDidEnterBackground:] <UIWindowScene: 0x1\(n)>\n"
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-spool-\(getpid()).log").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let spooled = Self.reports(spooled: [path], budget: 16 << 10)
        #expect(spooled.spool.sessionCount == 3_000)
        #expect(spooled.spool.findingCount >= 6_000)
        // 16 KB at 144 bytes or more a finding, 160 a session: at most 114 and 103 held at once.
        #expect(spooled.spool.peakHeld.findings <= 114)
        #expect(spooled.spool.peakHeld.sessions <= 103)
        let held = Self.reports(Analysis.run(paths: [path], ingest: IngestOptions(jobs: 2)))
        #expect(spooled.json == held.json)
        #expect(spooled.text == held.text)
    }
}
