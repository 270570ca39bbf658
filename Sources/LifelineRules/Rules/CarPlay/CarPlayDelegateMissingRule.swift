import LifelineCore

/// LC-C01: CarPlay stopped the app because its scene delegate lacks the lifecycle methods.
struct CarPlayDelegateMissingRule: Rule {
    static let description = RuleDescription(
        id: "LC-C01", name: "carplay-delegate-missing", category: .carPlay, severity: .fatal,
        summary: "the CarPlay scene delegate does not implement the required methods",
        rationale: "Connecting a CarPlay scene needs templateApplicationScene(_:didConnect:) and (_:didDisconnectInterfaceController:), or for navigation apps the variants with a window; without them UIKit raises NSGenericException and the app dies.",
        triggering: [
            RuleExample("""
            ↓2021-09-10 20:09:24.265590+0300 Example[65459:2363953] *** Terminating app due to uncaught exception 'NSGenericException', reason: 'Application does not implement CarPlay template application lifecycle methods in its scene delegate.'
            *** First throw call stack:
            (0x1b2b9980c 0x1b28c1fa4)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2021-09-10 20:09:24.265590+0300 Example[65459:2363953] *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'something else'
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        each(.exception, session, where: { $0.details?.reason?.includes("does not implement CarPlay template application lifecycle methods") == true }) { _ in
            "the app died connecting CarPlay: its CarPlay scene delegate does not implement the template lifecycle methods"
        }
    }
}
