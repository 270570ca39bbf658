import Foundation
import LifelineCore
import LifelineRules

extension Diagnostic {
    /// What makes two findings one: the rule, where it points and the session and scene it is
    /// about. The message and state are wording: a finding reported while its session was live
    /// names a scene as it was known then (`S3`), the whole session may know more (`S3 (0x1a2b)`).
    public struct Identity: Hashable, Sendable {
        public var ruleId: String
        public var file: String
        public var position: InputPosition
        public var session: String
        public var scene: String?
    }

    public var identity: Identity { Identity(ruleId: ruleId, file: file, position: position, session: session, scene: scene) }
}

/// Online analysis, for `lifeline watch`: events in as they are read; findings out as soon as they
/// are decidable, and each session out when it ends, with the findings only its end decides.
///
/// After new events, `checkLive()` runs the online rules (`RuleDescription.online`) on every live
/// session that received events since the last call, as the session stands; a finding is reported
/// once (by `Diagnostic.identity`). When a session ends, every rule runs on it, and what was not
/// reported yet is reported then. Online rules are those whose findings on a session's first events are findings of the
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

    /// Sessions as events arrive; each that ends goes to `checks`, which checks it at once.
    private var feed: SessionFeed
    private var stream: SessionStream { feed.stream }
    private let all: RuleRunner
    /// The check stage of every mode, here on the caller's thread: a session's findings are
    /// reported as it ends.
    private let checks: CheckStage<Ended>
    /// What the check stage keeps: the transitions of every ended session, and the sessions ended
    /// since the last step took them.
    private struct Ended {
        var transitions = TransitionTally()
        var batch: [(session: ProcessSession, findings: [Diagnostic])] = []
    }
    /// The online rules, grouped by how long their findings wait (events, seconds of log time).
    private let online: [(lookahead: Lookahead, runner: RuleRunner)]
    /// Live sessions with findings not decided yet (waiting for later events or log time).
    private var waiting: Set<Int> = []

    private struct Lookahead: Hashable, Comparable {
        var events: Int
        var seconds: Double
        init(_ d: RuleDescription) { events = d.onlineLookahead; seconds = d.onlineLookaheadSeconds }
        static func < (a: Self, b: Self) -> Bool { (a.events, a.seconds) < (b.events, b.seconds) }
    }
    /// Findings reported so far, per live session, by what identifies them (not their wording: a
    /// scene's label gains its address once a later line names it).
    private var reported: [Int: Set<Diagnostic.Identity>] = [:]
    /// Live sessions with events not yet checked online.
    private var touched: Set<Int> = []
    public private(set) var events = 0
    public private(set) var sessionsEnded = 0
    /// Findings reported so far, by severity.
    public private(set) var counts: [Severity: Int] = [:]
    /// The transitions of every ended session (the aggregated state diagram).
    public var transitions: TransitionTally { checks.drain { $0.transitions } }
    /// The apps the system's lines told of so far (sessions of the apps not followed are only counted).
    public var apps: AppsSeen { feed.apps }

    public init(rules: [any Rule.Type] = RuleRegistry.all, configuration: Configuration = .defaults) {
        let all = RuleRunner(rules: rules, settings: configuration.settings, severities: configuration.severities)
        self.all = all
        let checks = CheckStage(lanes: 0, tally: Ended()) { s, ended in
            var found = all.check(s)
            found.sortInReportOrder()
            ended.transitions.add(s, findings: found)
            ended.batch.append((s, found))
        }
        self.checks = checks
        feed = SessionFeed(configuration: configuration, submit: checks.submit)
        let onlineRules = rules.filter { $0.description.online }
        online = Set(onlineRules.map { Lookahead($0.description) }).sorted().map { lookahead in
            (lookahead, RuleRunner(rules: onlineRules.filter { Lookahead($0.description) == lookahead },
                                   settings: configuration.settings, severities: configuration.severities))
        }
    }

    /// The findings of the configuration's Info.plist on its own (none without one), counted like
    /// the others: what `watch` reports before the first line arrives.
    public mutating func start() -> Output {
        var out = Output()
        if let manifest = all.settings.manifest { out.findings = all.check(manifest) }
        for d in out.findings { counts[d.severity, default: 0] += 1 }
        return out
    }

    /// Sessions alive now.
    public var liveSessions: Int { stream.liveCount }

    /// The live sessions as they stand (for a report written while the run goes on).
    public func liveSnapshots() -> [ProcessSession] { stream.liveOrdinals.compactMap { stream.snapshot($0) } }

    /// Adds the next event; returns the sessions that ended with it (and their findings).
    public mutating func add(_ event: Event) -> Output {
        events += 1
        let ended = feed.sessionsOfInput
        feed.add(event)
        touched.insert(feed.stream.lastRouted)
        // Most events end no session: the check stage then holds nothing to take.
        return feed.sessionsOfInput == ended ? Output() : takeEnded()
    }

    /// Monotonic time of each live session's last online check, and what that check cost.
    private var lastCheck: [Int: (at: Double, cost: Double)] = [:]

    /// The share of the time online checks may take: a session whose check cost C seconds is not
    /// checked again before C / share seconds passed. A check looks at the whole session so far, so
    /// without this a process that lives for the whole log (issue 12's shape) made every read cost
    /// its length: 218 s for 250 MB. With it the checks' cost grows with the log, not its square;
    /// a small session (a check of well under a millisecond) is still checked after every read.
    public static let checkShare = 0.1
    /// The share when the input leaves the reader idle most of the time (a paced `log stream`):
    /// checks may then take half the time, so a finding in a large session waits twice a check's
    /// cost rather than ten times.
    public static let idleCheckShare = 0.5

    /// Runs the online rules on the live sessions that received events since the last call, and on
    /// those with findings still waiting (the log's time may have moved past them). With `now`
    /// (monotonic seconds), a session is checked only when its last check was long enough ago for
    /// its cost (`share` of the time, `checkShare` by default); the others stay due for a later
    /// call. Without, every one is checked.
    public mutating func checkLive(now: Double? = nil, share: Double = LiveAnalysis.checkShare) -> Output {
        var out = Output()
        var due: [Int] = []
        for ordinal in touched.union(waiting).sorted() {
            if let now, let last = lastCheck[ordinal], now - last.at < last.cost / share { continue }
            due.append(ordinal)
        }
        for ordinal in due {
            touched.remove(ordinal)
            let started = now.map { _ in Self.monotonic() }
            defer {
                if let started, let now { lastCheck[ordinal] = (now, Self.monotonic() - started) }
            }
            guard let session = stream.snapshot(ordinal) else {
                waiting.remove(ordinal)
                continue
            }
            let view = SessionView(session)
            var held = false
            for (lookahead, runner) in online {
                var found = runner.check(view)
                if lookahead.events > 0 {
                    // A finding at one of the session's last events waits for the events after it,
                    // or for the log's time to pass it by the rule's seconds.
                    let clock = stream.clock, timeOfDayClock = stream.timeOfDayClock
                    let recent = Set(session.events.suffix(lookahead.events).filter { e in
                        guard lookahead.seconds > 0, let ts = e.timestamp, let t = ts.seconds else { return true }
                        return (ts.isTimeOfDay ? timeOfDayClock : clock) - t <= lookahead.seconds
                    }.map { Anchor(file: $0.file, position: $0.position) })
                    let before = found.count
                    found.removeAll { recent.contains(Anchor(file: $0.file, position: $0.position)) }
                    held = held || found.count < before
                }
                out.findings += fresh(found, ordinal: ordinal)
            }
            if held { waiting.insert(ordinal) } else { waiting.remove(ordinal) }
        }
        return out
    }

    /// Seconds on the monotonic clock (for `checkLive(now:)`, and for callers timing the same run).
    public static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Ends every live session (the input ended, or the user stopped the run).
    /// (No online check first: every rule runs on each session as it ends, which reports what an
    /// online check would have, once.)
    public mutating func finish() -> Output {
        feed.endInput()
        return takeEnded()
    }

    /// The sessions the check stage checked since the last step (each with every rule's findings),
    /// with the findings not reported online yet.
    private mutating func takeEnded() -> Output {
        var out = Output()
        let batch = checks.drain { ended in
            defer { ended.batch.removeAll() }
            return ended.batch
        }
        for (s, found) in batch {
            touched.remove(s.ordinal)
            waiting.remove(s.ordinal)
            lastCheck.removeValue(forKey: s.ordinal)
            out.findings += fresh(found, ordinal: s.ordinal)
            reported.removeValue(forKey: s.ordinal)
            sessionsEnded += 1
            out.ended.append((s, found))
        }
        return out
    }

    private struct Anchor: Hashable { var file: String; var position: InputPosition }

    /// The findings not reported before for session `ordinal`, in report order; records them.
    private mutating func fresh(_ found: [Diagnostic], ordinal: Int) -> [Diagnostic] {
        var new: [Diagnostic] = []
        for d in found where reported[ordinal, default: []].insert(d.identity).inserted {
            new.append(d)
            counts[d.severity, default: 0] += 1
        }
        new.sortInReportOrder()
        return new
    }
}
