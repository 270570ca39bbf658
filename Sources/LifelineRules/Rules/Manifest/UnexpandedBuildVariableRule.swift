import LifelineCore

/// LC-M09: `$(…)` build variables in the manifest's values: normal in a source Info.plist (Xcode
/// expands them), a bug in a built app's.
struct UnexpandedBuildVariableRule: ManifestRule {
    static let description = RuleDescription(
        id: "LC-M09", name: "unexpanded-build-variable", category: .manifest, severity: .note,
        summary: "a manifest value holds a build variable such as $(PRODUCT_MODULE_NAME)",
        rationale: "Xcode expands $(PRODUCT_MODULE_NAME) and other build settings when it builds the app, so a source Info.plist can only be checked for class names once the module is known: pass --product-module NAME (or `product-module:` under `manifest:` in .lifeline.yml), or give the built .app or .ipa. In a built app's Info.plist the variable is a bug (a build system that does not expand it, bazelbuild/rules_apple #1016): UIKit looks for a class literally named '$(PRODUCT_MODULE_NAME).SceneDelegate' and finds none (an error there).",
        triggering: [
            RuleExample("", manifest: ExamplePlist.wrap("""
                <key>UIApplicationSceneManifest</key>
                <dict>
                    <key>UIApplicationSupportsMultipleScenes</key>
                    <false/>
                    <key>UISceneConfigurations</key>
                    <dict>
                        <key>UIWindowSceneSessionRoleApplication</key>
                        <array>
                            <dict>
                                <key>UISceneClassName</key>
                                <string>UIWindowScene</string>
                                <key>UISceneConfigurationName</key>
                                <string>DefaultSceneConfiguration</string>
            ↓                    <key>UISceneDelegateClassName</key>
                                <string>$(PRODUCT_MODULE_NAME).SceneDelegate</string>
                            </dict>
                        </array>
                    </dict>
                </dict>
            """)),
        ],
        nonTriggering: [
            RuleExample("", manifest: ExamplePlist.manifest([("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate")])),
        ],
        reads: .manifest)

    func check(_ manifest: SceneManifest, settings: RuleSettings) -> [Diagnostic] {
        var found: [Diagnostic] = []
        func visit(_ value: PlistValue, _ path: PlistKeyPath) {
            switch value {
            case .string(let s):
                let e = manifest.expand(s)
                guard !e.isComplete else { return }
                let vars = e.unexpanded.map { "$(\($0))" }.joined(separator: ", ")
                if manifest.isBuilt {
                    found.append(finding(manifest, at: path, severity: .error,
                                         "the built app's Info.plist still holds \(vars) in \"\(s)\": the build did not expand it, so UIKit looks for that name literally"))
                } else if e.unexpanded.allSatisfy({ $0 == "PRODUCT_MODULE_NAME" }) {
                    found.append(finding(manifest, at: path, "\"\(s)\" is expanded when Xcode builds the app: pass --product-module NAME, or the built .app, to check it against the log"))
                } else {
                    found.append(finding(manifest, at: path, "\"\(s)\" holds \(vars), which Xcode expands when it builds the app: give the built .app to check the value UIKit reads"))
                }
            case .array(let a): for (i, v) in a.enumerated() { visit(v, path.appending(index: i)) }
            case .dictionary(let d): for (k, v) in d.entries { visit(v, path.appending(key: k)) }
            default: break
            }
        }
        if let scene = manifest.root[SceneManifest.manifestKey] { visit(scene, manifest.manifestPath) }
        return found
    }
}
