import ArgumentParser
import Foundation
import LifelineCore
import LifelineRender
import LifelineRules
import LifelineTriage

struct TriageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "triage",
        abstract: "Read many logs at once and rank what went wrong, with the lifecycle state of each failure.",
        discussion: """
        Reads every input on every core (directories recursively, glob patterns, gzip files, tar and \
        tar.gz archives and the log-like files inside them, and the paths listed by --files-from), \
        analyses each file on its own, and groups failures into signatures that are the same across \
        files, devices and formats: assertions, uncaught exceptions, Swift runtime traps, Main Thread \
        Checker reports, crash reports (an .ips file and its text form match), watchdog kills, signals, \
        and rule findings at or above --min-severity. Each signature comes with its count, files, \
        sessions, first and last time seen, the app's lifecycle state at each occurrence, and an example.

        Reports (crash, jetsam, MetricKit) carry the app version, OS version and device model; a log \
        line takes them from a report of its own session. Each signature shows its spread over them, \
        and is marked "new in X" when the input set holds an earlier app version in which it never \
        occurred. --group-by version, os or device breaks the ranking down by one of them.

        A file that cannot be read is listed as unreadable with the reason; the run goes on.

        With --baseline (an earlier --format json report) signatures are marked new, recurring or gone; \
        --fail-on-new makes new ones at or above a severity fail the run, for CI.

        --partial writes, instead of a report, a partial result (JSON) that `lifeline triage merge \
        PARTIAL...` combines with the partials of other inputs, on other machines, into the report of \
        them all (see `lifeline triage merge --help`).

        Exit status: 0 done, 1 a new signature at or above --fail-on-new, 2 usage, configuration or \
        baseline error, 3 no input could be read.
        """)

    @Argument(help: "Log files, directories, archives, glob patterns, or - for standard input.")
    var paths: [String] = []

    @Option(name: .customLong("files-from"), help: ArgumentHelp("Read more paths from this file, one per line (- for standard input); a line PATH<TAB>NAME shows NAME for that path in every output.", valueName: "file"))
    var filesFrom: String?

    @Flag(name: .customLong("skip-non-logs"), help: "Take the files named (or listed) as found in a directory: one that is not a log by name or content is skipped and reported, as a directory walk does, instead of read. For listings made elsewhere, such as an object store's.")
    var skipNonLogs = false

    @OptionGroup var report: TriageReportOptions

    @Option(name: .customLong("min-severity"), help: "Rule findings below this severity are not signatures (failures always are).")
    var minSeverity: SeverityName = .warning

    @OptionGroup var input: InputOptions

    @Flag(name: .shortAndLong, help: "No progress display on standard error.")
    var quiet = false

    @Flag(name: .long, help: "Write a partial result (JSON) for `lifeline triage merge` instead of a report.")
    var partial = false

    @Flag(name: .customLong("partial-inputs"), help: "With --partial, keep one row per input (the merged report lists them) rather than their sums.")
    var partialInputs = false

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var appOptions: AppOptions

    @OptionGroup var manifestOptions: ManifestOptions

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json, csv, markdown, html }

    func validate() throws {
        try report.validate()
        if paths.isEmpty && filesFrom == nil { throw ValidationError("give paths to read, or --files-from FILE") }
    }

    func run() throws {
        // `triage merge PARTIAL...`: a command of its own behind the word (triage's paths are
        // positional, so the parser cannot tell a subcommand from a path; a file named `merge` in
        // the current directory is still read as one).
        if paths.first == "merge", !FileManager.default.fileExists(atPath: "merge") {
            let args = Array(CommandLine.arguments.drop { $0 != "merge" }.dropFirst())
            do {
                let merge = try TriageMergeCommand.parse(args)
                try merge.run()
            } catch let code as ExitCode {
                throw code
            } catch {
                TriageMergeCommand.exit(withError: error)
            }
            return
        }
        var configuration = try configOptions.load()
        appOptions.apply(to: &configuration)
        try manifestOptions.apply(to: &configuration)
        var inputs = paths
        var names: [String: String] = [:]
        if let filesFrom {
            for entry in try Self.readList(filesFrom) {
                inputs.append(entry.path)
                if let name = entry.name { names[entry.path] = name }
            }
        }
        var previous: Baseline? = nil
        if let baseline = report.baseline {
            do { previous = try Baseline.load(path: baseline) } catch {
                Diagnostics.warn("\(error)")
                throw ExitCode(2)
            }
        }
        let progress = (!quiet && isatty(2) != 0) ? ProgressDisplay() : nil
        var options = TriageOptions(jobs: input.threads, inputFormat: input.inputFormat,
                                    configuration: configuration, rules: configuration.rules(only: [], disabled: []),
                                    minimumSeverity: minSeverity.severity)
        options.displayNames = names
        options.skipNonLogs = skipNonLogs
        let showProgress = progress.map { display in { @Sendable (p: TriageProgress) in display.show(p) } }
        if partial {
            let p = Triage.partial(paths: inputs, options: options, progress: showProgress)
            progress?.clear()
            let out = StandardOutput()
            out.write(verbatim: p.json(inputRows: partialInputs))
            out.flush()
            let r = p.result
            if r.nothingRead { throw ExitCode(3) }
            return
        }
        var result = Triage.run(paths: inputs, options: options, progress: showProgress)
        progress?.clear()
        if let manifest = configuration.settings.manifest {
            // The Info.plist's own findings, once (its checks against each log are in the table).
            let found = Analysis.manifestFindings(rules: options.rules, configuration: configuration)
            if report.format == .text {
                let out = StandardOutput()
                AnalysisText(color: Terminal.colorAllowed).render(manifest: manifest, findings: found) { out.write($0) }
                out.flush()
            } else if !found.isEmpty {
                Diagnostics.warn("\(manifest.file): \(found.count) finding\(found.count == 1 ? "" : "s") in the Info.plist itself (see `lifeline manifest \(manifest.source)`)")
            }
        }
        for input in result.inputs where input.lines == 0 { Diagnostics.empty(input.path, bytes: input.bytes) }
        if let previous { result.compare(with: previous) }
        try Self.report(result, format: report.format, limit: report.limit, groupBy: report.groupBy, output: report.output,
                        protecting: inputs, baseline: report.baseline, failOnNew: report.failOnNew)
    }

    /// Writes `result` as `format` on standard output (and every format into `output`), then exits
    /// as the run's outcome says: 3 when nothing could be read, 1 for a new signature at or above
    /// `failOnNew`. Shared by `triage` and `triage merge`.
    static func report(_ result: TriageResult, format: OutputFormat, limit: Int, groupBy: ReleaseDimension?, output: String?,
                       protecting inputs: [String], baseline: String?, failOnNew: Severity?) throws {
        let out = StandardOutput()
        let shown = limit == 0 ? nil : limit
        let text: String
        switch format {
        case .text: text = TriageText.render(result, limit: shown, width: Self.terminalWidth, groupBy: groupBy)
        case .json: text = TriageJSON.render(result, groupBy: groupBy)
        case .csv: text = TriageCSV.render(result)
        case .markdown: text = TriageMarkdown.render(result, limit: shown, groupBy: groupBy)
        case .html: text = try Self.html(result)
        }
        out.write(verbatim: text)
        out.flush()
        if let output { try write(result, into: output, inputs: inputs, groupBy: groupBy) }
        if result.nothingRead { throw ExitCode(3) }
        if let failOnNew {
            let new = result.newSignatures(atLeast: failOnNew)
            if !new.isEmpty {
                Diagnostics.warn("\(new.count) new signature\(new.count == 1 ? "" : "s") at or above \(failOnNew) since \(baseline ?? "the baseline"):")
                for line in result.newSignatureLines(atLeast: failOnNew) { Diagnostics.warn("  \(line)") }
                throw ExitCode(1)
            }
        }
    }

    /// Paths from a list file: one per line, `PATH` or `PATH<TAB>NAME` (the name shown for it in
    /// every output: an object-store key rather than the temporary copy read); blank lines and
    /// lines starting with `#` skipped.
    static func readList(_ path: String) throws -> [(path: String, name: String?)] {
        let data: Data?
        if path == "-" { data = FileHandle.standardInput.readDataToEndOfFile() } else { data = FileManager.default.contents(atPath: path) }
        guard let data else {
            Diagnostics.warn("\(path): cannot read the --files-from list")
            throw ExitCode(2)
        }
        return String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { line in
                guard let tab = line.firstIndex(of: "\t") else { return (line, nil) }
                let name = line[line.index(after: tab)...].trimmingCharacters(in: .whitespaces)
                return (String(line[..<tab]).trimmingCharacters(in: .whitespaces), name.isEmpty ? nil : name)
            }
    }

    static func html(_ result: TriageResult) throws -> String {
        let title = "\(result.inputCount) input\(result.inputCount == 1 ? "" : "s"), \(result.totalSessions) sessions"
        let graph = StateDiagram.graph(result.transitions, title: title)
        let svg = try GraphvizRenderer().render(graph, format: .svg)
        return TriageHTMLReport.render(result, stateDiagramSVG: String(decoding: svg, as: UTF8.self))
    }

    /// `--output`: every format and the aggregated state diagram, each replaced atomically.
    private static func write(_ result: TriageResult, into path: String, inputs: [String], groupBy: ReleaseDimension?) throws {
        let folder: ReportFolder
        do { folder = try ReportFolder(path, inputs: InputExpansion.files(inputs, archives: true).map(\.path)) } catch { Diagnostics.warn("\(error)"); throw ExitCode(2) }
        do { try folder.write(result, groupBy: groupBy) } catch {
            Diagnostics.warn("\(error.error)")
            throw OutputFailure.exitCode(for: error.error)
        }
    }

    static var terminalWidth: Int { Terminal.columns(1) ?? 160 }
}

