import LifelineCore

/// LC-A09: a window was created while no window scene was connected to show it.
struct WindowWithoutSceneRule: Rule {
    static let description = RuleDescription(
        id: "LC-A09", name: "window-without-scene", category: .application, severity: .warning,
        summary: "a window was created while no window scene was connected",
        rationale: "In a scene app a UIWindow appears only on a UIWindowScene (`init(windowScene:)` or its `windowScene` property); one created in application(_:didFinishLaunchingWithOptions:), or while only the CarPlay scene is connected, is never shown. Error when no window scene connects afterwards in the same launch. Needs the marker `window-created`; silent without it.",
        triggering: [
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            ↓window created and made key
            scene(_:willConnectTo:options:)
            sceneDidBecomeActive(_:)
            """, config: ConfigNameGuardSilentReturnRule.config),
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            templateApplicationScene(_:didConnect:)
            ↓window created and made key
            """, config: ConfigNameGuardSilentReturnRule.config),
        ],
        nonTriggering: [
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            scene(_:willConnectTo:options:)
            window created and made key
            sceneDidBecomeActive(_:)
            """, config: ConfigNameGuardSilentReturnRule.config),
            // No scene callbacks at all: an app on the app-delegate life cycle owns its window.
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            window created and made key
            applicationDidBecomeActive(_:)
            """, config: ConfigNameGuardSilentReturnRule.config),
        ],
        configuration: ["marker `window-created` (required)"])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard settings.has(.windowCreated), session.hasSceneEvents, session.launchSeen else { return [] }
        return session.indices(of: .windowCreated).compactMap { i in
            guard session.connectedWindowScenes(before: i).isEmpty else { return nil }
            let carPlay = session.scenes.contains { $0.isCarPlay && (session.state(of: $0, before: i).map { $0 != .disconnected } ?? false) }
            let later = session.scenes.contains { s in !s.isCarPlay && s.entries.contains { $0.event > i } }
            let c = session.context(at: i)
            let when = carPlay ? "while only the CarPlay scene was connected" : "before any window scene connected"
            return diagnostic(session, event: i, scene: c.scene, state: c.state, severity: later ? nil : .error,
                              "a window was created \(when): a UIWindow without a windowScene is never shown\(later ? "" : ", and no window scene connected later")")
        }
    }
}
