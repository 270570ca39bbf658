import Foundation
import LifelineCore
import LifelineRules

/// A session's timeline as a diagram: one lane for the app, one per scene the app logged, one for
/// the system (RunningBoard's process states, FrontBoard's scene states, the launch with its intent
/// and trigger) when the session has system events, and one per thread other than the main one;
/// events left to right in log order with their time since the first event;
/// events with findings filled in the colour of their worst severity. Long repetitive stretches are
/// drawn once with a count, and a session longer than `maxItems` keeps its beginning and end with
/// the middle summarised, so any session gives a diagram Graphviz lays out in bounded time. The
/// graph's label says what was collapsed.
public enum TimelineDiagram {
    public static let maxItems = 240

    struct Item {
        var lane: String
        var kind: String
        var first: Int          // event index
        var last: Int
        var repeats = 1
        var pattern: [String] = []
        var severity: LifelineRules.Severity?
        var findings: [Diagnostic] = []
        var gap = 0             // events not drawn (the summarised middle)
    }

    /// The lane of the system's events.
    static let systemLane = "system"

    public static func graph(_ session: ProcessSession, diagnostics: [Diagnostic], maxItems: Int = maxItems) -> DOTGraph {
        let events = session.events
        var byLine: [String: [Diagnostic]] = [:]
        for d in diagnostics where d.session == session.id { byLine[d.position.label(in: d.file), default: []].append(d) }
        var sceneOf: [Int: String] = [:]
        for scene in session.scenes { for e in scene.entries { sceneOf[e.event] = scene.id } }
        var systemSceneOf: [Int: String] = [:]
        for scene in session.scenes { for e in scene.systemStates { systemSceneOf[e.event] = scene.id } }
        let main = session.mainThread.tid
        func lane(_ i: Int) -> String {
            if events[i].kind.isSystemLifecycle { return systemLane }
            if let tid = events[i].details?.reportedTID ?? events[i].ownTID, let main, tid != main { return "thread \(tid)" }
            return sceneOf[i] ?? "app"
        }
        var items: [Item] = events.indices.map { i in
            let found = byLine[events[i].position.label(in: events[i].file)] ?? []
            let kind = events[i].kind.isSystemLifecycle ? systemName(events[i], scene: systemSceneOf[i])
                : StateDiagram.shortName(events[i].kind.rawValue)
            return Item(lane: lane(i), kind: kind, first: i, last: i, severity: found.map(\.severity).max(), findings: found)
        }
        let original = items.count
        var collapsedStretches = 0, collapsedEvents = 0
        (items, collapsedStretches, collapsedEvents) = collapseRepeats(items)
        var notDrawn = 0
        if items.count > maxItems {
            let head = maxItems * 2 / 3, tail = maxItems - head - 1
            let middle = items[head..<(items.count - tail)]
            notDrawn = middle.reduce(0) { $0 + ($1.last - $1.first + 1) }
            var gap = Item(lane: "app", kind: "…", first: middle.first!.first, last: middle.last!.last)
            gap.gap = notDrawn
            gap.findings = middle.flatMap(\.findings)
            gap.severity = gap.findings.map(\.severity).max()
            items = Array(items[..<head]) + [gap] + Array(items[(items.count - tail)...])
        }

        var g = DOTGraph(name: "timeline")
        var title = "\(session.id) \(session.process ?? "(unknown process)")\(session.pid.map { " [\($0)]" } ?? ""): \(original) events"
        if collapsedStretches > 0 { title += "; \(collapsedStretches) repetitive stretches (\(collapsedEvents) events) drawn once with a count" }
        if notDrawn > 0 { title += "; \(notDrawn) events in the middle summarised in one box" }
        g.attributes = [DOTAttribute("rankdir", "TB"), DOTAttribute("fontname", "Helvetica"), DOTAttribute("fontsize", "12"),
                        DOTAttribute("labelloc", "t"), DOTAttribute("label", title), DOTAttribute("nodesep", "0.15"),
                        DOTAttribute("ranksep", "0.25"), DOTAttribute("newrank", "true")]
        g.nodeDefaults = [DOTAttribute("shape", "box"), DOTAttribute("style", "rounded,filled"), DOTAttribute("fillcolor", "#ffffff"),
                          DOTAttribute("fontname", "Helvetica"), DOTAttribute("fontsize", "9"), DOTAttribute("margin", "0.05,0.02")]
        g.edgeDefaults = [DOTAttribute("color", "#9aa5b1"), DOTAttribute("arrowsize", "0.5")]

        // Scenes the system alone told of have no lane of their own: their states are in the system's.
        var lanes = ["app"] + session.scenes.filter { $0.source == .app }.map(\.id)
        if items.contains(where: { $0.lane == systemLane }) { lanes.append(systemLane) }
        for item in items where !lanes.contains(item.lane) { lanes.append(item.lane) }
        let start = events.lazy.compactMap { $0.timestamp?.seconds }.first
        var headers = DOTSubgraph(name: "lanes", attributes: [DOTAttribute("rank", "same")])
        for l in lanes {
            let scene = session.scenes.first { $0.id == l }
            var label = scene.map { s in s.role == nil ? s.id : "\(s.id)\n\(roleName(s))" } ?? (l == systemLane ? "system\n(RunningBoard, FrontBoard)" : l)
            if let s = scene, s.isIndistinguishable { label += "\n\(s.sceneCount) scenes, not distinguishable" }
            headers.nodes.append(DOTNode("lane:\(l)", [DOTAttribute("label", label), DOTAttribute("shape", "plaintext"),
                                                        DOTAttribute("style", ""), DOTAttribute("fontsize", "11"), DOTAttribute("group", l)]))
        }
        g.subgraphs.append(headers)
        for (a, b) in zip(lanes, lanes.dropFirst()) {
            g.edges.append(DOTEdge("lane:\(a)", "lane:\(b)", [DOTAttribute("style", "invis")]))
        }
        var previousInLane: [String: String] = [:]
        var previousColumn: String? = nil
        for (n, item) in items.enumerated() {
            let id = "e\(n)"
            var label: String
            if item.gap > 0 {
                label = "… \(item.gap) events …"
            } else if item.repeats > 1 {
                label = "(\(item.pattern.joined(separator: " → "))) ×\(item.repeats)"
            } else {
                label = item.kind
                // A failure says what failed: the exception and its reason, the report's type.
                if FailureMarks.kinds.contains(events[item.first].kind) {
                    label += "\n" + StateDiagram.wrap(FailureMarks.summary(of: events[item.first], limit: 90), width: 36)
                }
                // The system's account: the launch's intent and trigger, the process's role.
                if let more = systemDetail(events[item.first]) { label += "\n" + more }
            }
            if let t0 = start, let t = events[item.first].timestamp?.seconds { label += String(format: "\n%+.3f s", t - t0) }
            if !item.findings.isEmpty {
                // Said in words as well as in colour, so that a printed or colour-blind reading loses nothing.
                label += item.repeats > 1 || item.gap > 0 ? "\n\(item.findings.count) findings" : "\n" + findingLine(item.findings)
            }
            var attrs = [DOTAttribute("label", label), DOTAttribute("group", item.lane)]
            if item.lane == systemLane && item.gap == 0 {
                attrs.append(DOTAttribute("color", StateDiagram.systemColour))
                if item.severity == nil { attrs.append(DOTAttribute("fillcolor", "#f5f0ff")) }
            }
            if let s = item.severity {
                attrs.append(DOTAttribute("fillcolor", color(s)))
                attrs.append(DOTAttribute("penwidth", "1.5"))
            }
            let tip = item.findings.prefix(5).map { "\($0.ruleId) \($0.severity): \($0.message)" }
            let place = events[item.first].position.label(in: events[item.first].file)
            attrs.append(DOTAttribute("tooltip", ([place] + tip).joined(separator: "\n")))
            if !item.findings.isEmpty, let line = events[item.first].position.line {
                // In the HTML report, a box with findings links to its line in the log excerpts (a record of a binary
                // input has no excerpt to link to).
                attrs.append(DOTAttribute("href", "#" + HTMLReport.lineAnchor(file: events[item.first].file, line: line)))
            }
            // One column per item: every item is in a rank of its own, left of the next.
            let column = "c\(n)"
            g.subgraphs.append(DOTSubgraph(name: "col\(n)", attributes: [DOTAttribute("rank", "same")],
                                           nodes: [DOTNode(column, [DOTAttribute("style", "invis"), DOTAttribute("width", "0"),
                                                                    DOTAttribute("height", "0"), DOTAttribute("label", "")]),
                                                   DOTNode(id, attrs)]))
            g.edges.append(DOTEdge(previousColumn ?? "lane:app", column, [DOTAttribute("style", "invis")]))
            previousColumn = column
            let from = previousInLane[item.lane] ?? "lane:\(item.lane)"
            g.edges.append(DOTEdge(from, id, [DOTAttribute("weight", "8")]))
            previousInLane[item.lane] = id
        }
        return g
    }