extension ReleaseDimension: ExpressibleByArgument {}

/// `files done / total, MB/s, time left` on standard error, redrawn at most ten times a second.
final class ProgressDisplay: @unchecked Sendable {
    private let lock = NSLock()
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false

    func show(_ p: TriageProgress) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 || p.filesDone == p.filesTotal else { return }
        lastDraw = now
        let elapsed = now.timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(p.bytesDone) / elapsed : 0
        var line = "triage: \(p.filesDone)/\(p.filesTotal) files · \(String(format: "%.1f", rate / 1_000_000)) MB/s"
        if rate > 0, p.bytesTotal > p.bytesDone {
            let left = Int(Double(p.bytesTotal - p.bytesDone) / rate)
            line += " · \(left / 60):\(String(format: "%02d", left % 60)) left"
        }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
        drawn = true
    }

    func clear() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}

/// The options of a triage report, shared by `triage` and `triage merge`.
struct TriageReportOptions: ParsableArguments {
    @Option(name: .long, help: "Output: text, json, csv, markdown or html.")
    var format: TriageCommand.OutputFormat = .text

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Also write every format and the aggregated state diagram into this directory.", valueName: "dir"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("An earlier `triage --format json` report to compare with.", valueName: "file"))
    var baseline: String?

    @Option(name: .customLong("fail-on-new"), help: "With --baseline, exit 1 when a new signature is at least this severe (note, warning, error, fatal).")
    var failOnNewName: SeverityName?
    var failOnNew: Severity? { failOnNewName?.severity }

    @Option(name: .customLong("group-by"), help: ArgumentHelp("Break the ranking down by app version, OS version or device model (version, os, device).", valueName: "dimension"))
    var groupBy: ReleaseDimension?

    @Option(name: .long, help: "Show at most this many signatures in the text and Markdown tables (0: all).")
    var limit = 30

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if failOnNew != nil && baseline == nil { throw ValidationError("--fail-on-new compares with a --baseline report; give one") }
    }
}
