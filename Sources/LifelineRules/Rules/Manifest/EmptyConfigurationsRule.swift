import LifelineCore

/// LC-M05: a scene manifest, or a session role in it, without any configuration.
struct EmptyConfigurationsRule: ManifestRule {
    static let description = RuleDescription(
        id: "LC-M05", name: "empty-configurations", category: .manifest, severity: .note,
        summary: "the scene manifest, or a session role in it, has no configuration",
        rationale: "UIApplicationSceneManifest opts the app into scenes, but UIKit can only create a scene from a configuration: one in UISceneConfigurations, or one made in code. A SwiftUI App makes its own (Xcode's SwiftUI template ships a manifest with nothing but UIApplicationSupportsMultipleScenes), and so does an app delegate whose application(_:configurationForConnecting:options:) builds the configuration; any other UIKit app gets the '(no name)' messages and no real scene adoption (XcodeGen #1305, Apple forums 820807). So an empty manifest is a note; a session role whose array is empty is a warning, since nothing can come of it.",
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
                            "\(SceneManifest.manifestKey) declares no scene configuration: fine for a SwiftUI App or an app delegate that returns configurations from application(_:configurationForConnecting:options:); otherwise UIKit has nothing to create a scene from")]
        }
        return manifest.roles.compactMap { r in
            guard r.info != nil, let list = r.value.array, list.isEmpty else { return nil }
            return finding(manifest, at: r.path, severity: .warning, "the session role \(r.role) has no configuration: UIKit cannot create a scene for it from the Info.plist")
        }
    }
}
