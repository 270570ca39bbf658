import Foundation
import LifelineCore

// The machines (`LifecycleMachine`) and their edges (`Transition`) are defined in Core
// (`Sessions/StateMachine.swift`); this file tallies what the logs showed of them.

/// How often one transition was seen, where first, and how long the source state had lasted.
public struct TransitionStats: Sendable, Equatable {
    public var count = 0
    /// The earliest place it was seen (by file, then line).
    public var firstFile = ""
    public var firstPosition = InputPosition.line(0)
    /// Seconds spent in the source state before the transition, when both ends had times, counted
    /// in log-spaced buckets (1/16 of a doubling wide): counts add, so tallies merge in any order
    /// and grouping to the same result (the old sample, thinned as values arrived, did not), and
    /// the median read from them is within 2.2% of the exact one. Key `Int.min` holds zeros.
    public private(set) var durationBuckets: [Int: Int] = [:]
    public private(set) var durationCount = 0
    /// The most severe finding at any event of this transition (what colours its edge, as the
    /// text report rates it), if a rule reported one.
    public var severity: Severity?
    /// Where the first finding of that severity is (by file, then line).
    public var severityFile = ""
    public var severityPosition = InputPosition.line(0)
    static let bucketsPerDoubling = 16.0

    public init() {}

    /// A summary read back from a partial result (`TransitionTally.read`).
    public init(count: Int, firstFile: String, firstPosition: InputPosition, durationBuckets: [Int: Int], severity: Severity? = nil,
                severityFile: String = "", severityPosition: InputPosition = .line(0)) {
        self.count = count
        self.firstFile = firstFile
        self.firstPosition = firstPosition
        self.durationBuckets = durationBuckets
        self.severity = severity
        (self.severityFile, self.severityPosition) = (severityFile, severityPosition)
        durationCount = durationBuckets.values.reduce(0, +)
    }

    mutating func add(file: String, position: InputPosition, duration: Double?, severity: Severity? = nil) {
        rate(severity, file: file, position: position)
        count += 1
        if firstFile.isEmpty || (file, position) < (firstFile, firstPosition) { (firstFile, firstPosition) = (file, position) }
        if let d = duration, d >= 0 {
            durationBuckets[Self.bucket(d), default: 0] += 1
            durationCount += 1
        }
    }

    /// Keeps the highest severity and the first place it was found at.
    private mutating func rate(_ s: Severity?, file: String, position: InputPosition) {
        guard let s else { return }
        if severity == nil || s > severity! || s == severity! && (file, position) < (severityFile, severityPosition) {
            (severity, severityFile, severityPosition) = (s, file, position)
        }
    }

    static func bucket(_ d: Double) -> Int {
        d < 1e-9 ? Int.min : Int((log2(d) * bucketsPerDoubling).rounded(.down))
    }

    mutating func merge(_ other: TransitionStats) {
        if other.count == 0 { return }
        if firstFile.isEmpty || (other.firstFile, other.firstPosition) < (firstFile, firstPosition) {
            (firstFile, firstPosition) = (other.firstFile, other.firstPosition)
        }
        count += other.count
        rate(other.severity, file: other.severityFile, position: other.severityPosition)
        for (b, n) in other.durationBuckets { durationBuckets[b, default: 0] += n }
        durationCount += other.durationCount
    }

    /// The median time in the source state, if any was measured: the geometric middle of the
    /// bucket that holds it.
    public var typicalDuration: Double? {
        guard durationCount > 0 else { return nil }
        let middle = (durationCount + 1) / 2
        var seen = 0
        for b in durationBuckets.keys.sorted() {
            seen += durationBuckets[b]!
            if seen >= middle { return b == Int.min ? 0 : exp2((Double(b) + 0.5) / Self.bucketsPerDoubling) }
        }
        return nil
    }
}

/// Observed transitions per state machine, from any number of sessions: what a lifecycle diagram
/// overlays on the expected machine. Small (one entry per distinct transition), so an analysis of
/// any length keeps it.
public struct TransitionTally: Sendable, Equatable {
    public private(set) var machines: [LifecycleMachine: [Transition: TransitionStats]] = [:]
    /// Timelines counted, per machine.
    public private(set) var timelines: [LifecycleMachine: Int] = [:]
    /// Failures (crashes, exceptions, assertions, watchdog and jetsam kills) per machine and the
    /// state they happened in.
    public private(set) var failures: [LifecycleMachine: [String: FailureStats]] = [:]
    /// App timelines whose states were derived from the app's scenes: a scene-based app gets no
    /// app-level activation callbacks, and UIKit derives the app's state from its scenes'.
    public private(set) var derivedApp = 0
    /// Scene timelines of the system's states only (the app logged no callback for the scene),
    /// per machine: not in `timelines`, their transitions (event `system.sceneState`, from and to
    /// in the system's words) in `machines`.
    public private(set) var systemOnly: [LifecycleMachine: Int] = [:]

