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
        each(.sceneConfiguration, session, where: { $0.details?.configurationName == nil }) { e in
            e.details?.method.map { "the scene delegate class \"\($0)\" could not be loaded" }
                ?? "no scene delegate is set, so no scene callback will arrive"
        }
    }
}
