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
}
