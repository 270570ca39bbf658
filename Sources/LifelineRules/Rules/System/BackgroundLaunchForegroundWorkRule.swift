import LifelineCore

/// LC-D04: a launch the system made in the background in which the app entered the foreground,
/// became active or presented UI while the system said nothing of the app in the foreground.
struct BackgroundLaunchForegroundWorkRule: Rule {
    static let description = RuleDescription(
        id: "LC-D04", name: "background-launch-foreground-work", category: .system, severity: .warning,
        summary: "in a background launch the app did foreground work the system never granted",
        rationale: "SpringBoard launches an app in the background (`Bootstrapping … with intent background`) for a push, a fetch, a background URL session or a location update; RunningBoard gives it the `Background` role and suspends it when the work is done. Nothing is on screen until the system says so: FrontBoard's scene in the foreground, or a user-interactive role. The app entering the foreground, becoming active or presenting UI (the `ui-presented` marker) before any such word does work nobody sees, and usually means code that assumes every launch is the user's (onboarding, a login screen, analytics of a session start). A system word within a second after the app's line counts as said before it; a foreground callback while FrontBoard has the scene in the background is `foreground-against-system` (LC-D01), not this.",
        triggering: [
            RuleExample("""
            2026-03-09 14:20:11.219788-0800 SpringBoard[34:601] Bootstrapping app<com.example.harbor> with intent background
            2026-03-09 14:20:11.230421-0800 runningboardd[33:700] Now tracking process: [app<com.example.harbor>:2284]
            2026-03-09 14:20:11.230995-0800 runningboardd[33:700] Calculated state for app<com.example.harbor>: running-active (role: Background) (endowments: <private>)
            2026-03-09 14:20:11.402958-0800 Harbor[2284:9001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-03-09 14:20:11.410112-0800 Harbor[2284:9001] -[AppDelegate application:handleEventsForBackgroundURLSession:completionHandler:]
            2026-03-09 14:20:11.452870-0800 Harbor[2284:9001] -[SceneDelegate scene:willConnectToSession:options:]
            ↓2026-03-09 14:20:11.460314-0800 Harbor[2284:9001] -[SceneDelegate sceneWillEnterForeground:]
            2026-03-09 14:20:11.470925-0800 Harbor[2284:9001] -[SceneDelegate sceneDidBecomeActive:]
            """),
        ],
        nonTriggering: [
            // The user opened it later: the system said so first.
            RuleExample("""
            2026-03-09 14:20:11.219788-0800 SpringBoard[34:601] Bootstrapping app<com.example.harbor> with intent background
            2026-03-09 14:20:11.230421-0800 runningboardd[33:700] Now tracking process: [app<com.example.harbor>:2284]
            2026-03-09 14:20:11.230995-0800 runningboardd[33:700] Calculated state for app<com.example.harbor>: running-active (role: Background) (endowments: <private>)
            2026-03-09 14:20:11.402958-0800 Harbor[2284:9001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-03-09 14:31:41.101866-0800 runningboardd[33:700] Calculated state for app<com.example.harbor>: running-active (role: UserInteractiveFocal) (endowments: <private>)
            2026-03-09 14:31:41.120871-0800 SpringBoard[34:601] [0x2d9c52f00:(FBSceneManager):sceneID:com.example.harbor-default] Scene lifecycle state did change: Foreground
            2026-03-09 14:31:41.302958-0800 Harbor[2284:9001] -[SceneDelegate scene:willConnectToSession:options:]
            2026-03-09 14:31:41.310112-0800 Harbor[2284:9001] -[SceneDelegate sceneWillEnterForeground:]
            """),
            // A background launch that stays in the background.
            RuleExample("""
            2026-03-09 14:20:11.219788-0800 SpringBoard[34:601] Bootstrapping app<com.example.harbor> with intent background
            2026-03-09 14:20:11.230421-0800 runningboardd[33:700] Now tracking process: [app<com.example.harbor>:2284]
            2026-03-09 14:20:11.402958-0800 Harbor[2284:9001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-03-09 14:20:11.452870-0800 Harbor[2284:9001] -[SceneDelegate scene:willConnectToSession:options:]
            2026-03-09 14:20:11.460314-0800 Harbor[2284:9001] -[SceneDelegate sceneDidEnterBackground:]
            """),
            // No word of the system: LC-A18 and the launch kind speak for the app's side.
            RuleExample("""
            2026-03-09 14:20:11.402958-0800 Harbor[2284:9001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-03-09 14:20:11.410112-0800 Harbor[2284:9001] -[AppDelegate application:handleEventsForBackgroundURLSession:completionHandler:]
            2026-03-09 14:20:11.460314-0800 Harbor[2284:9001] -[SceneDelegate sceneWillEnterForeground:]
            """),
        ],
        configuration: ["marker `ui-presented` (optional): UI the app presented counts as foreground work"])

    static let foregroundKinds = ForegroundAgainstSystemRule.foregroundKinds.union([KnownMarker.uiPresented.kind])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard session.hasSystemEvents, session.launchKind != .carPlay else { return [] }
        let launch = session.indices(of: .systemLaunch).first
        let intent = launch.flatMap { session.events[$0].details?.system?.intent }
        guard intent == "background" || (intent == nil && session.launchKind == .background) else { return [] }
        let leftToD01 = Set(ForegroundAgainstSystemRule.contradictions(session).map(\.event))
        var systemSpoke = false
        for i in session.events.indices {
            let e = session.events[i]
            if e.kind.isSystemLifecycle {
                if let d = e.details?.system, d.saysForeground(e.kind) { return [] }
                systemSpoke = true
                continue
            }
            guard systemSpoke, Self.foregroundKinds.contains(e.kind), !session.isCarPlayCallback(i), !leftToD01.contains(i) else { continue }
            guard session.systemSays(after: i, { $0.saysForeground($1) }) == .notSaid else { return [] }
            let c = session.context(at: i)
            let how = intent == "background" ? "that the system made in the background (intent background)" : "in the background"
            var d = diagnostic(session, event: i, scene: c.scene, state: c.state,
                               "\(session.callbackName(i)) in a launch \(how), and the system never said the app was in the foreground: work nobody sees")
            if let launch {
                let l = session.events[launch]
                d.related.insert(RelatedLocation(file: l.file, position: l.position, message: "the system launched the app here"), at: 0)
            }
            return [d]
        }
        return []
    }
}
