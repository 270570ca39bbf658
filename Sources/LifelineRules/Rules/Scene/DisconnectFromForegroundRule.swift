import LifelineCore

/// LC-S10: `sceneDidDisconnect(_:)` while the scene is in the foreground: a note when it was
/// inactive (swipe-kill from the switcher), a warning when it was still active.
struct DisconnectFromForegroundRule: Rule {
    static let description = RuleDescription(
        id: "LC-S10", name: "disconnect-from-foreground", category: .scene, severity: .note,
        summary: "a scene disconnected without entering the background",
        rationale: "Closing a scene from the app switcher has been seen to go from resign-active straight to disconnect; that is legal. A disconnect of a scene that is still active means a resign was missed.",
        triggering: [
            RuleExample("""
            sceneDidBecomeActive(_:)
            sceneWillResignActive(_:)
            ↓sceneDidDisconnect(_:)
            """),
            RuleExample("""
            sceneWillEnterForeground(_:)
            sceneDidBecomeActive(_:)
            ↓sceneDidDisconnect(_:)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            sceneWillResignActive(_:)
            sceneDidEnterBackground(_:)
            sceneDidDisconnect(_:)
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        illegalArrivals(of: .sceneDidDisconnect, in: [.foregroundInactive, .foregroundActive], session,
                 severity: { $0.before == .foregroundActive ? .warning : .note }) { step in
            step.before == .foregroundActive
                ? "scene \(step.scene.label) disconnected while still active, without sceneWillResignActive(_:)"
                : "scene \(step.scene.label) disconnected from the foreground without entering the background, as a swipe from the app switcher does"
        }
    }
}
