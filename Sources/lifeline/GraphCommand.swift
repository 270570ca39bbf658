import ArgumentParser
import Foundation
import LifelineCore
import LifelinePipeline
import LifelineRender
import LifelineRules

struct Graph: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw lifecycle state diagrams or session timelines (SVG, PNG, PDF or DOT).",
        discussion: """
        --kind state draws the expected state machines (UIScene, UIApplication, CarPlay) with the \
        observed transitions over them: counts and typical time in the source state, illegal \
        transitions in red with their first file:line, legal ones never seen dimmed. One diagram per \
        session (or per scene with --per scene), or one for every input together with --aggregate.

        --kind timeline draws one diagram per session: lanes for the app, each scene and threads other \
        than the main one, events in order with their relative times, findings coloured by severity, \
        repetitive stretches drawn once with a count.

        Files are written atomically into the --output directory (default: diagrams, created if \
        needed) and their names are printed. A name says what it shows: the input's base name, the \
        session and the kind (xcode-console.P1.state.svg, xcode-console.P1.S1.state.svg, \
        xcode-console.P1.timeline.svg; with --aggregate, SampleLogs.state.svg for one input or \
        state.svg for several), so runs over different logs into one directory do not replace each \
        other's diagrams. Graphviz runs in process; no `dot` program is needed.
        """)

    @Argument(help: "Log files, directories, or - for standard input.")
    var paths: [String]

    @Option(name: .customLong("as"), help: "File format: svg, png, pdf or dot.")
    var fileFormat: OutputFormat = .svg

    @Option(name: .long, help: "What to draw: state or timeline.")
    var kind: Kind = .state

    @Flag(name: .long, help: "One state diagram for every input together.")
    var aggregate = false

    @Option(name: .long, help: "State diagrams per session or per scene.")
    var per: Per = .session

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Directory to write into.", valueName: "dir"))
    var output = "diagrams"

    @Option(name: .long, help: "Draw at most this many sessions (per-session diagrams).")
    var limit = 100

    @OptionGroup var input: InputOptions

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var appOptions: AppOptions

    enum Kind: String, ExpressibleByArgument, CaseIterable { case state, timeline }
    enum Per: String, ExpressibleByArgument, CaseIterable { case session, scene }

    func validate() throws {
        if aggregate && kind == .timeline { throw ValidationError("--aggregate draws state diagrams; a timeline is per session") }
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        var configuration = try configOptions.load()
        appOptions.apply(to: &configuration)
        let collected = DiagramCollector(kind: kind, per: per, limit: limit)
        let ingest = input.ingest
        var observe: (@Sendable (ProcessSession, [Diagnostic]) -> Void)? = nil
        if !aggregate { observe = { @Sendable session, found in collected.add(session, found) } }
        let analysis = Analysis.run(paths: paths, ingest: ingest, rules: configuration.rules(only: [], disabled: []),
                                    configuration: configuration, observe: observe)
        for input in analysis.inputs { InputOptions.warn(about: input) }
        var graphs = collected.graphs
        if aggregate {
            let title = "\(analysis.readInputs) input\(analysis.readInputs == 1 ? "" : "s"), \(analysis.sessions.count) session\(analysis.sessions.count == 1 ? "" : "s")"
            graphs = [(paths.count == 1 ? "\(DiagramCollector.baseName(paths[0])).state" : "state", StateDiagram.graph(analysis.transitions, title: title))]
        }
        if collected.skipped > 0 {
            Diagnostics.warn("drew the first \(limit) sessions; \(collected.skipped) more not drawn (raise --limit)")
        }
        let directory: OutputDirectory
        do { directory = try OutputDirectory(output, inputs: InputExpansion.files(paths, archives: true).map(\.path)) } catch { Diagnostics.warn("\(error)"); throw ExitCode(2) }
        let renderer = GraphvizRenderer()
        let out = StandardOutput()
        var written: Set<String> = []
        for (name, graph) in graphs {
            // Never a file written earlier in this run (two inputs of one base name in different
            // directories make the same names only if their sessions did; ids are unique per run).
            var file = "\(name).\(fileFormat.rawValue)"
            var n = 2
            while !written.insert(file).inserted {
                file = "\(name)-\(n).\(fileFormat.rawValue)"
                n += 1
            }
            do {
                let bytes = fileFormat == .dot ? Array(graph.text.utf8) : try renderer.render(graph, format: fileFormat)
                try directory.write(file, bytes)
            } catch {
                Diagnostics.warn("\(file): \(error)")
                throw OutputFailure.exitCode(for: error)
            }
            out.write((output as NSString).appendingPathComponent(file))
        }
        out.flush()
        if analysis.inputs.contains(where: { $0.error != nil && $0.lines == 0 }) { throw ExitCode(3) }
    }
}

