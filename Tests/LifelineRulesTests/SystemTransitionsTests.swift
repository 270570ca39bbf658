import Foundation
import Testing
import TestSupport
import LifelineCore
@testable import LifelineRules

/// Issue 30: the transition tally counts RunningBoard's process states as the process machine's
/// transitions and FrontBoard's scene states as the scene machine's, apart from the app's
/// callbacks; partial results carry them; a scene the system alone told of does not make an app a
/// scene app.
@Suite struct SystemTransitionsTests {
    static let p = MachineDefinition.processStateEvent

    static func session(_ log: SystemLog) throws -> ProcessSession {
        let sessions = log.sessions()
        try #require(sessions.count == 1)
        return sessions[0]
    }

    static func json(_ tally: TransitionTally) -> String {
        var w = JSONWriter()
        tally.write(to: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A partial result's tally read back writes the same (a machine with failures and no timeline
    /// reads back with 0 timelines, so the values themselves may differ).
    static func survivesPartial(_ tally: TransitionTally) throws -> Bool {
        let back = TransitionTally.read(try JSONSerialization.jsonObject(with: Data(json(tally).utf8)))
        return back.map(json) == json(tally)
    }

    @Test("a process timeline is one process-machine timeline: from start at a launch, a role change is no transition, the kill and none are")
    func processTransitions() throws {
        var log = SystemLog()
        log.launch()
        log.process("running-active", role: "UserInteractiveFocal")
        log.process("running-active", role: "UserInteractiveNonFocal")
        log.process("running-active-NotVisible")
        log.process("running-suspended-NotVisible")
        log.kill(.jetsam)
        log.process("none")
        var tally = TransitionTally()
        tally.add(try Self.session(log))
        #expect(tally.timelines[.process] == 1)
        let seen = (tally.machines[.process] ?? [:]).keys.sorted()
        let want = [Transition(from: "start", to: "running-active", event: Self.p),
                    Transition(from: "running-active", to: "running-active-NotVisible", event: Self.p),
                    Transition(from: "running-active-NotVisible", to: "running-suspended-NotVisible", event: Self.p),
                    Transition(from: "running-suspended-NotVisible", to: "killed", event: "failure.jetsam"),
                    Transition(from: "killed", to: "none", event: Self.p)].sorted()
        #expect(seen == want)
        #expect(seen.allSatisfy { MachineDefinition.process.legal.contains($0) })
        // Seconds in the source state: active from t1 to NotVisible at t3.
        #expect(tally.machines[.process]?[want.first { $0.to == "running-active-NotVisible" }!]?.typicalDuration.map { abs($0 - 2) < 0.1 } == true)
        #expect(try Self.survivesPartial(tally))
    }

    @Test("a session without system events adds nothing to the process machine and writes no new keys")
    func noSystemEvents() throws {
        var log = SystemLog()
        log.app("app.didFinishLaunching", scene: nil)
        log.app("scene.willConnect")
        log.kill(.jetsam)
        var tally = TransitionTally()
        tally.add(try Self.session(log))
        #expect(tally.machines[.process] == nil && tally.timelines[.process] == nil && tally.systemOnly.isEmpty)
        let text = Self.json(tally)
        #expect(!text.contains("process") && !text.contains("systemOnly"), "\(text)")
    }

    @Test("the system's scene states are scene-machine transitions in the system's words; a system-only scene is counted apart")
    func systemSceneTransitions() throws {
        var log = SystemLog()
        log.launch()
        log.scene("foreground")
        log.scene("background")
        log.scene("none")
        let session = try Self.session(log)
        var tally = TransitionTally()
        tally.add(session)
        #expect(tally.timelines[.scene] == nil && tally.systemOnly[.scene] == 1)
        let e = SystemSceneState.event
        #expect((tally.machines[.scene] ?? [:]).keys.sorted() == [
            Transition(from: "background", to: "none", event: e), Transition(from: "foreground", to: "background", event: e),
            Transition(from: "none", to: "foreground", event: e)])
        #expect(try Self.survivesPartial(tally))
        var merged = tally
        merged.merge(tally)
        #expect(merged.systemOnly[.scene] == 2)
        // The rules' view: no scene callback, so not a scene app.
        #expect(!SessionView(session).hasSceneEvents)
    }

    @Test("with the app's callbacks, the scene is one timeline of the app's transitions, with the system's beside them")
    func bothSides() throws {
        var log = SystemLog()
        log.launch()
        log.app("scene.willConnect")
        log.scene("foreground")
        log.app("scene.willEnterForeground")
        log.app("scene.didBecomeActive")
        log.scene("background")
        let session = try Self.session(log)
        var tally = TransitionTally()
        tally.add(session)
        #expect(tally.timelines[.scene] == 1 && tally.systemOnly[.scene] == nil)
        let edges = (tally.machines[.scene] ?? [:]).keys
        #expect(edges.filter { $0.event == SystemSceneState.event }.count == 2)
        #expect(edges.filter { $0.event != SystemSceneState.event }.count == 3)
        #expect(SessionView(session).hasSceneEvents)
        // Per scene, the scene's system states come along; the process machine does not.
        var one = TransitionTally()
        one.add(session, scene: session.scenes[0].id)
        #expect(one.machines[.scene]?.keys.filter { $0.event == SystemSceneState.event }.count == 2)
    }

    @Test("the timeline table says what the system said: the process state and the scene's state after each system event")
    func timelineRows() throws {
        var log = SystemLog()
        log.launch()
        log.process("running-active")
        log.scene("foreground")
        log.app("app.didFinishLaunching", scene: nil)
        let rows = TimelineReport.rows(try Self.session(log))
        #expect(rows.map(\.stateAfter) == ["-", "process.running-active", "system.foreground", "app.launched"])
        #expect(rows.map(\.scene) == ["-", "-", "S1", "-"])
    }
}
