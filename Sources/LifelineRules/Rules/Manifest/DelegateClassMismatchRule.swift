import LifelineCore

/// LC-M13: scene callbacks are logged by a class the manifest's configurations do not name.
struct DelegateClassMismatchRule: Rule {
    static let description = RuleDescription(
        id: "LC-M13", name: "delegate-class-mismatch", category: .manifest, severity: .warning,
        summary: "scene callbacks come from a delegate class the Info.plist does not name",
        rationale: "UIKit instantiates the UISceneDelegateClassName of the configuration it uses. When every scene callback of a process is logged by another class (-[PhoneSceneDelegate …] against SceneDelegate in the plist), the configuration came from code (application(_:configurationForConnecting:options:) setting delegateClass), or the plist checked is not the app's. Class names are compared without their module, so $(PRODUCT_MODULE_NAME).SceneDelegate matches -[SceneDelegate …] and MyApp.SceneDelegate. A process where some callback comes from a named class is not reported: other classes are then forwarders.",
        triggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            ↓2025-03-01 10:00:00.200000+0100 MyApp[900:41001] -[PhoneSceneDelegate scene:willConnectToSession:options:]
            2025-03-01 10:00:00.300000+0100 MyApp[900:41001] -[PhoneSceneDelegate sceneDidBecomeActive:]
            """, manifest: ExamplePlist.manifest([("UIWindowSceneSessionRoleApplication", "Default Configuration", "$(PRODUCT_MODULE_NAME).SceneDelegate")])),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-03-01 10:00:00.200000+0100 MyApp[900:41001] -[MyApp.SceneDelegate scene:willConnectToSession:options:]
            2025-03-01 10:00:00.300000+0100 MyApp[900:41001] -[SceneForwarder sceneDidBecomeActive:]
            """, manifest: ExamplePlist.manifest([("UIWindowSceneSessionRoleApplication", "Default Configuration", "$(PRODUCT_MODULE_NAME).SceneDelegate")])),
        ],
        reads: .logAndManifest)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard let manifest = settings.manifest else { return [] }
        return check(session, manifest, families: ["scene", "windowScene"], roles: SceneManifest.windowRoles, what: "window scene")
            + check(session, manifest, families: ["cp"], roles: SceneManifest.carPlayRoles, what: "CarPlay scene")
    }

    private func check(_ session: SessionView, _ manifest: SceneManifest, families: Set<String>, roles: Set<SceneRole>, what: String) -> [Diagnostic] {
        let named = manifest.delegateClasses(of: roles)
        guard !named.isEmpty else { return [] }
        let names = Set(named.map { SceneManifest.unqualified($0.className.value) })
        var first: [String: Int] = [:]
        var order: [String] = []
        for (i, e) in session.events.enumerated() where families.contains(e.kind.family) && !e.kind.rawValue.hasPrefix("cp.legacy") {
            guard let cls = e.className else { continue }
            let bare = SceneManifest.unqualified(cls)
            if names.contains(bare) { return [] }
            if first[bare] == nil { first[bare] = i; order.append(bare) }
        }
        guard let cls = order.first, let i = first[cls] else { return [] }
        let c = session.context(at: i)
        let listed = named.map { $0.className.value }.joined(separator: ", ")
        var d = diagnostic(session, event: i, scene: c.scene, state: c.state,
                           "\(what) callbacks are logged by \(cls), but the Info.plist's \(what) configurations name \(listed): the configuration comes from code, or the plist is not this app's")
        for n in named { d.related.append(manifest.related(n.configuration.path(of: "UISceneDelegateClassName"), "UISceneDelegateClassName \(n.className.value)")) }
        return [d]
    }
}
