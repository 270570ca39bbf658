import LifelineCore

/// Online analysis, for `lifeline watch`: events in as they are read; findings out as soon as they
/// are decidable, and each session out when it ends, with the findings only its end decides.
///
/// After new events, `checkLive()` runs the online rules (`RuleDescription.online`) on every live
/// session that received events since the last call, as the session stands; a finding is reported
/// once. When a session ends, every rule runs on it, and what was not reported yet is reported
/// then. Online rules are those whose findings on a session's first events are findings of the
/// whole session, so the findings reported over a run are exactly those of `lifeline analyze` on
/// the same log. Ended sessions are kept only as summaries (by the caller, if at all): memory
/// follows the sessions alive at a time.
public struct LiveAnalysis {
    /// What one step produced, in the order it happened.
    public struct Output {
        /// New findings, decided online or at a session's end.
        public var findings: [Diagnostic] = []
        /// Sessions that ended, each with all its findings (those reported earlier included).
        public var ended: [(session: ProcessSession, findings: [Diagnostic])] = []
        public var isEmpty: Bool { findings.isEmpty && ended.isEmpty }
        mutating func append(_ other: Output) {
            findings += other.findings
            ended += other.ended
        }
    }

    private var stream: SessionStream
    private let all: RuleRunner
    /// The online rules, grouped by how many later events their findings wait for.
    private let online: [(lookahead: Int, runner: RuleRunner)]
    /// Findings reported so far, per live session.
    private var reported: [Int: Set<Diagnostic>] = [:]
    /// Live sessions with events not yet checked online.
    private var touched: Set<Int> = []
    public private(set) var events = 0
    public private(set) var sessionsEnded = 0
    /// Findings reported so far, by severity.
    public private(set) var counts: [Severity: Int] = [:]
    /// The transitions of every ended session (the aggregated state diagram).
    public private(set) var transitions = TransitionTally()

    public init(rules: [any Rule.Type] = RuleRegistry.all, configuration: Configuration = .defaults) {
        stream = SessionStream(options: configuration.sessionOptions)
        all = RuleRunner(rules: rules, settings: configuration.settings, severities: configuration.severities)
        let onlineRules = rules.filter { $0.description.online }
        online = Set(onlineRules.map { $0.description.onlineLookahead }).sorted().map { lookahead in
            (lookahead, RuleRunner(rules: onlineRules.filter { $0.description.onlineLookahead == lookahead },
                                   settings: configuration.settings, severities: configuration.severities))
        }
    }

    /// Sessions alive now.
    public var liveSessions: Int { stream.liveCount }

    /// The live sessions as they stand (for a report written while the run goes on).
    public func liveSnapshots() -> [ProcessSession] { stream.liveOrdinals.compactMap { stream.snapshot($0) } }

    /// Adds the next event; returns the sessions that ended with it (and their findings).
    public mutating func add(_ event: Event) -> Output {
        events += 1
        let ended = stream.add(event)
        touched.insert(stream.lastRouted)
        return end(ended)
    }

    /// Runs the online rules on the live sessions that received events since the last call.
    public mutating func checkLive() -> Output {
        var out = Output()
        for ordinal in touched.sorted() {
            guard let session = stream.snapshot(ordinal) else { continue }
            let view = SessionView(session)
            for (lookahead, runner) in online {
                var found = runner.check(view)
                if lookahead > 0 {
                    // Findings at the session's last `lookahead` events wait for the events after them.
                    let recent = Set(session.events.suffix(lookahead).map { Anchor(file: $0.file, line: $0.line) })
                    found.removeAll { recent.contains(Anchor(file: $0.file, line: $0.line)) }
                }
                out.findings += fresh(found, ordinal: ordinal)
            }
        }
        touched.removeAll(keepingCapacity: true)
        return out
    }

    /// Ends every live session (the input ended, or the user stopped the run).
    public mutating func finish() -> Output {
        var out = checkLive()
        out.append(end(stream.finish()))
        return out
    }

    private mutating func end(_ sessions: [ProcessSession]) -> Output {
        var out = Output()
        for s in sessions {
            touched.remove(s.ordinal)
            var found = all.check(s)
            found.sortInReportOrder()
            out.findings += fresh(found, ordinal: s.ordinal)
            reported.removeValue(forKey: s.ordinal)
            transitions.add(s)
            sessionsEnded += 1
            out.ended.append((s, found))
        }
        return out
    }

    private struct Anchor: Hashable { var file: String; var line: Int }

    /// The findings not reported before for session `ordinal`, in report order; records them.
    private mutating func fresh(_ found: [Diagnostic], ordinal: Int) -> [Diagnostic] {
        var new: [Diagnostic] = []
        for d in found where reported[ordinal, default: []].insert(d).inserted {
            new.append(d)
            counts[d.severity, default: 0] += 1
        }
        new.sortInReportOrder()
        return new
    }
}
