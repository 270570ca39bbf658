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
        ])

    func check(_ session: ProcessSession) -> [Diagnostic] {
        session.events.indices.compactMap { i in
            let e = session.events[i]
            guard e.kind == .assertion else { return nil }
            let c = session.context(at: i)
            var where_ = e.details?.method.map { " in \($0)" } ?? ""
            if let f = e.details?.sourceFile { where_ += " (\(f.split(separator: "/").last.map(String.init) ?? f)\(e.details?.sourceLine.map { ":\($0)" } ?? ""))" }
            let when = session.lifecycleContext(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state, "assertion failure\(where_)\(when.isEmpty ? "" : ", \(when)")")
        }
    }
}
