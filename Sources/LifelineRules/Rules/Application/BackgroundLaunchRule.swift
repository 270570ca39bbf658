import LifelineCore

/// LC-A18: the process was launched into the background.
struct BackgroundLaunchRule: Rule {
    static let description = RuleDescription(
        id: "LC-A18", name: "background-launch", category: .application, severity: .note,
        summary: "the app was launched in the background; no scene came to the foreground",
        rationale: "The system launches apps in the background for fetches, pushes, location updates and background URL sessions: didFinishLaunching runs and no scene enters the foreground (a scene may connect and stay in the background). This is legal; UI built during such a launch is work nobody sees.",
        triggering: [
            RuleExample("""
            ↓application(_:didFinishLaunchingWithOptions:)
            application(_:didReceiveRemoteNotification:fetchCompletionHandler:)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            scene(_:willConnectTo:options:)
            sceneWillEnterForeground(_:)
            sceneDidBecomeActive(_:)
            """),
            // Nothing after the launch: too little to say how it went.
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            """),
        ])

    static let foreground: Set<EventKind> = [
        .sceneWillEnterForeground, .sceneDidBecomeActive, .appWillEnterForeground, .appDidBecomeActive,
        .carPlayDidConnect, EventKind("cp.dashboard.didConnect"), EventKind("cp.cluster.didConnect"), EventKind("cp.legacy.didConnect"),
    ]

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard let launch = session.events.firstIndex(where: { $0.kind == .appDidFinishLaunching }),
              !session.events.contains(where: { Self.foreground.contains($0.kind) || $0.kind.isFailure }),
              session.events[(launch + 1)...].contains(where: { $0.kind.isLifecycleCallback })
        else { return [] }
        let c = session.context(at: launch)
        return [diagnostic(session, event: launch, scene: c.scene, state: c.state,
                           "the app was launched in the background: no scene came to the foreground in this launch")]
    }
}
