import ArgumentParser
import Foundation
import LifelineCore
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
    var failOn: Analyze.Threshold = .never

    @Option(name: .customLong("input-format"), help: ArgumentHelp("Read every input as this format instead of detecting it.", valueName: "name"))
    var inputFormat: LogFormat?

    @Option(name: .long, help: ArgumentHelp("Keep report.html, report.json, state.svg and the last 20 sessions' timelines in this directory up to date (at most once a second).", valueName: "dir"))
    var output: String?

    @Flag(name: .shortAndLong, help: "No status line on standard error.")
    var quiet = false

    @OptionGroup var configOptions: ConfigOptions

    @OptionGroup var manifestOptions: ManifestOptions

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, jsonl }

    func validate() throws {
        if idleMilliseconds < 1 { throw ValidationError("--idle-ms must be at least 1") }
    }

    func run() throws {
        var configuration = try configOptions.load()
        try manifestOptions.apply(to: &configuration)
        var ingest = IngestOptions(inputFormat: inputFormat, jobs: 1)
        ingest.markers = configuration.markers
        var sources: [WatchSource] = []
        for path in paths.isEmpty ? ["-"] : paths {
            do { sources.append(try WatchSource(path: path, options: ingest)) } catch {
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

        var report: WatchReport?
        if let output {
            do { report = try WatchReport(path: output, inputs: paths.isEmpty ? ["-"] : paths) } catch {
                Diagnostics.warn("\(error)")
                throw ExitCode(2)
            }
        }
        var analysis = LiveAnalysis(rules: configuration.rules(only: [], disabled: []), configuration: configuration)
        let printer = WatchPrinter(format: format, status: !quiet && isatty(2) != 0)
        let idle = Double(idleMilliseconds) / 1000
        func show(_ out: LiveAnalysis.Output) {
            printer.show(out)
            report?.record(out)
        }
        func take(_ e: Event) {
            report?.touch()
            show(analysis.add(e))
        }
        show(analysis.start())
        func inputs() -> [InputStats] { sources.flatMap { $0.finishedStats + ($0.ended ? [] : [$0.reader.stats]) } }
        func writeReport(force: Bool) throws {
            do { try report?.write(analysis, inputs: inputs(), force: force) } catch {
                Diagnostics.warn("\(output ?? ""): \(error)")
                throw OutputFailure.exitCode(for: error)
            }
        }

        // Bytes read from followed files in the last round: while a file has more, the next round
        // does not wait (a 1 MiB read per 50 ms wait read a 250 MB file in 13 s instead of 1.3 s).
        var fileBytes = 0
        while watchStopRequested == 0 {
            let streams = sources.compactMap(\.pollDescriptor)
            let following = sources.contains { $0.followsFile && !$0.ended }
            if streams.isEmpty && !following { break }
            // Wake for input, for the next idle deadline, and every 50 ms to look at followed files.
            var wait = fileBytes > 0 ? 0 : following ? 0.05 : 1.0
            for s in sources where !s.idled { wait = min(wait, max(0, s.lastData + idle - WatchSource.now)) }
            var fds = streams.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), Int32((wait * 1000).rounded(.up)))
            let ready = Set(fds.filter { $0.revents != 0 }.map(\.fd))
            var got = 0
            fileBytes = 0
            // A followed file is first checked for rotation, truncation or an overwrite (before its
            // new bytes are read, which may be the end of new content); a stream is read only
            // when poll says so (a read would block), files whenever.
            for s in sources where s.followsFile { s.checkRotation(event: take) }
            for s in sources where s.followsFile || s.pollDescriptor.map(ready.contains) == true {
                let n = s.read(event: take)
                got += n
                if s.followsFile { fileBytes += n }
            }
            let now = WatchSource.now
            // While input flows, live sessions are checked as often as their size allows; when it
            // pauses, all of them.
            // Input that does not fill a read (it arrives slower than it is read) leaves time for
            // checks; a full read means the reader is behind, and checks keep to a tenth.
            let saturated = got >= WatchSource.readSize
            show(analysis.checkLive(now: now, share: saturated ? LiveAnalysis.checkShare : LiveAnalysis.idleCheckShare))
            for s in sources where !s.idled && now - s.lastData >= idle {
                s.idle(event: take)
                show(analysis.checkLive())
            }
            for s in sources where s.followsFile && noFollow && got == 0 && s.idled { s.finish(event: take) }
            printer.status(analysis, lines: sources.reduce(0) { $0 + $1.reader.lines })
            try writeReport(force: false)
        }
        for s in sources { s.finish(event: take) }
        show(analysis.finish())
        try writeReport(force: true)
        let inputs = sources.flatMap(\.finishedStats)
        printer.summary(analysis, inputs: inputs, interrupted: watchStopRequested != 0)
        if let threshold = failOn.severity, analysis.counts.contains(where: { $0.key >= threshold && $0.value > 0 }) { throw ExitCode(1) }
    }
}
