import LifelineCore

/// LC-M02: a configuration's UISceneClassName is UIScene, or the class of another role.
struct SceneClassRule: ManifestRule {
    static let description = RuleDescription(
        id: "LC-M02", name: "scene-class", category: .manifest, severity: .error,
        summary: "UISceneClassName is UIScene or does not fit the session role",
        rationale: "UISceneClassName names the class UIKit instantiates: UIWindowScene for window roles, CPTemplateApplicationScene, CPTemplateApplicationDashboardScene or CPTemplateApplicationInstrumentClusterScene for the CarPlay roles. Apple's documentation says not to specify UIScene; a class of another role gives a scene its delegate cannot drive. Leaving the key out is fine: UIKit uses the role's class.",
        triggering: [
            RuleExample("", manifest: ExamplePlist.wrap("""
                <key>UIApplicationSceneManifest</key>
                <dict>
                    <key>UISceneConfigurations</key>
                    <dict>
                        <key>CPTemplateApplicationSceneSessionRoleApplication</key>
                        <array>
                            <dict>
            ↓                    <key>UISceneClassName</key>
                                <string>UIWindowScene</string>
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
            // Apple's CarPlay sample shape.
            RuleExample("", manifest: ExamplePlist.wrap("""
                <key>UIApplicationSceneManifest</key>
                <dict>
                    <key>UIApplicationSupportsMultipleScenes</key>
                    <true/>
                    <key>UISceneConfigurations</key>
                    <dict>
                        <key>CPTemplateApplicationSceneSessionRoleApplication</key>
                        <array>
                            <dict>
                                <key>UISceneClassName</key>
                                <string>CPTemplateApplicationScene</string>
                                <key>UISceneConfigurationName</key>
                                <string>MyCarPlaySceneConfiguration</string>
                                <key>UISceneDelegateClassName</key>
                                <string>MyCarPlaySceneDelegate</string>
                            </dict>
                        </array>
                    </dict>
                </dict>
            """)),
        ],
        reads: .manifest)

    func check(_ manifest: SceneManifest, settings: RuleSettings) -> [Diagnostic] {
        let known = Set(SceneRole.allCases.map(\.sceneClass))
        return manifest.configurations.compactMap { c in
            guard let role = SceneRole(rawValue: c.role), let raw = c.sceneClass else { return nil }
            let cls = manifest.expand(raw).value
            let at = c.path(of: "UISceneClassName")
            if cls == "UIScene" {
                return finding(manifest, at: at, "UISceneClassName is UIScene in \(c.role): do not specify UIScene; use \(role.sceneClass) or leave the key out")
            }
            guard known.contains(cls), cls != role.sceneClass else { return nil }
            return finding(manifest, at: at, "UISceneClassName is \(cls) in \(c.role), whose scenes are \(role.sceneClass)")
        }
    }
}
