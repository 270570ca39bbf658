import LifelineCore

/// LC-A11: code still reads the app delegate's window after the move to scenes.
struct AppDelegateWindowAfterMigrationRule: Rule {
    static let description = RuleDescription(
        id: "LC-A11", name: "appdelegate-window-after-migration", category: .application, severity: .warning,
        summary: "code read the app delegate's window after the move to scenes",
        rationale: "After adopting scenes the app delegate has no `window` property; code and SDKs that read `UIApplication.shared.delegate.window` get nil, or an NSUnknownKeyException for the key `delegate.window` / `window`. Keep a window property that returns the scene delegate's window, or look the window up through the connected scenes.",
        triggering: [
            RuleExample("""
            2025-02-01 12:00:00.000 Reader[77:1001] -[SceneDelegate sceneDidBecomeActive:]
            ↓2025-02-01 12:00:00.500 Reader[77:1001] *** Terminating app due to uncaught exception 'NSUnknownKeyException', reason: '[<UIApplication 0x104a0a000> valueForUndefinedKey:]: this class is not key value coding-compliant for the key delegate.window.'
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-02-01 12:00:00.000 Reader[77:1001] -[SceneDelegate sceneDidBecomeActive:]
            2025-02-01 12:00:00.500 Reader[77:1001] *** Terminating app due to uncaught exception 'NSUnknownKeyException', reason: '[<Settings 0x104a0a000> valueForUndefinedKey:]: this class is not key value coding-compliant for the key fontSize.'
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        eachIndexed(.exception, session, where: { e, _ in
            let reason = e.details?.reason ?? e.message
            if reason.includes("for the key delegate.window") { return true }
            return e.details?.exceptionName == "NSUnknownKeyException" && reason.includes("for the key window")
                && (reason.includes("UIApplication") || reason.includes("AppDelegate"))
        }) { _, i in
            "the app delegate's window was read after the move to scenes (NSUnknownKeyException)\(session.whenClause(i)): return the scene delegate's window instead"
        }
    }
}
