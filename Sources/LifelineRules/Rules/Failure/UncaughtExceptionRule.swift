import LifelineCore

/// LC-F02: the process died of an uncaught exception (CarPlay's missing-methods exception is LC-C01).
struct UncaughtExceptionRule: Rule {
    static let description = RuleDescription(
        id: "LC-F02", name: "uncaught-exception", category: .failure, severity: .fatal,
        summary: "the app died of an uncaught exception",
        rationale: "An uncaught Objective-C exception terminates the process; the exception name, its reason and the lifecycle moment say where to look.",
        triggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            ↓2025-03-01 10:00:00.950000+0100 MyApp[900:41001] *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'we should never make it here'
            *** First throw call stack:
            (0x1b2b9980c 0x1b28c1fa4)
            """),
        ],
        nonTriggering: [
            // Caught and ignored by the system: LC-T04 reports the off-main completion it was about.
            RuleExample("""
            2025-01-20 16:41:09.418950+0100 Sketchbook[6023:2149102] Ignored Exception: -[UINSApplicationDelegate applicationShouldHandleReopen:hasVisibleWindows:]_block_invoke: Completion handler arrived off the main thread.
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        eachIndexed(.exception, session, where: { e, _ in
            e.details?.ignored != true && e.details?.reason?.includes("does not implement CarPlay template application lifecycle methods") != true
        }) { e, i in
            let name = e.details?.exceptionName ?? "exception"
            let reason = e.details?.reason.map { " ('\($0.prefix { $0 != "\n" })')" } ?? ""
            return "the app died of an uncaught \(name)\(reason)\(session.whenClause(i))"
        }
    }
}
