import LifelineCore

/// A rule about the Info.plist scene manifest. It is a `Rule` like the log rules (one catalogue,
/// one selection, one set of severity overrides and examples), checked once per manifest by
/// `lifeline manifest` and by `analyze --manifest`. A manifest rule may also check sessions
/// against the manifest (LC-C07 does both); by default it has nothing to say about a session.
public protocol ManifestRule: Rule {
    func check(_ manifest: SceneManifest, settings: RuleSettings) -> [Diagnostic]
}

extension ManifestRule {
    public func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] { [] }

    /// A finding at `path` of `manifest`: its line (XML) and key path.
    func finding(_ manifest: SceneManifest, at path: PlistKeyPath, severity: Severity? = nil, _ message: String) -> Diagnostic {
        let d = Self.description
        var found = Diagnostic(ruleId: d.id, rule: d.name, severity: severity ?? d.severity, message: message,
                               file: manifest.file, line: manifest.line(of: path) ?? 0, session: "", scene: nil, state: nil)
        found.keyPath = path.description
        return found
    }
}

extension SceneManifest {
    /// The place of `path`, to name as a related location of a finding in the log.
    func related(_ path: PlistKeyPath, _ message: String) -> RelatedLocation {
        RelatedLocation(file: file, line: line(of: path) ?? 0, message: message, keyPath: path.description)
    }

    /// The delegate class names of the configurations of `roles`, as UIKit would load them.
    func delegateClasses(of roles: Set<SceneRole>) -> [(configuration: SceneConfiguration, className: BuildSettingExpansion)] {
        configurations.compactMap { c in
            guard let role = SceneRole(rawValue: c.role), roles.contains(role), let name = c.delegateClass, !name.isEmpty else { return nil }
            return (c, expand(name))
        }
    }

    /// Whether the manifest declares any configuration for `roles`.
    func declares(_ roles: Set<SceneRole>) -> Bool {
        self.roles.contains { r in r.info.map(roles.contains) == true && !r.configurations.isEmpty }
    }

    static let windowRoles: Set<SceneRole> = [.windowApplication, .externalDisplay, .externalDisplayNonInteractive, .assistiveAccess]
    static let carPlayRoles: Set<SceneRole> = [.carPlay, .carPlayDashboard, .carPlayCluster]
}

/// The XML around an example's keys: examples show only the `<dict>` body of the Info.plist.
enum ExamplePlist {
    static func wrap(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(body)
        </dict>
        </plist>
        """
    }

    /// A scene manifest with one configuration per `(role, name, delegate)` (roles in the order
    /// given), `UIApplicationSupportsMultipleScenes` set to `multiple`, and `extra` lines of keys
    /// after it.
    static func manifest(multiple: Bool = false, _ configurations: [(role: String, name: String, delegate: String)],
                         extra: [String] = []) -> String {
        var lines = ["    <key>UIApplicationSceneManifest</key>", "    <dict>",
                     "        <key>UIApplicationSupportsMultipleScenes</key>", "        <\(multiple)/>"]
        lines += extra.map { "        " + $0 }
        lines += ["        <key>UISceneConfigurations</key>", "        <dict>"]
        var roles: [String] = []
        for c in configurations where !roles.contains(c.role) { roles.append(c.role) }
        for role in roles {
            lines += ["            <key>\(role)</key>", "            <array>"]
            for c in configurations where c.role == role {
                lines += ["                <dict>",
                          "                    <key>UISceneConfigurationName</key>", "                    <string>\(c.name)</string>",
                          "                    <key>UISceneDelegateClassName</key>", "                    <string>\(c.delegate)</string>",
                          "                </dict>"]
            }
            lines += ["            </array>"]
        }
        lines += ["        </dict>", "    </dict>"]
        return wrap(lines.joined(separator: "\n"))
    }
}
