import LifelineCore

/// LC-C07: CarPlay scenes the manifest does not declare, in the manifest alone (a dashboard or
/// instrument-cluster flag without its role, or the reverse) and against the log (a CarPlay
/// callback with no configuration for its role).
struct CarPlayManifestFlagsRule: ManifestRule {
    static let description = RuleDescription(
        id: "LC-C07", name: "carplay-manifest-flags", category: .carPlay, severity: .error,
        summary: "a CarPlay scene is used or flagged without its manifest configuration",
        rationale: "A CarPlay Dashboard scene needs CPSupportsDashboardNavigationScene = YES and a CPTemplateApplicationDashboardSceneSessionRoleApplication configuration; an instrument-cluster scene needs CPSupportsInstrumentClusterNavigationScene = YES and a CPTemplateApplicationInstrumentClusterSceneSessionRoleApplication configuration; the CarPlay template scene needs a CPTemplateApplicationSceneSessionRoleApplication configuration (reference §3.3). A flag without its role, or a role without its flag, is checked in the Info.plist alone; with a log, a CarPlay callback whose role the manifest does not configure means the plist given is not the one the app runs with, or the configuration comes from code.",
        triggering: [
            RuleExample("", manifest: ExamplePlist.manifest(multiple: true, [
                ("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate"),
                ("CPTemplateApplicationSceneSessionRoleApplication", "CarPlay", "CarPlaySceneDelegate"),
            ], extra: ["<key>CPSupportsDashboardNavigationScene</key>", "<true/>"]).replacingOccurrences(
                of: "        <key>CPSupportsDashboardNavigationScene</key>", with: "↓        <key>CPSupportsDashboardNavigationScene</key>")),
            RuleExample("""
            2024-05-02 08:14:03.100 Compass[412:7001] -[CarPlaySceneDelegate templateApplicationScene:didConnectInterfaceController:toWindow:]
            ↓2024-05-02 08:14:03.900 Compass[412:7001] -[DashboardSceneDelegate templateApplicationDashboardScene:didConnectDashboardController:toWindow:]
            """, manifest: ExamplePlist.manifest(multiple: true, [
                ("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate"),
                ("CPTemplateApplicationSceneSessionRoleApplication", "CarPlay", "CarPlaySceneDelegate"),
            ])),
        ],
        nonTriggering: [
            RuleExample("""
            2024-05-02 08:14:03.100 Compass[412:7001] -[CarPlaySceneDelegate templateApplicationScene:didConnectInterfaceController:toWindow:]
            2024-05-02 08:14:03.900 Compass[412:7001] -[DashboardSceneDelegate templateApplicationDashboardScene:didConnectDashboardController:toWindow:]
            """, manifest: ExamplePlist.manifest(multiple: true, [
                ("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate"),
                ("CPTemplateApplicationSceneSessionRoleApplication", "CarPlay", "CarPlaySceneDelegate"),
                ("CPTemplateApplicationDashboardSceneSessionRoleApplication", "Dashboard", "DashboardSceneDelegate"),
            ], extra: ["<key>CPSupportsDashboardNavigationScene</key>", "<true/>"])),
            // Without a manifest the log alone cannot tell.
            RuleExample("""
            2024-05-02 08:14:03.900 Compass[412:7001] -[DashboardSceneDelegate templateApplicationDashboardScene:didConnectDashboardController:toWindow:]
            """),
        ],
        reads: .logAndManifest)

    /// The CarPlay connect callbacks, with the role each needs.
    static let connects: [(kind: EventKind, role: SceneRole)] = [
        (EventKind("cp.didConnect"), .carPlay), (EventKind("cp.dashboard.didConnect"), .carPlayDashboard),
        (EventKind("cp.cluster.didConnect"), .carPlayCluster),
    ]

    func check(_ manifest: SceneManifest, settings: RuleSettings) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for role in [SceneRole.carPlayDashboard, .carPlayCluster] {
            guard let flag = role.requiredFlag else { continue }
            let flagPath = manifest.manifestPath.appending(key: flag)
            let flagged = manifest.sceneManifest?[flag]?.bool == true
            let configured = manifest.declares([role])
            if flagged, !configured {
                found.append(finding(manifest, at: flagPath, "\(flag) is YES but there is no \(role.rawValue) configuration: CarPlay has no scene to connect"))
            } else if configured, !flagged, let r = manifest.roles.first(where: { $0.info == role }) {
                found.append(finding(manifest, at: r.path, "\(role.rawValue) is configured but \(flag) is not YES: CarPlay never connects this scene"))
            }
        }
        return found
    }

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard let manifest = settings.manifest else { return [] }
        var found: [Diagnostic] = []
        for (kind, role) in Self.connects {
            guard let i = session.indices(of: kind).first else { continue }
            var missing: [String] = []
            if !manifest.declares([role]) { missing.append("a \(role.rawValue) configuration") }
            if let flag = role.requiredFlag, manifest.sceneManifest?[flag]?.bool != true { missing.append("\(flag) = YES") }
            guard !missing.isEmpty else { continue }
            let c = session.context(at: i)
            var d = diagnostic(session, event: i, scene: c.scene, state: c.state,
                               "\(session.events[i].spelling ?? kind.rawValue) arrived but the Info.plist has no \(missing.joined(separator: " and ")): it is not the manifest this app runs with, or the configuration comes from code")
            d.related.append(manifest.related(manifest.sceneManifest == nil ? PlistKeyPath() : manifest.configurationsPath,
                                              "the scene configurations of the Info.plist"))
            found.append(d)
        }
        return found
    }
}
