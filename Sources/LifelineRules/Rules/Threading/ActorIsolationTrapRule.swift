import LifelineCore

/// LC-T05: a Swift concurrency isolation trap (main-actor code run on another executor).
struct ActorIsolationTrapRule: Rule {
    static let description = RuleDescription(
        id: "LC-T05", name: "actor-isolation-trap", category: .threading, severity: .fatal,
        summary: "main-actor code ran on another executor and the process trapped",
        rationale: "Swift checks actor isolation at run time: a @MainActor closure handed to an API that calls back on its own queue traps with 'Incorrect actor executor assumption' or in _dispatch_assert_queue_fail.",
        triggering: [
            RuleExample("""
            ↓RealmSwift/Util.swift:169: Fatal error: Incorrect actor executor assumption; Expected same executor as MainActor.
            """),
        ],
        nonTriggering: [
            RuleExample("""
            MyApp/SceneDelegate.swift:42: Fatal error: Unexpectedly found nil while unwrapping an Optional value
            """),
        ],
        online: true)

    static func isIsolationTrap(_ e: Event) -> Bool {
        let text = [e.message, e.details?.reason ?? ""] + (e.details?.backtrace?.lines ?? []) + (e.details?.lifecycleFrames?.map(\.text) ?? [])
        return text.contains { $0.includes("Incorrect actor executor") || $0.includes("Expected same executor")
            || $0.includes("_dispatch_assert_queue_fail") || $0.includes("swift_task_isCurrentExecutor") }
    }

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        session.indices(of: .swiftFatalError, .crashReport).compactMap { i in
            let e = session.events[i]
            guard Self.isIsolationTrap(e) else { return nil }
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state,
                              "main-actor code ran on another executor and the process trapped\(e.details?.sourceFile.map { " (\($0)\(e.details?.sourceLine.map { ":\($0)" } ?? ""))" } ?? "")")
        }
    }
}
