import Dispatch
import LifelineCore

/// Everything `lifeline analyze` found: per-input accounting, sessions and diagnostics.
public struct Analysis: Sendable {
    public var inputs: [InputStats]
    /// Inputs read: `inputs` without the files found in a directory and skipped (not logs).
    public var readInputs: Int { inputs.reduce(0) { $0 + ($1.skipped == nil ? 1 : 0) } }
    public var sessions: [ProcessSession]
    public var diagnostics: [Diagnostic]
    /// Every observed lifecycle transition, over all sessions (what the aggregated state diagram draws).
    public var transitions: TransitionTally
    /// Problems of the analysis itself, not of an input (a spill file that could not be written).
    public var warnings: [String] = []
    /// The Info.plist checked with the logs (`--manifest`); its own findings are in `diagnostics`
    /// with no session.
    public var manifest: SceneManifest?

    public init(inputs: [InputStats], sessions: [ProcessSession], diagnostics: [Diagnostic],
                transitions: TransitionTally = TransitionTally()) {
        self.inputs = inputs
        self.sessions = sessions
        self.diagnostics = diagnostics
        self.transitions = transitions
    }

    /// Ingests `paths` (with the configuration's markers), builds sessions and runs `rules` with
    /// the configuration's thresholds and severity overrides.
    ///
    /// One input is analysed as it streams: each session is checked when it ends and then kept
    /// only as a summary (unless `keepEvents`), so memory follows the sessions alive at a time, not
    /// the length of the log. Several inputs are read first, each into a queue of its own, then
    /// merged by time (a k-way merge) into the same stream, each event released as it is merged.
    ///
    /// `observe` sees each session with its events and its findings, once checked (on the rules'
    /// thread, in the order sessions end): for work that needs events without keeping them all.
    public static func run(paths: [String], ingest: IngestOptions, rules: [any Rule.Type] = RuleRegistry.all,
                           configuration: Configuration = .defaults, keepEvents: Bool = false,
                           observe: (@Sendable (ProcessSession, [Diagnostic]) -> Void)? = nil) -> Analysis {
        let collected = Collected(keepEvents: keepEvents)
        let (inputs, transitions, warnings) = pipeline(paths: paths, ingest: ingest, rules: rules, configuration: configuration,
                                                       observe: observe) { collected.take($0, $1) }
        collected.sessions.sort { $0.ordinal < $1.ordinal }
        collected.diagnostics += manifestFindings(rules: rules, configuration: configuration)
        collected.diagnostics.sortInReportOrder()
        var a = Analysis(inputs: inputs, sessions: collected.sessions, diagnostics: collected.diagnostics, transitions: transitions)
        a.warnings = warnings
        a.manifest = configuration.settings.manifest
        return a
    }

    /// The findings of the manifest rules among `rules` on the configuration's manifest (none
    /// without one), with its severity overrides, in report order.
    public static func manifestFindings(rules: [any Rule.Type], configuration: Configuration) -> [Diagnostic] {
        guard let manifest = configuration.settings.manifest else { return [] }
        return RuleRunner(rules: rules, settings: configuration.settings, severities: configuration.severities).check(manifest)
    }

    /// The sessions and findings of `run`, gathered on the rules' thread.
    private final class Collected: @unchecked Sendable {
        let keepEvents: Bool
        var sessions: [ProcessSession] = []
        var diagnostics: [Diagnostic] = []
        init(keepEvents: Bool) { self.keepEvents = keepEvents }
        func take(_ s: ProcessSession, _ found: [Diagnostic]) {
            diagnostics.append(contentsOf: found)
            sessions.append(keepEvents ? s : s.summarized())
        }
    }

