import LifelineCore

/// LC-M08: two configurations of one role with the same name, or a name that is empty.
struct ConfigurationNameRule: ManifestRule {
    static let description = RuleDescription(
        id: "LC-M08", name: "configuration-name", category: .manifest, severity: .error,
        summary: "a scene configuration name is given twice in a role, or is empty",
        rationale: "Code asks for a configuration by name (UISceneConfiguration(name:sessionRole:), and the name returned from application(_:configurationForConnecting:options:) must be one of the manifest's). Two configurations of one role with one name leave the second unreachable (an error); an empty name cannot be asked for (a warning). A configuration without the key is fine when it is the role's only one: UIKit uses the first entry of a role as its default.",
        triggering: [
            RuleExample("", manifest: ExamplePlist.wrap("""
                <key>UIApplicationSceneManifest</key>
                <dict>
                    <key>UIApplicationSupportsMultipleScenes</key>
                    <true/>
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
                            <dict>
            ↓                    <key>UISceneConfigurationName</key>
                                <string>Default Configuration</string>
                                <key>UISceneDelegateClassName</key>
                                <string>InspectorSceneDelegate</string>
                            </dict>
                            <dict>
            ↓                    <key>UISceneConfigurationName</key>
                                <string></string>
                                <key>UISceneDelegateClassName</key>
                                <string>ComposerSceneDelegate</string>
                            </dict>
                        </array>
                    </dict>
                </dict>
            """)),
        ],
        nonTriggering: [
            // The same name in two roles is two configurations.
            RuleExample("", manifest: ExamplePlist.manifest(multiple: true, [
                ("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate"),
                ("CPTemplateApplicationSceneSessionRoleApplication", "Default Configuration", "CarPlaySceneDelegate"),
            ])),
        ],
        reads: .manifest)

    func check(_ manifest: SceneManifest, settings: RuleSettings) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for r in manifest.roles {
            var seen: [String: SceneConfiguration] = [:]
            for c in r.configurations {
                guard let name = c.name else { continue }
                let at = c.path(of: "UISceneConfigurationName")
                if name.trimmingCharacters(in: .whitespaces).isEmpty {
                    found.append(finding(manifest, at: at, severity: .warning, "configuration \(c.index) of \(r.role) has an empty UISceneConfigurationName: code cannot ask for it by name"))
                } else if let first = seen[name] {
                    found.append(finding(manifest, at: at, "configuration name \"\(name)\" is given twice in \(r.role) (configurations \(first.index) and \(c.index)): UIKit finds only the first"))
                } else {
                    seen[name] = c
                }
            }
        }
        return found
    }
}
