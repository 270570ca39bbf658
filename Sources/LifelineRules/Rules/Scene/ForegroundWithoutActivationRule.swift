import LifelineCore

/// LC-S09 (note): `sceneWillEnterForeground(_:)` then `sceneDidEnterBackground(_:)` without the
/// scene ever becoming active.
struct ForegroundWithoutActivationRule: Rule {
    static let description = RuleDescription(
        id: "LC-S09", name: "foreground-without-activation", category: .scene, severity: .note,
        summary: "a scene went back to the background without becoming active",
        rationale: "The documentation says activation invariably follows sceneWillEnterForeground(_:), but real traces show short-lived scenes (a fast background-and-kill) and non-interactive external-display scenes that never activate. Legal in practice; explained so that it is not filed as a bug.",
        triggering: [
            RuleExample("""
            scene(_:willConnectTo:options:)
            sceneWillEnterForeground(_:)
            ↓sceneDidEnterBackground(_:)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            sceneWillEnterForeground(_:)
            sceneDidBecomeActive(_:)
            sceneWillResignActive(_:)
            sceneDidEnterBackground(_:)
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        arrivals(of: .sceneDidEnterBackground, in: [.foregroundInactive], session, where: { session.transition($0, follows: .sceneWillEnterForeground) }) {
            "scene \($0.scene.label) entered the foreground and went back to the background without becoming active"
        }
    }
}
