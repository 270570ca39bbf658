import Foundation
import Testing
import TestSupport
@testable import LifelineCore

/// Costs that must grow with the events, not with the history a session has accumulated
/// (issue 12). Each test counts work, never wall time.
@Suite struct ScalingTests {
    /// The shape: a long-lived iPad app connects a new scene object (new address, new
    /// persistent identifier) again and again, never logs a disconnect, and logs its activations
    /// without an address in between.
    static func manyWindows(_ scenes: Int) -> [Event] {
        var lines: [String] = ["2025-03-01 10:00:00.000000+0100 Atlas[77:1] -[AppDelegate application:didFinishLaunchingWithOptions:]"]
        for n in 1...scenes {
            let t = String(format: "10:%02d:%02d.%06d", (n / 60) % 60, n % 60, n)
            let addr = String(format: "0x1%08x", n * 0x1000)
            let pid = String(format: "%08X-3B9E-4A05-9E6D-2C51B0A7F316", n)
            lines.append("2025-03-01 \(t)+0100 Atlas[77:1] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: \(addr); role: UIWindowSceneSessionRoleApplication; persistentIdentifier: \(pid); activationState: UISceneActivationStateUnattached>")
            lines.append("2025-03-01 \(t)+0100 Atlas[77:1] -[SceneDelegate sceneDidBecomeActive:] <UIWindowScene: \(addr); role: UIWindowSceneSessionRoleApplication>")
            lines.append("2025-03-01 \(t)+0100 Atlas[77:1] -[SceneDelegate sceneWillResignActive:]")
            lines.append("2025-03-01 \(t)+0100 Atlas[77:1] -[SceneDelegate sceneDidBecomeActive:]")
        }
        return ingest(lines.joined(separator: "\n") + "\n", name: "many-windows.log").events
    }

    static func tracked(_ events: [Event]) -> SceneTracker {
        var tracker = SceneTracker()
        for i in events.indices where SceneState.isSceneEvent(events[i].kind) { tracker.add(events[i], index: i) }
        return tracker
    }

    @Test("scene lookup examines a bounded number of lives per event, however many scenes stay live")
    func sceneLookupDoesNotScanLiveScenes() {
        let small = Self.tracked(Self.manyWindows(200))
        let large = Self.tracked(Self.manyWindows(2_000))
        // Every connect makes a new object; the unaddressed callbacks cannot be told apart and go
        // to one life of their class.
        #expect(small.count == 201 && large.count == 2_001)
        // A scan of the live scenes per event would make 2,000 scenes cost 100× 200 scenes.
        #expect(large.probes <= 11 * small.probes)
        #expect(large.probes <= 3 * 4 * 2_000)
    }

    @Test("a scene that reconnects finds its earlier lives by persistent identifier, not by a walk of all lives")
    func previousLivesByIdentifier() {
        var text = "2025-03-01 10:00:00.000000+0100 Atlas[77:1] -[AppDelegate application:didFinishLaunchingWithOptions:]\n"
        for (n, pid) in ["AAAA", "BBBB", "AAAA", "CCCC", "AAAA"].enumerated() {
            text += "2025-03-01 10:00:0\(n).000000+0100 Atlas[77:1] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x10\(n)000; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: \(pid); activationState: UISceneActivationStateUnattached>\n"
            text += "2025-03-01 10:00:0\(n).500000+0100 Atlas[77:1] -[SceneDelegate sceneDidDisconnect:] <UIWindowScene: 0x10\(n)000>\n"
        }
        let session = SessionBuilder.build(ingest(text, name: "reconnect.log").events)[0]
        #expect(session.scenes.map(\.previousLives) == [[], [], ["S1"], [], ["S1", "S3"]])
    }

    @Test("copying an event shares its fields; changing a copy leaves the original as it was")
    func eventCopiesAreValues() {
        var a = Event(file: "a.log", line: 1, format: .xcode, kind: EventKind("scene.didBecomeActive"), message: "m")
        a.className = "SceneDelegate"
        var b = a
        b.position = .line(2)
        b.className = "Other"
        #expect(a.line == 1 && a.className == "SceneDelegate" && b.line == 2 && b.className == "Other")
        #expect(a != b)
        b.position = .line(1)
        b.className = "SceneDelegate"
        #expect(a == b)
        #expect(EventKind("scene.didBecomeActive") == a.kind && a.kind.family == "scene" && a.kind.isLifecycleCallback)
    }

