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
            // Two iPad windows whose NSLog lines name no scene: the resign is the first window's
            // as the second comes forward, not a resign of the second (LC-S14 says they cannot be
            // told apart).
            RuleExample("""
            2026-05-04 10:15:02.006352+0200 Marginalia[3318:104227] -[SceneDelegate scene:willConnectToSession:options:]
            2026-05-04 10:15:02.118530+0200 Marginalia[3318:104227] -[SceneDelegate sceneWillEnterForeground:]
            2026-05-04 10:15:02.123456+0200 Marginalia[3318:104227] -[SceneDelegate sceneDidBecomeActive:]
            2026-05-04 10:16:40.303080+0200 Marginalia[3318:104227] -[SceneDelegate scene:willConnectToSession:options:]
            2026-05-04 10:16:40.401187+0200 Marginalia[3318:104227] -[SceneDelegate sceneWillEnterForeground:]
            2026-05-04 10:16:40.409630+0200 Marginalia[3318:104227] -[SceneDelegate sceneWillResignActive:]
            2026-05-04 10:16:40.415902+0200 Marginalia[3318:104227] -[SceneDelegate sceneDidBecomeActive:]
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        illegalArrivals(of: .sceneWillResignActive, in: [.unattached, .foregroundInactive, .background], session) {
            "scene \($0.scene.label) resigned active while \($0.before.rawValue)"
        }
    }
}
