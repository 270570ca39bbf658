import Foundation
import LifelineCore

extension SessionView {
    /// The previous event of the same scene that changed its state, if any.
    func previousTransition(before step: SceneStep) -> SceneStep? {
        var p = step.position - 1
        while p >= 0 {
            let entry = step.scene.entries[p]
            if SceneState.target(of: events[entry.event].kind) != nil {
                return SceneStep(scene: step.scene, position: p, entry: entry, event: events[entry.event])
            }
            p -= 1
        }
        return nil
    }
}

extension SceneTimeline {
    /// `S1 (0x10431c2a0)` or `S1`: how messages name a scene.
    var label: String { address.map { "\(id) (\($0))" } ?? id }
}

extension Rule {
    /// Findings for every `kind` event that arrives in one of `states` (never `unknown`: a trace that
    /// begins mid-life says nothing about what came before).
    func arrivals(of kind: EventKind, in states: Set<SceneState>, _ session: SessionView,
                  where condition: (SceneStep) -> Bool = { _ in true },
                  severity: ((SceneStep) -> Severity)? = nil, message: (SceneStep) -> String) -> [Diagnostic] {
        session.sceneSteps.compactMap { step in
            guard step.kind == kind, step.before != .unknown, states.contains(step.before), condition(step) else { return nil }
            return diagnostic(session, event: step.entry.event, scene: step.scene, state: step.before.rawValue,
                              severity: severity?(step), message(step))
        }
    }
}

/// The states each scene callback may legally arrive in, from the scene machine's definition
/// (worked out once: the rules ask for every session).
private let legalSceneSources: [String: Set<SceneState>] = {
    var sources: [String: Set<SceneState>] = [:]
    for t in MachineDefinition.scene.legal {
        if let from = SceneState(rawValue: t.from) { sources[t.event, default: []].insert(from) }
    }
    return sources
}()

extension Rule {
    /// `arrivals` of transitions the scene machine's definition (Core's `MachineDefinition.scene`,
    /// which the builder and the diagram read too) does not allow: `states` are the sources this
    /// rule speaks for, and one the definition calls legal is never reported
    /// (MachineRulesTests checks every callback in every state against the rules). The definition
    /// is asked only about an arrival that would be reported, so a session without one pays nothing.
    func illegalArrivals(of kind: EventKind, in states: Set<SceneState>, _ session: SessionView,
                         severity: ((SceneStep) -> Severity)? = nil, message: (SceneStep) -> String) -> [Diagnostic] {
        arrivals(of: kind, in: states, session, where: { legalSceneSources[kind.rawValue]?.contains($0.before) != true },
                 severity: severity, message: message)
    }
}

extension Rule {
    /// One finding for every event of `kind`, with the scene and state it arrived in; `related`
    /// names lines that explain the finding at event `i`, before where its state began.
    func each(_ kind: EventKind, _ session: SessionView, severity: ((Int) -> Severity)? = nil,
              related: ((Int) -> RelatedLocation?)? = nil,
              where condition: (Event) -> Bool = { _ in true }, message: (Event) -> String) -> [Diagnostic] {
        session.indices(of: kind).compactMap { i in
            let e = session.events[i]
            guard condition(e) else { return nil }
            let context = session.context(at: i)
            var d = diagnostic(session, event: i, scene: context.scene, state: context.state, severity: severity?(i), message(e))
            if let r = related?(i) { d.related.insert(r, at: 0) }
            return d
        }
    }
}

extension SessionView {
    /// Seconds since the first launch marker, when both times are known.
    func secondsSinceLaunch(_ index: Int) -> Double? {
        guard let t = events[index].timestamp?.seconds, let launch = launchTime else { return nil }
        return t - launch
    }
}

/// `1.2 s` / `350 ms` (rounded half to even, as `%.1f` / `%.0f` would; formatted by hand because
/// Foundation's `String(format:)` costs more than the rule that asks for it).
func duration(_ s: Double) -> String {
    if s >= 1 {
        let tenths = Int((s * 10).rounded(.toNearestOrEven))
        return "\(tenths / 10).\(tenths % 10) s"
    }
    return "\(Int((s * 1000).rounded(.toNearestOrEven))) ms"
}

extension SessionView {
    /// Where in the life cycle event `index` happened, in words: time since launch, and whether a
    /// scene had become active yet or which state the scene in play was in.
    func lifecycleContext(at index: Int) -> String {
        var parts: [String] = []
        if let s = secondsSinceLaunch(index), s >= 0 { parts.append("\(duration(s)) after launch") }
        if !session.hasOwnLifecycle, session.hasSystemEvents {
            // The app logged no lifecycle of its own: where it was is what the system said.
            let system = session.systemContext(at: index)
            if let launch = system.launch, let t0 = events[launch].timestamp?.seconds, let t = events[index].timestamp?.seconds, t >= t0 {
                parts.append("\(duration(t - t0)) after the system launched it")
            }
            switch system.phrase {
            case "suspended": parts.append("while suspended (the system's state)")
            case "foreground", "background": parts.append("in the \(system.phrase!) (the system's state)")
            case let other?: if other != "not running" { parts.append("while \(other) (the system's state)") }
            case nil: break
            }
            return parts.joined(separator: ", ")
        }
        let activeBefore = firstActive.map { $0 < index } ?? false
        let c = context(at: index)
        if session.launchSeen, !activeBefore {
            parts.append("before any scene became active")
        } else if let scene = c.scene, let state = c.state {
            parts.append("while scene \(scene.label) was \(state)")
        } else if let state = c.state, state != SceneState.unknown.rawValue {
            parts.append("while the \(state.replacingOccurrences(of: "app.", with: "app was "))")
        }
        return parts.joined(separator: ", ")
    }
}

