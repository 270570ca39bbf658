import LifelineCore

/// LC-F03: a Swift runtime trap (`Fatal error`, `Precondition failed`, `Assertion failed`), other
/// than an actor-isolation trap (LC-T05).
struct SwiftRuntimeTrapRule: Rule {
    static let description = RuleDescription(
        id: "LC-F03", name: "swift-runtime-trap", category: .failure, severity: .fatal,
        summary: "the app stopped at a Swift runtime trap",
        rationale: "fatalError, a failed precondition, a force-unwrapped nil or an out-of-range index stop the process with the source file and line.",
        triggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[SceneDelegate sceneDidBecomeActive:]
            ↓MyApp/SceneDelegate.swift:42: Fatal error: Unexpectedly found nil while unwrapping an Optional value
            """),
        ],
        nonTriggering: [
            RuleExample("""
            RealmSwift/Util.swift:169: Fatal error: Incorrect actor executor assumption; Expected same executor as MainActor.
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        eachIndexed(.swiftFatalError, session, where: { e, _ in !ActorIsolationTrapRule.isIsolationTrap(e) }) { e, i in
            var what = (e.details?.trap ?? "Fatal error").lowercased()
            if let r = e.details?.reason { what += ": \(r)" }
            if let f = e.details?.sourceFile { what += " (\(f)\(e.details?.sourceLine.map { ":\($0)" } ?? ""))" }
            return what + session.whenClause(i)
        }
    }
}
