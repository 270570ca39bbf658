import LifelineCore

/// LC-M12: the manifest declares scenes, but UIKit ran the process with the app-level life cycle.
struct ManifestNotPickedUpRule: Rule {
    static let kinds = ["app.didBecomeActive", "app.willResignActive", "app.didEnterBackground", "app.willEnterForeground"].map(EventKind.init(rawValue:))

    static let description = RuleDescription(
        id: "LC-M12", name: "manifest-not-picked-up", category: .manifest, severity: .error,
        summary: "the Info.plist declares scenes but UIKit ran the app without them",
        rationale: "When UIKit finds a scene configuration it calls the scene delegate and no longer calls applicationDidBecomeActive(_:), applicationWillResignActive(_:), applicationDidEnterBackground(_:) or applicationWillEnterForeground(_:). A process that gets those and no scene callback ran the legacy life cycle: the manifest checked here was not in the app UIKit launched (the keys nested wrongly in the real file, another target's Info.plist, an INFOPLIST_FILE or a generated plist that drops the manifest).",
        triggering: [
            RuleExample("""
            2026-03-02 09:12:40.118204+0100 Almanac[1422:60311] -[AppDelegate application:didFinishLaunchingWithOptions:]
            ↓2026-03-02 09:12:40.301966+0100 Almanac[1422:60311] -[AppDelegate applicationDidBecomeActive:]
            2026-03-02 09:14:02.551730+0100 Almanac[1422:60311] -[AppDelegate applicationWillResignActive:]
            """, manifest: ExamplePlist.manifest([("UIWindowSceneSessionRoleApplication", "Default Configuration", "$(PRODUCT_MODULE_NAME).SceneDelegate")])),
        ],
        nonTriggering: [
            // The app forwards scene callbacks to its app delegate: scenes are in effect (LC-A03's case).
            RuleExample("""
            2026-03-02 09:12:40.118204+0100 Almanac[1422:60311] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-03-02 09:12:40.200000+0100 Almanac[1422:60311] -[SceneDelegate sceneDidBecomeActive:]
            2026-03-02 09:12:40.301966+0100 Almanac[1422:60311] -[AppDelegate applicationDidBecomeActive:]
            """, manifest: ExamplePlist.manifest([("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate")])),
        ],
        reads: .logAndManifest)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard let manifest = settings.manifest, !manifest.configurations.isEmpty,
              !session.events.contains(where: { ["scene", "windowScene", "cp"].contains($0.kind.family) }),
              let i = session.indices(of: Self.kinds[0], Self.kinds[1], Self.kinds[2], Self.kinds[3]).first else { return [] }
        let c = session.context(at: i)
        var d = diagnostic(session, event: i, scene: c.scene, state: c.state,
                           "\(session.events[i].spelling ?? session.events[i].kind.rawValue) came from UIKit's app-level life cycle and no scene callback was logged, though the Info.plist given declares \(manifest.configurations.count) scene configuration\(manifest.configurations.count == 1 ? "" : "s"): the manifest was not picked up")
        d.related.append(manifest.related(manifest.configurationsPath, "the scene configurations UIKit did not use"))
        return [d]
    }
}
