import Foundation
import LifelineCore

/// `analyze` without holding its findings: each checked session leaves a `SessionSummary` and its
/// findings in two external sorts (`ExternalSort`), which spill to a temporary file past their
/// budget and are merged back in report order when the report is written. A log with a million
/// findings keeps a few megabytes of them in memory instead of half a gigabyte (issue 12).
///
/// The reports it feeds are byte for byte those of `Analysis.run`: the order is the same total
/// order (`sortInReportOrder` breaks ties by arrival, the spool by a sequence number).
public final class AnalysisSpool: @unchecked Sendable {
    /// The order findings are read back in: `.report` is the JSON report's (file, line, rule);
    /// `.bySession` groups them by session first, for the text report.
    public enum Order: Sendable { case report, bySession }

    public private(set) var inputs: [InputStats] = []
    /// Problems of the analysis itself, not of an input (as `Analysis.warnings`).
    public private(set) var warnings: [String] = []
    public private(set) var transitions = TransitionTally()
    /// The apps the system's lines told of (`AppsSeen`).
    public private(set) var apps = AppsSeen()
    /// The Info.plist checked with the logs, and its own findings (few: kept apart, in report order).
    public private(set) var manifest: SceneManifest?
    public private(set) var manifestFindings: [Diagnostic] = []
    public private(set) var sessionCount = 0
    public private(set) var eventCount = 0
    private var severityCounts = [Int](repeating: 0, count: Severity.allCases.count)
    private var findings: ExternalSort<SpooledFinding>
    private var sessions: ExternalSort<SessionSummary>
    private var sequence = 0
    private let floor: Severity?

    /// Findings below `minimumSeverity` are dropped as they arrive; `budget` is the memory each of
    /// the two sorts may hold before it spills.
    public init(order: Order, minimumSeverity: Severity? = nil, budget: Int = 8 << 20) {
        floor = minimumSeverity
        switch order {
        case .report:
            findings = ExternalSort(budget: budget, size: \.estimatedSize, by: SpooledFinding.inReportOrder,
                                    sortRun: { SpooledFinding.sortRun(&$0, bySession: false) })
        case .bySession:
            findings = ExternalSort(budget: budget, size: \.estimatedSize, by: SpooledFinding.bySession,
                                    sortRun: { SpooledFinding.sortRun(&$0, bySession: true) })
        }
        sessions = ExternalSort(budget: budget, size: \.estimatedSize, by: { $0.ordinal < $1.ordinal },
                                sortRun: { $0.sort { $0.ordinal < $1.ordinal } })
    }

    /// What the pipeline leaves once every session is in (`AnalysisSpool.run`, in LifelinePipeline):
    /// the inputs' accounting, the transitions, problems of the analysis itself, and the manifest's
    /// own findings.
    package func finish(inputs: [InputStats], transitions: TransitionTally, warnings: [String], apps: AppsSeen,
                        rules: [any Rule.Type], configuration: Configuration) {
        self.inputs = inputs
        self.apps = apps
        self.transitions = transitions
        self.warnings = warnings
        manifest = configuration.settings.manifest
        manifestFindings = Analysis.manifestFindings(rules: rules, configuration: configuration)
            .filter { d in floor.map { d.severity >= $0 } ?? true }
        for d in manifestFindings { severityCounts[d.severity.rawValue] += 1 }
    }

    /// One checked session and its findings.
    package func take(_ s: ProcessSession, _ found: [Diagnostic]) {
        for d in found where floor.map({ d.severity >= $0 }) ?? true {
            // A finding may be about another session (LC-A17 speaks of the launch before): it is
            // grouped under the session it names, `P<ordinal>`.
            let ordinal = d.session == s.id ? s.ordinal : d.session.first == "P" ? Int(d.session.dropFirst()) ?? s.ordinal : s.ordinal
            findings.append(SpooledFinding(sequence: sequence, ordinal: ordinal, diagnostic: d))
            sequence += 1
            severityCounts[d.severity.rawValue] += 1
        }
        sessions.append(SessionSummary(s))
        sessionCount += 1
        eventCount += s.eventCount
    }

    public func count(_ s: Severity) -> Int { severityCounts[s.rawValue] }
    public var findingCount: Int { severityCounts.reduce(0, +) }
    public var highestSeverity: Severity? { Severity.allCases.last { count($0) > 0 } }
    /// Runs written to disk by the two sorts (0 when everything fit in the budget).
    public var spilledRuns: Int { findings.spilledRuns + sessions.spilledRuns }
    /// Most findings and session summaries held in memory at once.
    public var peakHeld: (findings: Int, sessions: Int) { (findings.peakHeld, sessions.peakHeld) }
    /// Why spilling stopped (values were kept in memory from then on), if it did.
    public var spillFailure: String? { findings.spillFailure ?? sessions.spillFailure }

    /// The findings in the spool's order, read once: the spool is emptied. In `.report` order the
    /// manifest's findings are merged in; in `.bySession` order they are left out (`manifestFindings`).
    public func drainFindings() -> some Sequence<Diagnostic> {
        let spooled = findings.drain().lazy.map(\.diagnostic)
        return MergedFindings(spooled.makeIterator(), manifestFindings)
    }

