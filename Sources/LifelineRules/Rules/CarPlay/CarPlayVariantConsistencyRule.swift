import LifelineCore

/// LC-C03: a CarPlay scene connected with one variant of the delegate methods and disconnected with
/// the other (with and without a window).
struct CarPlayVariantConsistencyRule: Rule {
    static let description = RuleDescription(
        id: "LC-C03", name: "carplay-variant-consistency", category: .carPlay, severity: .warning,
        summary: "a CarPlay scene connected and disconnected through different method variants",
        rationale: "Navigation apps get templateApplicationScene(_:didConnect:to:) and (_:didDisconnect:from:), other apps the variants without a window; CarPlay never calls the window-less disconnect for navigation apps, so a mix means one pair is implemented for the wrong kind of app.",
        triggering: [
            RuleExample("""
            templateApplicationScene(_:didConnect:to:)
            ↓templateApplicationScene(_:didDisconnectInterfaceController:)
            """),
        ],
        nonTriggering: [
            RuleExample("""
            templateApplicationScene(_:didConnect:)
            templateApplicationScene(_:didDisconnectInterfaceController:)
            """),
        ])

    static func hasWindow(_ e: Event) -> Bool {
        guard let s = e.spelling else { return false }
        return s.includes("toWindow:") || s.includes("fromWindow:") || s.includes("(_:didConnect:to:)") || s.includes("(_:didDisconnect:from:)")
    }

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        session.sceneSteps.compactMap { step in
            guard step.kind == .carPlayDidDisconnect, step.event.spelling != nil,
                  let connect = step.scene.entries[..<step.position].last(where: { session.events[$0.event].kind == .carPlayDidConnect }),
                  session.events[connect.event].spelling != nil,
                  Self.hasWindow(session.events[connect.event]) != Self.hasWindow(step.event) else { return nil }
            return diagnostic(session, event: step.entry.event, scene: step.scene, state: step.before.rawValue,
                              "CarPlay scene \(step.scene.label) connected \(Self.hasWindow(session.events[connect.event]) ? "with" : "without") a window but disconnected \(Self.hasWindow(step.event) ? "with" : "without") one")
        }
    }
}
