import LifelineCore

/// LC-M10: multiple scenes declared by an app that can only ever show one.
struct MultipleScenesUnusableRule: ManifestRule {
    static let description = RuleDescription(
        id: "LC-M10", name: "multiple-scenes-unusable", category: .manifest, severity: .note,
        summary: "multiple scenes are declared by an app that runs on iPhone only",
        rationale: "UIApplicationSupportsMultipleScenes lets UIKit create several window scenes; UIApplication.supportsMultipleScenes is true only where the system allows it too, and the iPhone shows one window scene at a time. An app whose UIDeviceFamily has no iPad (2) or Mac (6) declares a capability it cannot use, and code written for several windows (a scene lookup by session, state restoration per scene) is never exercised. The opposite mistake, NO with several scenes in the log, is LC-A13.",
        triggering: [
            RuleExample("", manifest: ExamplePlist.wrap("""
                <key>UIDeviceFamily</key>
                <array>
                    <integer>1</integer>
                </array>
                <key>UIApplicationSceneManifest</key>
                <dict>
            ↓        <key>UIApplicationSupportsMultipleScenes</key>
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
                        </array>
                    </dict>
                </dict>
            """)),
        ],
        nonTriggering: [
            RuleExample("", manifest: ExamplePlist.wrap("""
                <key>UIDeviceFamily</key>
                <array>
                    <integer>1</integer>
                    <integer>2</integer>
                </array>
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
                        </array>
                    </dict>
                </dict>
            """)),
        ],
        reads: .manifest)

    func check(_ manifest: SceneManifest, settings: RuleSettings) -> [Diagnostic] {
        guard manifest.supportsMultipleScenes == true, let families = manifest.root["UIDeviceFamily"]?.array else { return [] }
        let ids = families.compactMap { v -> Int? in if case .integer(let n) = v { return n }; return v.string.flatMap { Int($0) } }
        guard !ids.isEmpty, !ids.contains(2), !ids.contains(6) else { return [] }
        return [finding(manifest, at: manifest.manifestPath.appending(key: "UIApplicationSupportsMultipleScenes"),
                        "UIApplicationSupportsMultipleScenes is true but UIDeviceFamily lists iPhone only: the app never gets a second window scene")]
    }
}