extension SessionView {
    /// A Main Thread Checker report is printed twice (on stderr, and through os_log with a header):
    /// true for the second copy — same API and thread as a report among the few events before it.
    func isRepeatedCheckerReport(_ index: Int) -> Bool {
        let e = events[index]
        guard e.kind == .mainThreadChecker, let api = e.details?.api else { return false }
        return events[max(0, index - 4)..<index].contains {
            $0.kind == .mainThreadChecker && $0.details?.api == api && $0.details?.reportedTID == e.details?.reportedTID
        }
    }

    /// Whether the state-changing event before `step` on its scene was `previous` (a legal but notable
    /// two-step pattern, such as resign-then-active).
    func transition(_ step: SceneStep, follows previous: EventKind) -> Bool {
        previousTransition(before: step)?.kind == previous
    }
}

extension Rule {
    /// One finding per event of `kind`, with the scene and state it arrived in and its index (for
    /// `lifecycleContext`).
    func eachIndexed(_ kind: EventKind, _ session: SessionView, where condition: (Event, Int) -> Bool = { _, _ in true },
                     message: (Event, Int) -> String) -> [Diagnostic] {
        session.indices(of: kind).compactMap { i in
            let e = session.events[i]
            guard condition(e, i) else { return nil }
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state, message(e, i))
        }
    }
}

extension SessionView {
    /// `, <lifecycle context>` or nothing.
    func whenClause(_ index: Int) -> String {
        let w = lifecycleContext(at: index)
        return w.isEmpty ? "" : ", \(w)"
    }
}

extension SessionView {
    /// Indices of the events of `marker`.
    func indices(of marker: KnownMarker) -> [Int] { indices(of: marker.kind) }

    /// The state `scene` was in just before event `index` (nil: not seen yet).
    /// Entries are in event order, so a binary search: a marker in a session with thousands of
    /// scenes costs a logarithm per scene, not a walk of each scene's history.
    func state(of scene: SceneTimeline, before index: Int) -> SceneState? {
        var lo = 0, hi = scene.entries.count   // first entry at or after `index`
        while lo < hi {
            let mid = (lo + hi) / 2
            if scene.entries[mid].event < index { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : scene.entries[lo - 1].after
    }

    /// Window scenes (not CarPlay) connected just before event `index`.
    func connectedWindowScenes(before index: Int) -> [SceneTimeline] {
        scenes.filter { scene in
            guard !scene.isCarPlay, let s = state(of: scene, before: index) else { return false }
            return s != .disconnected
        }
    }

    /// The process uses scenes: some scene callback was logged (a scene the system alone told
    /// of says nothing: FrontBoard has a scene for every app, scene-based or not).
    var hasSceneEvents: Bool { scenes.contains { $0.source == .app } }

    /// Seconds between two events, when both have times.
    func seconds(from a: Int, to b: Int) -> Double? {
        guard let t0 = events[a].timestamp?.seconds, let t1 = events[b].timestamp?.seconds else { return nil }
        return t1 - t0
    }

    /// The first event after `index` that satisfies `condition`, within `window` seconds when the
    /// events have times. `.unknown` when the trace ends before the window closes (or, without times,
    /// when nothing follows at all): the answer may lie past the end of the log.
    func awaited(after index: Int, within window: Double, _ condition: (Event) -> Bool) -> AwaitResult {
        for j in (index + 1)..<events.count {
            if let s = seconds(from: index, to: j), s > window { return .missed(firstLate: j) }
            if condition(events[j]) { return .found(j) }
        }
        guard let last = events.indices.last, last > index else { return .unknown }
        if let s = seconds(from: index, to: last) { return s >= window ? .missed(firstLate: nil) : .unknown }
        return .missed(firstLate: nil)
    }
}

enum AwaitResult: Equatable {
    case found(Int)
    /// Not within the window; `firstLate` is the first event past it (nil: the trace went on without it).
    case missed(firstLate: Int?)
    case unknown
}

/// An event of the session in order, with its scene (if it is a scene event) and the state it arrived in.
struct OrderedStep {
    let index: Int
    let kind: EventKind
    let scene: SceneTimeline?
    let state: String?
}

extension SessionView {
    /// Scene events of every scene, and the app events of `kinds`, in session order.
    func sceneStepsInOrder(including kinds: Set<EventKind>) -> [OrderedStep] {
        events.indices.compactMap { i in
            if let (scene, entry) = sceneEntry(of: i) {
                return OrderedStep(index: i, kind: events[i].kind, scene: scene, state: entry.before.rawValue)
            }
            guard kinds.contains(events[i].kind) else { return nil }
            return OrderedStep(index: i, kind: events[i].kind, scene: nil, state: context(at: i).state)
        }
    }
}