    /// The one path every analysis takes: ingest → sessions as they end → rules, on a thread of
    /// their own → `consume` (on the rules' thread, in the order sessions end). Returns the inputs'
    /// accounting, the transitions of every session and problems of the analysis itself.
    ///
    /// One input streams straight into the session stream. Several inputs are read each into a
    /// queue of its own, then merged by time (a k-way merge), each event released as it is merged.
    static func pipeline(paths: [String], ingest: IngestOptions, rules: [any Rule.Type], configuration: Configuration,
                         observe: (@Sendable (ProcessSession, [Diagnostic]) -> Void)?,
                         consume: @escaping @Sendable (ProcessSession, [Diagnostic]) -> Void) -> ([InputStats], TransitionTally, [String]) {
        var options = ingest
        options.collectEvents = true
        options.markers = configuration.markers
        let ingester = Ingester(options: options)
        let checks = CheckStage(RuleRunner(rules: rules, settings: configuration.settings, severities: configuration.severities),
                                observe: observe, consume: consume)
        func take(_ ended: [ProcessSession]) { checks.submit(ended) }
        var inputs: [InputStats] = []
        var warnings: [String] = []
        var stream = SessionStream(options: configuration.sessionOptions)
        if Ingester.inputCount(paths) == 1 {
            ingester.run(paths: paths, onEvent: { take(stream.add($0)) }, onInput: { inputs.append($0) })
        } else {
            var merge = TimeMerge()
            ingester.run(paths: paths, onEvent: { merge.append($0) }, onInput: { inputs.append($0) })
            while let event = merge.next() { take(stream.add(event)) }
            if let failure = merge.spillFailure { warnings.append("inputs merged in memory: \(failure)") }
        }
        take(stream.finish())
        return (inputs, checks.finish(), warnings)
    }

    public func count(_ s: Severity) -> Int { diagnostics.reduce(0) { $0 + ($1.severity == s ? 1 : 0) } }
    public var highestSeverity: Severity? { diagnostics.map(\.severity).max() }
}

/// Runs the rules on sessions as they end, on a thread of its own, so that checking one session
/// overlaps with reading the log and building the next. At most `inFlight` batches wait, which
/// bounds the events held for checking (8: with 64, a dense log held 27 MB more at 1 GB and ran no
/// faster).
private final class CheckStage: @unchecked Sendable {
    private let runner: RuleRunner
    private let queue = DispatchQueue(label: "lifeline.rules")
    private let slots: DispatchSemaphore
    // Touched only on `queue`, and read after `finish()` drained it.
    private var transitions = TransitionTally()
    private let observe: (@Sendable (ProcessSession, [Diagnostic]) -> Void)?
    private let consume: @Sendable (ProcessSession, [Diagnostic]) -> Void

    init(_ runner: RuleRunner, observe: (@Sendable (ProcessSession, [Diagnostic]) -> Void)?,
         consume: @escaping @Sendable (ProcessSession, [Diagnostic]) -> Void, inFlight: Int = 8) {
        self.runner = runner
        self.observe = observe
        self.consume = consume
        slots = DispatchSemaphore(value: inFlight)
    }

    func submit(_ ended: [ProcessSession]) {
        guard !ended.isEmpty else { return }
        slots.wait()
        queue.async { [self] in
            for s in ended {
                let found = runner.check(s)
                transitions.add(s, findings: found)
                observe?(s, found)
                consume(s, found)
            }
            slots.signal()
        }
    }

    /// Waits for every submitted session; returns the transitions of all of them.
    func finish() -> TransitionTally {
        queue.sync {}
        return transitions
    }
}

/// Choosing rules by id or name (`LC-S03`, `active-without-foreground`).
public enum RuleSelection {
    /// The rules named in `only` (all when empty) minus those in `disabled`; unknown names are returned
    /// so the caller can report them.
    public static func select(only: [String], disabled: [String]) -> (rules: [any Rule.Type], unknown: [String]) {
        let all = RuleRegistry.all
        func matches(_ r: any Rule.Type, _ name: String) -> Bool {
            r.description.id.caseInsensitiveCompare(name) == .orderedSame || r.description.name == name
        }
        let unknown = (only + disabled).filter { n in !all.contains { matches($0, n) } }
        let chosen = all.filter { r in (only.isEmpty || only.contains { matches(r, $0) }) && !disabled.contains { matches(r, $0) } }
        return (chosen, unknown)
    }
}
