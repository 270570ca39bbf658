import Foundation
import Testing

@Suite struct TimelineCommandTests {
    @Test("text: a row per event with time, thread, scene, state; launch duration and time in states")
    func text() throws {
        let r = try CLI.run(["timeline", "SampleLogs/xcode-console.log"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first == "P1  Field Notes [4821]  SampleLogs/xcode-console.log")
        #expect(lines.filter { $0.contains("SampleLogs/xcode-console.log:") }.count == 18)   // the file's 18 events
        #expect(r.stdout.contains("+0.071 s  main    S1     scene.willConnect               unattached"))
        // The millisecond-only line has no zone: it takes the file's offset, so it is 4.7 s in, not an hour.
        #expect(r.stdout.contains("+4.711 s  main    S1     scene.willResignActive"))
        #expect(r.stdout.contains("918544  -      thread.mainThreadChecker"))
        #expect(r.stdout.contains("launch to first active scene: 0.161 s"))
        #expect(r.stdout.contains("S1 time in state: unattached 0.084 s, foregroundInactive 2.535 s, foregroundActive 47.413 s"))
    }

    @Test("json: sessions with events, launch duration and time in states")
    func json() throws {
        let r = try CLI.run(["timeline", "SampleLogs/xcode-console.log", "--format", "json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let s = try #require((root["sessions"] as? [[String: Any]])?.first)
        #expect((s["events"] as? [[String: Any]])?.count == 18)
        #expect(abs((s["launchToFirstActive"] as? Double ?? 0) - 0.161) < 0.001)
        let states = try #require((s["timeInStates"] as? [String: [String: Double]])?["S1"])
        #expect(Set(states.keys) == ["unattached", "foregroundInactive", "foregroundActive"])
    }

    /// Issue 17, item 5: only `+118.069 s` was shown; a postmortem needs the wall-clock time too.
    @Test("--clock wall and both show each event's time as the log wrote it, with its UTC offset; JSON and the HTML sessions table carry it")
    func wallClock() throws {
        let log = CLI.repositoryRoot.appendingPathComponent("SampleLogs/xcode-console.log").path
        let both = try CLI.run(["timeline", log, "--clock", "both"])
        #expect(both.status == 0)
        let lines = both.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].contains("started 2024-03-01 09:58:12.019 +01:00"), "\(lines[0])")
        #expect(lines[1].contains("time") && lines[1].contains("wall clock"))
        #expect(lines[2].contains("+0.000 s  2024-03-01 09:58:12.019 +01:00  main"), "\(lines[2])")
        let wall = try CLI.run(["timeline", log, "--clock", "wall"])
        #expect(!wall.stdout.contains("+0.000 s") && wall.stdout.contains("2024-03-01 09:58:12.020 +01:00"))
        #expect(try CLI.run(["timeline", log]).stdout.split(separator: "\n")[1].hasPrefix("        time  thread"), "relative stays the default")
        let json = try JSONSerialization.jsonObject(with: Data(try CLI.run(["timeline", log, "--format", "json"]).stdout.utf8)) as? [String: Any]
        let session = try #require((json?["sessions"] as? [[String: Any]])?.first)
        #expect(session["startedAt"] as? String == "2024-03-01 09:58:12.019 +01:00")
        #expect((session["events"] as? [[String: Any]])?.first?["wallClock"] as? String == "2024-03-01 09:58:12.019 +01:00")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-clock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["analyze", log, "--fail-on", "never", "--output", dir.path]).status == 0)
        let html = try String(contentsOf: dir.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains(">2024-03-01 09:58:12.019 +01:00</span>"))
    }

    /// Issue 17, item 4: each timeline box with findings links to its log excerpt.
    @Test("in the HTML report, a timeline box with findings links to its line in the log excerpts, and every link has its target")
    func timelineBoxesLinkToExcerpts() throws {
        let log = CLI.repositoryRoot.appendingPathComponent("SampleLogs/xcode-console.log").path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-links-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["analyze", log, "--fail-on", "never", "--output", dir.path]).status == 0)
        let html = try String(contentsOf: dir.appendingPathComponent("report.html"), encoding: .utf8)
        let links = Set(html.matches(of: /xlink:href="#(L-[0-9a-f]{12}-\d+)"/).map { String($0.output.1) })
        let targets = Set(html.matches(of: /id="(L-[0-9a-f]{12}-\d+)"/).map { String($0.output.1) })
        #expect(links.count >= 3, "the exception, the assertion and the checker reports are linked: \(links)")
        #expect(links.isSubset(of: targets), "links without a target: \(links.subtracting(targets))")
        #expect(links.contains { $0.hasSuffix("-78") }, "the uncaught exception's box (line 78)")
    }
}
