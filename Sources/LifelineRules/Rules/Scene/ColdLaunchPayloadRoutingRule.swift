import LifelineCore

/// LC-S11: a payload the scene found in its connection options at a cold launch was never handled.
struct ColdLaunchPayloadRoutingRule: Rule {
    static let description = RuleDescription(
        id: "LC-S11", name: "coldlaunch-payload-routing", category: .scene, severity: .warning,
        summary: "a cold-launch URL, user activity or shortcut was not handled",
        rationale: "On a cold launch UIKit delivers the URL, user activity or quick action only in the connection options of scene(_:willConnectTo:options:); scene(_:openURLContexts:), scene(_:continue:) and windowScene(_:performActionFor:completionHandler:) are called for warm opens only. An app that routes payloads from those methods alone drops the one that launched it. Needs the markers `cold-launch-payload` (the app logs that willConnect found a payload) and `payload-handled`; silent without them.",
        triggering: [
            RuleExample("""
            2025-04-02 09:00:00.000 Shop[310:4401] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-04-02 09:00:00.100 Shop[310:4401] -[SceneDelegate scene:willConnectToSession:options:]
            ↓2025-04-02 09:00:00.101 Shop[310:4401] connection options carry 1 URL context
            2025-04-02 09:00:00.200 Shop[310:4401] -[SceneDelegate sceneWillEnterForeground:]
            2025-04-02 09:00:00.300 Shop[310:4401] -[SceneDelegate sceneDidBecomeActive:]
            2025-04-02 09:00:30.000 Shop[310:4401] -[SceneDelegate sceneWillResignActive:]
            """, config: Self.config),
        ],
        nonTriggering: [
            RuleExample("""
            2025-04-02 09:00:00.000 Shop[310:4401] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-04-02 09:00:00.100 Shop[310:4401] -[SceneDelegate scene:willConnectToSession:options:]
            2025-04-02 09:00:00.101 Shop[310:4401] connection options carry 1 URL context
            2025-04-02 09:00:00.150 Shop[310:4401] routed deep link shop://item/42
            2025-04-02 09:00:00.300 Shop[310:4401] -[SceneDelegate sceneDidBecomeActive:]
            """, config: Self.config),
            // Without the markers the rule cannot know what the app logs, and stays silent.
            RuleExample("""
            2025-04-02 09:00:00.100 Shop[310:4401] -[SceneDelegate scene:willConnectToSession:options:]
            2025-04-02 09:00:00.101 Shop[310:4401] connection options carry 1 URL context
            2025-04-02 09:00:30.000 Shop[310:4401] -[SceneDelegate sceneWillResignActive:]
            """),
        ],
        configuration: ["markers `cold-launch-payload` and `payload-handled` (required)",
                        "`thresholds.payload-handling`: seconds allowed between the two (default 10 s)"])

    static let config = """
    markers:
      cold-launch-payload: 'connection options carry [1-9]'
      payload-handled: 'routed deep link'
    """

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard settings.has(.coldLaunchPayload), settings.has(.payloadHandled) else { return [] }
        let handled = KnownMarker.payloadHandled.kind
        return session.indices(of: .coldLaunchPayload).compactMap { i in
            guard case .missed = session.awaited(after: i, within: settings.payloadHandling, { $0.kind == handled }) else { return nil }
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state,
                              "the scene connected with a launch payload that was not handled within \(duration(settings.payloadHandling)): at a cold launch the URL, user activity or shortcut is only in connectionOptions")
        }
    }
}
