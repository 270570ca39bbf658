import Testing
import LifelineCore
@testable import LifelineRules
@testable import LifelineRender

/// The state diagram draws each machine from its one definition in Core: its nodes are the
/// definition's states, its dimmed edges the definition's outline, its title the definition's.
@Suite struct MachineDiagramTests {
    /// A tally of `machine` that observed `transitions` once each.
    static func tally(_ machine: LifecycleMachine, _ transitions: [Transition], timelines: Int = 2) -> TransitionTally {
        TransitionTally.read([machine.rawValue: ["timelines": timelines, "transitions": transitions.map { t in [
            "from": t.from, "to": t.to, "event": t.event, "count": 1, "firstFile": "f.log", "firstLine": 1,
            "durations": [String: Int](),
        ] as [String: Any] }]])!
    }

    static func text(_ a: DOTAttribute) -> String? {
        if case .text(let s) = a.value { return s }
        return nil
    }

    @Test("nodes, outlined edges and title come from the definition", arguments: LifecycleMachine.allCases)
    func drawnFromDefinition(_ machine: LifecycleMachine) throws {
        let d = machine.definition
        // One transition observed (the diagram leaves out machines nothing was seen of).
        let observed = d.legal[0]
        let g = StateDiagram.graph(Self.tally(machine, [observed]), title: "t")
        let cluster = try #require(g.subgraphs.first { $0.name == "cluster_\(machine.rawValue)" })
        #expect(cluster.nodes.map(\.id) == d.states.map { "\(machine.rawValue).\($0)" })
        let title = cluster.attributes.first { $0.name == "label" }.flatMap(Self.text)
        #expect(title == "\(d.title) (2 \(d.unit.many))")
        let prefix = "legal, never observed: "
        let outlined = g.edges.compactMap { e -> Transition? in
            guard let tip = e.attributes.first(where: { $0.name == "tooltip" }).flatMap(Self.text), tip.hasPrefix(prefix) else { return nil }
            return Transition(from: String(e.from.dropFirst(machine.rawValue.count + 1)), to: String(e.to.dropFirst(machine.rawValue.count + 1)),
                              event: String(tip.dropFirst(prefix.count)))
        }
        #expect(outlined == d.outline.filter { $0 != observed })
        #expect(g.edges.count == outlined.count + 1)
    }

    @Test("an observed transition is drawn as legal exactly when the definition lists it", arguments: LifecycleMachine.allCases)
    func legalColourFollowsDefinition(_ machine: LifecycleMachine) {
        let d = machine.definition
        // Every legal edge, and one the definition does not have.
        let off = Transition(from: d.states.last!, to: d.states[1], event: d.targets.first { $0.to == d.states[1] }!.event)
        #expect(!d.legal.contains(off))
        for t in d.legal + [off] {
            let g = StateDiagram.graph(Self.tally(machine, [t], timelines: 1), title: "t")
            let drawn = g.edges.filter { e in e.attributes.contains { $0.name == "label" && Self.text($0)?.hasPrefix("\(StateDiagram.shortName(t.event)) ×1") == true } }
            #expect(drawn.count == 1, "\(machine) \(t)")
            let blue = drawn.first?.attributes.contains { $0.name == "color" && Self.text($0) == "#1f6feb" } ?? false
            #expect(blue == d.legal.contains(t), "\(machine) \(t)")
        }
    }
}
