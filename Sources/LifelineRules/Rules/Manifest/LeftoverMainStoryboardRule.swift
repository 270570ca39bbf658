import LifelineCore

/// LC-M04: `UIMainStoryboardFile` is still set after adopting scenes.
struct LeftoverMainStoryboardRule: ManifestRule {
    static let description = RuleDescription(
        id: "LC-M04", name: "leftover-main-storyboard", category: .manifest, severity: .warning,
        summary: "UIMainStoryboardFile is kept after adopting scenes",
        rationale: "With scenes, each configuration loads its own storyboard (UISceneStoryboardFile). A UIMainStoryboardFile left from before the migration makes UIKit load the storyboard at launch for the app delegate's window, which no scene shows; the migration guides say to delete the key (SEED 003).",
        triggering: [
            RuleExample("", manifest: ExamplePlist.wrap("""
            ↓    <key>UIMainStoryboardFile</key>
                <string>Main</string>
                <key>UIApplicationSceneManifest</key>
                <dict>
                    <key>UIApplicationSupportsMultipleScenes</key>
                    <false/>
                    <key>UISceneConfigurations</key>
                    <dict>
                        <key>UIWindowSceneSessionRoleApplication</key>
                        <array>
                            <dict>
                                <key>UISceneConfigurationName</key>
                                <string>Default Configuration</string>
                                <key>UISceneDelegateClassName</key>
                                <string>ZZFlashAirShareSceneDelegate</string>
                                <key>UISceneStoryboardFile</key>
                                <string>Main</string>
                            </dict>
                        </array>
                    </dict>
                </dict>
            """)),
        ],
        nonTriggering: [
            // An app that has not adopted scenes keeps its main storyboard.
            RuleExample("", manifest: ExamplePlist.wrap("""
                <key>UIMainStoryboardFile</key>
                <string>Main</string>
            """)),
        ],
        reads: .manifest)

    func check(_ manifest: SceneManifest, settings: RuleSettings) -> [Diagnostic] {
        guard !manifest.configurations.isEmpty else { return [] }
        return manifest.root.entries.compactMap { key, value in
            guard key == "UIMainStoryboardFile" || key.hasPrefix("UIMainStoryboardFile~") else { return nil }
            let stored = value.string.map { " (\($0))" } ?? ""
            return finding(manifest, at: PlistKeyPath(keys: key),
                           "\(key)\(stored) is still set though the app adopts scenes: delete it and give each scene configuration its UISceneStoryboardFile")
        }
    }
}
