import LifelineCore

/// LC-T08 (note): the Thread Performance Checker saw a blocking call on the main thread.
struct MainThreadIORule: Rule {
    static let description = RuleDescription(
        id: "LC-T08", name: "main-thread-io-warning", category: .threading, severity: .note,
        summary: "a call that may block ran on the main thread",
        rationale: "Xcode's Thread Performance Checker flags calls that may block the UI (I/O, synchronous IPC) made on the main thread; in lifecycle callbacks they delay launch and scene transitions.",
        triggering: [
            RuleExample("""
            ↓16:37:07.610058-0700\t44291\tCotEditor\tSecurity\tSecurity\tcom.apple.runtime-issues\tfault\tThis method should not be called on the main thread as it may lead to UI unresponsiveness.
            """),
        ],
        nonTriggering: [
            RuleExample("""
            16:37:07.610058-0700\t44291\tCotEditor\tSecurity\tSecurity\tcom.apple.security\tdefault\tkeychain item found
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        each(.mainThreadIO, session) { _ in "a call that may block the user interface ran on the main thread" }
    }
}
