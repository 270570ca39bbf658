import LifelineCore

/// LC-S06: `sceneWillResignActive(_:)` while the scene is not active.
struct ResignWhenInactiveRule: Rule {
    static let description = RuleDescription(
        id: "LC-S06", name: "resign-when-inactive", category: .scene, severity: .error,
        summary: "a scene resigns active while not active",
        rationale: "sceneWillResignActive(_:) only leaves the foreground-active state.",
        triggering: [
            RuleExample("""
            scene(_:willConnectTo:options:)
            sceneWillEnterForeground(_:)
            ↓sceneWillResignActive(_:)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            sceneWillEnterForeground(_:)
            sceneDidBecomeActive(_:)
            sceneWillResignActive(_:)
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        arrivals(of: "scene.willResignActive", in: [.unattached, .foregroundInactive, .background], session) {
            "scene \($0.scene.label) resigned active while \($0.before.rawValue)"
        }
    }
}
