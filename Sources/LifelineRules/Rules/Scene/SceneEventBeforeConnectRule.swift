import LifelineCore

/// LC-S01: a scene callback for a scene object before `scene(_:willConnectTo:options:)` for it.
/// Decided only when the trace shows the launch and the app logs its connections (otherwise a
/// missing `willConnect` says nothing).
struct SceneEventBeforeConnectRule: Rule {
    static let description = RuleDescription(
        id: "LC-S01", name: "scene-event-before-connect", category: .scene, severity: .error,
        summary: "a scene callback arrives before the scene connected",
        rationale: "Scene objects start unattached and are announced by scene(_:willConnectTo:options:); a callback for a scene that never connected in a launch whose connections are logged means a callback was called by hand or logged for the wrong scene.",
        triggering: [
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            scene(_:willConnectTo:options:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication>
            ↓sceneWillEnterForeground(_:) <UIWindowScene: 0xB2; role: UIWindowSceneSessionRoleApplication>
            """),
        ],
        nonTriggering: [
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            scene(_:willConnectTo:options:)
            sceneWillEnterForeground(_:)
            """),
            // The trace begins in the middle of the process's life: the connection may simply be older.
            RuleExample("""
            sceneWillEnterForeground(_:) <UIWindowScene: 0xB2; role: UIWindowSceneSessionRoleApplication>
            sceneDidBecomeActive(_:) <UIWindowScene: 0xB2; role: UIWindowSceneSessionRoleApplication>
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard session.launchSeen, session.events.contains(where: { $0.kind == .sceneWillConnect }) else { return [] }
        return session.scenes.compactMap { scene in
            guard scene.beginsMidLife, !scene.isCarPlay, let first = scene.entries.first else { return nil }
            let e = session.events[first.event]
            return diagnostic(session, event: first.event, scene: scene, state: SceneState.unknown.rawValue,
                              "\(e.kind) for scene \(scene.label) before any scene(_:willConnectTo:options:) for it, in a launch whose connections are logged")
        }
    }
}
