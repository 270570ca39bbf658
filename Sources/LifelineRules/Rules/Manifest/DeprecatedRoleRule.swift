import LifelineCore

/// LC-M07: `UIWindowSceneSessionRoleExternalDisplay`, deprecated in iOS 16.
struct DeprecatedRoleRule: ManifestRule {
    static let description = RuleDescription(
        id: "LC-M07", name: "deprecated-role", category: .manifest, severity: .note,
        summary: "a session role is deprecated",
        rationale: "UIWindowSceneSessionRoleExternalDisplay was deprecated in iOS 16; external displays that only show content use UIWindowSceneSessionRoleExternalDisplayNonInteractive (UISceneSession.Role.windowExternalDisplayNonInteractive).",
        triggering: [
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
            ↓            <key>UIWindowSceneSessionRoleExternalDisplay</key>
                        <array>
                            <dict>
                                <key>UISceneConfigurationName</key>
                                <string>External Display</string>
                                <key>UISceneDelegateClassName</key>
                                <string>ExternalDisplaySceneDelegate</string>
                            </dict>
                        </array>
                    </dict>
                </dict>
            """)),
        ],
        nonTriggering: [
            RuleExample("", manifest: ExamplePlist.manifest([
                ("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate"),
                ("UIWindowSceneSessionRoleExternalDisplayNonInteractive", "External Display", "ExternalDisplaySceneDelegate"),
            ])),
        ],
        reads: .manifest)

    func check(_ manifest: SceneManifest, settings: RuleSettings) -> [Diagnostic] {
        manifest.roles.filter { $0.info == .externalDisplay }.map { r in
            finding(manifest, at: r.path, "\(r.role) is deprecated since iOS 16: use \(SceneRole.externalDisplayNonInteractive.rawValue)")
        }
    }
}
