import LifelineCore

/// LC-A14: scene sessions were discarded out of order.
struct DiscardOrderingRule: Rule {
    static let description = RuleDescription(
        id: "LC-A14", name: "discard-ordering", category: .application, severity: .error,
        summary: "didDiscardSceneSessions came while a discarded session's scene was still live",
        rationale: "application(_:didDiscardSceneSessions:) comes either shortly after launch (sessions the user closed while the app was not running) or after the sceneDidDisconnect of every discarded session's scene. A discarded session whose scene is still connected breaks that contract (callbacks after the disconnect are LC-S07's). Checked when the log names the discarded sessions' persistent identifiers.",
        triggering: [
            RuleExample("""
            scene(_:willConnectTo:options:) <UIWindowScene: 0x600001000100; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: DOC-1>
            sceneDidBecomeActive(_:) <UIWindowScene: 0x600001000100; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: DOC-1>
            ↓application(_:didDiscardSceneSessions:) {(<UISceneSession: 0x600002000100; persistentIdentifier: DOC-1; role: UIWindowSceneSessionRoleApplication>)}
            """),
        ],
        nonTriggering: [
            RuleExample("""
            scene(_:willConnectTo:options:) <UIWindowScene: 0x600001000100; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: DOC-1>
            sceneWillResignActive(_:) <UIWindowScene: 0x600001000100; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: DOC-1>
            sceneDidEnterBackground(_:) <UIWindowScene: 0x600001000100; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: DOC-1>
            sceneDidDisconnect(_:) <UIWindowScene: 0x600001000100; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: DOC-1>
            application(_:didDiscardSceneSessions:) {(<UISceneSession: 0x600002000100; persistentIdentifier: DOC-1; role: UIWindowSceneSessionRoleApplication>)}
            """),
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            application(_:didDiscardSceneSessions:) {(<UISceneSession: 0x600002000100; persistentIdentifier: OLD-9; role: UIWindowSceneSessionRoleApplication>)}
            scene(_:willConnectTo:options:)
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        session.events.indices.compactMap { i in
            let e = session.events[i]
            guard e.kind == .appDidDiscardSceneSessions, let id = e.scene?.persistentIdentifier else { return nil }
            for scene in session.scenes where scene.persistentIdentifier == id {
                guard let state = session.state(of: scene, before: i), state != .disconnected, state != .unknown else { continue }
                return diagnostic(session, event: i, scene: scene, state: state.rawValue,
                                  "session \(id) was discarded while its scene \(scene.label) was still connected (\(state.rawValue)): UIKit disconnects a scene before discarding its session")
            }
            return nil
        }
    }
}
