import LifelineCore

/// LC-T03: `-[UIApplication applicationState]` read off the main thread.
struct ApplicationStateOffMainRule: Rule {
    static let api = "-[UIApplication applicationState]"
    static let description = RuleDescription(
        id: "LC-T03", name: "application-state-off-main", category: .threading, severity: .error,
        summary: "UIApplication.applicationState was read on a background thread",
        rationale: "The most common Main Thread Checker hit in SDKs (analytics, logging, motion callbacks): read the state on the main thread, or observe the scene and application notifications there and keep a copy.",
        triggering: [
            RuleExample("""
            ↓2019-07-10 14:51:02.906098+0800 SmartCity[14860:2802484] [reports] Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]
            PID: 14860, TID: 2802484, Thread name: (none), Queue name: com.alipay.log, QoS: 0
            Backtrace:
            4   WIUUMPJSSBSdk                       0x00000001054f5bd8 __41-[APLogManager setupTimeForCheckFileSize]_block_invoke_2.608 + 140
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2019-07-10 14:51:02.906098+0800 SmartCity[14860:2802484] [reports] Main Thread Checker: UI API called on a background thread: -[UIView setNeedsLayout]
            PID: 14860, TID: 2802484, Thread name: (none), Queue name: com.alipay.log, QoS: 0
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        eachIndexed(.mainThreadChecker, session, where: { e, i in e.details?.api == Self.api && !session.isRepeatedCheckerReport(i) }) { e, _ in
            "UIApplication.applicationState was read on \(e.details?.reportedTID.map { "thread \($0)" } ?? "a background thread")\(e.details?.queueName.map { " (queue \($0))" } ?? ""); read it on the main thread or keep a copy updated from the lifecycle notifications"
        }
    }
}