    /// Events of `files` files, `perFile` each, with times that interleave across files, some
    /// missing and some going backwards within a file.
    static func interleaved(files: Int, perFile: Int) -> [Event] {
        var rng = SeededBytes(state: UInt64(files * 31 + perFile))
        var out: [Event] = []
        for f in 0..<files {
            for i in 0..<perFile {
                var e = Event(file: "f\(f).log", line: i + 1, format: .xcode, kind: EventKind("scene.didBecomeActive"), message: "")
                let r = rng.next() % 10
                if r != 0 {  // one event in ten has no time
                    let t = Double(i * 3 + Int(rng.next() % 7)) - (r == 1 ? 5 : 0)  // some go backwards
                    e.timestamp = LogTimestamp(iso: "t", seconds: t, hasOffset: true)
                }
                out.append(e)
            }
        }
        return out
    }

    /// The merge as it was written first: a scan of every file's head per event.
    static func scanMerged(_ events: [Event]) -> [Event] {
        var files: [String] = [], queues: [String: [Event]] = [:]
        for e in events {
            if queues[e.file] == nil { files.append(e.file) }
            queues[e.file, default: []].append(e)
        }
        var heads = [Int](repeating: 0, count: files.count), clocks = [Double](repeating: -.infinity, count: files.count)
        var merged: [Event] = []
        while true {
            var best = -1, bestTime = Double.infinity
            for (f, file) in files.enumerated() where heads[f] < queues[file]!.count {
                let t = queues[file]![heads[f]].timestamp?.seconds ?? clocks[f]
                if best < 0 || t < bestTime { best = f; bestTime = t }
            }
            if best < 0 { return merged }
            let e = queues[files[best]]![heads[best]]
            heads[best] += 1
            if let t = e.timestamp?.seconds { clocks[best] = t }
            merged.append(e)
        }
    }

    @Test("merging many files by time keeps the order of a scan of every file per event")
    func mergeOrder() {
        for (files, perFile) in [(1, 50), (2, 40), (7, 30), (64, 12)] {
            let events = Self.interleaved(files: files, perFile: perFile)
            let expected = Self.scanMerged(events).map { "\($0.file):\($0.line)" }
            #expect(SessionBuilder.mergedByTime(events).map { "\($0.file):\($0.line)" } == expected, "\(files) files")
        }
    }

    @Test("merging N events from k files costs N log k comparisons, not N × k")
    func mergeCost() {
        func cost(_ files: Int) -> Int {
            var merge = TimeMerge(Self.interleaved(files: files, perFile: 10))
            var n = 0
            while merge.next() != nil { n += 1 }
            #expect(n == files * 10)
            return merge.comparisons
        }
        let small = cost(100), large = cost(10_000)
        // 100× the events over 100× the files: a scan per event would cost 10,000× as much;
        // N log k costs 100 × log(10,000) / log(100) = 200× (allow for the heap's constant).
        #expect(large <= 300 * small)
        #expect(large <= 2 * 100_000 * 14)
    }

    @Test("a session whose app relaunched under another pid ends once its old pid stays silent, so live sessions stay few")
    func supersededSessionsEnd() {
        var stream = SessionStream()
        var ended: [ProcessSession] = []
        var maxLive = 0
        func event(_ n: Int, pid: Int, _ kind: String, process: String = "Atlas") -> Event {
            var e = Event(file: "a.log", line: n, format: .xcode, kind: EventKind(kind), message: kind)
            e.timestamp = LogTimestamp(iso: "t\(n)", seconds: Double(n) / 1_000, hasOffset: true)
            e.pid = pid
            e.process = process
            return e
        }
        var n = 0
        for launch in 0..<40 {
            n += 1; ended += stream.add(event(n, pid: 100 + launch, "app.didFinishLaunching"))
            for _ in 0..<(SessionStream.supersededGrace + 300) {
                n += 1; ended += stream.add(event(n, pid: 100 + launch, "scene.didBecomeActive"))
                maxLive = max(maxLive, stream.liveCount)
            }
        }
        // A second instance (another pid that keeps logging) and a late line of an old pid.
        n += 1; ended += stream.add(event(n, pid: 500, "app.didFinishLaunching", process: "Atlas"))
        n += 1; ended += stream.add(event(n, pid: 139, "scene.willResignActive"))
        ended += stream.finish()
        #expect(maxLive <= 2, "live sessions: \(maxLive)")
        #expect(ended.count == 41, "40 launches, the second instance; the late line stays in pid 139's session")
        #expect(ended.first { $0.pid == 139 }?.eventCount == SessionStream.supersededGrace + 302)
    }
}
