import LifelineCore

/// LC-C06: a CarPlay disconnect without a connect, or two connects without a disconnect.
struct CarPlayConnectPairingRule: Rule {
    static let description = RuleDescription(
        id: "LC-C06", name: "carplay-connect-pairing", category: .carPlay, severity: .error,
        summary: "CarPlay connects and disconnects do not pair up",
        rationale: "Every connection of a CarPlay scene is followed by at most one disconnection of it.",
        triggering: [
            RuleExample("""
            templateApplicationScene(_:didConnect:)
            ↓templateApplicationScene(_:didConnect:)
            """),
            RuleExample("""
            templateApplicationScene(_:didConnect:)
            templateApplicationScene(_:didDisconnectInterfaceController:)
            ↓templateApplicationScene(_:didDisconnectInterfaceController:)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            templateApplicationScene(_:didConnect:)
            templateApplicationScene(_:didDisconnectInterfaceController:)
            templateApplicationScene(_:didConnect:)
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        session.sceneSteps.compactMap { step in
            let connect = step.kind.hasSuffix("didConnect"), disconnect = step.kind.hasSuffix("didDisconnect")
            guard step.kind.hasPrefix("cp."), connect || disconnect, step.before != .unknown else { return nil }
            if connect, step.before == .connected {
                return diagnostic(session, event: step.entry.event, scene: step.scene, state: step.before.rawValue,
                                  "CarPlay scene \(step.scene.label) connected again without disconnecting")
            }
            if disconnect, step.before == .disconnected {
                return diagnostic(session, event: step.entry.event, scene: step.scene, state: step.before.rawValue,
                                  "CarPlay scene \(step.scene.label) disconnected again without connecting")
            }
            return nil
        }
    }
}