    public init() {}

    public var isEmpty: Bool { machines.isEmpty && failures.isEmpty }

    /// Adds the transitions and failures of `session` (which must still have its events), or of one
    /// of its scenes; `findings` (the session's) rate the edges and failures they point at.
    public mutating func add(_ session: ProcessSession, findings: [Diagnostic] = [], scene only: String? = nil) {
        // Keyed by the position's integer: an Int key hashes in one step, an enum key through a whole Hasher.
        var severityAt: [String: [Int: Severity]] = [:]
        for d in findings {
            let at = d.position.sortKey
            severityAt[d.file, default: [:]][at] = FailureMarks.higher(severityAt[d.file]?[at], d.severity)
        }
        func severity(_ e: Event) -> Severity? { severityAt[e.file]?[e.position.sortKey] }
        for place in FailureMarks.places(session, only: only) {
            let e = session.events[place.index]
            failures[place.machine, default: [:]][place.state, default: FailureStats()]
                .add(kind: e.kind.rawValue, file: e.file, position: e.position, summary: FailureMarks.summary(of: e), severity: severity(e))
        }
        for scene in session.scenes where only == nil || scene.id == only {
            let machine: LifecycleMachine = scene.isCarPlay ? .carPlay : .scene
            addSystemStates(of: scene, machine, session, severity: severity)
            guard scene.source == .app else {
                systemOnly[machine, default: 0] += 1
                continue
            }
            timelines[machine, default: 0] += 1
            var enteredAt: Double? = nil
            var first = true
            // Callbacks of scenes that cannot be told apart are no one scene's transitions.
            for entry in scene.ownEntries {
                let kind = session.events[entry.event].kind
                guard SceneState.target(of: kind) != nil else { continue }
                let from = first && !scene.beginsMidLife ? "start" : entry.before.rawValue
                first = false
                let t = session.events[entry.event].timestamp?.seconds
                let duration = from == "start" ? nil : zip(enteredAt, t).map { $1 - $0 }
                record(machine, Transition(from: from, to: entry.after.rawValue, event: kind.rawValue),
                       session.events[entry.event], duration: duration, severity: severity(session.events[entry.event]))
                if entry.after != entry.before || from == "start" { enteredAt = t }
            }
        }
        if only == nil { addProcess(session, severity: severity) }
        guard only == nil, !session.app.isEmpty else { return }
        timelines[.app, default: 0] += 1
        // A scene-based app: its activation comes from its scenes (no app-level callback moved it
        // into the foreground or background), so the app's state is derived from theirs.
        let activation: Set<AppState> = [.foregroundActive, .foregroundInactive, .background]
        let derive = !session.app.contains { activation.contains($0.after) }
            && session.scenes.contains { !$0.isCarPlay && !$0.ownEntries.isEmpty }
        var steps: [(index: Int, app: TimelineEntry<AppState>?, scene: (id: String, state: SceneState)?)] =
            session.app.map { ($0.event, $0, nil) }
        if derive {
            derivedApp += 1
            for scene in session.scenes where !scene.isCarPlay {
                for entry in scene.ownEntries { steps.append((entry.event, nil, (scene.id, entry.after))) }
            }
            steps.sort { $0.index < $1.index }
        }
        var enteredAt: Double? = nil
        var current: String? = nil
        var sceneStates: [String: SceneState] = [:]
        // How many scenes are in each state, kept as they move (one step costs the same however
        // many scenes the app has).
        var inState: [SceneState: Int] = [:]
        for (k, step) in steps.enumerated() {
            let e = session.events[step.index]
            let t = e.timestamp?.seconds
            if let entry = step.app {
                let from = k == 0 && entry.before == .unknown && session.launchSeen ? "start" : entry.before.rawValue
                let duration = from == "start" ? nil : zip(enteredAt, t).map { $1 - $0 }
                record(.app, Transition(from: from, to: entry.after.rawValue, event: e.kind.rawValue), e, duration: duration,
                       severity: severity(e))
                if entry.after != entry.before || from == "start" { enteredAt = t }
                current = entry.after.rawValue
            } else if let scene = step.scene {
                if let old = sceneStates.updateValue(scene.state, forKey: scene.id) { inState[old, default: 0] -= 1 }
                inState[scene.state, default: 0] += 1
                func any(_ s: SceneState) -> Bool { inState[s, default: 0] > 0 }
                let derived: AppState? = any(.foregroundActive) ? .foregroundActive
                    : any(.foregroundInactive) ? .foregroundInactive
                    : any(.background) ? .background : nil
                guard let derived, let from = current, from != derived.rawValue else { continue }
                // The app-level notification UIKit posts for that change.
                let event = derived == .foregroundActive ? "app.didBecomeActive"
                    : derived == .background ? "app.didEnterBackground"
                    : from == AppState.foregroundActive.rawValue ? "app.willResignActive" : "app.willEnterForeground"
                record(.app, Transition(from: from, to: derived.rawValue, event: event), e, duration: zip(enteredAt, t).map { $1 - $0 })
                enteredAt = t
                current = derived.rawValue
            }
        }
    }

