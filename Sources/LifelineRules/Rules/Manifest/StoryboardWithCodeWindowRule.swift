import LifelineCore

/// LC-M14: the scene's configuration loads a storyboard, and the app also creates its window in code.
struct StoryboardWithCodeWindowRule: Rule {
    static let description = RuleDescription(
        id: "LC-M14", name: "storyboard-with-code-window", category: .manifest, severity: .warning,
        summary: "a scene loads a storyboard and the app also creates a window in code",
        rationale: "With UISceneStoryboardFile, UIKit creates the scene's window from the storyboard and sets the delegate's window before scene(_:willConnectTo:options:). An app that also creates a UIWindow there (the code-only template) replaces it: two windows are built, the storyboard's initial view controller is loaded for nothing, and outlets wired to the first are stale. Keep one: delete UISceneStoryboardFile or the window code. Needs the `window-created` marker in .lifeline.yml, and is checked only when the log shows the window being created.",
        triggering: [
            RuleExample("""
            2025-03-01 10:00:00.200000+0100 MyApp[900:41001] -[SceneDelegate scene:willConnectToSession:options:]
            ↓2025-03-01 10:00:00.210000+0100 MyApp[900:41001] SceneDelegate: window created, makeKeyAndVisible
            2025-03-01 10:00:00.300000+0100 MyApp[900:41001] -[SceneDelegate sceneDidBecomeActive:]
            """, config: "markers:\n  window-created: 'makeKeyAndVisible'", manifest: ExamplePlist.wrap("""
                <key>UIApplicationSceneManifest</key>
                <dict>
                    <key>UISceneConfigurations</key>
                    <dict>
                        <key>UIWindowSceneSessionRoleApplication</key>
                        <array>
                            <dict>
                                <key>UISceneConfigurationName</key>
                                <string>Default Configuration</string>
                                <key>UISceneDelegateClassName</key>
                                <string>SceneDelegate</string>
                                <key>UISceneStoryboardFile</key>
                                <string>Main</string>
                            </dict>
                        </array>
                    </dict>
                </dict>
            """)),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.200000+0100 MyApp[900:41001] -[SceneDelegate scene:willConnectToSession:options:]
            2025-03-01 10:00:00.210000+0100 MyApp[900:41001] SceneDelegate: window created, makeKeyAndVisible
            """, config: "markers:\n  window-created: 'makeKeyAndVisible'",
            manifest: ExamplePlist.manifest([("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate")])),
        ],
        reads: .logAndManifest)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard let manifest = settings.manifest, settings.has(.windowCreated) else { return [] }
        let window = manifest.configurations.filter { SceneRole(rawValue: $0.role).map(SceneManifest.windowRoles.contains) == true }
        let withStoryboard = window.filter { ($0.storyboard ?? "").isEmpty == false }
        guard !withStoryboard.isEmpty else { return [] }
        for i in session.indices(of: .windowCreated) {
            let connected = session.connectedWindowScenes(before: i)
            guard !connected.isEmpty else { continue }
            // The configuration the scene came from: the one naming its delegate class, or the only one.
            let classes = Set(connected.compactMap { $0.delegateClass.map(SceneManifest.unqualified) })
            let config = withStoryboard.first { c in c.delegateClass.map { classes.contains(SceneManifest.unqualified(manifest.expand($0).value)) } == true }
                ?? (window.count == 1 ? withStoryboard.first : nil)
            guard let config else { continue }
            let c = session.context(at: i)
            var d = diagnostic(session, event: i, scene: c.scene, state: c.state,
                               "the app created a window in code, but the scene's configuration \"\(config.name ?? "\(config.index)")\" loads storyboard \(config.storyboard ?? ""), which already made one")
            d.related.append(manifest.related(config.path(of: "UISceneStoryboardFile"), "UISceneStoryboardFile \(config.storyboard ?? "")"))
            return [d]
        }
        return []
    }
}
