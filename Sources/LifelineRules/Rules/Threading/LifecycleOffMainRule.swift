import LifelineCore

/// LC-T01: a lifecycle callback on a thread other than the process's main thread.
struct LifecycleOffMainRule: Rule {
    static let description = RuleDescription(
        id: "LC-T01", name: "lifecycle-off-main", category: .threading, severity: .error,
        summary: "a lifecycle callback ran off the main thread",
        rationale: "UIKit delivers every application, scene, window-scene and CarPlay delegate callback on the main thread (the protocols are @MainActor). One logged on another thread was called by hand from a background queue, for example by forwarding scene callbacks to the app delegate.",
        triggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[901:52001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-03-01 10:00:00.200000+0100 MyApp[901:52001] -[SceneDelegate sceneDidBecomeActive:]
            ↓2025-03-01 10:00:00.210000+0100 MyApp[901:52917] -[AppDelegate applicationDidBecomeActive:]
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[901:52001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-03-01 10:00:00.200000+0100 MyApp[901:52001] -[SceneDelegate sceneDidBecomeActive:]
            2025-03-01 10:00:00.300000+0100 MyApp[901:52917] background sync finished
            """),
            // print() output carries no thread: nothing can be said.
            RuleExample("""
            application(_:didFinishLaunchingWithOptions:)
            sceneDidBecomeActive(_:)
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard let main = session.mainThread.tid else { return [] }
        return session.events.indices.compactMap { i in
            let e = session.events[i]
            guard e.kind.isLifecycleCallback, let tid = e.tid, tid != main else { return nil }
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state,
                              "\(e.spelling ?? e.kind.rawValue) ran on thread \(tid), not on the main thread \(main) (where \(session.mainThread.supportingCallbacks) lifecycle callbacks ran)")
        }
    }
}
