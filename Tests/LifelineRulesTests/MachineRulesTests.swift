import Foundation
import Testing
import LifelineCore
@testable import LifelineRules

/// The scene rules and the scene machine's definition in Core agree: every scene callback arriving
/// in every state the definition knows is either a transition it lists (no rule says more than a
/// note about it) or one it does not (some rule reports it, at the line of the callback).
@Suite struct MachineRulesTests {
    /// A way into each state along legal transitions, as the lines a print-function trace logs.
    static let paths: [(state: SceneState, lines: [String])] = [
        (.unattached, ["scene(_:willConnectTo:options:)"]),
        (.foregroundInactive, ["scene(_:willConnectTo:options:)", "sceneWillEnterForeground(_:)"]),
        (.foregroundActive, ["scene(_:willConnectTo:options:)", "sceneWillEnterForeground(_:)", "sceneDidBecomeActive(_:)"]),
        (.background, ["scene(_:willConnectTo:options:)", "sceneWillEnterForeground(_:)", "sceneDidBecomeActive(_:)",
                       "sceneWillResignActive(_:)", "sceneDidEnterBackground(_:)"]),
    ]

    /// The callback of each scene event kind, as logged.
    static let callbacks: [String: String] = [
        "scene.willConnect": "scene(_:willConnectTo:options:)", "scene.willEnterForeground": "sceneWillEnterForeground(_:)",
        "scene.didBecomeActive": "sceneDidBecomeActive(_:)", "scene.willResignActive": "sceneWillResignActive(_:)",
        "scene.didEnterBackground": "sceneDidEnterBackground(_:)", "scene.didDisconnect": "sceneDidDisconnect(_:)",
    ]

    struct Case: CustomTestStringConvertible, Sendable {
        let state: SceneState, event: String
        var testDescription: String { "\(event) in \(state.rawValue)" }
    }

    static let cases: [Case] = paths.flatMap { p in MachineDefinition.scene.targets.map { Case(state: p.state, event: $0.event) } }

    /// Pairs the documented machine leaves out that no rule reports: known, and listed so that a
    /// new one is a decision, not an accident. Both repeat the callback that led into the state
    /// (an app that logs the delegate method and the notification alike), which changes nothing.
    static let unreported: Set<String> = ["scene.didBecomeActive in foregroundActive", "scene.didEnterBackground in background"]

    @Test("a legal scene transition gets no more than a note; one the definition leaves out gets a finding", arguments: cases)
    func rulesFollowDefinition(_ c: Case) throws {
        let lines = Self.paths.first { $0.state == c.state }!.lines + [try #require(Self.callbacks[c.event])]
        let rules = RuleRegistry.all.filter { $0.description.category == .scene }
        let found = rules.flatMap { RuleExampleTests.run($0, on: lines.joined(separator: "\n")) }.filter { $0.line == lines.count }
        if MachineDefinition.scene.isLegal(from: c.state.rawValue, event: c.event) {
            #expect(found.allSatisfy { $0.severity == .note }, "\(found.map { "\($0.ruleId) \($0.severity): \($0.message)" })")
        } else if !Self.unreported.contains(c.testDescription) {
            #expect(!found.isEmpty, "no rule reports \(c.testDescription)")
        }
    }
}
