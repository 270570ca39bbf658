import LifelineCore

/// LC-A03: app-level activation callbacks in a process that uses scenes. UIKit does not send them
/// there; an app forwarding its scene callbacks by hand gets a note, anything else an error.
/// Case (b) of the reference: UIKit delivers them in a process that shows no scene event while
/// UIKit says the process does not adopt the UIScene life cycle: the app runs the legacy life
/// cycle, and a scene manifest it may have is not in effect.
struct AppLevelCallbacksInSceneAppRule: Rule {
    static let pairs: [EventKind: EventKind] = [.appDidBecomeActive: .sceneDidBecomeActive, .appWillResignActive: .sceneWillResignActive,
                                                .appDidEnterBackground: .sceneDidEnterBackground, .appWillEnterForeground: .sceneWillEnterForeground]
    private static let appKinds = pairs.keys.sorted()
    static let description = RuleDescription(
        id: "LC-A03", name: "app-level-callbacks-in-scene-app", category: .application, severity: .error,
        summary: "app-level activation callbacks arrive in an app that uses scenes, or replace scenes the app does not adopt",
        rationale: "With scenes, UIKit does not call applicationDidBecomeActive(_:), applicationWillResignActive(_:), applicationDidEnterBackground(_:) or applicationWillEnterForeground(_:). Some apps forward each scene callback to them by hand (a note); otherwise something else calls them. Without any scene event, and with UIKit saying the process does not adopt the UIScene life cycle, they are UIKit's legacy life cycle: the scene manifest the app may ship is not in effect (reference §7.2 b).",
        triggering: [
            RuleExample("""
            sceneWillEnterForeground(_:)
            sceneDidBecomeActive(_:)
            ↓applicationDidBecomeActive(_:)
            """),
            RuleExample("""
            sceneWillEnterForeground(_:)
            ↓applicationDidBecomeActive(_:)
            sceneDidBecomeActive(_:)
            """),
            // (b) No scene event, and UIKit says the process does not adopt scenes.
            RuleExample("""
            2026-03-02 09:12:40.118204+0100 Almanac[1422:60311] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-03-02 09:12:40.140517+0100 Almanac[1422:60311] CLIENT OF UIKIT REQUIRES UPDATE: This process does not adopt UIScene lifecycle. This will become an assert in a future version.
            ↓2026-03-02 09:12:40.301966+0100 Almanac[1422:60311] -[AppDelegate applicationDidBecomeActive:]
            2026-03-02 09:14:02.551730+0100 Almanac[1422:60311] -[AppDelegate applicationWillResignActive:]
            """),
        ],
        nonTriggering: [
            // A process without scenes, and nothing says it was meant to have them.
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            applicationDidBecomeActive(_:)
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard session.events.contains(where: { $0.kind.family == "scene" }) else {
            // With an Info.plist that declares scenes, LC-M12 says it, pointing at the plist.
            return settings.manifest?.configurations.isEmpty == false ? [] : legacyLifeCycle(session)
        }
        let appCallbacks = session.indices(of: Self.appKinds[0], Self.appKinds[1], Self.appKinds[2], Self.appKinds[3])
        return appCallbacks.compactMap { i in
            let e = session.events[i]
            guard let sceneKind = Self.pairs[e.kind] else { return nil }
            // Forwarded: the lifecycle callback right before it is the matching scene callback, on the same thread.
            let previous = session.events[..<i].last { $0.kind.isLifecycleCallback }
            let forwarded = previous?.kind == sceneKind && previous?.tid == e.tid
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state, severity: forwarded ? .note : nil,
                              forwarded ? "\(e.spelling ?? e.kind.rawValue) follows the matching scene callback: the app forwards scene callbacks to its app delegate by hand"
                                        : "\(e.spelling ?? e.kind.rawValue) arrived in a process that uses scenes, where UIKit does not call it")
        }
    }

    static let notAdopted = EventKind("config.sceneLifecycleNotAdopted")

    /// Case (b): the first app-level activation callback of a process without scene events whose
    /// log has UIKit's "does not adopt UIScene lifecycle" message. Once per session.
    private func legacyLifeCycle(_ session: SessionView) -> [Diagnostic] {
        guard let said = session.indices(of: Self.notAdopted).first,
              let i = session.indices(of: Self.appKinds[0], Self.appKinds[1], Self.appKinds[2], Self.appKinds[3]).first
        else { return [] }
        let e = session.events[i]
        let c = session.context(at: i)
        return [diagnostic(session, event: i, scene: c.scene, state: c.state,
                           "\(e.spelling ?? e.kind.rawValue) came from UIKit's legacy app life cycle: the process shows no scene callback and UIKit said at \(session.events[said].position.phrase) that it does not adopt the UIScene life cycle, so a scene manifest (UIApplicationSceneManifest) is not in effect")]
    }
}
