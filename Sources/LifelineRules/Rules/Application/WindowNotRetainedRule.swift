import LifelineCore

/// LC-A10: a window was released while its scene was still connected.
struct WindowNotRetainedRule: Rule {
    static let description = RuleDescription(
        id: "LC-A10", name: "window-not-retained", category: .application, severity: .warning,
        summary: "a window was released while its scene was still connected",
        rationale: "A window created in scene(_:willConnectTo:options:) but kept only in a local variable is released when the method returns, and the scene shows nothing after it becomes active. Keep it in the scene delegate's `window` property. Needs the marker `window-released` (a deinit log of the window); silent without it.",
        triggering: [
            RuleExample("""
            scene(_:willConnectTo:options:)
            ↓window released
            sceneWillEnterForeground(_:)
            sceneDidBecomeActive(_:)
            """, config: Self.config),
        ],
        nonTriggering: [
            RuleExample("""
            scene(_:willConnectTo:options:)
            sceneDidBecomeActive(_:)
            sceneWillResignActive(_:)
            sceneDidEnterBackground(_:)
            sceneDidDisconnect(_:)
            window released
            """, config: Self.config),
        ],
        configuration: ["marker `window-released` (required)"])

    static let config = """
    markers:
      window-released: 'window released'
    """

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard settings.has(.windowReleased) else { return [] }
        return session.indices(of: .windowReleased).compactMap { i in
            let connected = session.connectedWindowScenes(before: i).filter { session.state(of: $0, before: i) != .unknown }
            // With several scenes connected the released window may belong to one going away.
            guard connected.count == 1, let scene = connected.first, let state = session.state(of: scene, before: i) else { return nil }
            return diagnostic(session, event: i, scene: scene, state: state.rawValue,
                              "a window was released while scene \(scene.label) was still connected (\(state.rawValue)): keep the window in the scene delegate's window property")
        }
    }
}
