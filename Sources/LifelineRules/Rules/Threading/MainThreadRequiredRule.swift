import LifelineCore

/// LC-T09: a framework refused a call made off the main thread: its message, or the reason of an
/// exception or assertion, says the call must be made on the main thread.
struct MainThreadRequiredRule: Rule {
    static let description = RuleDescription(
        id: "LC-T09", name: "main-thread-required", category: .threading, severity: .error,
        summary: "a call that must run on the main thread ran off it",
        rationale: "UIKit, Core Data and other frameworks check where some calls are made and say so in the exception, the assertion or a log line: `must be called on the main thread`, `requires the main thread`, `threading violation: expected the main thread`. In a lifecycle callback's completion or a background task it is the same data race the Main Thread Checker reports, found without it.",
        triggering: [
            RuleExample("""
            2026-05-04 10:15:02.123456+0200 Atlas[2210:83412] -[SceneDelegate sceneDidBecomeActive:]
            ↓2026-05-04 10:15:03.123456+0200 Atlas[2210:83499] *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Call must be made on main thread'
            """),
            RuleExample("""
            2026-05-04 10:15:02.123456+0200 Atlas[2210:83412] -[SceneDelegate sceneDidBecomeActive:]
            ↓2026-05-04 10:15:03.223456+0200 Atlas[2210:83499] UIApplication.registerForRemoteNotifications() must be used from main thread only
            """),
            // Markdown-escaped, as pasted into an issue.
            RuleExample("""
            ↓**\\* Terminating app due to uncaught exception 'NSGenericException', reason: 'Accessing UIApplication.applicationState requires the main thread'
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2026-05-04 10:15:03.123456+0200 Atlas[2210:83412] *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Invalid update: invalid number of rows in section 0.'
            """),
            // Talking about the main thread is not a violation.
            RuleExample("""
            2026-05-04 10:15:03.123456+0200 Atlas[2210:83412] Sync finished; results handed back to the main thread
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        eachIndexed(.mainThreadRequired, session) { e, i in
            let d = e.details
            var what = "a call that must run on the main thread ran off it"
            if let api = d?.api { what += ": \(api)" } else if let reason = d?.reason { what += ": '\(CrashReportRule.abbreviated(reason))'" }
            if let name = d?.exceptionName { what += " (\(name))" }
            if let tid = e.tid, let main = session.mainThread.tid, tid != main { what += " on thread \(tid), not the main thread \(main)" }
            return what + session.whenClause(i)
        }
    }
}