    /// What a system event is called in its box: `launch`, `process running-active`,
    /// `S1 foreground` (the scene timeline that holds the state; `scene` when none does).
    static func systemName(_ e: Event, scene: String?) -> String {
        let system = e.details?.system
        switch e.kind {
        case .systemLaunch: return "launch"
        case .systemProcessState:
            let state = ProcessState.target(of: e)?.rawValue ?? system?.state ?? system?.taskState ?? "?"
            return "process \(state)"
        default:
            return "\(scene ?? "scene") \(system?.state?.lowercased() ?? "?")"
        }
    }

    /// The rest of what a system event says, a line each: a launch's intent, trigger and opener, a
    /// process state's role (nil when it says nothing more).
    static func systemDetail(_ e: Event) -> String? {
        guard let system = e.details?.system else { return nil }
        var parts: [String] = []
        switch e.kind {
        case .systemLaunch:
            if let intent = system.intent { parts.append("intent \(intent)") }
            if let trigger = system.trigger { parts.append("by \(trigger)") }
            if let opener = system.openedBy { parts.append("from \(opener)") }
        case .systemProcessState:
            if let role = system.role { parts.append("role \(role)") }
            if system.state == nil, let v = system.visibility { parts.append("visibility \(v)") }
        default:
            break
        }
        return parts.isEmpty ? nil : parts.map { StateDiagram.wrap($0, width: 36) }.joined(separator: "\n")
    }

