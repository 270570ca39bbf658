import Foundation
import Testing
@testable import LifelineCore

/// A session that reaches `SessionOptions.maxEvents` is released as a part and its process goes
/// on in a session that continues it (issue 16: memory bounded however long a process lives).
@Suite struct SessionPartTests {
    /// One process: a launch, a connected scene, then `cycles` background/foreground round trips
    /// (4 events each) of scene 0xA1; a second scene 0xB2 connects and disconnects at the start.
    static func longLife(cycles: Int, pid: Int = 900) -> [Event] {
        var events: [Event] = []
        var n = 0
        func add(_ kind: String, scene address: String? = "0xA1") {
            n += 1
            var e = Event(file: "long.log", line: n, format: .xcode, kind: EventKind(kind), message: kind)
            e.timestamp = LogTimestamp(iso: "t\(n)", seconds: Double(n), hasOffset: true)
            e.pid = pid
            e.process = "Atlas"
            e.tid = 41001
            if let address { e.scene = SceneRef(address: address) }
            events.append(e)
        }
        add("app.didFinishLaunching", scene: nil)
        add("scene.willConnect")
        add("scene.willConnect", scene: "0xB2")
        add("scene.didDisconnect", scene: "0xB2")
        add("scene.willEnterForeground")
        add("scene.didBecomeActive")
        for _ in 0..<cycles {
            add("scene.willResignActive")
            add("scene.didEnterBackground")
            add("scene.willEnterForeground")
            add("scene.didBecomeActive")
        }
        return events
    }

    static func build(_ events: [Event], maxEvents: Int) -> [ProcessSession] {
        SessionBuilder.build(events, options: SessionOptions(maxEvents: maxEvents))
    }

    @Test("a process past the limit becomes parts of at most the limit, each continuing the one before; every event in exactly one")
    func partsChain() throws {
        let events = Self.longLife(cycles: 100)  // 406 events
        let parts = Self.build(events, maxEvents: 100)
        #expect(parts.map(\.eventCount) == [100, 100, 100, 100, 6])
        #expect(parts.map(\.continuedFrom) == [nil, "P1", "P2", "P3", "P4"])
        #expect(parts.map(\.continuesLater) == [true, true, true, true, false])
        #expect(parts.flatMap { $0.events.map(\.line) } == Array(1...406))
        // A part does not end the trace, and the parts after the first do not begin it mid-life.
        #expect(parts.allSatisfy { !$0.beginsMidSession })
        #expect(parts.dropLast().allSatisfy { !$0.endsAbruptly })
        #expect(parts.last!.endsAbruptly, "the last part ends with the scene in the foreground, as one session would")
        #expect(parts[0].launchSeen && parts.dropFirst().allSatisfy { !$0.launchSeen })
    }

    @Test("a scene's state carries over the cut: the first callback of a part arrives in the state the part before left it in")
    func statesCarryOver() throws {
        let events = Self.longLife(cycles: 100)
        let whole = try #require(Self.build(events, maxEvents: 1_000).first)
        let parts = Self.build(events, maxEvents: 100)
        // Every scene entry of every part has the before and after of the same event in one session.
        var stateOf: [Int: (SceneState, SceneState)] = [:]
        for scene in whole.scenes where scene.address == "0xA1" {
            for entry in scene.entries { stateOf[whole.events[entry.event].line] = (entry.before, entry.after) }
        }
        for part in parts.dropFirst() {
            let scenes = part.scenes.filter { $0.address == "0xA1" }
            #expect(scenes.count == 1 && scenes[0].id == "S1" && scenes[0].beginsMidLife)
            for entry in scenes[0].entries {
                let want = try #require(stateOf[part.events[entry.event].line])
                #expect(entry.before == want.0 && entry.after == want.1)
                #expect(entry.before != .unknown)
            }
            // The disconnected scene is carried too (a late callback for it is one after its
            // disconnect), but it had no events in the later parts: no timeline there.
            #expect(!part.scenes.contains { $0.address == "0xB2" })
        }
    }

    @Test("a late callback for a scene disconnected before the cut arrives in the disconnected state")
    func disconnectedCarriesOver() throws {
        var events = Self.longLife(cycles: 30)  // 126 events: one cut at 100
        var late = events.last!
        late.position = late.position.shifted(lines: 1)
        late.timestamp = LogTimestamp(iso: "late", seconds: 1_000, hasOffset: true)
        late.kind = EventKind("scene.willEnterForeground")
        late.scene = SceneRef(address: "0xB2")
        events.append(late)
        let parts = Self.build(events, maxEvents: 100)
        #expect(parts.count == 2)
        let b2 = try #require(parts[1].scenes.first { $0.address == "0xB2" })
        #expect(b2.entries.map(\.before) == [.disconnected])
    }

    @Test("a part is not an earlier launch of its own process: the next launch's previous launch is the last part")
    func partsAreOneLaunch() throws {
        var events = Self.longLife(cycles: 60, pid: 900)  // 246 events: parts of 100, 100, 46
        // The process crashes, and the app launches again under another pid.
        var crash = Event(file: "long.log", line: 247, format: .xcode, kind: .exception, message: "Terminating app due to uncaught exception")
        crash.timestamp = LogTimestamp(iso: "t247", seconds: 247, hasOffset: true)
        crash.pid = 900
        crash.process = "Atlas"
        events.append(crash)
        for (i, e) in Self.longLife(cycles: 1, pid: 901).prefix(2).enumerated() {
            var e = e
            e.position = .line(248 + i)
            e.timestamp = LogTimestamp(iso: "t\(e.line)", seconds: Double(e.line) + 100, hasOffset: true)
            events.append(e)
        }
        let sessions = Self.build(events, maxEvents: 100)
        #expect(sessions.map(\.pid) == [900, 900, 900, 901])
        #expect(sessions[1].earlier == sessions[0].earlier, "a part has the earlier launches of the part it continues")
        #expect(sessions[2].earlier.previous == nil, "no launch of Atlas came before the first part")
        let relaunch = try #require(sessions.last)
        #expect(relaunch.continuedFrom == nil && relaunch.launchSeen)
        let previous = try #require(relaunch.earlier.previous)
        #expect(previous.session == "P3" && previous.ended, "the launch before is the last part, which ended in the crash")
    }

    @Test("after a cut, a launch marker that would start a new launch in one session still does")
    func relaunchAfterCut() {
        var events = Self.longLife(cycles: 25)  // 106 events: one cut at 100
        // No pid: a second didFinishLaunching is a relaunch in one session, so it is across a cut.
        for i in events.indices { events[i].pid = nil }
        var marker = events[0]
        marker.position = .line(107)
        marker.timestamp = LogTimestamp(iso: "t107", seconds: 107, hasOffset: true)
        events.append(marker)
        let parts = Self.build(events, maxEvents: 100)
        #expect(parts.map(\.eventCount) == [100, 6, 1])
        #expect(parts.map(\.continuedFrom) == [nil, "P1", nil])
    }

    @Test("the live sessions hold at most the limit: a process of a million events never holds more than a part")
    func streamHoldsAPart() {
        var stream = SessionStream(options: SessionOptions(maxEvents: 1_000))
        var released = 0, largest = 0
        for e in Self.longLife(cycles: 250_000) {
            for s in stream.add(e) {
                released += 1
                largest = max(largest, s.eventCount)
            }
        }
        for s in stream.finish() {
            released += 1
            largest = max(largest, s.eventCount)
        }
        #expect(released == 1_001 && largest == 1_000)
    }
}
