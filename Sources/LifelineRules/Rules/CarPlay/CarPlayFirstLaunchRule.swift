import LifelineCore

/// LC-C04: the CarPlay scene connected while no phone window scene was connected.
struct CarPlayFirstLaunchRule: Rule {
    static let description = RuleDescription(
        id: "LC-C04", name: "carplay-first-launch", category: .carPlay, severity: .warning,
        summary: "CarPlay connected before any phone scene",
        rationale: "An app started from the head unit runs with no phone window; code that assumes one (the first connected UIWindowScene, AppDelegate.window, a storyboard root) finds nil. Legal, and worth checking that the app copes.",
        triggering: [
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            ↓templateApplicationScene(_:didConnect:)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            scene(_:willConnectTo:options:)
            templateApplicationScene(_:didConnect:)
            """),
            // Without the launch, a phone scene may have connected before the trace began.
            RuleExample("""
            templateApplicationScene(_:didConnect:)
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard session.launchSeen else { return [] }
        return session.sceneSteps.compactMap { step in
            guard step.kind == .carPlayDidConnect else { return nil }
            let phoneConnected = session.scenes.contains { scene in
                !scene.isCarPlay && scene.entries.contains { $0.event < step.entry.event && $0.after != .disconnected }
                    && !scene.entries.contains { $0.event < step.entry.event && $0.after == .disconnected }
            }
            guard !phoneConnected else { return nil }
            return diagnostic(session, event: step.entry.event, scene: step.scene, state: step.before.rawValue,
                              "CarPlay scene \(step.scene.label) connected while no phone scene was connected: the app launched for CarPlay")
        }
    }
}
