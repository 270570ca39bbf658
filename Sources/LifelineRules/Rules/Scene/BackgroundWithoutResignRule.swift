import LifelineCore

/// LC-S04: `sceneDidEnterBackground(_:)` while the scene is still active.
struct BackgroundWithoutResignRule: Rule {
    static let description = RuleDescription(
        id: "LC-S04", name: "background-without-resign", category: .scene, severity: .error,
        summary: "a scene enters the background while still active",
        rationale: "UIKit calls sceneWillResignActive(_:) before moving a scene to the background, so an active scene cannot go straight to the background.",
        triggering: [
            RuleExample("""
            sceneWillEnterForeground(_:)
            sceneDidBecomeActive(_:)
            ↓sceneDidEnterBackground(_:)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            sceneDidBecomeActive(_:)
            sceneWillResignActive(_:)
            sceneDidEnterBackground(_:)
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        illegalArrivals(of: .sceneDidEnterBackground, in: [.foregroundActive], session) {
            "scene \($0.scene.label) entered the background while still active, without sceneWillResignActive(_:)"
        }
    }
}
