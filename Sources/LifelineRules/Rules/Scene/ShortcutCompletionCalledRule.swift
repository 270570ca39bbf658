import LifelineCore

/// LC-S12: a quick action's completion handler was not called (as far as the app's log says).
struct ShortcutCompletionCalledRule: Rule {
    static let description = RuleDescription(
        id: "LC-S12", name: "shortcut-completion-called", category: .scene, severity: .warning,
        summary: "a quick action's completion handler was not called in time",
        rationale: "windowScene(_:performActionFor:completionHandler:) hands the app a block to call after it completes the action; a handler that is never called leaves the system waiting. Checkable only when the app logs the call: needs the marker `shortcut-completed`; silent without it.",
        triggering: [
            RuleExample("""
            2025-04-02 09:00:00.000 Shop[310:4401] -[SceneDelegate sceneDidBecomeActive:]
            ↓2025-04-02 09:00:10.000 Shop[310:4401] -[SceneDelegate windowScene:performActionForShortcutItem:completionHandler:]
            2025-04-02 09:00:40.000 Shop[310:4401] -[SceneDelegate sceneWillResignActive:]
            """, config: Self.config),
        ],
        nonTriggering: [
            RuleExample("""
            2025-04-02 09:00:00.000 Shop[310:4401] -[SceneDelegate sceneDidBecomeActive:]
            2025-04-02 09:00:10.000 Shop[310:4401] -[SceneDelegate windowScene:performActionForShortcutItem:completionHandler:]
            2025-04-02 09:00:10.200 Shop[310:4401] shortcut completion(true)
            2025-04-02 09:00:40.000 Shop[310:4401] -[SceneDelegate sceneWillResignActive:]
            """, config: Self.config),
            // The trace ends before the window closes: the call may have come after it.
            RuleExample("""
            2025-04-02 09:00:00.000 Shop[310:4401] -[SceneDelegate sceneDidBecomeActive:]
            2025-04-02 09:00:10.000 Shop[310:4401] -[SceneDelegate windowScene:performActionForShortcutItem:completionHandler:]
            2025-04-02 09:00:11.000 Shop[310:4401] -[SceneDelegate sceneWillResignActive:]
            """, config: Self.config),
        ],
        configuration: ["marker `shortcut-completed` (required)",
                        "`thresholds.shortcut-completion`: seconds allowed for the call (default 5 s)"])

    static let config = """
    markers:
      shortcut-completed: 'shortcut completion\\((true|false)\\)'
    """

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard settings.has(.shortcutCompleted) else { return [] }
        let completed = KnownMarker.shortcutCompleted.kind
        return session.events.indices.compactMap { i in
            guard session.events[i].kind.rawValue.hasSuffix("performActionForShortcutItem"),
                  case .missed = session.awaited(after: i, within: settings.shortcutCompletion, { $0.kind == completed }) else { return nil }
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state,
                              "the quick action's completion handler was not called within \(duration(settings.shortcutCompletion)) (no shortcut-completed marker)")
        }
    }
}
