import LifelineCore

/// LC-C05: phone UI was presented into the CarPlay scene.
struct WrongSceneSelectionRule: Rule {
    static let description = RuleDescription(
        id: "LC-C05", name: "wrong-scene-selection", category: .carPlay, severity: .warning,
        summary: "phone UI was presented into the CarPlay scene",
        rationale: "With the phone and CarPlay both connected, `connectedScenes.first` (or the first foreground-active scene) may be the CPTemplateApplicationScene; UI meant for the phone then goes nowhere. Choose the window scene by role or configuration name. Needs the marker `ui-presented` matching a line that names the scene; silent without it.",
        triggering: [
            RuleExample("""
            scene(_:willConnectTo:options:)
            sceneDidBecomeActive(_:)
            templateApplicationScene(_:didConnect:)
            ↓presenting alert in <CPTemplateApplicationScene: 0x600003a00100; role: CPTemplateApplicationSceneSessionRoleApplication; persistentIdentifier: C1>
            """, config: UIBeforeSceneConnectRule.config),
        ],
        nonTriggering: [
            RuleExample("""
            scene(_:willConnectTo:options:)
            sceneDidBecomeActive(_:)
            templateApplicationScene(_:didConnect:)
            presenting alert in <UIWindowScene: 0x600003a00200; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: P1>
            """, config: UIBeforeSceneConnectRule.config),
        ],
        configuration: ["marker `ui-presented` (required)"])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard settings.has(.uiPresented) else { return [] }
        return session.indices(of: .uiPresented).compactMap { i in
            let e = session.events[i]
            let cls = e.scene?.sceneClass ?? ""
            guard cls.hasPrefix("CPTemplateApplication") || e.scene?.role?.hasPrefix("CPTemplateApplication") == true else { return nil }
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state,
                              "UI was presented into the CarPlay scene\(e.scene?.address.map { " (\($0))" } ?? ""): pick the window scene by role or configuration name, not connectedScenes.first")
        }
    }
}
