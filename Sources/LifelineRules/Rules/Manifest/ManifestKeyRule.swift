import LifelineCore

/// LC-M01: keys UIKit does not read where they are: unknown or misspelt, nested at the wrong
/// level, or of the wrong type. UIKit ignores them silently, so the scene setup they were meant
/// for does not happen.
struct ManifestKeyRule: ManifestRule {
    static let description = RuleDescription(
        id: "LC-M01", name: "manifest-key", category: .manifest, severity: .warning,
        summary: "a scene manifest key is unknown, misspelt, nested at the wrong level or of the wrong type",
        rationale: "UIKit reads UIApplicationSceneManifest at the top of the Info.plist, UIApplicationSupportsMultipleScenes and UISceneConfigurations inside it, session-role arrays inside UISceneConfigurations, and UISceneConfigurationName, UISceneClassName, UISceneDelegateClassName and UISceneStoryboardFile in each configuration (reference §8). It ignores anything else without a word: a misspelt role or a key one level too high means no scene is created from it. Keys at the wrong level or of the wrong type are errors; unknown keys are warnings, with the closest known key.",
        triggering: [
            RuleExample("", manifest: ExamplePlist.wrap("""
                <key>UIApplicationSceneManifest</key>
                <dict>
                    <key>UIApplicationSupportsMultipleScenes</key>
                    <false/>
                    <key>UISceneConfigurations</key>
                    <dict>
            ↓            <key>UIWindowSceneSessionRoleApplications</key>
                        <array>
                            <dict>
                                <key>UISceneConfigurationName</key>
                                <string>Default Configuration</string>
                                <key>UISceneDelegateClassName</key>
                                <string>SceneDelegate</string>
                            </dict>
                        </array>
                    </dict>
                </dict>
            """)),
            // The configurations at the top level: UIKit never sees them.
            RuleExample("", manifest: ExamplePlist.wrap("""
                <key>UIApplicationSceneManifest</key>
                <dict>
            ↓        <key>UIApplicationSupportsMultipleScenes</key>
                    <string>NO</string>
                </dict>
            ↓    <key>UISceneConfigurations</key>
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
                </dict>
            """)),
        ],
        nonTriggering: [
            // SEED 001's shape: phone and CarPlay, the CarPlay entry without a name or class.
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
                                <key>UISceneClassName</key>
                                <string>UIWindowScene</string>
                                <key>UISceneConfigurationName</key>
                                <string>Default Configuration</string>
                                <key>UISceneDelegateClassName</key>
                                <string>$(PRODUCT_MODULE_NAME).SceneDelegate</string>
                                <key>UISceneStoryboardFile</key>
                                <string>Main</string>
                            </dict>
                        </array>
                        <key>CPTemplateApplicationSceneSessionRoleApplication</key>
                        <array>
                            <dict>
                                <key>UISceneDelegateClassName</key>
                                <string>$(PRODUCT_MODULE_NAME).CarPlaySceneDelegate</string>
                            </dict>
                        </array>
                    </dict>
                </dict>
            """)),
        ],
        reads: .manifest)

    static let manifestKeys: [String: String] = [
        "UIApplicationSupportsMultipleScenes": "boolean", "UIApplicationSupportsTabbedSceneCollection": "boolean",
        "CPSupportsDashboardNavigationScene": "boolean", "CPSupportsInstrumentClusterNavigationScene": "boolean",
        SceneManifest.configurationsKey: "dict",
        "UIApplicationPreferredDefaultSceneSessionRole": "string",
    ]

    func check(_ manifest: SceneManifest, settings: RuleSettings) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let roleNames = SceneRole.allCases.map(\.rawValue)
        // The top level: scene keys outside the manifest, and a misspelt manifest key.
        for key in manifest.root.keys {
            let path = PlistKeyPath(keys: key)
            if Self.manifestKeys[key] != nil || roleNames.contains(key) {
                found.append(finding(manifest, at: path, severity: .error,
                                     "\(key) is at the top level of the Info.plist: UIKit reads it only inside \(SceneManifest.manifestKey)"))
            } else if key != SceneManifest.manifestKey, key.hasPrefix("UI"), editDistance(key, SceneManifest.manifestKey) <= 3 {
                found.append(finding(manifest, at: path, "\(key) is not a key UIKit reads; did you mean \(SceneManifest.manifestKey)?"))
            }
        }
        guard let value = manifest.root[SceneManifest.manifestKey] else { return found }
        guard let scene = value.dictionary else {
            return found + [finding(manifest, at: manifest.manifestPath, severity: .error,
                                    "\(SceneManifest.manifestKey) is a \(value.typeName); UIKit reads it only as a dict")]
        }
        for (key, value) in scene.entries {
            let path = manifest.manifestPath.appending(key: key)
            if let type = Self.manifestKeys[key] {
                if value.typeName != type {
                    found.append(finding(manifest, at: path, severity: .error, "\(key) is a \(value.typeName); UIKit reads it only as a \(type)"))
                }
            } else if roleNames.contains(key) {
                found.append(finding(manifest, at: path, severity: .error,
                                     "the session role \(key) is directly in \(SceneManifest.manifestKey): UIKit reads roles only inside \(SceneManifest.configurationsKey)"))
            } else {
                found.append(finding(manifest, at: path, unknown(key, known: Array(Self.manifestKeys.keys), in: SceneManifest.manifestKey)))
            }
        }
        guard let configs = scene[SceneManifest.configurationsKey]?.dictionary else { return found }
        for (role, value) in configs.entries {
            let path = manifest.configurationsPath.appending(key: role)
            guard SceneRole(rawValue: role) != nil else {
                let severity: Severity? = SceneConfiguration.knownKeys.contains(role) ? .error : nil
                found.append(finding(manifest, at: path, severity: severity, SceneConfiguration.knownKeys.contains(role)
                    ? "\(role) is directly in \(SceneManifest.configurationsKey): it belongs in a configuration dict inside a session role's array"
                    : unknown(role, known: roleNames, in: SceneManifest.configurationsKey)))
                continue
            }
            guard let list = value.array else {
                found.append(finding(manifest, at: path, severity: .error, "the session role \(role) is a \(value.typeName); UIKit reads an array of configuration dicts"))
                continue
            }
            for (i, item) in list.enumerated() {
                let itemPath = path.appending(index: i)
                guard let config = item.dictionary else {
                    found.append(finding(manifest, at: itemPath, severity: .error, "configuration \(i) of \(role) is a \(item.typeName), not a dict"))
                    continue
                }
                for (key, v) in config.entries {
                    let keyPath = itemPath.appending(key: key)
                    if !SceneConfiguration.knownKeys.contains(key) {
                        found.append(finding(manifest, at: keyPath, unknown(key, known: Array(SceneConfiguration.knownKeys), in: "a scene configuration")))
                    } else if v.string == nil {
                        found.append(finding(manifest, at: keyPath, severity: .error, "\(key) is a \(v.typeName); UIKit reads it only as a string"))
                    }
                }
            }
        }
        return found
    }

    private func unknown(_ key: String, known: [String], in place: String) -> String {
        let close = known.sorted().map { ($0, editDistance($0, key)) }.filter { $0.1 <= 4 }.min { $0.1 < $1.1 }?.0
        return "\(key) is not a key UIKit reads in \(place)" + (close.map { "; did you mean \($0)?" } ?? "")
    }
}
