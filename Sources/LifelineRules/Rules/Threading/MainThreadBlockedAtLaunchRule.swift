import LifelineCore

/// LC-T07: the launch took long before the first scene became active (warning), or a watchdog
/// killed the process (fatal).
struct MainThreadBlockedAtLaunchRule: Rule {
    static let description = RuleDescription(
        id: "LC-T07", name: "main-thread-blocked-at-launch", category: .threading, severity: .warning,
        summary: "the main thread was blocked during launch or a scene update",
        rationale: "The watchdog kills an app whose main thread does not let a launch or scene update finish in time (about 20 s for launch, 10 s for scene updates, code 0x8badf00d); slow launches below the limit are worth knowing about before they become kills. When the log also holds the system's account of the launch and `slow-tap-to-foreground` (LC-D03) reports it, from the user's tap, this rule leaves the slow launch to it: one launch, one finding.",
        triggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-03-01 10:00:00.200000+0100 MyApp[900:41001] -[SceneDelegate scene:willConnectToSession:options:]
            2025-03-01 10:00:07.300000+0100 MyApp[900:41001] -[SceneDelegate sceneWillEnterForeground:]
            ↓2025-03-01 10:00:07.310000+0100 MyApp[900:41001] -[SceneDelegate sceneDidBecomeActive:]
            """),
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            ↓2025-03-01 10:00:20.100000+0100 MyApp[900:41001] Termination Description: SPRINGBOARD, scene-create watchdog transgression: com.example exhausted real (wall clock) time allowance of 19.97 seconds
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-03-01 10:00:00.200000+0100 MyApp[900:41001] -[SceneDelegate scene:willConnectToSession:options:]
            2025-03-01 10:00:00.300000+0100 MyApp[900:41001] -[SceneDelegate sceneWillEnterForeground:]
            2025-03-01 10:00:00.310000+0100 MyApp[900:41001] -[SceneDelegate sceneDidBecomeActive:]
            """),
            // Launched for CarPlay: the phone scene comes when the driver picks up the phone.
            RuleExample("""
            2026-06-12 08:14:05.261874+0200 Wayline[1877:180644] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-06-12 08:14:05.311870+0200 Wayline[1877:180644] -[CarPlaySceneDelegate templateApplicationScene:didConnectInterfaceController:toWindow:]
            2026-06-12 08:16:13.270512+0200 Wayline[1877:180644] -[SceneDelegate scene:willConnectToSession:options:]
            2026-06-12 08:16:13.338940+0200 Wayline[1877:180644] -[SceneDelegate sceneWillEnterForeground:]
            2026-06-12 08:16:13.346217+0200 Wayline[1877:180644] -[SceneDelegate sceneDidBecomeActive:]
            """),
            // Launched in the background for a fetch; the user opens the app three minutes later.
            RuleExample("""
            2026-06-12 08:14:05.100000+0200 Ledger[1877:180644] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-06-12 08:14:05.200000+0200 Ledger[1877:180644] -[AppDelegate application:performFetchWithCompletionHandler:]
            2026-06-12 08:17:05.100000+0200 Ledger[1877:180644] -[SceneDelegate scene:willConnectToSession:options:]
            2026-06-12 08:17:05.200000+0200 Ledger[1877:180644] -[SceneDelegate sceneWillEnterForeground:]
            2026-06-12 08:17:05.300000+0200 Ledger[1877:180644] -[SceneDelegate sceneDidBecomeActive:]
            """),
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-03-01 10:00:00.200000+0100 MyApp[900:41001] -[SceneDelegate scene:willConnectToSession:options:]
            2025-03-01 10:00:07.300000+0100 MyApp[900:41001] -[SceneDelegate sceneWillEnterForeground:]
            2025-03-01 10:00:07.310000+0100 MyApp[900:41001] -[SceneDelegate sceneDidBecomeActive:]
            """, config: """
            thresholds:
              slow-launch: 10s
            """),
        ],
        configuration: ["`thresholds.slow-launch`: seconds from didFinishLaunching to the first active scene (default 5 s)"])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        var found = each(.watchdog, session, severity: { _ in .fatal }) { e in
            "the watchdog killed the process\(e.details?.watchdogEvent.map { " during \($0)" } ?? ""): its main thread was blocked"
        }
        // Only a launch the user waited for: a process launched for CarPlay or in the background
        // shows its phone scene when the user picks up the phone, minutes later.
        // The same launch measured from the user's tap, when the system told it: LC-D03's finding.
        let measuredFromTap = settings.runs(SlowTapToForegroundRule.description.id)
            && SlowTapToForegroundRule.slowLaunch(session, settings: settings) != nil
        if found.isEmpty, !measuredFromTap, session.launchKind?.isUserFacing ?? true,
           let first = session.events.indices.first(where: { session.events[$0].kind == .sceneDidBecomeActive }),
           let seconds = session.secondsSinceLaunch(first), seconds > settings.slowLaunch {
            let c = session.context(at: first)
            found.append(diagnostic(session, event: first, scene: c.scene, state: c.state,
                                    "the first scene became active \(duration(seconds)) after didFinishLaunching; the main thread was busy during launch"))
        }
        return found
    }
}
