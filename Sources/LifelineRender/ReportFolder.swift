import Foundation
import LifelineCore
import LifelineRules
import LifelineTriage

/// The output folder (`--output DIR`) of `analyze`, `watch` and `triage`: the one writer of its
/// files, each replaced atomically (`OutputDirectory`).
///
/// A report analysis (`analyze`, `watch`) writes state.svg, the timelines it is given,
/// report.json, report.sarif, junit.xml and report.html; a triage result writes state.svg and
/// triage.txt, .json, .csv, .md and .html.
public struct ReportFolder {
    public let directory: OutputDirectory

    /// Creates the folder when missing; `inputs` are the files the run reads, never written over.
    /// - Throws: `OutputError` when the folder cannot be made.
    public init(_ path: String, inputs: [String]) throws {
        directory = try OutputDirectory(path, inputs: inputs)
    }

    /// A file that could not be made or written: `diagram` names the diagram file (`state.svg`)
    /// when it was one.
    public struct Failure: Error, CustomStringConvertible {
        public var diagram: String?
        public var error: any Error
        public var description: String { "\(error)" }
    }

    /// Renders a session's timeline (`timeline-P3.svg`, titled `Timeline P3`).
    /// - Throws: `Failure` naming the file.
    public static func timeline(_ graph: DOTGraph, session: String) throws(Failure) -> RenderedDiagram {
        let fileName = "timeline-\(session).svg"
        do {
            let svg = try GraphvizRenderer().render(graph, format: .svg)
            return RenderedDiagram(title: "Timeline \(session)", fileName: fileName, svg: String(decoding: svg, as: UTF8.self))
        } catch {
            throw Failure(diagram: fileName, error: error)
        }
    }

    /// The files of a report analysis. `inputCount` is the number of inputs the state diagram's
    /// title names; `failOn` marks JUnit failures, `htmlFailOn` the page's; `excerpts`: the page
    /// shows the log lines around each finding, read back from the inputs (not for standard input).
    public func write(_ analysis: Analysis, inputCount: Int, timelines: [RenderedDiagram], rules: [any Rule.Type],
                      failOn: Severity?, htmlFailOn: Severity?, excerpts: Bool, reports: [ReportExcerpt] = []) throws(Failure) {
        let title = "\(inputCount) input\(inputCount == 1 ? "" : "s"), \(analysis.sessions.count) sessions"
        var diagrams: [RenderedDiagram] = []
        do {
            let svg = try GraphvizRenderer().render(StateDiagram.graph(analysis.transitions, title: title), format: .svg)
            try directory.write("state.svg", svg)
            diagrams.append(RenderedDiagram(title: "Lifecycle state diagram", fileName: "state.svg", svg: String(decoding: svg, as: UTF8.self)))
        } catch {
            throw Failure(diagram: "state.svg", error: error)
        }
        for t in timelines {
            do { try directory.write(t.fileName, t.svg) } catch { throw Failure(diagram: t.fileName, error: error) }
        }
        diagrams += timelines
        do {
            try directory.write("report.json", AnalysisJSON.render(analysis) + "\n")
            try directory.write("report.sarif", SARIFReport.render(analysis, rules: rules, version: LifelineVersion.current))
            try directory.write("junit.xml", JUnitReport.render(analysis, failOn: failOn))
            let around = excerpts ? LogExcerpts.read(around: analysis.diagnostics) : []
            try directory.write("report.html", HTMLReport.render(analysis, diagrams: diagrams, excerpts: around, reports: reports,
                                                                 failOn: htmlFailOn))
        } catch {
            throw Failure(diagram: nil, error: error)
        }
    }

    /// The files of a triage result: every format and the aggregated state diagram.
    public func write(_ result: TriageResult, groupBy: ReleaseDimension?) throws(Failure) {
        do {
            let title = "\(result.inputCount) input\(result.inputCount == 1 ? "" : "s"), \(result.totalSessions) sessions"
            let svg = try GraphvizRenderer().render(StateDiagram.graph(result.transitions, title: title), format: .svg)
            try directory.write("state.svg", svg)
            try directory.write("triage.txt", TriageText.render(result, limit: nil, width: 160, groupBy: groupBy))
            try directory.write("triage.json", TriageJSON.render(result, groupBy: groupBy))
            try directory.write("triage.csv", TriageCSV.render(result))
            try directory.write("triage.md", TriageMarkdown.render(result, limit: nil, groupBy: groupBy))
            try directory.write("triage.html", TriageHTMLReport.render(result, stateDiagramSVG: String(decoding: svg, as: UTF8.self)))
        } catch {
            throw Failure(diagram: nil, error: error)
        }
    }

    /// Removes a file this run wrote earlier and no longer reports (a timeline that left `watch`'s
    /// window); a file that is missing or one of the inputs is left as it is.
    public func remove(_ name: String) {
        directory.remove(name)
    }
}
