import ArgumentParser
import Foundation
import LifelineCore
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

        Files are written atomically into the --output directory (created if needed); their names \
        are printed. Graphviz runs in process; no `dot` program is needed.
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
    var output: String

    @Option(name: .long, help: "Draw at most this many sessions (per-session diagrams).")
    var limit = 100

    @Option(name: .customLong("input-format"), help: ArgumentHelp("Read every input as this format instead of detecting it.", valueName: "name"))
    var inputFormat: LogFormat?

    @Option(name: .shortAndLong, help: "Reading threads (default: all cores).")
    var jobs: Int?

    @OptionGroup var configOptions: ConfigOptions

    enum Kind: String, ExpressibleByArgument, CaseIterable { case state, timeline }
    enum Per: String, ExpressibleByArgument, CaseIterable { case session, scene }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if aggregate && kind == .timeline { throw ValidationError("--aggregate draws state diagrams; a timeline is per session") }
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let configuration = try configOptions.load()
        let collected = DiagramCollector(kind: kind, per: per, limit: limit)
        let ingest = IngestOptions(inputFormat: inputFormat, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        var observe: (@Sendable (ProcessSession, [Diagnostic]) -> Void)? = nil
        if !aggregate { observe = { @Sendable session, found in collected.add(session, found) } }
        let analysis = Analysis.run(paths: paths, ingest: ingest, rules: configuration.rules(only: [], disabled: []),
                                    configuration: configuration, observe: observe)
        for input in analysis.inputs {
            Diagnostics.unread(input)
        }
        var graphs = collected.graphs
        if aggregate {
            let title = "\(analysis.readInputs) input\(analysis.readInputs == 1 ? "" : "s"), \(analysis.sessions.count) sessions"
            graphs = [("state", StateDiagram.graph(analysis.transitions, title: title))]
        }
        if collected.skipped > 0 {
            Diagnostics.warn("drew the first \(limit) sessions; \(collected.skipped) more not drawn (raise --limit)")
        }
        let directory: OutputDirectory
        do { directory = try OutputDirectory(output, inputs: InputExpansion.files(paths, archives: true).map(\.path)) } catch { Diagnostics.warn("\(error)"); throw ExitCode(2) }
        let renderer = GraphvizRenderer()
        let out = StandardOutput()
        for (name, graph) in graphs {
            let file = "\(name).\(fileFormat.rawValue)"
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
    private var built: [(ordinal: Int, name: String, graph: DOTGraph)] = []
    private var drawnSessions = 0
    private(set) var skipped = 0

    init(kind: Graph.Kind, per: Graph.Per, limit: Int) {
        (self.kind, self.per, self.limit) = (kind, per, limit)
    }

    func add(_ session: ProcessSession, _ findings: [Diagnostic]) {
        lock.lock()
        defer { lock.unlock() }
        guard drawnSessions < limit else { skipped += 1; return }
        drawnSessions += 1
        let head = "\(session.id) \(session.process ?? "(unknown process)")\(session.pid.map { " [\($0)]" } ?? "")"
        switch kind {
        case .timeline:
            built.append((session.ordinal, "timeline-\(session.id)", TimelineDiagram.graph(session, diagnostics: findings)))
        case .state where per == .scene:
            for scene in session.scenes {
                var tally = TransitionTally()
                tally.add(session, scene: scene.id)
                built.append((session.ordinal, "state-\(session.id)-\(scene.id)", StateDiagram.graph(tally, title: "\(head), scene \(scene.id)")))
            }
        case .state:
            var tally = TransitionTally()
            tally.add(session)
            built.append((session.ordinal, "state-\(session.id)", StateDiagram.graph(tally, title: head)))
        }
    }

    /// The diagrams in session order.
    var graphs: [(String, DOTGraph)] {
        lock.lock()
        defer { lock.unlock() }
        return built.sorted { ($0.ordinal, $0.name) < ($1.ordinal, $1.name) }.map { ($0.name, $0.graph) }
    }
}