    /// The system's states of `scene` as transitions of its machine, in the system's words (a
    /// diagram draws them apart from the app's): every change of state.
    private mutating func addSystemStates(of scene: SceneTimeline, _ machine: LifecycleMachine, _ session: ProcessSession,
                                          severity: (Event) -> Severity?) {
        var enteredAt: Double? = nil
        for entry in scene.systemStates where entry.before != entry.after {
            let e = session.events[entry.event]
            let t = e.timestamp?.seconds
            record(machine, Transition(from: entry.before.rawValue, to: entry.after.rawValue, event: SystemSceneState.event), e,
                   duration: zip(enteredAt, t).map { $1 - $0 }, severity: severity(e))
            enteredAt = t
        }
    }

    /// The process timeline's changes of state (a change of RunningBoard's role alone is none):
    /// from `start` when the trace shows the launch.
    private mutating func addProcess(_ session: ProcessSession, severity: (Event) -> Severity?) {
        let process = session.processTimeline
        guard !process.entries.isEmpty else { return }
        timelines[.process, default: 0] += 1
        var enteredAt: Double? = nil
        for (k, entry) in process.entries.enumerated() {
            let from = k == 0 && process.beginsAtLaunch ? MachineDefinition.start : entry.before.rawValue
            guard from != entry.after.rawValue else { continue }
            let e = session.events[entry.event]
            let t = e.timestamp?.seconds
            let duration = from == MachineDefinition.start ? nil : zip(enteredAt, t).map { $1 - $0 }
            record(.process, Transition(from: from, to: entry.after.rawValue, event: e.kind.rawValue), e, duration: duration,
                   severity: severity(e))
            enteredAt = t
        }
    }

