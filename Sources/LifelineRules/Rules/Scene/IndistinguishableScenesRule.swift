import LifelineCore

/// LC-S14 (note): several scenes of one delegate class connected and their callbacks name no
/// scene, so they cannot be told apart: said once, instead of per-scene findings that would guess.
struct IndistinguishableScenesRule: Rule {
    static let description = RuleDescription(
        id: "LC-S14", name: "scenes-indistinguishable", category: .scene, severity: .note,
        summary: "several scenes log callbacks that name no scene: their order is not checked",
        rationale: "An app that logs `NSLog(@\"%s\", __PRETTY_FUNCTION__)` writes no scene pointer. With one window every callback is that scene's; once a second scene of the same delegate connects while the first is live (a second iPad window, an external display), a callback could be either, and a sequence that is wrong for one scene is right for two. Lifeline keeps these callbacks in one timeline marked as not distinguishable and runs no per-scene ordering rule on them. Log the scene (`NSLog(@\"%s %@\", __PRETTY_FUNCTION__, scene)`) to have them checked.",
        triggering: [
            RuleExample("""
            2026-05-04 10:15:02.100000+0200 Sketchpad[2210:83412] -[SceneDelegate scene:willConnectToSession:options:]
            2026-05-04 10:15:02.200000+0200 Sketchpad[2210:83412] -[SceneDelegate sceneWillEnterForeground:]
            2026-05-04 10:15:02.300000+0200 Sketchpad[2210:83412] -[SceneDelegate sceneDidBecomeActive:]
            ↓2026-05-04 10:16:40.100000+0200 Sketchpad[2210:83412] -[SceneDelegate scene:willConnectToSession:options:]
            2026-05-04 10:16:40.200000+0200 Sketchpad[2210:83412] -[SceneDelegate sceneWillEnterForeground:]
            2026-05-04 10:16:40.250000+0200 Sketchpad[2210:83412] -[SceneDelegate sceneWillResignActive:]
            2026-05-04 10:16:40.300000+0200 Sketchpad[2210:83412] -[SceneDelegate sceneDidBecomeActive:]
            """),
        ],
        nonTriggering: [
            // Scenes named by their address are tracked one by one.
            RuleExample("""
            2026-05-04 10:15:02.100000+0200 Sketchpad[2210:83412] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x1045a1c20; role: UIWindowSceneSessionRoleApplication>
            2026-05-04 10:16:40.100000+0200 Sketchpad[2210:83412] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x1045b7e40; role: UIWindowSceneSessionRoleApplication>
            """),
            // One window, reconnected after a disconnect: one scene at a time.
            RuleExample("""
            2026-05-04 10:15:02.100000+0200 Sketchpad[2210:83412] -[SceneDelegate scene:willConnectToSession:options:]
            2026-05-04 10:15:09.100000+0200 Sketchpad[2210:83412] -[SceneDelegate sceneDidDisconnect:]
            2026-05-04 10:16:40.100000+0200 Sketchpad[2210:83412] -[SceneDelegate scene:willConnectToSession:options:]
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        session.scenes.compactMap { scene in
            // Carried over from the part before with its scenes already mixed: said there.
            guard let from = scene.indistinguishableFrom, from < scene.entries.count, !(scene.carriedOver && from == 0) else { return nil }
            let index = scene.entries[from].event
            let delegate = scene.delegateClass ?? "the same delegate"
            return diagnostic(session, event: index, scene: scene, state: SceneState.unknown.rawValue,
                              "\(scene.sceneCount) scenes of \(delegate) connected and their callbacks name no scene address: they cannot be told apart, so no per-scene ordering rule ran on the \(scene.entries.count - from) callbacks from here on")
        }
    }
}
