import LifelineCore

/// LC-A02: `application(_:willFinishLaunchingWithOptions:)` after `didFinishLaunching` in one process.
struct LaunchOrderRule: Rule {
    static let description = RuleDescription(
        id: "LC-A02", name: "launch-order", category: .application, severity: .error,
        summary: "willFinishLaunching came after didFinishLaunching",
        rationale: "The launch sequence calls application(_:willFinishLaunchingWithOptions:), then application(_:didFinishLaunchingWithOptions:), once per process.",
        triggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[901:52001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            ↓2025-03-01 10:00:00.200000+0100 MyApp[901:52001] -[AppDelegate application:willFinishLaunchingWithOptions:]
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[901:52001] -[AppDelegate application:willFinishLaunchingWithOptions:]
            2025-03-01 10:00:00.200000+0100 MyApp[901:52001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard let did = session.events.firstIndex(where: { $0.kind == .appDidFinishLaunching }) else { return [] }
        return session.events.indices.compactMap { i in
            guard i > did, session.events[i].kind == .appWillFinishLaunching else { return nil }
            return diagnostic(session, event: i, state: "app.launched",
                              "application(_:willFinishLaunchingWithOptions:) came after application(_:didFinishLaunchingWithOptions:) in the same process")
        }
    }
}
