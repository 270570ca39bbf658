import ArgumentParser
import Foundation
import LifelineCore
import LifelinePipeline
import LifelineRender
import LifelineRules

/// Set by SIGINT and SIGTERM: the run stops, reads what it holds and prints its summary.
nonisolated(unsafe) private var watchStopRequested: sig_atomic_t = 0

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse logs while they are written, printing each finding as soon as it is decidable.",
        discussion: """
        Reads standard input (a pipe from `log stream`, `idevicesyslog`, `xcrun simctl spawn booted log \
        stream`) or files that are still growing, followed by name as `tail -F` does (across rotation and \
        truncation). Each finding is printed as soon as it is decidable: an ordering violation when the \
        offending callback arrives, a failure when its record is complete (a multi-line record ends at \
        the next record or after --idle-ms without input), and what only a session's end decides \
        (`lifeline rules --markdown` says which rules) when the session ends. The findings of a whole \
        run are those `lifeline analyze` reports on the same log.

        Ctrl-C stops the run: the last record is read, every session ends, and the summary is printed.

        A session ends as in `lifeline analyze`: 60 s of log time after its process ended (a \
        crash, a kill, willTerminate), when its app launches again, after 12 hours of silence, or \
        when the input ends (Ctrl-C ends every session). What only a session's end decides waits \
        until then. A process that never ends is checked in parts of 10,000 events \
        (thresholds.session-events in .lifeline.yml), so memory stays bounded however long it runs.

        Exit status: 0 done, 1 a finding at or above --fail-on, 2 usage or configuration error, \
        3 an input that cannot be opened.
        """)

    @Argument(help: "Files to follow, or - for standard input (the default).")
    var paths: [String] = []

    @Option(name: .long, help: "text (two lines per finding, a line per ended session) or jsonl (one JSON object per line).")
    var format: Format = .text

    @Option(name: .customLong("idle-ms"), help: "Milliseconds without input after which an open record is complete.")
    var idleMilliseconds = 100

    @Flag(name: .customLong("no-follow"), help: "Read the files to their end and stop, instead of waiting for more.")
    var noFollow = false

    @Option(name: .customLong("fail-on"), help: "Exit with status 1 when a finding at or above this severity was reported (never: always 0).")
    var failOn: Threshold = .never

    @OptionGroup var input: InputFormatOption

    @Option(name: .long, help: ArgumentHelp("Keep report.html, report.json, report.sarif, junit.xml, state.svg and the last 20 sessions' timelines in this directory up to date (at most once a second).", valueName: "dir"))
    var output: String?

    @Flag(name: .shortAndLong, help: "No status line on standard error.")
    var quiet = false

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var appOptions: AppOptions

    @OptionGroup var manifestOptions: ManifestOptions

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, jsonl }

    func validate() throws {
        if idleMilliseconds < 1 { throw ValidationError("--idle-ms must be at least 1") }
    }

    func run() throws {
        var configuration = try configOptions.load()
        appOptions.apply(to: &configuration)
        try manifestOptions.apply(to: &configuration)
        var ingest = IngestOptions(inputFormat: input.inputFormat, jobs: 1)
        ingest.markers = configuration.markers
        ingest.executables = configuration.executables
        var sources: [LiveSource] = []
        for path in paths.isEmpty ? ["-"] : paths {
            do { sources.append(try LiveSource(path: path, options: ingest, warn: { Diagnostics.warn($0) })) } catch {
                Diagnostics.warn("\(error)")
                throw ExitCode(3)
            }
        }
        // A process started from a thread that blocks signals inherits the mask: unblock ours.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &stopSignals, nil)
        signal(SIGINT) { _ in watchStopRequested = 1 }
        signal(SIGTERM) { _ in watchStopRequested = 1 }
        signal(SIGPIPE, SIG_IGN)

        let rules = configuration.rules(only: [], disabled: [])
        var report: LiveReport?
        if let output {
            do {
                report = try LiveReport(path: output, inputs: paths.isEmpty ? ["-"] : paths, rules: rules, failOn: failOn.severity,
                                        timelineLimit: Analyze.timelineLimit)
            } catch {
                Diagnostics.warn("\(error)")
                throw ExitCode(2)
            }
        }
        let run = LiveRun(sources: sources, analysis: LiveAnalysis(rules: rules, configuration: configuration),
                          options: LiveRun.Options(idle: Double(idleMilliseconds) / 1000, follow: !noFollow))
        let printer = WatchPrinter(format: format, status: !quiet && isatty(2) != 0)
        func writeReport(force: Bool) throws {
            do { try report?.write(run.analysis, inputs: run.inputs, force: force) } catch let failure as ReportFolder.Failure {
                Diagnostics.warn("\(output ?? ""): \(failure.error)")
                throw OutputFailure.exitCode(for: failure.error)
            }
        }
        try run.run(stop: { watchStopRequested != 0 },
                    show: { out in
                        printer.show(out)
                        report?.record(out)
                    },
                    touched: { report?.touch() },
                    round: {
                        printer.status(run.analysis, lines: run.lines)
                        try writeReport(force: false)
                    })
        try writeReport(force: true)
        printer.summary(run.analysis, inputs: run.finishedInputs, interrupted: watchStopRequested != 0)
        if let threshold = failOn.severity, run.analysis.counts.contains(where: { $0.key >= threshold && $0.value > 0 }) { throw ExitCode(1) }
    }
}
