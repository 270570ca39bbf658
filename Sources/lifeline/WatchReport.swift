import Foundation
import LifelineCore
import LifelineRender
import LifelineRules

/// `watch --output DIR`: report.html, report.json and the state diagram of what was seen so far,
/// rewritten (each file atomically) at most once a second while something changed, and at the end.
/// Ended sessions are kept as summaries, live ones drawn as they stand; the timelines of the last
/// `Analyze.timelineLimit` ended sessions are drawn once each, when they end, into the page (and
/// as timeline-P<n>.svg files).
final class WatchReport {
    private let directory: OutputDirectory
    private let readsFiles: Bool
    private var sessions: [ProcessSession] = []
    private var diagnostics: [Diagnostic] = []
    /// The latest ended sessions' timelines, oldest first.
    private var timelines: [RenderedDiagram] = []
    private var changed = true
    private var lastWrite = -Double.infinity
    private(set) var writes = 0

    init(path: String, inputs: [String]) throws {
        directory = try OutputDirectory(path, inputs: inputs.filter { $0 != "-" })
        readsFiles = !inputs.contains("-")
    }

    /// New events arrived: the live sessions drawn in the report changed.
    func touch() { changed = true }

    func record(_ out: LiveAnalysis.Output) {
        guard !out.isEmpty else { return }
        diagnostics += out.findings
        sessions += out.ended.map { $0.session.summarized() }
        for (session, found) in out.ended where session.eventCount > 0 {
            guard let svg = try? GraphvizRenderer().render(TimelineDiagram.graph(session, diagnostics: found), format: .svg) else { continue }
            timelines.append(RenderedDiagram(title: "Timeline \(session.id)", fileName: "timeline-\(session.id).svg",
                                             svg: String(decoding: svg, as: UTF8.self)))
            if timelines.count > Analyze.timelineLimit { timelines.removeFirst() }
        }
        changed = true
    }

    /// Writes the files when something changed and a second passed since the last write (or `force`).
    func write(_ live: LiveAnalysis, inputs: [InputStats], force: Bool = false) throws {
        let now = WatchSource.now
        guard changed || force, force || now - lastWrite >= 1 else { return }
        var all = sessions + live.liveSnapshots().map { $0.summarized() }
        all.sort { $0.ordinal < $1.ordinal }
        var found = diagnostics
        found.sortInReportOrder()
        let analysis = Analysis(inputs: inputs, sessions: all, diagnostics: found, transitions: live.transitions)
        let title = "\(inputs.count) input\(inputs.count == 1 ? "" : "s"), \(all.count) sessions"
        let svg = try GraphvizRenderer().render(StateDiagram.graph(analysis.transitions, title: title), format: .svg)
        try directory.write("state.svg", svg)
        try directory.write("report.json", AnalysisJSON.render(analysis) + "\n")
        // Excerpts are read back from the files; standard input cannot be read again.
        let excerpts = readsFiles ? LogExcerpts.read(around: found) : []
        for t in timelines { try directory.write(t.fileName, t.svg) }
        try directory.write("report.html", HTMLReport.render(
            analysis, diagrams: [RenderedDiagram(title: "Lifecycle state diagram", fileName: "state.svg", svg: String(decoding: svg, as: UTF8.self))]
                + timelines, excerpts: excerpts, failOn: nil))
        changed = false
        lastWrite = now
        writes += 1
    }
}
