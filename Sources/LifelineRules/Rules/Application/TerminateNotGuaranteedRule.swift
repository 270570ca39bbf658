import LifelineCore

/// LC-A17: the trace ends in the background without applicationWillTerminate — normal.
struct TerminateNotGuaranteedRule: Rule {
    static let description = RuleDescription(
        id: "LC-A17", name: "terminate-not-guaranteed", category: .application, severity: .note,
        summary: "a launch ended in the background without applicationWillTerminate",
        rationale: "applicationWillTerminate(_:) is called only when the process is running (in the foreground, or executing in the background) when it ends; a suspended app is ended without it. A launch that was last seen in the background and is followed by a new launch of the same app ended without the callback, and none is missing. Save state in sceneDidEnterBackground(_:), not in applicationWillTerminate(_:).",
        triggering: [
            RuleExample("""
            2025-06-01 09:00:00.000 Notes[410:5001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-06-01 09:00:00.100 Notes[410:5001] -[SceneDelegate scene:willConnectToSession:options:]
            2025-06-01 09:00:00.200 Notes[410:5001] -[SceneDelegate sceneDidBecomeActive:]
            2025-06-01 09:05:00.000 Notes[410:5001] -[SceneDelegate sceneWillResignActive:]
            ↓2025-06-01 09:05:00.100 Notes[410:5001] -[SceneDelegate sceneDidEnterBackground:]
            2025-06-01 11:30:00.000 Notes[988:7001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-06-01 09:00:00.000 Notes[410:5001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-06-01 09:00:00.100 Notes[410:5001] -[SceneDelegate scene:willConnectToSession:options:]
            2025-06-01 09:05:00.100 Notes[410:5001] -[SceneDelegate sceneDidEnterBackground:]
            2025-06-01 09:05:01.000 Notes[410:5001] -[AppDelegate applicationWillTerminate:]
            2025-06-01 11:30:00.000 Notes[988:7001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            """),
            // The trace simply stops in the background: nothing says the process ended.
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            scene(_:willConnectTo:options:)
            sceneDidBecomeActive(_:)
            sceneWillResignActive(_:)
            sceneDidEnterBackground(_:)
            """),
            // Still in the foreground at the end: the trace was cut, which analyze says once as a note.
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            scene(_:willConnectTo:options:)
            sceneDidBecomeActive(_:)
            """),
        ])

    /// Reported on the earlier launch (its last event), when the next launch of the app begins.
    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard session.launchSeen, let previous = session.earlier.previous, !previous.ended else { return [] }
        let states = previous.sceneStates
        guard states.contains(.background), states.allSatisfy({ $0 == .background || $0 == .disconnected }) else { return [] }
        let d = Self.description
        return [Diagnostic(ruleId: d.id, rule: d.name, severity: d.severity,
                           message: "this launch ended in the background without applicationWillTerminate (the app launched again later): a suspended app is ended without it, so none is missing",
                           file: previous.file, position: previous.position, session: previous.session, scene: previous.scene, state: previous.state)]
    }
}
