import Foundation
import LifelineCore
import LifelineRules

/// The lifecycle state diagram: the expected state machines (scene, app, CarPlay) with what the
/// logs showed drawn over them. Observed transitions carry their count and the typical time spent
/// in the source state, and are coloured as the text report rates the findings at them (red for
/// errors and fatal ones only, amber for warnings, grey for notes, blue when there is none); a
/// transition outside the documented machine with no finding is dashed amber. Failures (crashes,
/// exceptions, assertions, watchdog and jetsam kills) are edges from the state they happened in to a
/// "failed" node, with count, kinds and the first one's place and words. Legal transitions never
/// observed are dimmed. Machines nothing was observed for are left out. RunningBoard's process
/// machine is drawn from its definition like the others; the scenes' states as the system
/// (FrontBoard) told them are dashed purple edges between the scene machine's states
/// (`SystemSceneState.sceneMachineState`), with a legend saying so.
public enum StateDiagram {
    /// The colour of what was seen from the system.
    static let systemColour = "#8250df"

    public static func graph(_ tally: TransitionTally, title: String) -> DOTGraph {
        var g = DOTGraph(name: "lifecycle")
        g.attributes = [DOTAttribute("rankdir", "LR"), DOTAttribute("fontname", "Helvetica"), DOTAttribute("fontsize", "14"),
                        DOTAttribute("labelloc", "t"), DOTAttribute("label", title), DOTAttribute("nodesep", "0.4"),
                        DOTAttribute("ranksep", "0.6")]
        g.nodeDefaults = [DOTAttribute("shape", "box"), DOTAttribute("style", "rounded,filled"), DOTAttribute("fillcolor", "#f4f6f8"),
                          DOTAttribute("fontname", "Helvetica"), DOTAttribute("fontsize", "11")]
        g.edgeDefaults = [DOTAttribute("fontname", "Helvetica"), DOTAttribute("fontsize", "9")]
        let machines = LifecycleMachine.allCases.filter { tally.machines[$0] != nil || tally.failures[$0] != nil }
        for machine in machines {
            var observed = tally.machines[machine] ?? [:]
            // The system's scene states, drawn apart (their from and to are the system's words).
            let seenFromSystem = observed.filter { $0.key.event == SystemSceneState.event }
            observed = observed.filter { $0.key.event != SystemSceneState.event }
            let failed = tally.failures[machine] ?? [:]
            let n = tally.timelines[machine] ?? 0
            let systemOnly = tally.systemOnly[machine] ?? 0
            var title = "\(machine.title) ("
            if n > 0 || systemOnly == 0 { title += "\(n) \(machine.unit(n))" }
            if machine == .app && tally.derivedApp > 0 {
                title += tally.derivedApp == n ? ", states derived from the scenes" : "; states derived from the scenes in \(tally.derivedApp)"
            }
            if systemOnly > 0 { title += "\(n > 0 ? "; " : "")\(systemOnly) \(machine.unit(systemOnly)) seen from the system only" }
            title += ")"
            var cluster = DOTSubgraph(name: "cluster_\(machine.rawValue)",
                                      attributes: [DOTAttribute("label", title),
                                                   DOTAttribute("style", "rounded"), DOTAttribute("color", "#9aa5b1")])
            var states = machine.states
            for t in observed.keys.sorted() {
                for s in [t.from, t.to] where !states.contains(s) { states.append(s) }
            }
            for s in failed.keys.sorted() where !states.contains(s) { states.append(s) }
            let systemEdges = seenFromSystem.sorted { $0.key < $1.key }.map { t, stats in
                (t, stats, from: SystemSceneState(rawValue: t.from).sceneMachineState(asSource: true),
                 to: SystemSceneState(rawValue: t.to).sceneMachineState(asSource: false))
            }
            for e in systemEdges { for s in [e.from, e.to] where !states.contains(s) { states.append(s) } }
            for s in states {
                var attrs = [DOTAttribute("label", s == "start" ? "" : s)]
                if s == "start" { attrs += [DOTAttribute("shape", "circle"), DOTAttribute("width", "0.2"), DOTAttribute("fillcolor", "#52606d")] }
                if s == "unknown" { attrs += [DOTAttribute("style", "rounded,dashed"), DOTAttribute("label", "unknown (earlier events not in the trace)")] }
                cluster.nodes.append(DOTNode(node(machine, s), attrs))
            }
            if !systemEdges.isEmpty {
                cluster.nodes.append(DOTNode(node(machine, "legend.system"), [
                    DOTAttribute("label", "dashed purple: seen from the system (FrontBoard)"), DOTAttribute("shape", "plaintext"),
                    DOTAttribute("style", ""), DOTAttribute("fontcolor", systemColour), DOTAttribute("fontsize", "9")]))
            }
            if !failed.isEmpty {
                let total = failed.values.reduce(0) { $0 + $1.count }
                cluster.nodes.append(DOTNode(node(machine, "failed"), [
                    DOTAttribute("label", "failed (\(total))"), DOTAttribute("shape", "octagon"), DOTAttribute("style", "filled"),
                    DOTAttribute("fillcolor", "#ffebe9"), DOTAttribute("color", "#82071e"), DOTAttribute("fontcolor", "#82071e")]))
            }
            g.subgraphs.append(cluster)
            for (state, f) in failed.sorted(by: { $0.key < $1.key }) {
                // No finding at them (an assertion the app caught): marked, in grey, as the text
                // report does not count them.
                let colour = Self.colour(f.severity) ?? "#6e7781"
                let label = "\(f.kindsText)\(f.severity == nil ? " (no finding)" : "")\nfirst at \(URL(fileURLWithPath: f.firstFile).lastPathComponent):\(f.firstPosition.label)\n\(Self.wrap(f.firstSummary))"
                g.edges.append(DOTEdge(node(machine, state), node(machine, "failed"), [
                    DOTAttribute("label", label), DOTAttribute("color", colour), DOTAttribute("fontcolor", colour),
                    DOTAttribute("penwidth", "2"), DOTAttribute("style", "bold"),
                    DOTAttribute("tooltip", "\(f.kindsText) in \(state) (first \(f.firstFile):\(f.firstPosition.label): \(f.firstSummary))")]))
            }
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
                if let colour = Self.colour(stats.severity) {
                    // A finding at it: its colour is the finding's severity, as the text report rates it.
                    label += "\n\(stats.severity!) at \(URL(fileURLWithPath: stats.severityFile).lastPathComponent):\(stats.severityPosition.label)"
                    attrs = [DOTAttribute("color", colour), DOTAttribute("fontcolor", colour), DOTAttribute("penwidth", "2")]
                } else if isLegal {
                    attrs = [DOTAttribute("color", "#1f6feb"), DOTAttribute("penwidth", penwidth(stats.count))]
                } else if fromUnknown {
                    attrs = [DOTAttribute("color", "#7b8794"), DOTAttribute("style", "dashed")]
                } else {
                    // Outside the documented machine, and no rule reported it (rules disabled, or a
                    // state the rules leave alone): unusual, not an error.
                    label += "\nnot in the documented machine · first at \(URL(fileURLWithPath: stats.firstFile).lastPathComponent):\(stats.firstPosition.label)"
                    attrs = [DOTAttribute("color", "#9a6700"), DOTAttribute("fontcolor", "#9a6700"), DOTAttribute("style", "dashed")]
                }
                attrs.insert(DOTAttribute("label", label), at: 0)
                attrs.append(DOTAttribute("tooltip", "\(t.event): \(t.from) → \(t.to), \(stats.count)× (first \(stats.firstFile):\(stats.firstPosition.label))"))
                g.edges.append(DOTEdge(node(machine, t.from), node(machine, t.to), attrs))
            }
            for (t, stats, from, to) in systemEdges {
                var label = "system: \(t.from) → \(t.to) ×\(stats.count)"
                if let d = stats.typicalDuration { label += "\n~\(duration(d)) in \(t.from)" }
                var colour = systemColour
                if let c = Self.colour(stats.severity) {
                    colour = c
                    label += "\n\(stats.severity!) at \(URL(fileURLWithPath: stats.severityFile).lastPathComponent):\(stats.severityPosition.label)"
                }
                g.edges.append(DOTEdge(node(machine, from), node(machine, to), [
                    DOTAttribute("label", label), DOTAttribute("color", colour), DOTAttribute("fontcolor", colour),
                    DOTAttribute("style", "dashed"), DOTAttribute("penwidth", penwidth(stats.count)),
                    DOTAttribute("tooltip", "seen from the system (FrontBoard): \(t.from) → \(t.to), \(stats.count)× (first \(stats.firstFile):\(stats.firstPosition.label))")]))
            }
        }
        if machines.isEmpty {
            g.nodes.append(DOTNode("empty", [DOTAttribute("label", "no lifecycle callbacks were logged"), DOTAttribute("shape", "plaintext")]))
        }
        return g
    }

    private static func node(_ m: LifecycleMachine, _ state: String) -> String { "\(m.rawValue).\(state)" }

    /// The colour of a finding's severity, as the HTML report's badges and the terminal use it:
    /// red only for errors and fatal ones.
    static func colour(_ severity: Severity?) -> String? {
        switch severity {
        case .fatal?: return "#82071e"
        case .error?: return "#d1242f"
        case .warning?: return "#9a6700"
        case .note?: return "#57606a"
        case nil: return nil
        }
    }

    /// A summary cut into lines of about 36 characters (a label, not a paragraph).
    static func wrap(_ text: String, width: Int = 36) -> String {
        var lines: [String] = []
        var line = ""
        // A word longer than a line (an Objective-C selector) is cut after a colon where it can be.
        var words: [Substring] = []
        for word in text.split(separator: " ") {
            var rest = word
            while rest.count > width {
                let window = rest.prefix(width)
                let cut = window.lastIndex(of: ":").map { rest.index(after: $0) } ?? window.endIndex
                words.append(rest[..<cut])
                rest = rest[cut...]
            }
            if !rest.isEmpty { words.append(rest) }
        }
        for word in words {
            if !line.isEmpty && line.count + word.count + 1 > width { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.prefix(3).joined(separator: "\n")
    }

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
    /// The cluster title and timeline unit come from the machine's definition in Core.
    var title: String { definition.title }
    func unit(_ n: Int) -> String { n == 1 ? definition.unit.one : definition.unit.many }
}
