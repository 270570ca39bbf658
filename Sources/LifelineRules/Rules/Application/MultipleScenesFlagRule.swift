import LifelineCore

/// LC-A13: several application window scenes live at once while the manifest says the app
/// supports one.
struct MultipleScenesFlagRule: Rule {
    static let description = RuleDescription(
        id: "LC-A13", name: "multiple-scenes-flag", category: .application, severity: .error,
        summary: "several window scenes are connected while UIApplicationSupportsMultipleScenes is NO",
        rationale: "'If you set the value to false, UIKit never creates more than one scene for your app' (UIApplicationSupportsMultipleScenes; absent counts as NO). A second UIWindowSceneSessionRoleApplication scene connecting while the first is still connected means the Info.plist checked is not the one the app ran with, or the flag is set elsewhere. CarPlay and external-display scenes have other roles and do not count; scenes whose role is not logged count as application scenes unless they are CarPlay ones.",
        triggering: [
            RuleExample("""
            2025-06-02 09:00:00.100 Notes[77:1001] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x104e1c000; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: 6A1F; activationState: UISceneActivationStateUnattached>
            2025-06-02 09:00:00.200 Notes[77:1001] -[SceneDelegate sceneDidBecomeActive:] <UIWindowScene: 0x104e1c000; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: 6A1F; activationState: UISceneActivationStateForegroundActive>
            ↓2025-06-02 09:01:10.000 Notes[77:1001] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x104f2a000; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: 9C3B; activationState: UISceneActivationStateUnattached>
            """, manifest: ExamplePlist.manifest(multiple: false, [("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate")])),
        ],
        nonTriggering: [
            RuleExample("""
            2025-06-02 09:00:00.100 Notes[77:1001] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x104e1c000; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: 6A1F; activationState: UISceneActivationStateUnattached>
            2025-06-02 09:01:10.000 Notes[77:1001] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x104f2a000; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: 9C3B; activationState: UISceneActivationStateUnattached>
            """, manifest: ExamplePlist.manifest(multiple: true, [("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate")])),
            // An external display is another role.
            RuleExample("""
            2025-06-02 09:00:00.100 Notes[77:1001] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x104e1c000; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: 6A1F; activationState: UISceneActivationStateUnattached>
            2025-06-02 09:01:10.000 Notes[77:1001] -[ExternalSceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x104f2a000; role: UIWindowSceneSessionRoleExternalDisplayNonInteractive; persistentIdentifier: 9C3B; activationState: UISceneActivationStateUnattached>
            """, manifest: ExamplePlist.manifest(multiple: false, [
                ("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate"),
                ("UIWindowSceneSessionRoleExternalDisplayNonInteractive", "External", "ExternalSceneDelegate"),
            ])),
        ],
        online: true, reads: .logAndManifest)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard let manifest = settings.manifest, manifest.sceneManifest != nil, manifest.supportsMultipleScenes != true else { return [] }
        func isApplication(_ s: SceneTimeline) -> Bool {
            !s.isCarPlay && (s.role == nil || s.role == SceneRole.windowApplication.rawValue)
        }
        // One pass over the application scenes' steps in event order, keeping the connected ones
        // (and since when): each connect checks that set, not every scene of the session.
        let steps = session.sceneSteps.filter { isApplication($0.scene) }.sorted { $0.entry.event < $1.entry.event }
        var connected: [String: SceneTimeline] = [:]
        // The connected scenes in the order they connected (ids of disconnected ones are skipped
        // from the front as they are met), so the one named is the longest connected.
        var order: [String] = []
        var head = 0
        func longestConnected(except id: String) -> SceneTimeline? {
            while head < order.count, connected[order[head]] == nil { head += 1 }
            var i = head
            while i < order.count {
                if order[i] != id, let s = connected[order[i]] { return s }
                i += 1
            }
            return nil
        }
        var found: [Diagnostic] = []
        for step in steps {
            let scene = step.scene
            if step.kind == .sceneWillConnect, let other = longestConnected(except: scene.id) {
                var d = diagnostic(session, event: step.entry.event, scene: scene, state: step.before.rawValue,
                                   "scene \(scene.label) connected while \(other.label) was still connected, but UIApplicationSupportsMultipleScenes is \(manifest.supportsMultipleScenes == nil ? "absent (NO)" : "NO"): UIKit creates one scene for such an app")
                d.related.append(manifest.related(manifest.supportsMultipleScenes == nil ? manifest.manifestPath
                                                  : manifest.manifestPath.appending(key: "UIApplicationSupportsMultipleScenes"),
                                                  manifest.supportsMultipleScenes == nil ? "the scene manifest, without UIApplicationSupportsMultipleScenes" : "UIApplicationSupportsMultipleScenes is NO here"))
                found.append(d)
            }
            if step.entry.after == .disconnected {
                connected[scene.id] = nil
            } else if connected[scene.id] == nil {
                connected[scene.id] = scene
                order.append(scene.id)
            }
        }
        return found
    }
}
