import LifelineCore

/// LC-T06: SwiftUI state published from a background thread.
struct BackgroundPublishRule: Rule {
    static let description = RuleDescription(
        id: "LC-T06", name: "swiftui-background-publish", category: .threading, severity: .warning,
        summary: "SwiftUI state was published from a background thread",
        rationale: "SwiftUI reports a runtime issue when an ObservableObject publishes from a background thread; receive the values on the main thread (receive(on:), MainActor).",
        triggering: [
            RuleExample("""
            ↓Publishing changes from background threads is not allowed; make sure to publish values from the main thread (via operators like receive(on:)) on model updates.
            Type: Fault | Timestamp: 2025-08-22 10:41:12.881714+09:00 | Process: BobCamAgent | Library: SwiftUICore | Subsystem: com.apple.runtime-issues | Category: SwiftUI | TID: 0xf900
            """),
        ],
        nonTriggering: [
            RuleExample("""
            Frame dropped
            Type: stdio
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        each(.backgroundPublish, session) { e in
            "SwiftUI state was published from a background thread\(e.tid.map { " (thread \($0))" } ?? "")"
        }
    }
}
