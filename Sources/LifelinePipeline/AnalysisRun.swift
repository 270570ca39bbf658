import LifelineCore
import LifelineRules

extension Analysis {
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
        let (inputs, transitions, warnings, apps) = AnalysisPipeline.run(paths: paths, ingest: ingest, rules: rules, configuration: configuration,
                                                                         observe: observe) { collected.take($0, $1) }
        collected.sessions.sort { $0.ordinal < $1.ordinal }
        collected.diagnostics += manifestFindings(rules: rules, configuration: configuration)
        collected.diagnostics.sortInReportOrder()
        var a = Analysis(inputs: inputs, sessions: collected.sessions, diagnostics: collected.diagnostics, transitions: transitions)
        a.warnings = warnings
        a.apps = apps
        a.manifest = configuration.settings.manifest
        return a
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
}

extension AnalysisSpool {
    /// Runs the analysis into a new spool (the same pipeline as `Analysis.run`).
    public static func run(paths: [String], ingest: IngestOptions, rules: [any Rule.Type] = RuleRegistry.all,
                           configuration: Configuration = .defaults, order: Order, minimumSeverity: Severity? = nil,
                           budget: Int = 8 << 20) -> AnalysisSpool {
        let spool = AnalysisSpool(order: order, minimumSeverity: minimumSeverity, budget: budget)
        let (inputs, transitions, warnings, apps) = AnalysisPipeline.run(paths: paths, ingest: ingest, rules: rules, configuration: configuration,
                                                                         observe: nil) { spool.take($0, $1) }
        spool.finish(inputs: inputs, transitions: transitions, warnings: warnings, apps: apps, rules: rules, configuration: configuration)
        return spool
    }
}

/// The path every report analysis takes (`analyze`, `graph`, `timeline`): ingest → sessions as they
/// end → the check stage, one lane on a thread of its own → `consume` (on that thread, in the order
/// sessions end). Returns the inputs' accounting, the transitions of every session and problems of
/// the analysis itself.
enum AnalysisPipeline {
    static func run(paths: [String], ingest: IngestOptions, rules: [any Rule.Type], configuration: Configuration,
                    observe: (@Sendable (ProcessSession, [Diagnostic]) -> Void)?,
                    consume: @escaping @Sendable (ProcessSession, [Diagnostic]) -> Void) -> ([InputStats], TransitionTally, [String], AppsSeen) {
        var options = ingest
        options.collectEvents = true
        options.markers = configuration.markers
        options.executables = configuration.executables
        let runner = RuleRunner(rules: rules, settings: configuration.settings, severities: configuration.severities)
        let checks = CheckStage(lanes: 1, tally: TransitionTally()) { s, transitions in
            let found = runner.check(s)
            transitions.add(s, findings: found)
            observe?(s, found)
            consume(s, found)
        }
        var inputs: [InputStats] = []
        var feed = SessionFeed(configuration: configuration, submit: checks.submit)
        let warnings = feed.read(paths: paths, with: Ingester(options: options), sessionsPerInput: false) { stats, _ in inputs.append(stats) }
        feed.endInput()
        return (inputs, checks.finish()[0], warnings, feed.apps)
    }
}
