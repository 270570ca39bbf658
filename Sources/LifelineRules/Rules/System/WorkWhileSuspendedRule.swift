import LifelineCore

/// LC-D02: the app logged work of its own after the system suspended it, and the system said
/// nothing of letting it run again.
struct WorkWhileSuspendedRule: Rule {
    static let description = RuleDescription(
        id: "LC-D02", name: "work-while-suspended", category: .system, severity: .warning,
        summary: "the app logged work while the system had it suspended",
        rationale: "A suspended process runs no code: RunningBoard (`running-suspended`) or SpringBoard (`task state to: Suspended`) says when it stops, and says `running-active` or `Running` before it runs again, for a background task, a push, a fetch or the user. A callback, failure or marker of the app stamped after the suspension, with no such word before it, is work the system did not grant: the app's clock of what it is doing (a timer, a queue, a completion it waits for) is out of step with the system's, and what it does there is lost when the suspended process is ended. Only lines stamped later than the suspension by more than the clock's step count: a line written before the suspension and printed after it is not work after it; a word of resumption logged within a second after the app's line counts as said before it.",
        triggering: [
            RuleExample("""
            2026-03-09 09:31:40.110500-0400 runningboardd[33:700] Now tracking process: [app<com.example.tern>:2231]
            2026-03-09 09:31:40.120600-0400 Tern[2231:5501] -[SceneDelegate sceneDidEnterBackground:]
            2026-03-09 09:31:43.882509-0400 runningboardd[33:700] [app<com.example.tern>:2231] Suspending task.
            2026-03-09 09:31:43.883016-0400 runningboardd[33:700] Calculated state for app<com.example.tern>: running-suspended (role: None) (endowments: <private>)
            ↓2026-03-09 09:31:49.204518-0400 Tern[2231:5501] -[AppDelegate application:didReceiveRemoteNotification:fetchCompletionHandler:]
            """),
        ],
        nonTriggering: [
            // RunningBoard let it run for the push first.
            RuleExample("""
            2026-03-09 09:31:40.110500-0400 runningboardd[33:700] Now tracking process: [app<com.example.tern>:2231]
            2026-03-09 09:31:43.883016-0400 runningboardd[33:700] Calculated state for app<com.example.tern>: running-suspended (role: None) (endowments: <private>)
            2026-03-09 09:31:49.201100-0400 runningboardd[33:700] Calculated state for app<com.example.tern>: running-active (role: Background) (endowments: <private>)
            2026-03-09 09:31:49.204518-0400 Tern[2231:5501] -[AppDelegate application:didReceiveRemoteNotification:fetchCompletionHandler:]
            """),
            // Written in the same moment as the suspension, printed after it.
            RuleExample("""
            2026-03-09 09:31:40.110500-0400 runningboardd[33:700] Now tracking process: [app<com.example.tern>:2231]
            2026-03-09 09:31:43.883016-0400 runningboardd[33:700] Calculated state for app<com.example.tern>: running-suspended (role: None) (endowments: <private>)
            2026-03-09 09:31:43.883016-0400 Tern[2231:5501] -[SceneDelegate sceneDidEnterBackground:]
            """),
            // No word of the system about the app: nothing to compare with.
            RuleExample("""
            2026-03-09 09:31:40.120600-0400 Tern[2231:5501] -[SceneDelegate sceneDidEnterBackground:]
            2026-03-09 09:31:49.204518-0400 Tern[2231:5501] -[AppDelegate application:didReceiveRemoteNotification:fetchCompletionHandler:]
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard session.hasSystemEvents else { return [] }
        var found: [Diagnostic] = []
        var suspended: (index: Int, reported: Bool)?
        for i in session.events.indices {
            let e = session.events[i]
            if e.kind.isSystemLifecycle {
                guard let d = e.details?.system else { continue }
                if e.kind == .systemLaunch {
                    suspended = nil
                } else if e.kind == .systemProcessState {
                    if d.saysSuspended {
                        if suspended == nil { suspended = (i, false) }
                    } else if d.saysNotSuspended {
                        suspended = nil
                    }
                }
                continue
            }
            if e.isKillLine { suspended = nil; continue }
            guard let s = suspended, !s.reported, e.isAppsOwnWork, session.isSurelyAfter(i, s.index),
                  session.systemSays(after: i, { d, kind in kind == .systemLaunch || (kind == .systemProcessState && d.saysNotSuspended) }) == .notSaid
            else { continue }
            suspended?.reported = true
            let at = session.events[s.index]
            let after = session.interval(from: s.index, to: i).map { " \(duration($0)) after" } ?? " after"
            let c = session.context(at: i)
            var d = diagnostic(session, event: i, scene: c.scene, state: c.state,
                               "\(session.callbackName(i)) was logged\(after) the system suspended the process (\(at.position.phrase)), with no word that it let the process run again: work the system did not grant")
            d.related.insert(RelatedLocation(file: at.file, position: at.position, message: "the system suspended the process here"), at: 0)
            found.append(d)
        }
        return found
    }
}
