import LifelineCore

/// LC-A07: a window scene became active without the window the app logs creating.
struct ConfigNameGuardSilentReturnRule: Rule {
    static let description = RuleDescription(
        id: "LC-A07", name: "config-name-guard-silent-return", category: .application, severity: .warning,
        summary: "a scene became active but no window was created for it",
        rationale: "Scene delegates that begin with `guard session.configuration.name == … else { return }` return silently when the configuration name does not match (a copy of the Info.plist half and the code half with different names): willConnect is logged, no window is created, and the user sees a black screen. Needs the marker `window-created`; silent without it.",
        triggering: [
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            scene(_:willConnectTo:options:)
            sceneWillEnterForeground(_:)
            ↓sceneDidBecomeActive(_:)
            """, config: Self.config),
        ],
        nonTriggering: [
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            scene(_:willConnectTo:options:)
            window created and made key
            sceneWillEnterForeground(_:)
            sceneDidBecomeActive(_:)
            """, config: Self.config),
            RuleExample("""
            scene(_:willConnectTo:options:)
            sceneDidBecomeActive(_:)
            """),
        ],
        configuration: ["marker `window-created` (required)"])

    static let config = """
    markers:
      window-created: 'window created'
    """

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard settings.has(.windowCreated) else { return [] }
        let created = KnownMarker.windowCreated.kind
        return session.scenes.filter { !$0.isCarPlay && $0.role?.includes("ExternalDisplay") != true }.compactMap { scene in
            guard let connect = scene.entries.first(where: { session.events[$0.event].kind == .sceneWillConnect }),
                  let active = scene.entries.first(where: { $0.event > connect.event && session.events[$0.event].kind == .sceneDidBecomeActive })
            else { return nil }
            guard !session.events[connect.event..<active.event].contains(where: { $0.kind == created }) else { return nil }
            return diagnostic(session, event: active.event, scene: scene, state: active.before.rawValue,
                              "scene \(scene.label) became active but no window was created after it connected: a scene delegate that returns early (a configuration-name guard) shows a black screen")
        }
    }
}
