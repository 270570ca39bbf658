import LifelineCore

/// LC-A08: the scene delegate class named in the manifest could not be loaded.
struct DelegateClassNotLoadedRule: Rule {
    static let description = RuleDescription(
        id: "LC-A08", name: "delegate-class-not-loaded", category: .application, severity: .error,
        summary: "the scene delegate class could not be loaded",
        rationale: "UISceneDelegateClassName must name the class as the runtime knows it: $(PRODUCT_MODULE_NAME).SceneDelegate for Swift, the bare name for Objective-C. Without it no scene callback arrives and a storyboard cannot be shown.",
        triggering: [
            RuleExample("""
            ↓2020-07-25 11:28:20.369154+0200 SVGInteraction[24551:7241636] [WindowScene] There is no scene delegate set. A scene delegate class must be specified to use a main storyboard file.
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2020-07-25 11:28:20.369154+0200 SVGInteraction[24551:7241636] -[SceneDelegate scene:willConnectToSession:options:]
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        var found = each(.sceneConfiguration, session, where: { $0.details?.configurationName == nil }) { e in
            e.details?.method.map { "the scene delegate class \"\($0)\" could not be loaded" }
                ?? "no scene delegate is set, so no scene callback will arrive"
        }
        // With the manifest: where the class that could not be loaded is named.
        if let manifest = settings.manifest {
            for i in found.indices {
                let named = session.events.first { $0.file == found[i].file && $0.position == found[i].position }?.details?.method
                for c in manifest.configurations where c.delegateClass != nil && (named == nil || c.delegateClass == named || manifest.expand(c.delegateClass!).value == named) {
                    found[i].related.append(manifest.related(c.path(of: "UISceneDelegateClassName"), "UISceneDelegateClassName \(c.delegateClass!)"))
                }
            }
        }
        return found
    }
}