extension OutputFormat: ExpressibleByArgument {}

/// Builds per-session diagrams as sessions end (while their events are still there).
final class DiagramCollector: @unchecked Sendable {
    private let lock = NSLock()
    private let kind: Graph.Kind, per: Graph.Per, limit: Int
    /// `graph`'s names (`xcode-console.P1.timeline`), or a report directory's (`timeline-P1`:
    /// one report per directory, as `report.html` is).
    private let namedByInput: Bool
    private var built: [(ordinal: Int, name: String, graph: DOTGraph)] = []
    private var drawnSessions = 0
    private(set) var skipped = 0

    init(kind: Graph.Kind, per: Graph.Per, limit: Int, namedByInput: Bool = true) {
        (self.kind, self.per, self.limit, self.namedByInput) = (kind, per, limit, namedByInput)
    }

    func add(_ session: ProcessSession, _ findings: [Diagnostic]) {
        lock.lock()
        defer { lock.unlock() }
        guard drawnSessions < limit else { skipped += 1; return }
        drawnSessions += 1
        let head = "\(session.id) \(session.process ?? "(unknown process)")\(session.pid.map { " [\($0)]" } ?? "")"
        let base = "\(Self.baseName(session.files.first ?? "-")).\(session.id)"
        switch kind {
        case .timeline:
            built.append((session.ordinal, namedByInput ? "\(base).timeline" : "timeline-\(session.id)", TimelineDiagram.graph(session, diagnostics: findings)))
        case .state where per == .scene:
            for scene in session.scenes {
                var tally = TransitionTally()
                tally.add(session, findings: findings, scene: scene.id)
                built.append((session.ordinal, "\(base).\(scene.id).state", StateDiagram.graph(tally, title: "\(head), scene \(scene.id)")))
            }
        case .state:
            var tally = TransitionTally()
            tally.add(session, findings: findings)
            built.append((session.ordinal, "\(base).state", StateDiagram.graph(tally, title: head)))
        }
    }

    /// A path's file name without its extensions (`logs/xcode-console.log.gz` -> `xcode-console`;
    /// `SampleLogs/` -> `SampleLogs`; standard input -> `stdin`), safe as a file name.
    static func baseName(_ path: String) -> String {
        if path == "-" { return "stdin" }
        var name = (path as NSString).lastPathComponent
        // An archive member (`bundle.tar!/app.log`) is named by the member.
        if let bang = name.lastIndex(of: "!") { name = String(name[name.index(after: bang)...]) }
        for suffix in [".gz", ".log", ".txt", ".ips", ".crash", ".json", ".ndjson", ".jsonl", ".tar", ".md"] where name.count > suffix.count && name.hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
        }
        let cleaned = String(name.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
        return cleaned.isEmpty || cleaned.hasPrefix(".") ? "input" + cleaned : cleaned
    }

    /// The diagrams in session order.
    var graphs: [(String, DOTGraph)] {
        lock.lock()
        defer { lock.unlock() }
        return built.sorted { ($0.ordinal, $0.name) < ($1.ordinal, $1.name) }.map { ($0.name, $0.graph) }
    }
}
