import LifelineCore

/// LC-S05: `sceneWillEnterForeground(_:)` while the scene is already in the foreground.
struct RedundantForegroundRule: Rule {
    static let description = RuleDescription(
        id: "LC-S05", name: "redundant-foreground", category: .scene, severity: .error,
        summary: "a scene enters the foreground while already in it",
        rationale: "sceneWillEnterForeground(_:) moves a scene from unattached or background to foreground-inactive; there is no such edge from the foreground states.",
        triggering: [
            RuleExample("""
            sceneWillEnterForeground(_:)
            sceneDidBecomeActive(_:)
            ↓sceneWillEnterForeground(_:)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            sceneWillEnterForeground(_:)
            sceneDidBecomeActive(_:)
            sceneWillResignActive(_:)
            sceneDidEnterBackground(_:)
            sceneWillEnterForeground(_:)
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        illegalArrivals(of: .sceneWillEnterForeground, in: [.foregroundInactive, .foregroundActive], session) {
            "scene \($0.scene.label) was told it will enter the foreground while already \($0.before.rawValue)"
        }
    }
}
