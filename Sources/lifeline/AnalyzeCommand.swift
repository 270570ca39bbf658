import ArgumentParser
import Foundation
import LifelineCore
import LifelinePipeline
import LifelineRender
import LifelineRules

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check logs against the lifecycle rules, session by session.",
        discussion: """
        Groups the events of the inputs into process sessions (one per launch), tracks every scene's \
        state, and reports rule findings with the file:line, session, scene and state of each. \
        See `lifeline rules` for the catalogue.

        Rules, severities, thresholds and app-specific marker patterns can be set in .lifeline.yml \
        (see the README); --rules and --disable apply on top of it.

        With --manifest (or `manifest:` in .lifeline.yml), the app's Info.plist is checked too: on \
        its own (the rules `lifeline manifest` runs) and against the logs (the scene delegate class, \
        configuration names, several scenes without UIApplicationSupportsMultipleScenes, CarPlay \
        scenes without their configuration, app-level callbacks although the manifest declares scenes).

        With --output DIR, also writes report.html (one self-contained page: summary, diagrams, \
        a filterable table of findings with the log lines around each), report.json (the JSON \
        report), report.sarif (SARIF 2.1.0), junit.xml (one test suite per input, one test case per \
        session, failures at or above --fail-on), state.svg (the lifecycle state diagram of every \
        input) and timeline-P<n>.svg for the first \(Self.timelineLimit) sessions. Files are replaced \
        atomically; other files in DIR are left alone.

        Exit status: 0 no finding at or above --fail-on, 1 findings at or above it, 2 usage or \
        configuration error, 3 an input could not be read.
        """)

    @Argument(help: "Log files, directories, or - for standard input.")
    var paths: [String]

    @Option(name: .long, help: "Output: text or json.")
    var format: ReportFormat = .text

    @Option(name: .customLong("fail-on"), help: "Exit with 1 when a finding is at least this severe (note, warning, error, fatal, never).")
    var failOn: Threshold = .error

    @Option(name: .customLong("min-severity"), help: "Report only findings at least this severe.")
    var minSeverity: Threshold = .note

    @OptionGroup var ruleSelection: RuleSelectionOptions

    @OptionGroup var input: InputOptions

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Also write the report files and diagrams into this directory.", valueName: "dir"))
    var output: String?

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var appOptions: AppOptions

    @OptionGroup var manifestOptions: ManifestOptions

    static let timelineLimit = 20

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    func validate() throws {
        if minSeverity == .never { throw ValidationError("--min-severity takes note, warning, error or fatal") }
    }

    func run() throws {
        var configuration = try configOptions.load()
        appOptions.apply(to: &configuration)
        try manifestOptions.apply(to: &configuration)
        let selected = ruleSelection.rules(configuration)
        let ingest = input.ingest
        guard let output else {
            // Only the report on standard output: findings and sessions go through a spool and
            // are written from it, so memory does not grow with the number of findings.
            let spool = AnalysisSpool.run(paths: paths, ingest: ingest, rules: selected, configuration: configuration,
                                          order: format == .json ? .report : .bySession, minimumSeverity: minSeverity.severity)
            warnAbout(spool.inputs)
            if let failure = spool.spillFailure { Diagnostics.warn("findings kept in memory: \(failure)") }
            for w in spool.warnings { Diagnostics.warn(w) }
            let highest = spool.highestSeverity
            printReport(json: { AnalysisJSON.render(spool, to: $0) }, text: { $0.render(spool, line: $1) })
            try exit(inputs: spool.inputs, highest: highest)
            return
        }
        let timelines = DiagramCollector(kind: .timeline, per: .session, limit: Self.timelineLimit, namedByInput: false)
        let reports = ReportExcerptCollector()
        var analysis = Analysis.run(paths: paths, ingest: ingest, rules: selected, configuration: configuration,
                                    observe: { @Sendable s, d in
                                        timelines.add(s, d)
                                        reports.add(s)
                                    })
        if let floor = minSeverity.severity { analysis.diagnostics.removeAll { $0.severity < floor } }
        warnAbout(analysis.inputs)
        for w in analysis.warnings { Diagnostics.warn(w) }
        printReport(json: { AnalysisJSON.render(analysis, to: $0) }, text: { $0.render(analysis, line: $1) })
        try writeReport(analysis, rules: selected, timelines: timelines.graphs, reports: reports.excerpts, into: output)
        try exit(inputs: analysis.inputs, highest: analysis.highestSeverity)
    }

    /// Writes the report on standard output in `format`: `json` hands over pieces of bytes, `text`
    /// lines (the report is never built whole).
    private func printReport(json: (([UInt8]) -> Void) -> Void, text: (AnalysisText, (String) -> Void) -> Void) {
        let out = StandardOutput()
        switch format {
        case .json:
            json { out.write(rawBytes: $0) }
            out.write("")
        case .text: text(AnalysisText(color: Terminal.colorAllowed)) { out.write($0) }
        }
        out.flush()
    }

    private func warnAbout(_ inputs: [InputStats]) {
        for input in inputs { InputOptions.warn(about: input) }
    }

    private func exit(inputs: [InputStats], highest: Severity?) throws {
        if inputs.contains(where: { $0.error != nil && $0.lines == 0 }) { throw ExitCode(3) }
        if let threshold = failOn.severity, let highest, highest >= threshold { throw ExitCode(1) }
    }

    /// The report files of `--output`.
    private func writeReport(_ analysis: Analysis, rules: [any Rule.Type], timelines: [(String, DOTGraph)], reports: [ReportExcerpt],
                             into path: String) throws {
        let folder: ReportFolder
        do { folder = try ReportFolder(path, inputs: InputExpansion.files(paths, archives: true).map(\.path)) } catch { Diagnostics.warn("\(error)"); throw ExitCode(2) }
        do {
            let rendered = try timelines.map { name, graph throws(ReportFolder.Failure) in
                try ReportFolder.timeline(graph, session: String(name.dropFirst("timeline-".count)))
            }
            try folder.write(analysis, inputCount: analysis.readInputs, timelines: rendered, rules: rules, failOn: failOn.severity,
                             htmlFailOn: failOn.severity, excerpts: true, reports: reports)
        } catch {
            Diagnostics.warn(error.diagram.map { "\($0): \(error.error)" } ?? "\(error.error)")
            throw OutputFailure.exitCode(for: error.error)
        }
    }
}
