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
        online: true, onlineLookahead: 3)

    /// The exception an assertion raised was caught and ignored: an `Ignored Exception` (or an
    /// off-main completion report) naming the same method follows within a few events.
    static func wasIgnored(_ session: SessionView, _ i: Int) -> Bool {
        guard let method = session.events[i].details?.method else { return false }
        return session.events[(i + 1)..<min(session.events.count, i + 4)].contains { e in
            (e.kind == .offMainCompletion || e.details?.ignored == true) && e.message.includes(method)
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