    /// As a partial result writes it: per machine, its timeline count and its transitions in order,
    /// each with its count, first place and duration buckets (`Int.min`, the zeros, written as "zero").
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        for m in LifecycleMachine.allCases where machines[m] != nil || timelines[m] != nil || failures[m] != nil || systemOnly[m] != nil {
            w.key(named: m.rawValue)
            w.beginObject()
            if m == .app && derivedApp > 0 { w.field("derivedFromScenes", derivedApp) }
            if let states = failures[m] {
                w.key("failures")
                w.beginArray()
                for (state, f) in states.sorted(by: { $0.key < $1.key }) {
                    w.beginObject()
                    w.field("count", f.count)
                    w.field("firstFile", f.firstFile)
                    w.field("firstLine", f.firstPosition.line)
                    w.field("firstOffset", f.firstPosition.byteOffset)
                    w.field("firstSummary", f.firstSummary)
                    w.key("kinds")
                    w.beginObject()
                    for (k, n) in f.kinds.sorted(by: { $0.key < $1.key }) { w.key(named: k); w.int(n) }
                    w.endObject()
                    if let sev = f.severity { w.field("severity", sev.description) }
                    w.field("state", state)
                    w.endObject()
                }
                w.endArray()
            }
            if let n = systemOnly[m] { w.field("systemOnlyTimelines", n) }
            w.field("timelines", timelines[m] ?? 0)
            w.key("transitions")
            w.beginArray()
            for (t, st) in (machines[m] ?? [:]).sorted(by: { $0.key < $1.key }) {
                w.beginObject()
                w.field("count", st.count)
                w.key("durations")
                w.beginObject()
                for (b, n) in st.durationBuckets.sorted(by: { $0.key < $1.key }) {
                    w.key(named: b == Int.min ? "zero" : String(b))
                    w.int(n)
                }
                w.endObject()
                w.field("event", t.event)
                w.field("firstFile", st.firstFile)
                w.field("firstLine", st.firstPosition.line)
                w.field("firstOffset", st.firstPosition.byteOffset)
                w.field("from", t.from)
                if let sev = st.severity {
                    w.field("severity", sev.description)
                    w.field("severityFile", st.severityFile)
                    w.field("severityLine", st.severityPosition.line)
                    w.field("severityOffset", st.severityPosition.byteOffset)
                }
                w.field("to", t.to)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endObject()
    }

    /// Reads what `write(to:)` wrote (parsed JSON); nil when it is not that shape.
    public static func read(_ object: Any?) -> TransitionTally? {
        guard let dict = object as? [String: Any] else { return nil }
        var tally = TransitionTally()
        for (name, value) in dict {
            guard let m = LifecycleMachine(rawValue: name), let body = value as? [String: Any],
                  let timelines = body["timelines"] as? Int, let list = body["transitions"] as? [[String: Any]] else { return nil }
            tally.timelines[m] = timelines
            if let n = body["derivedFromScenes"] as? Int { tally.derivedApp += n }
            if let n = body["systemOnlyTimelines"] as? Int { tally.systemOnly[m] = n }
            for f in body["failures"] as? [[String: Any]] ?? [] {
                guard let state = f["state"] as? String, let count = f["count"] as? Int, let file = f["firstFile"] as? String,
                      let position = readPosition(f, "firstLine", "firstOffset"), let summary = f["firstSummary"] as? String,
                      let kinds = f["kinds"] as? [String: Int] else { return nil }
                var stats = FailureStats()
                stats.count = count
                stats.kinds = kinds
                (stats.firstFile, stats.firstPosition, stats.firstSummary) = (file, position, summary)
                stats.severity = (f["severity"] as? String).flatMap(Severity.named)
                tally.failures[m, default: [:]][state] = stats
            }
            for t in list {
                guard let from = t["from"] as? String, let to = t["to"] as? String, let event = t["event"] as? String,
                      let count = t["count"] as? Int, let file = t["firstFile"] as? String, let position = readPosition(t, "firstLine", "firstOffset"),
                      let durations = t["durations"] as? [String: Int] else { return nil }
                var buckets: [Int: Int] = [:]
                for (k, n) in durations {
                    guard let b = k == "zero" ? Int.min : Int(k) else { return nil }
                    buckets[b] = n
                }
                tally.machines[m, default: [:]][Transition(from: from, to: to, event: event)] =
                    TransitionStats(count: count, firstFile: file, firstPosition: position, durationBuckets: buckets,
                                    severity: (t["severity"] as? String).flatMap(Severity.named),
                                    severityFile: t["severityFile"] as? String ?? "",
                                    severityPosition: readPosition(t, "severityLine", "severityOffset") ?? .line(0))
            }
        }
        return tally
    }

    public mutating func merge(_ other: TransitionTally) {
        for (m, edges) in other.machines {
            for (t, s) in edges { machines[m, default: [:]][t, default: TransitionStats()].merge(s) }
        }
        for (m, n) in other.timelines { timelines[m, default: 0] += n }
        for (m, states) in other.failures {
            for (state, f) in states { failures[m, default: [:]][state, default: FailureStats()].merge(f) }
        }
        derivedApp += other.derivedApp
        for (m, n) in other.systemOnly { systemOnly[m, default: 0] += n }
    }

    private mutating func record(_ m: LifecycleMachine, _ t: Transition, _ e: Event, duration: Double?, severity: Severity? = nil) {
        machines[m, default: [:]][t, default: TransitionStats()].add(file: e.file, position: e.position, duration: duration, severity: severity)
    }
}

/// A position a partial result wrote as a line (`lineKey`) or a byte offset (`offsetKey`).
private func readPosition(_ o: [String: Any], _ lineKey: String, _ offsetKey: String) -> InputPosition? {
    if let n = o[lineKey] as? Int { return .line(n) }
    if let n = o[offsetKey] as? Int { return .byte(n) }
    return nil
}

private func zip(_ a: Double?, _ b: Double?) -> (Double, Double)? {
    guard let a, let b else { return nil }
    return (a, b)
}
