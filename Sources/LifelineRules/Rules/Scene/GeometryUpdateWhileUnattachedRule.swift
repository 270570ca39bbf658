import LifelineCore

/// LC-S13 (note): a coordinate-space update between connection and foreground.
struct GeometryUpdateWhileUnattachedRule: Rule {
    static let description = RuleDescription(
        id: "LC-S13", name: "geometry-update-while-unattached", category: .scene, severity: .note,
        summary: "a window scene's geometry changed before it entered the foreground",
        rationale: "windowScene(_:didUpdate:interfaceOrientation:traitCollection:) can arrive while the scene is still unattached, right after connecting; this is normal.",
        triggering: [
            RuleExample("""
            scene(_:willConnectTo:options:)
            ↓windowScene(_:didUpdate:interfaceOrientation:traitCollection:)
            sceneWillEnterForeground(_:)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            scene(_:willConnectTo:options:)
            sceneWillEnterForeground(_:)
            windowScene(_:didUpdate:interfaceOrientation:traitCollection:)
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        arrivals(of: .windowSceneDidUpdateCoordinateSpace, in: [.unattached], session) {
            "scene \($0.scene.label) updated its coordinate space while still unattached, before entering the foreground"
        }
    }
}
