import LifelineCore

/// LC-S02: a second `scene(_:willConnectTo:options:)` for the same scene object without
/// `sceneDidDisconnect(_:)` in between.
struct DoubleConnectRule: Rule {
    static let description = RuleDescription(
        id: "LC-S02", name: "double-connect", category: .scene, severity: .error,
        summary: "a scene object connects twice without disconnecting",
        rationale: "One scene object has one connection; reconnecting a scene session uses a new object (a new address), so two connections of one address without a disconnect between them cannot come from UIKit.",
        triggering: [
            RuleExample("""
            scene(_:willConnectTo:options:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication>
            sceneWillEnterForeground(_:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication>
            ↓scene(_:willConnectTo:options:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication>
            """),
        ],
        nonTriggering: [
            RuleExample("""
            scene(_:willConnectTo:options:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: AAAA-1>
            sceneDidDisconnect(_:) <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication>
            scene(_:willConnectTo:options:) <UIWindowScene: 0xB2; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: AAAA-1>
            """),
            // Two windows of an app that logs no addresses: nothing says they are one object.
            RuleExample("""
            scene(_:willConnectTo:options:)
            scene(_:willConnectTo:options:)
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        session.sceneSteps.compactMap { step in
            guard step.kind == .sceneWillConnect, step.position > 0, let address = step.scene.address,
                  step.event.scene?.address == address, step.before != .disconnected else { return nil }
            return diagnostic(session, event: step.entry.event, scene: step.scene, state: step.before.rawValue,
                              "scene \(step.scene.label) connects again while \(step.before.rawValue), without sceneDidDisconnect(_:) since it connected")
        }
    }
}
