import LifelineCore

/// LC-S03: `sceneDidBecomeActive(_:)` while the scene is unattached or in the background.
struct ActiveWithoutForegroundRule: Rule {
    static let description = RuleDescription(
        id: "LC-S03", name: "active-without-foreground", category: .scene, severity: .error,
        summary: "a scene becomes active without entering the foreground first",
        rationale: "UIKit only activates a scene from the foreground-inactive state: sceneWillEnterForeground(_:) comes first, after connecting and after every return from the background.",
        triggering: [
            RuleExample("""
            scene(_:willConnectTo:options:)
            ↓sceneDidBecomeActive(_:)
            """),
            RuleExample("""
            sceneWillResignActive(_:)
            sceneDidEnterBackground(_:)
            ↓sceneDidBecomeActive(_:)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            sceneDidEnterBackground(_:)
            sceneWillEnterForeground(_:)
            sceneDidBecomeActive(_:)
            """),
            RuleExample("""
            sceneDidBecomeActive(_:)
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        illegalArrivals(of: .sceneDidBecomeActive, in: [.unattached, .background], session) {
            "scene \($0.scene.label) became active while \($0.before.rawValue), without sceneWillEnterForeground(_:)"
        }
    }
}
