import LifelineCore

/// LC-M06: a manifest whose only configurations are CarPlay ones.
struct CarPlayOnlyManifestRule: ManifestRule {
    static let description = RuleDescription(
        id: "LC-M06", name: "carplay-only-manifest", category: .manifest, severity: .warning,
        summary: "the scene manifest has CarPlay configurations only",
        rationale: "A scene manifest makes the whole app scene-based. With only a CarPlay role, the phone's window has no configuration: it is not loaded the way the app delegate used to load it, and the phone shows nothing (organicmaps #12607: 'a scene manifest with only the CarPlay role leaves the main window unloaded'). Add a UIWindowSceneSessionRoleApplication configuration with its scene delegate.",
        triggering: [
            RuleExample("", manifest: ExamplePlist.wrap("""
                <key>UIApplicationSceneManifest</key>
                <dict>
                    <key>UIApplicationSupportsMultipleScenes</key>
                    <true/>
            ↓        <key>UISceneConfigurations</key>
                    <dict>
                        <key>CPTemplateApplicationSceneSessionRoleApplication</key>
                        <array>
                            <dict>
                                <key>UISceneConfigurationName</key>
                                <string>CarPlay</string>
                                <key>UISceneDelegateClassName</key>
                                <string>CarPlaySceneDelegate</string>
                            </dict>
                        </array>
                    </dict>
                </dict>
            """)),
        ],
        nonTriggering: [
            RuleExample("", manifest: ExamplePlist.manifest(multiple: true, [
                ("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate"),
                ("CPTemplateApplicationSceneSessionRoleApplication", "CarPlay", "CarPlaySceneDelegate"),
            ])),
        ],
        reads: .manifest)

    func check(_ manifest: SceneManifest, settings: RuleSettings) -> [Diagnostic] {
        guard manifest.declares(SceneManifest.carPlayRoles), !manifest.declares(SceneManifest.windowRoles) else { return [] }
        return [finding(manifest, at: manifest.configurationsPath,
                        "the scene manifest configures CarPlay scenes only: the phone's window has no scene configuration and will not be shown")]
    }
}
