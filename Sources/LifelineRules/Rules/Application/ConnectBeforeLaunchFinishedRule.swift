import LifelineCore

/// LC-A01: a scene connects (or is configured) before `application(_:didFinishLaunchingWithOptions:)`.
struct ConnectBeforeLaunchFinishedRule: Rule {
    static let description = RuleDescription(
        id: "LC-A01", name: "connect-before-launch-finished", category: .application, severity: .error,
        summary: "a scene connected before the app finished launching",
        rationale: "UIKit connects the first scene only after application(_:didFinishLaunchingWithOptions:) returns; a connection logged before it means the launch sequence was driven by hand or the logs are from two processes.",
        triggering: [
            RuleExample("""
            ↓2025-03-01 10:00:00.100000+0100 MyApp[901:52001] -[SceneDelegate scene:willConnectToSession:options:]
            2025-03-01 10:00:00.200000+0100 MyApp[901:52001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[901:52001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-03-01 10:00:00.150000+0100 MyApp[901:52001] -[AppDelegate application:configurationForConnectingSceneSession:options:]
            2025-03-01 10:00:00.200000+0100 MyApp[901:52001] -[SceneDelegate scene:willConnectToSession:options:]
            """),
        ],
        online: true)

    private static let didFinish = EventKind("app.didFinishLaunching")
    private static let willConnect = EventKind("scene.willConnect")
    private static let configurationRequest = EventKind("app.configurationForConnecting")

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard let launch = session.indices(of: Self.didFinish).first else { return [] }
        let early = session.indices(of: Self.willConnect, Self.configurationRequest).filter { $0 < launch }
        return early.map { i in
            let e = session.events[i]
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state,
                              "\(e.spelling ?? e.kind.rawValue) came before application(_:didFinishLaunchingWithOptions:) finished")
        }
    }
}