    /// The session summaries by ordinal, read once.
    public func drainSessions() -> ExternalSort<SessionSummary>.Sorted {
        sessions.drain()
    }

    /// Each session with its findings, by ordinal; for a spool in `.bySession` order, read once.
    public func drainSessionsWithFindings() -> some Sequence<(SessionSummary, [Diagnostic])> {
        let sessions = drainSessions()
        let found = findings.drain()
        var pending: SpooledFinding? = found.next()
        return AnySequence {
            AnyIterator { () -> (SessionSummary, [Diagnostic])? in
                guard let s = sessions.next() else { return nil }
                var mine: [Diagnostic] = []
                // Findings naming no session of the analysis are not printed (as `render(Analysis)`).
                while let f = pending, f.ordinal <= s.ordinal {
                    if f.ordinal == s.ordinal { mine.append(f.diagnostic) }
                    pending = found.next()
                }
                return (s, mine)
            }
        }
    }
}

/// A finding in a spool: with the order it arrived in and the ordinal of its session.
struct SpooledFinding: SpillCodable {
    var sequence: Int
    var ordinal: Int
    var diagnostic: Diagnostic

    var estimatedSize: Int { 144 + diagnostic.message.utf8.count }

    /// `sortInReportOrder`'s order: file, line, rule id, then arrival.
    static func inReportOrder(_ a: SpooledFinding, _ b: SpooledFinding) -> Bool {
        let x = a.diagnostic, y = b.diagnostic
        if x.file != y.file { return x.file < y.file }
        if x.position != y.position { return x.position < y.position }
        if x.ruleId != y.ruleId { return x.ruleId < y.ruleId }
        return a.sequence < b.sequence
    }

    /// By session, then in report order within it (what the text report prints under each session).
    static func bySession(_ a: SpooledFinding, _ b: SpooledFinding) -> Bool {
        a.ordinal != b.ordinal ? a.ordinal < b.ordinal : inReportOrder(a, b)
    }

    /// Sorts a run in `inReportOrder` (or `bySession`) by integer keys: files and rule ids are
    /// ranked once per run, so the sort moves small keys and compares no strings (sorting the
    /// findings themselves cost 9% of a dense log's analysis).
    static func sortRun(_ run: inout [SpooledFinding], bySession: Bool) {
        func ranks(_ strings: Set<String>) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: strings.sorted().enumerated().map { ($1, $0) })
        }
        let files = ranks(Set(run.map(\.diagnostic.file)))
        let rules = ranks(Set(run.map(\.diagnostic.ruleId)))
        var keys = run.indices.map { i -> (Int, Int, Int, Int, Int, Int) in
            let d = run[i].diagnostic
            return (bySession ? run[i].ordinal : 0, files[d.file]!, d.position.sortKey, rules[d.ruleId]!, run[i].sequence, i)
        }
        keys.sort { $0 < $1 }
        run = keys.map { run[$0.5] }
    }

    func encode(to w: inout SpillWriter) {
        w.int(sequence)
        w.int(ordinal)
        let d = diagnostic
        w.string(d.ruleId)
        w.string(d.rule)
        w.uint(UInt64(d.severity.rawValue))
        w.string(d.message)
        w.string(d.file)
        d.position.encode(to: &w)
        w.string(d.session)
        w.optional(d.scene)
        w.optional(d.state)
        w.optional(d.keyPath)
        w.uint(UInt64(d.related.count))
        for r in d.related {
            w.string(r.file)
            r.position.encode(to: &w)
            w.string(r.message)
            w.optional(r.keyPath)
        }
    }

    static func decode(from r: inout SpillReader) -> SpooledFinding {
        let sequence = r.int(), ordinal = r.int()
        let ruleId = r.string(), rule = r.string()
        let severity = Severity(rawValue: Int(r.uint())) ?? .note
        let message = r.string(), file = r.string(), position = InputPosition.decode(from: &r), session = r.string()
        var d = Diagnostic(ruleId: ruleId, rule: rule, severity: severity, message: message, file: file, position: position,
                           session: session, scene: r.optionalString(), state: r.optionalString())
        d.keyPath = r.optionalString()
        d.related = (0..<r.uint()).map { _ in RelatedLocation(file: r.string(), position: InputPosition.decode(from: &r), message: r.string(), keyPath: r.optionalString()) }
        return SpooledFinding(sequence: sequence, ordinal: ordinal, diagnostic: d)
    }
}

/// Two sequences of findings in report order, merged (the spool's and the manifest's).
struct MergedFindings<Base: IteratorProtocol<Diagnostic>>: Sequence, IteratorProtocol {
    private var base: Base
    private var pending: Diagnostic?
    private var extra: [Diagnostic]
    private var position = 0

    init(_ base: Base, _ extra: [Diagnostic]) {
        self.base = base
        self.extra = extra
        pending = self.base.next()
    }

    mutating func next() -> Diagnostic? {
        if position < extra.count, pending.map({ Diagnostic.reportOrder(extra[position], $0) }) ?? true {
            position += 1
            return extra[position - 1]
        }
        defer { pending = base.next() }
        return pending
    }
}
