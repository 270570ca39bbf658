import LifelineCore

/// LC-A06: UIKit looked for a scene configuration name the Info.plist does not have.
struct ConfigurationNameMismatchRule: Rule {
    static let description = RuleDescription(
        id: "LC-A06", name: "configuration-name-mismatch", category: .application, severity: .error,
        summary: "the scene configuration name is not in the Info.plist",
        rationale: "The name returned from application(_:configurationForConnecting:options:) must be a UISceneConfigurationName of the manifest for that role; copying the code and the plist from different templates ('Default Configuration' against 'DefaultSceneConfiguration') gives exactly this message and a scene without a delegate.",
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
        each(.sceneConfiguration, session, where: { e in e.details?.configurationName.map { $0 != "(no name)" } ?? false }) { e in
            "UIKit looked for scene configuration \"\(e.details?.configurationName ?? "")\", which the Info.plist does not define"
        }
    }
}
