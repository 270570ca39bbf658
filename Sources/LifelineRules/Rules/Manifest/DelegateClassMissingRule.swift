import LifelineCore

/// LC-M03: a scene configuration without a delegate class (the CarPlay ones included).
struct DelegateClassMissingRule: ManifestRule {
    static let description = RuleDescription(
        id: "LC-M03", name: "delegate-class-missing", category: .manifest, severity: .error,
        summary: "a scene configuration names no delegate class",
        rationale: "Without UISceneDelegateClassName UIKit creates the scene with no delegate: no scene callback arrives, a storyboard cannot be shown ('There is no scene delegate set'), and a CarPlay scene cannot connect at all, since CarPlay needs a CPTemplateApplicationSceneDelegate to hand the interface controller to. Swift apps write $(PRODUCT_MODULE_NAME).SceneDelegate, Objective-C apps the bare class name.",
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
                                <string>$(PRODUCT_MODULE_NAME).SceneDelegate</string>
                            </dict>
                        </array>
                        <key>CPTemplateApplicationSceneSessionRoleApplication</key>
                        <array>
            ↓                <dict>
                                <key>UISceneConfigurationName</key>
                                <string>CarPlay Configuration</string>
                            </dict>
                        </array>
                    </dict>
                </dict>
            """)),
        ],
        nonTriggering: [
            // SEED 002's shape: two phone configurations, each with its delegate and storyboard.
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
                                <key>UISceneStoryboardFile</key>
                                <string>Main</string>
                            </dict>
                            <dict>
                                <key>UISceneConfigurationName</key>
                                <string>Other Configuration</string>
                                <key>UISceneDelegateClassName</key>
                                <string>OtherSceneDelegate</string>
                                <key>UISceneStoryboardFile</key>
                                <string>Other</string>
                            </dict>
                        </array>
                    </dict>
                </dict>
            """)),
        ],
        reads: .manifest)

    func check(_ manifest: SceneManifest, settings: RuleSettings) -> [Diagnostic] {
        manifest.configurations.compactMap { c in
            guard let role = SceneRole(rawValue: c.role) else { return nil }
            let name = c.name.map { "\"\($0)\"" } ?? "\(c.index)"
            if let cls = c.delegateClass, !cls.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
            let at = c.delegateClass == nil ? c.path : c.path(of: "UISceneDelegateClassName")
            if role.isCarPlay {
                return finding(manifest, at: at, "CarPlay configuration \(name) of \(c.role) names no \(role.delegateProtocol) class: CarPlay cannot connect the scene")
            }
            return finding(manifest, at: at, "configuration \(name) of \(c.role) names no scene delegate class: no scene callback will arrive\(c.storyboard != nil ? " and its storyboard cannot be shown" : "")")
        }
    }
}
