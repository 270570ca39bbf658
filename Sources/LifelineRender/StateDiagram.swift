import Foundation
import LifelineCore
import LifelineRules

/// The lifecycle state diagram: the expected state machines (scene, app, CarPlay) with what the
/// logs showed drawn over them. Observed legal transitions carry their count and the typical time
/// spent in the source state; observed illegal ones are red, with their count and first file:line;
/// legal transitions never observed are dimmed. Machines nothing was observed for are left out.
public enum StateDiagram {
    public static func graph(_ tally: TransitionTally, title: String) -> DOTGraph {
        var g = DOTGraph(name: "lifecycle")
        g.attributes = [DOTAttribute("rankdir", "LR"), DOTAttribute("fontname", "Helvetica"), DOTAttribute("fontsize", "14"),
                        DOTAttribute("labelloc", "t"), DOTAttribute("label", title), DOTAttribute("nodesep", "0.4"),
                        DOTAttribute("ranksep", "0.6")]
        g.nodeDefaults = [DOTAttribute("shape", "box"), DOTAttribute("style", "rounded,filled"), DOTAttribute("fillcolor", "#f4f6f8"),
                          DOTAttribute("fontname", "Helvetica"), DOTAttribute("fontsize", "11")]
        g.edgeDefaults = [DOTAttribute("fontname", "Helvetica"), DOTAttribute("fontsize", "9")]
        let machines = LifecycleMachine.allCases.filter { tally.machines[$0] != nil }
        for machine in machines {
            let observed = tally.machines[machine] ?? [:]
            var cluster = DOTSubgraph(name: "cluster_\(machine.rawValue)",
                                      attributes: [DOTAttribute("label", "\(machine.title) (\(tally.timelines[machine] ?? 0) \(machine.unit))"),
                                                   DOTAttribute("style", "rounded"), DOTAttribute("color", "#9aa5b1")])
            var states = machine.states
            for t in observed.keys.sorted() {
                for s in [t.from, t.to] where !states.contains(s) { states.append(s) }
            }
            for s in states {
                var attrs = [DOTAttribute("label", s == "start" ? "" : s)]
                if s == "start" { attrs += [DOTAttribute("shape", "circle"), DOTAttribute("width", "0.2"), DOTAttribute("fillcolor", "#52606d")] }
                if s == "unknown" { attrs += [DOTAttribute("style", "rounded,dashed"), DOTAttribute("label", "unknown (earlier events not in the trace)")] }
                cluster.nodes.append(DOTNode(node(machine, s), attrs))
            }
            g.subgraphs.append(cluster)
            let legal = Set(machine.legal)
            for t in machine.outline where observed[t] == nil {
                g.edges.append(DOTEdge(node(machine, t.from), node(machine, t.to), [
                    DOTAttribute("label", shortName(t.event)), DOTAttribute("color", "#c8cdd2"), DOTAttribute("fontcolor", "#9aa5b1"),
                    DOTAttribute("style", "dashed"), DOTAttribute("tooltip", "legal, never observed: \(t.event)")]))
            }
            for (t, stats) in observed.sorted(by: { $0.key < $1.key }) {
                let fromUnknown = t.from == "unknown"
                let isLegal = legal.contains(t)
                var label = "\(shortName(t.event)) ×\(stats.count)"
                if let d = stats.typicalDuration { label += "\n~\(duration(d)) in \(t.from)" }
                var attrs: [DOTAttribute] = []
                if isLegal {
                    attrs = [DOTAttribute("color", "#1f6feb"), DOTAttribute("penwidth", penwidth(stats.count))]
                } else if fromUnknown {
                    attrs = [DOTAttribute("color", "#7b8794"), DOTAttribute("style", "dashed")]
                } else {
                    label += "\nfirst at \(URL(fileURLWithPath: stats.firstFile).lastPathComponent):\(stats.firstLine)"
                    attrs = [DOTAttribute("color", "#d1242f"), DOTAttribute("fontcolor", "#d1242f"), DOTAttribute("penwidth", "2")]
                }
                attrs.insert(DOTAttribute("label", label), at: 0)
                attrs.append(DOTAttribute("tooltip", "\(t.event): \(t.from) → \(t.to), \(stats.count)× (first \(stats.firstFile):\(stats.firstLine))"))
                g.edges.append(DOTEdge(node(machine, t.from), node(machine, t.to), attrs))
            }
        }
        if machines.isEmpty {
            g.nodes.append(DOTNode("empty", [DOTAttribute("label", "no lifecycle callbacks were logged"), DOTAttribute("shape", "plaintext")]))
        }
        return g
    }

    private static func node(_ m: LifecycleMachine, _ state: String) -> String { "\(m.rawValue).\(state)" }

    /// `didBecomeActive` for `scene.didBecomeActive`; CarPlay's own callbacks keep their `cp.`
    /// prefix, to tell them from the scene callbacks a CarPlay scene also gets.
    static func shortName(_ event: String) -> String {
        guard !event.hasPrefix("cp."), let dot = event.lastIndex(of: ".") else { return event }
        return String(event[event.index(after: dot)...])
    }

    private static func penwidth(_ count: Int) -> String {
        String(format: "%.1f", min(4.0, 1.0 + log10(Double(max(1, count)))))
    }

    static func duration(_ s: Double) -> String {
        if s >= 3600 { return String(format: "%.1f h", s / 3600) }
        if s >= 60 { return String(format: "%.1f min", s / 60) }
        if s >= 1 { return String(format: "%.1f s", s) }
        return String(format: "%.0f ms", s * 1000)
    }
}

extension LifecycleMachine {
    var title: String {
        switch self {
        case .scene: return "UIScene"
        case .app: return "UIApplication"
        case .carPlay: return "CarPlay scene"
        }
    }
    var unit: String { self == .app ? "launches" : "timelines" }
}
