import Testing
import TestSupport
@testable import LifelineCore

/// Issue 30: what the system says of an app makes timelines of the app's session: RunningBoard's
/// process states (`ProcessSession.processTimeline`) and FrontBoard's scene states
/// (`SceneTimeline.systemStates`, and timelines of the system's states only).
@Suite struct SystemTimelineTests {
    static let sceneID = SystemLog.sceneID

    typealias Log = SystemLog

    static func only(_ log: Log, maxEvents: Int = SessionOptions.defaultMaxEvents) throws -> ProcessSession {
        let sessions = log.sessions(maxEvents: maxEvents)
        try #require(sessions.count == 1, "\(sessions.map { ($0.id, $0.process, $0.pid, $0.eventCount) })")
        return sessions[0]
    }

    static func steps(_ p: ProcessTimeline) -> [String] { p.entries.map { "\($0.before.rawValue)>\($0.after.rawValue)" } }
    static func steps(_ s: SceneTimeline) -> [String] { s.systemStates.map { "\($0.before.rawValue)>\($0.after.rawValue)" } }

    // MARK: Process states

    @Test("RunningBoard's states make the process timeline, from the launch; a jetsam kill ends it and none follows")
    func processTimeline() throws {
        var log = Log()
        log.launch()
        log.process("running-active", role: "UserInteractiveFocal")
        log.app("app.didFinishLaunching", scene: nil)
        log.process("running-active", role: "UserInteractiveNonFocal")   // a change of role only
        log.process("running-active-NotVisible", role: "Background")
        log.process("running-suspended-NotVisible", role: "None")
        log.kill(.jetsam)
        log.kill(.killed)   // another line telling the same kill
        log.process("none", role: "None")
        let s = try Self.only(log)
        let p = s.processTimeline
        #expect(p.launch == 0 && p.beginsAtLaunch && !p.carriedOver && p.isTracked)
        #expect(Self.steps(p) == ["unknown>running-active", "running-active>running-active", "running-active>running-active-NotVisible",
                                  "running-active-NotVisible>running-suspended-NotVisible", "running-suspended-NotVisible>killed", "killed>none"])
        #expect(p.entries.map(\.event) == [1, 3, 4, 5, 6, 8])
        #expect(p.finalState == ProcessState.none && p.eventCount == 6)
        #expect(p.state(before: 2) == .runningActive)
        #expect(p.state(before: 6) == .runningSuspendedNotVisible, "the kill arrived in the state before it")
        #expect(p.state(before: 7) == .killed)
        #expect(p.state(before: 0) == nil)
        #expect(!s.endsAbruptly)
        // Summarized: the entries go, the final state and count stay.
        let summary = s.summarized().processTimeline
        #expect(summary.entries.isEmpty && summary.finalState == ProcessState.none && summary.eventCount == 6 && summary.isTracked)
        #expect(SessionSummary(s.summarized()).processState == "none")
    }

    @Test("a kill line with no system account of the process moves no process timeline")
    func killWithoutSystem() throws {
        var log = Log()
        log.app("app.didFinishLaunching", scene: nil)
        log.app("scene.willConnect")
        log.kill(.jetsam)
        let s = try Self.only(log)
        #expect(s.processTimeline.entries.isEmpty && !s.processTimeline.isTracked)
        #expect(SessionSummary(s).processState == nil)
        #expect(s.scenes.allSatisfy { $0.source == .app && $0.systemStates.isEmpty && $0.sceneID == nil })
    }

    @Test("without RunningBoard's lines, SpringBoard's task states make the timeline: Running, Suspended, Not Running")
    func springBoardTaskStates() throws {
        var log = Log()
        log.process(nil, taskState: "Running")
        log.app("app.didFinishLaunching", scene: nil)
        log.process(nil, taskState: "Suspended")
        log.process(nil, taskState: "Running")
        log.kill(.signal)
        log.process(nil, taskState: "Not Running")
        let s = try Self.only(log)
        #expect(!s.processTimeline.beginsAtLaunch, "no launch in the trace")
        #expect(Self.steps(s.processTimeline) == ["unknown>running", "running>running-suspended", "running-suspended>running",
                                                  "running>terminated-by-signal", "terminated-by-signal>none"])
    }

    @Test("RunningBoard's none ends the process: the session does not end abruptly")
    func noneEnds() throws {
        var log = Log()
        log.process("running-active")
        log.app("scene.willConnect")
        log.app("scene.willEnterForeground")
        log.app("scene.didBecomeActive")
        log.process("none")
        let s = try Self.only(log)
        #expect(!s.endsAbruptly)
        var alive = Log()
        alive.process("running-active")
        alive.app("scene.willConnect")
        alive.app("scene.willEnterForeground")
        #expect(try Self.only(alive).endsAbruptly)
    }

    // MARK: System scene states

    @Test("an app that logs no scene callback gets a scene timeline of the system's states, marked as seen from the system")
    func systemOnlyScene() throws {
        var log = Log()
        log.launch()
        log.scene("foreground")
        log.app("app.didFinishLaunching", scene: nil)
        log.scene("background")
        log.scene("none")
        let s = try Self.only(log)
        try #require(s.scenes.count == 1)
        let scene = s.scenes[0]
        #expect(scene.id == "S1" && scene.source == .system && scene.sceneID == Self.sceneID)
        #expect(scene.entries.isEmpty && scene.finalState == .unknown && !scene.beginsMidLife)
        #expect(Self.steps(scene) == ["none>foreground", "foreground>background", "background>none"], "from none: the launch is in the trace")
        #expect(scene.systemFinalState == SystemSceneState.none && scene.systemStateCount == 3)
        #expect(scene.systemState(before: 3) == .foreground)
        let summary = SessionSummary(s)
        #expect(summary.scenes.first?.source == .system && summary.scenes.first?.systemFinalState == "none")
        #expect(!s.endsAbruptly)
    }

    @Test("without the launch in the trace, a scene's first system state comes from unknown")
    func systemSceneMidLife() throws {
        var log = Log()
        log.scene("background")
        log.scene("foreground")
        #expect(Self.steps(try Self.only(log).scenes[0]) == ["unknown>background", "background>foreground"])
    }

    @Test("when the app logs the scene too, its callbacks stay the timeline and the system's states go alongside")
    func bothSides() throws {
        var log = Log()
        log.launch()
        log.app("scene.willConnect")
        log.scene("foreground")
        log.app("scene.willEnterForeground")
        log.app("scene.didBecomeActive")
        log.scene("background")       // FrontBoard: background; the app logged no resign
        log.app("scene.willResignActive")
        log.app("scene.didEnterBackground")
        let s = try Self.only(log)
        try #require(s.scenes.count == 1)
        let scene = s.scenes[0]
        #expect(scene.source == .app && scene.sceneID == Self.sceneID && scene.address == "0xA1")
        #expect(scene.entries.map(\.after) == [.unattached, .foregroundInactive, .foregroundActive, .foregroundInactive, .background])
        #expect(scene.entries.allSatisfy { s.events[$0.event].kind.family == "scene" }, "no system event among the app's entries")
        #expect(Self.steps(scene) == ["none>foreground", "foreground>background"])
        // At the app's willResignActive (event 6) the app was active and FrontBoard said background.
        let resign = try #require(scene.entries.first { $0.event == 6 })
        #expect(resign.before == .foregroundActive)
        #expect(scene.systemState(before: 6) == .background)
        #expect(scene.systemState(before: 6)?.agrees(with: resign.before) == false)
        #expect(scene.systemState(before: 4)?.agrees(with: .foregroundInactive) == true)
    }

    @Test("FrontBoard's first state before the app's first callback: the app's scene takes the system's timeline over")
    func systemFirstThenApp() throws {
        var log = Log()
        log.launch()
        log.scene("foreground")
        log.app("app.didFinishLaunching", scene: nil)
        log.app("scene.willConnect")
        log.app("scene.willEnterForeground")
        log.scene("background")
        log.app("scene.didEnterBackground")
        let s = try Self.only(log)
        try #require(s.scenes.count == 1, "\(s.scenes.map(\.id))")
        let scene = s.scenes[0]
        #expect(scene.id == "S1" && scene.source == .app && scene.sceneID == Self.sceneID)
        #expect(!scene.beginsMidLife && scene.entries.count == 3)
        #expect(Self.steps(scene) == ["none>foreground", "foreground>background"])
    }

    @Test("two scenes: the system's states go to the one whose persistent identifier the scene identifier names")
    func byPersistentIdentifier() throws {
        var log = Log()
        log.app("scene.willConnect", scene: "0xA1", persistentID: "AAAA-1")
        log.app("scene.willConnect", scene: "0xB2", persistentID: "BBBB-2")
        log.scene("foreground", id: "sceneID:com.example.comet-BBBB-2")
        log.scene("foreground", id: "sceneID:com.example.comet-AAAA-1")
        log.scene("background", id: "sceneID:com.example.comet-BBBB-2")
        let s = try Self.only(log)
        let a = try #require(s.scenes.first { $0.address == "0xA1" })
        let b = try #require(s.scenes.first { $0.address == "0xB2" })
        #expect(s.scenes.count == 2)
        #expect(a.sceneID == "sceneID:com.example.comet-AAAA-1" && a.systemStates.map(\.event) == [3])
        #expect(b.sceneID == "sceneID:com.example.comet-BBBB-2" && b.systemStates.map(\.event) == [2, 4])
        #expect(Self.steps(b) == ["unknown>foreground", "foreground>background"])
    }

    @Test("a second scene the system names while the app's only scene is bound to another: a timeline of its own")
    func secondSystemScene() throws {
        var log = Log()
        log.app("scene.willConnect")
        log.scene("foreground")
        log.scene("foreground", id: "sceneID:com.example.comet-other")
        let s = try Self.only(log)
        #expect(s.scenes.map(\.source) == [.app, .system])
        #expect(s.scenes.map(\.sceneID) == [Self.sceneID, "sceneID:com.example.comet-other"])
    }

    @Test("the scene object reconnects: the system's states of its scene go to the new object")
    func reconnect() throws {
        var log = Log()
        log.app("scene.willConnect", scene: "0xA1", persistentID: "P")
        log.scene("foreground")
        log.app("scene.didDisconnect", scene: "0xA1")
        log.app("scene.willConnect", scene: "0xC3", persistentID: "P")
        log.scene("background")
        let s = try Self.only(log)
        try #require(s.scenes.count == 2)
        #expect(s.scenes[0].systemStates.map(\.event) == [1])
        #expect(s.scenes[1].systemStates.map(\.event) == [4])
        #expect(Self.steps(s.scenes[1]) == ["foreground>background"], "the scene's state carries to the new object")
    }

    // MARK: Parts

    @Test("a session cut at the event limit carries the process state and the system's scene states into the next part")
    func cutParts() throws {
        var log = Log()
        log.launch()
        log.process("running-active")
        log.scene("foreground")                      // a scene of the system's only
        log.app("app.didFinishLaunching", scene: nil)
        for _ in 0..<3 {
            log.process("running-active-NotVisible")
            log.scene("background")
            log.process("running-suspended-NotVisible")
            log.process("running-active")
            log.scene("foreground")
        }
        log.kill(.watchdog)                          // event 19
        let whole = try Self.only(log)
        let parts = SessionBuilder.build(log.events, options: SessionOptions(maxEvents: 6))
        #expect(parts.count > 2)
        #expect(parts.dropFirst().allSatisfy { $0.continuedFrom != nil })
        // Every process entry of every part has the before and after of the same event in one session.
        var processAt: [Int: TimelineEntry<ProcessState>] = [:]
        for e in whole.processTimeline.entries { processAt[whole.events[e.event].line] = e }
        var sceneAt: [Int: TimelineEntry<SystemSceneState>] = [:]
        for e in whole.scenes[0].systemStates { sceneAt[whole.events[e.event].line] = e }
        var processEntries = 0, sceneEntries = 0
        for part in parts {
            for e in part.processTimeline.entries {
                let want = try #require(processAt[part.events[e.event].line])
                #expect(e.before == want.before && e.after == want.after, "\(part.id) line \(part.events[e.event].line)")
                processEntries += 1
            }
            #expect(part.processTimeline.beginsAtLaunch == (part.continuedFrom == nil))
            if part.continuedFrom != nil { #expect(part.processTimeline.carriedOver) }
            for scene in part.scenes {
                #expect(scene.source == .system && scene.id == "S1")
                for e in scene.systemStates {
                    let want = try #require(sceneAt[part.events[e.event].line])
                    #expect(e.before == want.before && e.after == want.after)
                    sceneEntries += 1
                }
            }
        }
        #expect(processEntries == whole.processTimeline.entries.count && sceneEntries == whole.scenes[0].systemStates.count)
        #expect(parts.last!.processTimeline.finalState == .killed)
        #expect(whole.processTimeline.entries.last.map { "\($0.before.rawValue)>\($0.after.rawValue)" } == "running-active>killed")
    }

    @Test("the summary's system fields survive the spill")
    func summarySpill() throws {
        var log = Log()
        log.launch()
        log.process("running-active")
        log.scene("foreground")
        log.app("scene.willConnect", scene: "0xB2")
        log.scene("background", id: "sceneID:com.example.comet-other")
        let summary = SessionSummary(try Self.only(log).summarized())
        #expect(summary.processState == "running-active")
        #expect(summary.scenes.map(\.source) == [.app, .system])
        var w = SpillWriter()
        summary.encode(to: &w)
        let back = w.bytes.withUnsafeBufferPointer { b -> SessionSummary in
            var r = SpillReader(b)
            return SessionSummary.decode(from: &r)
        }
        #expect(back == summary)
        #expect(back.scenes.map(\.sceneID) == [Self.sceneID, "sceneID:com.example.comet-other"])
        #expect(back.scenes.map(\.systemFinalState) == ["foreground", "background"])
    }
}
