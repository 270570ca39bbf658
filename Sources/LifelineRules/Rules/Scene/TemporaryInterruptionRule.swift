import LifelineCore

/// LC-S08 (note): `sceneWillResignActive(_:)` followed by `sceneDidBecomeActive(_:)` without a
/// trip to the background — the normal pattern of a temporary interruption.
struct TemporaryInterruptionRule: Rule {
    static let description = RuleDescription(
        id: "LC-S08", name: "temporary-interruption", category: .scene, severity: .note,
        summary: "a scene resigned active and came back without going to the background",
        rationale: "System alerts, Control Center, the notification shade and the app switcher make a scene resign active briefly; this is legal and explained here so that it is not filed as a bug.",
        triggering: [
            RuleExample("""
            sceneDidBecomeActive(_:)
            sceneWillResignActive(_:)
            ↓sceneDidBecomeActive(_:)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            sceneWillResignActive(_:)
            sceneDidEnterBackground(_:)
            sceneWillEnterForeground(_:)
            sceneDidBecomeActive(_:)
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        arrivals(of: .sceneDidBecomeActive, in: [.foregroundInactive], session, where: { session.transition($0, follows: .sceneWillResignActive) }) {
            "scene \($0.scene.label) became active again after resigning, without going to the background: a temporary interruption such as an alert or Control Center"
        }
    }
}
