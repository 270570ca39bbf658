import LifelineCore

/// LC-F05: the process was ended by a signal (`Abort trap: 6`, `Terminated due to signal 9`).
struct KilledBySignalRule: Rule {
    static let description = RuleDescription(
        id: "LC-F05", name: "killed-by-signal", category: .failure, severity: .fatal,
        summary: "the process was ended by a signal",
        rationale: "A shell or the debugger reports the signal that ended the process: SIGABRT after an exception or assertion, SIGKILL from the system (memory, watchdog) or the user.",
        triggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[SceneDelegate sceneDidEnterBackground:]
            ↓Message from debugger: Terminated due to signal 9
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[SceneDelegate sceneDidEnterBackground:]
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        eachIndexed(.signal, session) { e, i in
            "the process was ended by signal \(e.details?.signal ?? "?")\(session.whenClause(i))"
        }
    }
}
