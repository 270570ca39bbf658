import LifelineCore

/// LC-A12: UI was presented before a window scene connected.
struct UIBeforeSceneConnectRule: Rule {
    static let description = RuleDescription(
        id: "LC-A12", name: "ui-before-scene-connect", category: .application, severity: .warning,
        summary: "UI was presented before any window scene connected",
        rationale: "In a scene app there is no window during application(_:didFinishLaunchingWithOptions:): a privacy or consent dialog, alert or onboarding screen presented there has nowhere to appear. Present it from scene(_:willConnectTo:options:) or later. Needs the marker `ui-presented`; silent without it.",
        triggering: [
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            ↓presenting privacy consent
            scene(_:willConnectTo:options:)
            sceneDidBecomeActive(_:)
            """, config: Self.config),
        ],
        nonTriggering: [
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            scene(_:willConnectTo:options:)
            sceneDidBecomeActive(_:)
            presenting privacy consent
            """, config: Self.config),
        ],
        configuration: ["marker `ui-presented` (required)"],
        online: true)

    static let config = """
    markers:
      ui-presented: 'presenting (privacy|alert|onboarding)'
    """

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard settings.has(.uiPresented), session.hasSceneEvents, session.launchSeen else { return [] }
        return session.indices(of: .uiPresented).compactMap { i in
            guard session.connectedWindowScenes(before: i).isEmpty else { return nil }
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state,
                              "UI was presented before any window scene connected\(session.whenClause(i)): there is no window to show it in")
        }
    }
}
