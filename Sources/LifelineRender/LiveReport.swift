import Foundation
import LifelineCore
import LifelinePipeline
import LifelineRules

/// `watch --output DIR`: the report files of what was seen so far (those `analyze --output`
/// writes: report.html, report.json, report.sarif, junit.xml, state.svg, timelines), rewritten
/// through `ReportFolder` at most once a second while something changed, and at the end. Ended
/// sessions are kept as summaries, live ones drawn as they stand; the timelines of the last
/// `timelineLimit` ended sessions are drawn once each, when they end, into the page (and as
/// timeline-P<n>.svg files; one that leaves the window is removed, so the folder holds what the
/// page shows however often it was written).
public final class LiveReport {
    private let folder: ReportFolder
    private let readsFiles: Bool
    private let rules: [any Rule.Type]
    private let failOn: Severity?
    private let timelineLimit: Int
    private let clock: () -> Double
    private var sessions: [ProcessSession] = []
    private var diagnostics: [Diagnostic] = []
    /// The latest ended sessions' timelines, oldest first.
    private var timelines: [RenderedDiagram] = []
    /// Timeline files written that left the window since: removed at the next write.
    private var dropped: [String] = []
    private var written: Set<String> = []
    private var changed = true
    private var lastWrite = -Double.infinity
    public private(set) var writes = 0

    /// `inputs`: the paths watched (`-`: standard input). `rules` and `failOn` are those of the
    /// run (the SARIF rule list, JUnit's failures).
    /// - Throws: `OutputError` when the folder cannot be made.
    public init(path: String, inputs: [String], rules: [any Rule.Type], failOn: Severity?, timelineLimit: Int = 20,
                clock: @escaping () -> Double = LiveAnalysis.monotonic) throws {
        folder = try ReportFolder(path, inputs: inputs.filter { $0 != "-" })
        readsFiles = !inputs.contains("-")
        self.rules = rules
        self.failOn = failOn
        self.timelineLimit = timelineLimit
        self.clock = clock
    }

    /// New events arrived: the live sessions drawn in the report changed.
    public func touch() { changed = true }

    public func record(_ out: LiveAnalysis.Output) {
        guard !out.isEmpty else { return }
        diagnostics += out.findings
        sessions += out.ended.map { $0.session.summarized() }
        for (session, found) in out.ended where session.eventCount > 0 {
            guard let t = try? ReportFolder.timeline(TimelineDiagram.graph(session, diagnostics: found), session: session.id) else { continue }
            timelines.append(t)
            if timelines.count > timelineLimit { dropped.append(timelines.removeFirst().fileName) }
        }
        changed = true
    }

    /// Writes the files when something changed and a second passed since the last write (or `force`).
    /// - Throws: `ReportFolder.Failure`.
    public func write(_ live: LiveAnalysis, inputs: [InputStats], force: Bool = false) throws {
        let now = clock()
        guard changed || force, force || now - lastWrite >= 1 else { return }
        var all = sessions + live.liveSnapshots().map { $0.summarized() }
        all.sort { $0.ordinal < $1.ordinal }
        var found = diagnostics
        found.sortInReportOrder()
        var analysis = Analysis(inputs: inputs, sessions: all, diagnostics: found, transitions: live.transitions)
        analysis.apps = live.apps
        try folder.write(analysis, inputCount: inputs.count, timelines: timelines, rules: rules, failOn: failOn, htmlFailOn: nil,
                         excerpts: readsFiles)
        for name in dropped where written.contains(name) {
            folder.remove(name)
            written.remove(name)
        }
        dropped = []
        written.formUnion(timelines.map(\.fileName))
        changed = false
        lastWrite = now
        writes += 1
    }
}
