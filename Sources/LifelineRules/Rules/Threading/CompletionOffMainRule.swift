import LifelineCore

/// LC-T04: a completion handler that must run on the main thread arrived elsewhere (warning; error
/// when the process then crashed).
struct CompletionOffMainRule: Rule {
    static let description = RuleDescription(
        id: "LC-T04", name: "completion-off-main", category: .threading, severity: .warning,
        summary: "a completion handler arrived off the main thread",
        rationale: "Seen on Mac Catalyst when the Dock icon reopens an app without windows: the scene-creation reply arrives on an XPC queue, UIKit's main-thread assertion fires and the exception is ignored, so no window appears. Any 'arrived off the main thread' message means a main-thread contract was broken.",
        triggering: [
            RuleExample("""
            2025-01-20 16:41:09.418113+0100 Sketchbook[6023:2148831] *** Assertion failure in -[UINSApplicationDelegate applicationShouldHandleReopen:hasVisibleWindows:], UINSApplicationDelegate.m:886
            ↓2025-01-20 16:41:09.418950+0100 Sketchbook[6023:2149102] Ignored Exception: -[UINSApplicationDelegate applicationShouldHandleReopen:hasVisibleWindows:]_block_invoke: _createNewForegroundSceneWithCompletionHandler Completion handler arrived off the main thread.
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-01-20 16:41:09.418113+0100 Sketchbook[6023:2148831] -[SceneDelegate sceneDidBecomeActive:]
            """),
        ])

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        let crashed = session.indices(of: .crashReport, .exception, .signal).contains { session.events[$0].details?.ignored != true }
        let assertions = session.indices(of: .assertion)
        // The assertion that fired inside the completion (UIKit reports it just before).
        func assertion(before i: Int) -> RelatedLocation? {
            guard let a = assertions.last(where: { $0 < i && i - $0 <= 5 }) else { return nil }
            let fired = session.events[a]
            return RelatedLocation(file: fired.file, position: fired.position, message: "the assertion that fired in this completion")
        }
        return each(.offMainCompletion, session, severity: { _ in crashed ? .error : .warning }, related: assertion(before:)) { e in
            "\(e.details?.api.map { "a completion handler of \($0)" } ?? "a completion handler") arrived off the main thread\(crashed ? " and the process then crashed" : "; the exception was ignored, so what it was completing did not happen")"
        }
    }
}
