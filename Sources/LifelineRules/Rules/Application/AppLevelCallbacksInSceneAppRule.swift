import LifelineCore

/// LC-A03: app-level activation callbacks in a process that uses scenes. UIKit does not send them
/// there; an app forwarding its scene callbacks by hand gets a note, anything else an error.
struct AppLevelCallbacksInSceneAppRule: Rule {
    static let pairs = ["app.didBecomeActive": "scene.didBecomeActive", "app.willResignActive": "scene.willResignActive",
                        "app.didEnterBackground": "scene.didEnterBackground", "app.willEnterForeground": "scene.willEnterForeground"]
    private static let appKinds = pairs.keys.sorted().map(EventKind.init(rawValue:))
    static let description = RuleDescription(
        id: "LC-A03", name: "app-level-callbacks-in-scene-app", category: .application, severity: .error,
        summary: "app-level activation callbacks arrive in an app that uses scenes",
        rationale: "With scenes, UIKit does not call applicationDidBecomeActive(_:), applicationWillResignActive(_:), applicationDidEnterBackground(_:) or applicationWillEnterForeground(_:). Some apps forward each scene callback to them by hand (a note); otherwise something else calls them.",
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
        ],
        nonTriggering: [
            // A process without scenes: the app delegate owns the life cycle.
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            applicationDidBecomeActive(_:)
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard session.events.contains(where: { $0.kind.family == "scene" }) else { return [] }
        let appCallbacks = session.indices(of: Self.appKinds[0], Self.appKinds[1], Self.appKinds[2], Self.appKinds[3])
        return appCallbacks.compactMap { i in
            let e = session.events[i]
            guard let sceneKind = Self.pairs[e.kind.rawValue] else { return nil }
            // Forwarded: the lifecycle callback right before it is the matching scene callback, on the same thread.
            let previous = session.events[..<i].last { $0.kind.isLifecycleCallback }
            let forwarded = previous?.kind.rawValue == sceneKind && previous?.tid == e.tid
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state, severity: forwarded ? .note : nil,
                              forwarded ? "\(e.spelling ?? e.kind.rawValue) follows the matching scene callback: the app forwards scene callbacks to its app delegate by hand"
                                        : "\(e.spelling ?? e.kind.rawValue) arrived in a process that uses scenes, where UIKit does not call it")
        }
    }
}
