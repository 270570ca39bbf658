import LifelineCore

/// LC-C06: a CarPlay disconnect without a connect, or two connects without a disconnect. A
/// disconnect whose scene's connect is not in a trace that shows the launch is one too: the app
/// logs its CarPlay callbacks, so the connect never ran (a delegate method with the wrong
/// signature, a scene delegate class that is not the configured one).
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
            // The launch is in the trace, the connect is not.
            RuleExample("""
            2026-07-22 17:48:03.207715+0100 Soundings[2904:118530] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-07-22 17:48:03.263052+0100 Soundings[2904:118530] -[SceneDelegate scene:willConnectToSession:options:]
            ↓2026-07-22 18:21:47.118663+0100 Soundings[2904:118530] -[CarPlaySceneDelegate templateApplicationScene:didDisconnectInterfaceController:]
            """),
        ],
        nonTriggering: [
            RuleExample("""
            templateApplicationScene(_:didConnect:)
            templateApplicationScene(_:didDisconnectInterfaceController:)
            templateApplicationScene(_:didConnect:)
            """),
            // The trace begins in the middle of the process's life: the connect may be before it.
            RuleExample("""
            2026-07-22 18:21:47.118663+0100 Soundings[2904:118530] -[CarPlaySceneDelegate templateApplicationScene:didDisconnectInterfaceController:]
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        session.sceneSteps.compactMap { step in
            let connect = step.kind.rawValue.hasSuffix("didConnect"), disconnect = step.kind.rawValue.hasSuffix("didDisconnect")
            if step.kind.family == "cp", disconnect, step.position == 0, step.before == .unknown, session.launchSeen {
                return diagnostic(session, event: step.entry.event, scene: step.scene, state: step.before.rawValue,
                                  "CarPlay scene \(step.scene.label) disconnected without a connect: the trace shows this launch from its start, so the CarPlay scene delegate's connect callback did not run (or does not log)")
            }
            guard step.kind.family == "cp", connect || disconnect, step.before != .unknown else { return nil }
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
