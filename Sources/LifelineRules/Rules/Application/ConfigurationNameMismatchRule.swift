import LifelineCore

/// LC-A06: UIKit looked for a scene configuration name the Info.plist does not have.
struct ConfigurationNameMismatchRule: Rule {
    static let description = RuleDescription(
        id: "LC-A06", name: "configuration-name-mismatch", category: .application, severity: .error,
        summary: "the scene configuration name is not in the Info.plist",
        rationale: "The name returned from application(_:configurationForConnecting:options:) must be a UISceneConfigurationName of the manifest for that role; copying the code and the plist from different templates ('Default Configuration' against 'DefaultSceneConfiguration') gives exactly this message and a scene without a delegate. With --manifest, a configuration the log describes (<UISceneConfiguration: 0x…; name: \"…\"; role: …>, as printed by the app or by `po`) is also checked against the Info.plist's names for its role, before UIKit complains.",
        triggering: [
            RuleExample("""
            ↓2022-12-19 11:57:15.692222-0800 MyApp[40211:4411274] [SceneConfiguration] Info.plist contained no UIScene configuration dictionary (looking for configuration named "Default Configuration")
            """),
        ],
        nonTriggering: [
            // "(no name)": the manifest has no configurations at all (a different problem).
            RuleExample("""
            2022-12-19 11:57:15.692222-0800 MyApp[40211:4411274] [SceneConfiguration] Info.plist contained no UIScene configuration dictionary (looking for configuration named "(no name)")
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        let manifest = settings.manifest
        var found = each(.sceneConfiguration, session, where: { e in e.details?.configurationName.map { $0 != "(no name)" } ?? false }) { e in
            "UIKit looked for scene configuration \"\(e.details?.configurationName ?? "")\", which the Info.plist does not define"
        }
        guard let manifest else { return found }
        for i in found.indices { found[i].related.append(manifest.related(manifest.configurationsPath, "the configurations the Info.plist defines")) }
        // Configurations the log describes, against the manifest's names for their role.
        for kind in Self.describing {
            for i in session.indices(of: kind) {
                guard let (name, role) = Self.describedConfiguration(session.events[i].message) else { continue }
                let roles = manifest.roles.filter { role == nil || $0.role == role }
                guard !roles.isEmpty || role != nil else { continue }
                if roles.contains(where: { r in r.configurations.contains { $0.name == name } }) { continue }
                let c = session.context(at: i)
                let known = roles.flatMap { $0.configurations.compactMap(\.name) }
                var d = diagnostic(session, event: i, scene: c.scene, state: c.state,
                                   "the app uses scene configuration \"\(name)\"\(role.map { " for \($0)" } ?? ""), which the Info.plist does not define\(known.isEmpty ? "" : " (it has \(known.map { "\"\($0)\"" }.joined(separator: ", ")))")")
                d.related.append(manifest.related(roles.first?.path ?? manifest.configurationsPath, "the configurations the Info.plist defines\(role.map { " for \($0)" } ?? "")"))
                found.append(d)
            }
        }
        return found
    }

    /// The events whose messages may print the configuration in use.
    static let describing = ["app.configurationForConnecting", "scene.willConnect"].map(EventKind.init(rawValue:))

    /// The name and role of a `<UISceneConfiguration: 0x…; name: "…"; role: …>` description
    /// (`name: 0x0` is a configuration without a name: nothing to check).
    static func describedConfiguration(_ message: String) -> (name: String, role: String?)? {
        guard let start = message.range(of: "<UISceneConfiguration: ") else { return nil }
        let rest = message[start.upperBound...]
        let body = rest[..<(rest.firstIndex(of: ">") ?? rest.endIndex)]
        var name: String?, role: String?
        for field in body.split(separator: ";").dropFirst() {
            let parts = field.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0] == "name" { name = parts[1].hasPrefix("\"") && parts[1].hasSuffix("\"") && parts[1].count >= 2 ? String(parts[1].dropFirst().dropLast()) : parts[1] }
            if parts[0] == "role" { role = parts[1] }
        }
        guard let name, !name.isEmpty, name != "0x0", name != "(null)" else { return nil }
        return (name, role)
    }
}
