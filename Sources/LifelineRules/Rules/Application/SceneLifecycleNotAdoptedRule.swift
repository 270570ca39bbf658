import LifelineCore

/// LC-A15: UIKit says the process does not adopt the scene life cycle.
struct SceneLifecycleNotAdoptedRule: Rule {
    static let description = RuleDescription(
        id: "LC-A15", name: "scene-lifecycle-not-adopted", category: .application, severity: .warning,
        summary: "the app does not adopt the UIScene life cycle",
        rationale: "From iOS 18.4 UIKit warns apps without the scene life cycle; in the major release after iOS 26, built with that SDK, such an app will not launch (TN3187).",
        triggering: [
            RuleExample("""
            ↓error\t20:42:13.906903-0500\tMobileJarvisNative\tCLIENT OF UIKIT REQUIRES UPDATE: This process does not adopt UIScene lifecycle. This will become an assert in a future version.
            """),
        ],
        nonTriggering: [
            RuleExample("""
            default\t20:42:13.898581-0500\tMobileJarvisNative\tDeactivation reason added: 5; deactivation reasons: 1024 -> 1056
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        each(.sceneLifecycleNotAdopted, session) { _ in
            "the process does not adopt the UIScene life cycle, which UIKit will soon require"
        }
    }
}
