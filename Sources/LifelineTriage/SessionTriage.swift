import LifelineCore
import LifelineRules

/// What one worker has triaged so far: signatures by id, inputs, unreadable inputs and
/// transitions. Tallies merge in any order to the same result.
struct TriageTally: Sendable {
    var signatures: [String: SignatureStats] = [:]
    var inputs: [TriageInput] = []
    var unreadable: [Unreadable] = []
    /// Files found in a directory and not read (binary, not a log), with the reason.
    var skipped: [Unreadable] = []
    /// Inputs known only by their sums (partial results without rows).
    var extraInputs = InputTotals()
    /// Unreadable and skipped inputs known only by count (beyond the lists of capped partials).
    var extraUnreadable = 0, extraSkipped = 0
    var transitions = TransitionTally()
    /// Sessions per release.
    var releases = ReleaseSpread()

    mutating func merge(_ other: TriageTally) {
        releases.merge(other.releases)
        for (id, s) in other.signatures {
            if signatures[id] == nil { signatures[id] = s } else { signatures[id]!.merge(s) }
        }
        inputs.append(contentsOf: other.inputs)
        unreadable.append(contentsOf: other.unreadable)
        skipped.append(contentsOf: other.skipped)
        extraInputs.merge(other.extraInputs)
        extraUnreadable += other.extraUnreadable
        extraSkipped += other.extraSkipped
        transitions.merge(other.transitions)
    }

    mutating func record(_ signature: Signature, _ occurrence: Occurrence, session: String, phase: FailurePhase,
                         severity: Severity, rules: [String] = [], release: Release) {
        if signatures[signature.id] == nil {
            signatures[signature.id] = SignatureStats(signature: signature, severity: severity, example: occurrence)
        }
        signatures[signature.id]!.add(occurrence, session: session, phase: phase, severity: severity, release: release)
        signatures[signature.id]!.rules.formUnion(rules)
        if let v = signature.variant { signatures[signature.id]!.variants[v, default: 0] += 1 }
    }
}

/// Turns one finished session into signature occurrences: each failure or threading report
/// event is one occurrence of its failure signature (a rule that reports at that same event adds
/// its id and severity to it, instead of counting the failure twice); every other finding at or
/// above the minimum severity is an occurrence of its rule's signature at its callback.
struct SessionTriage: Sendable {
    let runner: RuleRunner
    let minimumSeverity: Severity

    /// Severity of a failure signature that no rule reported on.
    static func defaultSeverity(_ kind: SignatureKind) -> Severity {
        switch kind {
        case .hang, .resource, .slowLaunch: .warning
        case .assertion, .mainThreadChecker, .mainThreadRequired, .rule: .error
        case .exception, .fatalError, .signal, .crash, .watchdog, .killed: .fatal
        }
    }

    /// Longest excerpt kept per occurrence (the record's first lines).
    static let excerptLimit = 600

    /// Event kinds `Signatures.failure` gives a signature to (checked by number before the text).
    static let failureKinds: Set<EventKind> = [.assertion, .exception, .swiftFatalError, .signal, .crashReport, .watchdog, .mainThreadChecker,
                                               .mainThreadRequired, .jetsam, .killed, .hang, .resourceLimit, .slowLaunch]
    static let appDidBecomeActive = EventKind("app.didBecomeActive")
    /// Kills whose signature names the system's phase at them.
    static let killKinds: Set<EventKind> = [.jetsam, .killed]

