import LifelineCore

/// LC-M05: a scene manifest, or a session role in it, without any configuration.
struct EmptyConfigurationsRule: ManifestRule {
    static let description = RuleDescription(
        id: "LC-M05", name: "empty-configurations", category: .manifest, severity: .warning,
        summary: "the scene manifest, or a session role in it, has no configuration",
        rationale: "UIApplicationSceneManifest opts the app into scenes, but UIKit can only create a scene from a configuration: one in UISceneConfigurations, or one returned by application(_:configurationForConnecting:options:). An empty manifest or role is how the '(no name)' messages and apps without real scene adoption start (XcodeGen #1305, Apple forums 820807); unless the app delegate builds its configurations in code, add one.",
        triggering: [
            RuleExample("", manifest: ExamplePlist.wrap("""
            ↓    <key>UIApplicationSceneManifest</key>
                <dict>
                    <key>UIApplicationSupportsMultipleScenes</key>
                    <false/>
                </dict>
            """)),
            RuleExample("", manifest: ExamplePlist.wrap("""
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
                            </dict>
                        </array>
            ↓            <key>UIWindowSceneSessionRoleExternalDisplayNonInteractive</key>
                        <array/>
                    </dict>
                </dict>
            """)),
        ],
        nonTriggering: [
            RuleExample("", manifest: ExamplePlist.manifest([("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate")])),
        ],
        reads: .manifest)

    func check(_ manifest: SceneManifest, settings: RuleSettings) -> [Diagnostic] {
        guard let scene = manifest.sceneManifest else { return [] }
        guard let configs = scene[SceneManifest.configurationsKey]?.dictionary, !configs.entries.isEmpty else {
            return [finding(manifest, at: manifest.manifestPath,
                            "\(SceneManifest.manifestKey) declares no scene configuration: unless application(_:configurationForConnecting:options:) returns one, UIKit has nothing to create a scene from")]
        }
        return manifest.roles.compactMap { r in
            guard r.info != nil, let list = r.value.array, list.isEmpty else { return nil }
            return finding(manifest, at: r.path, "the session role \(r.role) has no configuration: UIKit cannot create a scene for it from the Info.plist")
        }
    }
}
