import LifelineCore

/// LC-F01: an assertion failed (`*** Assertion failure in …`, Swift `Assertion failed`).
struct AssertionFailureRule: Rule {
    static let description = RuleDescription(
        id: "LC-F01", name: "assertion-failure", category: .failure, severity: .error,
        summary: "an assertion failed",
        rationale: "NSAssertionHandler logs the failing method and source line before it raises; where in the life cycle it fired (during launch, before any scene was active, in the background) is usually the clue.",
        triggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            ↓2025-03-01 10:00:00.900000+0100 MyApp[900:41001] *** Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:], UIApplication.m:3680
            """),
            // A report that an exception was ignored comes at once; one seconds later is about another.
            RuleExample("""
            ↓2025-01-20 16:41:09.418113+0100 Sketchbook[6023:2148831] *** Assertion failure in -[UINSApplicationDelegate applicationShouldHandleReopen:hasVisibleWindows:], UINSApplicationDelegate.m:886
            2025-01-20 16:41:11.020000+0100 Sketchbook[6023:2149102] Ignored Exception: -[UINSApplicationDelegate applicationShouldHandleReopen:hasVisibleWindows:]_block_invoke: _createNewForegroundSceneWithCompletionHandler Completion handler arrived off the main thread.
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            """),
            // Caught and ignored by the system (the Mac Catalyst reopen cluster): LC-T04 reports it.
            RuleExample("""
            2025-01-20 16:41:09.418113+0100 Sketchbook[6023:2148831] *** Assertion failure in -[UINSApplicationDelegate applicationShouldHandleReopen:hasVisibleWindows:], UINSApplicationDelegate.m:886
            2025-01-20 16:41:09.418950+0100 Sketchbook[6023:2149102] Ignored Exception: -[UINSApplicationDelegate applicationShouldHandleReopen:hasVisibleWindows:]_block_invoke: _createNewForegroundSceneWithCompletionHandler Completion handler arrived off the main thread.
            """),
        ],
        online: true, onlineLookahead: 3, onlineLookaheadSeconds: ignoreWindow)

    /// How long after an assertion the report that it was ignored may come (it is logged at once,
    /// by the thread that caught it: under a millisecond later in the Catalyst logs).
    static let ignoreWindow = 0.1

    /// The exception an assertion raised was caught and ignored: an `Ignored Exception` (or an
    /// off-main completion report) naming the same method follows within a few events and
    /// `ignoreWindow` seconds (when both lines have times).
    static func wasIgnored(_ session: SessionView, _ i: Int) -> Bool {
        guard let method = session.events[i].details?.method else { return false }
        let at = session.events[i].timestamp?.seconds
        return session.events[(i + 1)..<min(session.events.count, i + 4)].contains { e in
            if let at, let t = e.timestamp?.seconds, t - at > ignoreWindow { return false }
            return (e.kind == .offMainCompletion || e.details?.ignored == true) && e.message.includes(method)
        }
    }

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        eachIndexed(.assertion, session, where: { _, i in !Self.wasIgnored(session, i) }) { e, i in
            var where_ = e.details?.method.map { " in \($0)" } ?? ""
            if let f = e.details?.sourceFile { where_ += " (\(f.split(separator: "/").last.map(String.init) ?? f)\(e.details?.sourceLine.map { ":\($0)" } ?? ""))" }
            return "assertion failure\(where_)\(session.whenClause(i))"
        }
    }
}
