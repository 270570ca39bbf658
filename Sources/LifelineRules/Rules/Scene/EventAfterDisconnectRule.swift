import LifelineCore

/// LC-S07: an event for a scene object after its `sceneDidDisconnect(_:)`.
struct EventAfterDisconnectRule: Rule {
    static let description = RuleDescription(
        id: "LC-S07", name: "event-after-disconnect", category: .scene, severity: .error,
        summary: "a scene object receives a callback after it disconnected",
        rationale: "UIKit releases a scene object when it disconnects; a reconnection of its session uses a new object (the same persistent identifier is fine). A later callback for the old address came from somewhere else.",
        triggering: [
            RuleExample("""
            scene(_:willConnectTo:options:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication>
            sceneDidDisconnect(_:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication>
            ↓sceneDidBecomeActive(_:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication>
            """),
        ],
        nonTriggering: [
            // The allocator may reuse the address for a new scene, which connects first.
            RuleExample("""
            scene(_:willConnectTo:options:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication>
            sceneDidDisconnect(_:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication>
            scene(_:willConnectTo:options:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication>
            sceneWillEnterForeground(_:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication>
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        session.sceneSteps.compactMap { step in
            guard step.before == .disconnected, !step.scene.isCarPlay else { return nil }  // CarPlay: LC-C06
            return diagnostic(session, event: step.entry.event, scene: step.scene, state: step.before.rawValue,
                              "\(step.kind) for scene \(step.scene.label) after it disconnected")
        }
    }
}