    func take(_ session: ProcessSession, into tally: inout TriageTally) {
        let view = SessionView(session)
        let found = runner.check(view)
        tally.transitions.add(session, findings: found)
        let release = Release.of(session: session.events)
        tally.releases.add(release)
        let key = "\(session.files.first ?? "-")#\(session.id)"
        // Before the first activation (of a scene, or of the app without scenes) is launch.
        let appActive = session.events.firstIndex { $0.kind == Self.appDidBecomeActive }
        let firstActive = [view.firstActive, appActive].compactMap { $0 }.min()
        // What the system said of the app (when the app logged no callback), worked out once the
        // first failure or finding needs it.
        var systemPhases: SystemPhases??
        func system() -> SystemPhases? {
            if let known = systemPhases { return known }
            let made = SystemPhases(session)
            systemPhases = .some(made)
            return made
        }
        var findingsAt: [LineKey: [Diagnostic]] = [:]
        for d in found { findingsAt[LineKey(file: d.file, position: d.position), default: []].append(d) }
        var failureLines = Set<LineKey>()
        // One kill is one failure, however many lines report it.
        let repeated = view.repeatedEndings
        for (i, e) in session.events.enumerated() where Self.failureKinds.contains(e.kind) && !repeated.contains(i) {
            let at = LineKey(file: e.file, position: e.position)
            // An exception or assertion whose reason requires the main thread is one failure: its
            // `thread.mainThreadRequired` companion (same line, after it) adds no signature.
            if e.kind == .mainThreadRequired, failureLines.contains(at) { continue }
            let systemPhase = Self.killKinds.contains(e.kind) ? system()?.killPhase(at: i, of: e) : nil
            guard let signature = Signatures.failure(e, systemPhase: systemPhase) else { continue }
            failureLines.insert(at)
            let here = findingsAt[at] ?? []
            let severity = max(here.map(\.severity).max() ?? .note, Self.defaultSeverity(signature.kind))
            let phase = Self.phase(view, at: i, firstActive: firstActive, system: system())
            tally.record(signature, Self.occurrence(e), session: key, phase: phase,
                         severity: severity, rules: here.map(\.ruleId), release: Release.of(e, fallback: release))
        }
        let rest = found.filter { $0.severity >= minimumSeverity && !failureLines.contains(LineKey(file: $0.file, position: $0.position)) }
        guard !rest.isEmpty else { return }
        var eventAt: [LineKey: Int] = [:]
        eventAt.reserveCapacity(session.events.count)
        for (i, e) in session.events.enumerated() where eventAt[LineKey(file: e.file, position: e.position)] == nil {
            eventAt[LineKey(file: e.file, position: e.position)] = i
        }
        for d in rest {
            let index = eventAt[LineKey(file: d.file, position: d.position)]
            let event = index.map { session.events[$0] }
            let signature = Signatures.rule(id: d.ruleId, name: d.rule, callback: event?.kind.rawValue)
            var occurrence = Occurrence(file: d.file, position: d.position, time: event?.timestamp, excerpt: d.message)
            if let event { occurrence.excerpt = Self.clip(event.message) + "\n" + d.message }
            let phase = index.map { Self.phase(view, at: $0, firstActive: firstActive, system: system()) } ?? Self.phase(state: d.state)
            tally.record(signature, occurrence, session: key, phase: phase, severity: d.severity,
                         release: event.map { Release.of($0, fallback: release) } ?? release)
        }
    }

    /// A file and position; hashed by the position alone (a session's events nearly always share a file).
    struct LineKey: Hashable {
        var file: String
        var position: InputPosition
        func hash(into h: inout Hasher) { h.combine(position) }
    }

    static func occurrence(_ e: Event) -> Occurrence {
        var text = e.message
        if let frames = e.details?.backtrace, !frames.isEmpty { text += "\n" + frames.lines.prefix(4).joined(separator: "\n") }
        return Occurrence(file: e.file, position: e.position, time: e.timestamp, excerpt: clip(text))
    }

    static func clip(_ s: String) -> String {
        guard s.utf8.count > excerptLimit else { return s }
        var out = String(decoding: s.utf8.prefix(excerptLimit), as: UTF8.self)
        while out.hasSuffix("\u{FFFD}") { out.removeLast() }
        return out + "…"
    }

    // MARK: Phase

    /// The phase at event `index`: the app's word (`phase(_:at:firstActive:)`); in a session where
    /// the app logged no callback, the system's (`SystemPhases`) once the system said anything,
    /// unless a crash report's own frames place it.
    static func phase(_ view: SessionView, at index: Int, firstActive: Int?, system: SystemPhases?) -> FailurePhase {
        let own = phase(view, at: index, firstActive: firstActive)
        guard let system, let told = system.phase(at: index, of: view.session.events[index]) else { return own }
        if let state = view.context(at: index).state, state != SceneState.unknown.rawValue { return own }
        return told
    }

    /// The phase the app was in at event `index`: launch while nothing has become active yet;
    /// otherwise the state of the scene in play (or of the app). A crash report that stands alone
    /// (no lifecycle around it in its file) is placed by the lifecycle callback it crashed in.
    static func phase(_ view: SessionView, at index: Int, firstActive: Int?) -> FailurePhase {
        let session = view.session
        let state = view.context(at: index).state
        var p = phase(state: state)
        if firstActive.map({ $0 > index }) ?? true, p != .background, p != .disconnected, p != .unknown {
            // Nothing active yet: a launch in progress, unless the process was launched in the
            // background (its launch is no one's wait). A state `analyze` calls unknown stays
            // unknown here: both read `context(at:)`, and neither guesses.
            p = session.launchKind == .background ? .background : .launch
        } else if p == .unknown, state == nil, session.launchSeen, firstActive.map({ $0 > index }) ?? true {
            // Before the launch's first callback was delivered (a report timed before it).
            p = session.launchKind == .background ? .background : .launch
        }
        return p
    }

    static func phase(state: String?) -> FailurePhase {
        switch state {
        case "foregroundActive", "app.foregroundActive", "connected": .foregroundActive
        case "foregroundInactive", "app.foregroundInactive": .foregroundInactive
        case "background", "app.background": .background
        case "unattached": .unattached
        case "disconnected": .disconnected
        case "app.launching", "app.launched": .launch
        default: .unknown
        }
    }

}
