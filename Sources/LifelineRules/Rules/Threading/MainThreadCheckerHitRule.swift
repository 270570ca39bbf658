import LifelineCore

/// LC-T02: a Main Thread Checker report (other than `-[UIApplication applicationState]`, LC-T03).
struct MainThreadCheckerHitRule: Rule {
    static let description = RuleDescription(
        id: "LC-T02", name: "main-thread-checker-hit", category: .threading, severity: .error,
        summary: "a UI API was called on a background thread",
        rationale: "The Main Thread Checker reports UIKit and AppKit calls made off the main thread; they are data races on UI state and become crashes under XCTest.",
        triggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[SceneDelegate sceneDidBecomeActive:]
            ↓Main Thread Checker: UI API called on a background thread: -[UIViewController presentedViewController]
            PID: 900, TID: 3137868, Thread name: (none), Queue name: com.apple.photos.accessCallbacks, QoS: 0
            Backtrace:
            4   STPopup                             0x000000010313910c -[UIViewController(STPopup) st_presentedViewController] + 72
            """),
            // The checker prints each report twice (stderr, then its os_log copy): one incident, one finding.
            RuleExample("""
            ↓Main Thread Checker: UI API called on a background thread: -[UIView setNeedsLayout]
            PID: 900, TID: 3137868, Thread name: (none), Queue name: com.example.render, QoS: 0
            2025-03-01 10:00:00.200000+0100 MyApp[900:3137868] [reports] Main Thread Checker: UI API called on a background thread: -[UIView setNeedsLayout]
            PID: 900, TID: 3137868, Thread name: (none), Queue name: com.example.render, QoS: 0
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[SceneDelegate sceneDidBecomeActive:]
            Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]
            PID: 900, TID: 3137868, Thread name: (none), Queue name: com.example.log, QoS: 0
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        eachIndexed(.mainThreadChecker, session, where: { e, i in
            e.details?.api != ApplicationStateOffMainRule.api && !session.isRepeatedCheckerReport(i)
        }) { e, _ in
            let d = e.details
            var where_ = d?.reportedTID.map { "thread \($0)" } ?? "a background thread"
            if let q = d?.queueName, q != "(null)" { where_ += " (queue \(q))" }
            return "\(d?.api ?? "a UI API") was called on \(where_)"
        }
    }
}
