import LifelineCore

/// LC-A05: a scene connected without configurationForConnecting — legal for an existing session.
struct NoConfigurationOnRestoreRule: Rule {
    static let description = RuleDescription(
        id: "LC-A05", name: "no-configuration-on-restore", category: .application, severity: .note,
        summary: "a scene connected without configurationForConnecting (an existing session)",
        rationale: "application(_:configurationForConnecting:options:) is asked only for new scene sessions. A session restored at relaunch, or a scene reconnecting after its object was released, connects with the configuration it already has, so willConnect without a configuration request before it is legal, not a lost callback. Reported only for apps that log configurationForConnecting (in this launch or an earlier one).",
        triggering: [
            RuleExample("""
            2025-06-01 09:00:00.000 Notes[410:5001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-06-01 09:00:00.050 Notes[410:5001] -[AppDelegate application:configurationForConnectingSceneSession:options:]
            2025-06-01 09:00:00.100 Notes[410:5001] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x104a00100; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: NOTE-1>
            2025-06-01 11:30:00.000 Notes[988:7001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            ↓2025-06-01 11:30:00.100 Notes[988:7001] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x104b00200; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: NOTE-1>
            """),
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            ↓scene(_:willConnectTo:options:) <UIWindowScene: 0x600001000100; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: RESTORED-1>
            application(_:configurationForConnecting:options:)
            scene(_:willConnectTo:options:) <UIWindowScene: 0x600001000200; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: NEW-2>
            """),
        ],
        nonTriggering: [
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            application(_:configurationForConnecting:options:)
            scene(_:willConnectTo:options:)
            """),
            // A launch after another that asked: the second connect is still a new session's.
            RuleExample("""
            2025-06-01 09:00:00.000 Notes[410:5001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-06-01 09:00:00.050 Notes[410:5001] -[AppDelegate application:configurationForConnectingSceneSession:options:]
            2025-06-01 09:00:00.100 Notes[410:5001] -[SceneDelegate scene:willConnectToSession:options:]
            2025-06-01 11:30:00.000 Notes[988:7001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-06-01 11:30:00.050 Notes[988:7001] -[AppDelegate application:configurationForConnectingSceneSession:options:]
            2025-06-01 11:30:00.100 Notes[988:7001] -[SceneDelegate scene:willConnectToSession:options:]
            """),
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            application(_:configurationForConnecting:options:)
            scene(_:willConnectTo:options:)
            """),
            // The app never logs the configuration request: nothing to compare with.
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            scene(_:willConnectTo:options:)
            """),
        ])

    private static let request = EventKind("app.configurationForConnecting")

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        let request = Self.request
        guard session.earlier.kinds.contains(request) || !session.indices(of: request).isEmpty else { return [] }
        var pending = 0
        var found: [Diagnostic] = []
        for step in session.sceneStepsInOrder(including: [.appConfigurationForConnecting]) {
            if step.kind == .appConfigurationForConnecting { pending += 1; continue }
            guard step.kind == .sceneWillConnect, let scene = step.scene else { continue }
            if pending > 0 { pending -= 1; continue }
            let reconnect: String
            if !scene.previousLives.isEmpty {
                reconnect = "reconnected; earlier life \(scene.previousLives.joined(separator: ", "))"
            } else if let id = scene.persistentIdentifier, session.earlier.persistentIdentifiers.contains(id) {
                reconnect = "restored from an earlier launch"
            } else {
                reconnect = "restored at relaunch or reconnected"
            }
            found.append(diagnostic(session, event: step.index, scene: scene, state: step.state,
                                    "scene \(scene.label) connected without configurationForConnecting: its session already existed (\(reconnect)); this is legal"))
        }
        return found
    }
}