    /// Replaces a pattern of 1 to 4 items (same lanes, kinds and severity) repeated at least three
    /// times in a row by one item with the count.
    static func collapseRepeats(_ items: [Item]) -> ([Item], stretches: Int, events: Int) {
        func key(_ i: Item) -> String { "\(i.lane)|\(i.kind)|\(i.severity.map { "\($0)" } ?? "")" }
        var out: [Item] = []
        var stretches = 0, collapsed = 0
        var i = 0
        while i < items.count {
            var best: (width: Int, repeats: Int)? = nil
            for w in 1...4 where i + w * 3 <= items.count {
                let pattern = items[i..<(i + w)].map(key)
                var r = 1
                while i + (r + 1) * w <= items.count, items[(i + r * w)..<(i + (r + 1) * w)].map(key) == pattern { r += 1 }
                if r >= 3, best == nil || r * w > best!.repeats * best!.width { best = (w, r) }
            }
            guard let (w, r) = best else {
                out.append(items[i])
                i += 1
                continue
            }
            let stretch = items[i..<(i + w * r)]
            var item = items[i]
            item.last = stretch.last!.last
            item.repeats = r
            item.pattern = items[i..<(i + w)].map(\.kind)
            item.findings = stretch.flatMap(\.findings)
            out.append(item)
            stretches += 1
            collapsed += w * r
            i += w * r
        }
        return (out, stretches, collapsed)
    }

    /// `LC-T02 error`, `LC-F01, LC-F02 fatal`, `LC-A01, LC-A03 +1 warning`: the rules (at most two
    /// named) and the highest severity of an item's findings.
    static func findingLine(_ findings: [Diagnostic]) -> String {
        var ids: [String] = []
        for f in findings where !ids.contains(f.ruleId) { ids.append(f.ruleId) }
        var line = ids.prefix(2).joined(separator: ", ")
        if ids.count > 2 { line += " +\(ids.count - 2)" }
        return line + " " + (findings.map(\.severity).max()?.description ?? "")
    }

    private static func color(_ s: LifelineRules.Severity) -> String {
        switch s {
        case .note: return "#dbeafe"
        case .warning: return "#fde68a"
        case .error: return "#fca5a5"
        case .fatal: return "#f87171"
        }
    }

    private static func roleName(_ scene: SceneTimeline) -> String {
        guard let role = scene.role else { return "" }
        if role.hasPrefix("CPTemplateApplicationDashboard") { return "CarPlay dashboard" }
        if role.hasPrefix("CPTemplateApplicationInstrumentCluster") { return "CarPlay cluster" }
        if role.hasPrefix("CPTemplateApplication") { return "CarPlay" }
        if role.contains("ExternalDisplay") { return "external display" }
        return role.replacingOccurrences(of: "UIWindowSceneSessionRole", with: "")
    }
}
