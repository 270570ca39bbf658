import LifelineCore

/// LC-T07: the launch took long before the first scene became active (warning), or a watchdog
/// killed the process (fatal).
struct MainThreadBlockedAtLaunchRule: Rule {
    static let description = RuleDescription(
        id: "LC-T07", name: "main-thread-blocked-at-launch", category: .threading, severity: .warning,
        summary: "the main thread was blocked during launch or a scene update",
        rationale: "The watchdog kills an app whose main thread does not let a launch or scene update finish in time (about 20 s for launch, 10 s for scene updates, code 0x8badf00d); slow launches below the limit are worth knowing about before they become kills.",
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
        if found.isEmpty, let first = session.events.indices.first(where: { session.events[$0].kind.rawValue == "scene.didBecomeActive" }),
           let seconds = session.secondsSinceLaunch(first), seconds > settings.slowLaunch {
            let c = session.context(at: first)
            found.append(diagnostic(session, event: first, scene: c.scene, state: c.state,
                                    "the first scene became active \(duration(seconds)) after didFinishLaunching; the main thread was busy during launch"))
        }
        return found
    }
}
