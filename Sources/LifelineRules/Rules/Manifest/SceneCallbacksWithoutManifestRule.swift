import LifelineCore

/// LC-M11: the log shows scene callbacks, but the Info.plist given has no scene manifest.
struct SceneCallbacksWithoutManifestRule: Rule {
    static let description = RuleDescription(
        id: "LC-M11", name: "scene-callbacks-without-manifest", category: .manifest, severity: .error,
        summary: "scene callbacks are logged but the Info.plist given has no UIApplicationSceneManifest",
        rationale: "UIKit runs an app with scenes only when its Info.plist has UIApplicationSceneManifest. A log full of scene-delegate callbacks checked against a plist without one means the plist is not the one the app was built with: another target's, a stale copy, or INFOPLIST_FILE pointing elsewhere. Every other manifest check of this run is then about the wrong file.",
        triggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            ↓2025-03-01 10:00:00.200000+0100 MyApp[900:41001] -[SceneDelegate scene:willConnectToSession:options:]
            2025-03-01 10:00:00.300000+0100 MyApp[900:41001] -[SceneDelegate sceneDidBecomeActive:]
            """, manifest: ExamplePlist.wrap("""
                <key>CFBundleIdentifier</key>
                <string>com.example.myapp</string>
                <key>UIMainStoryboardFile</key>
                <string>Main</string>
            """)),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-03-01 10:00:00.200000+0100 MyApp[900:41001] -[SceneDelegate scene:willConnectToSession:options:]
            """, manifest: ExamplePlist.manifest([("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate")])),
        ],
        online: true, reads: .logAndManifest)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard let manifest = settings.manifest, manifest.sceneManifest == nil,
              let i = session.events.firstIndex(where: { ["scene", "windowScene"].contains($0.kind.family) }) else { return [] }
        let c = session.context(at: i)
        var d = diagnostic(session, event: i, scene: c.scene, state: c.state,
                           "\(session.events[i].spelling ?? session.events[i].kind.rawValue) shows the app runs with scenes, but the Info.plist given has no \(SceneManifest.manifestKey): it is not the plist this app was built with")
        d.related.append(manifest.related(PlistKeyPath(), "the Info.plist given, without \(SceneManifest.manifestKey)"))
        return [d]
    }
}
