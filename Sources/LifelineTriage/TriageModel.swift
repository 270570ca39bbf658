import LifelineCore
import LifelineRules

/// Where in its life the app was when a failure happened: the distribution triage shows per
/// signature ("82% during launch before any scene was active, 18% in background").
public enum FailurePhase: String, Sendable, CaseIterable, Comparable {
    /// Launching: no scene (and no app-level activation) had become active yet; by the system's
    /// word, where the app logged no callback: the system told a launch and its scene had not come
    /// to the foreground, or a launch watchdog (`scene-create`, `process-launch`) ended it.
    case launch
    case foregroundActive = "foreground-active"
    case foregroundInactive = "foreground-inactive"
    /// In the foreground by the system's word (a foreground scene, a user-interactive role), in a
    /// session where the app logged no callback: active or inactive, the system does not say.
    case foreground
    case background
    /// Suspended by the system (RunningBoard's `running-suspended…`, SpringBoard's task state
    /// `Suspended`), in a session where the app logged no callback.
    case suspended
    /// A scene that connected and had not come to the foreground.
    case unattached
    /// After the scene in play disconnected (added after `unknown`'s introduction; listed here for
    /// the order of display).
    case disconnected
    /// The log shows nothing of the lifecycle around the failure.
    case unknown

    /// Phases only the system's account gives (`foreground`, `suspended`): reports that list every
    /// phase (the HTML legend) name these only when an occurrence has one.
    public var isSystemOnly: Bool { self == .foreground || self == .suspended }

    public static func < (a: FailurePhase, b: FailurePhase) -> Bool { a.order < b.order }
    private var order: Int { Self.allCases.firstIndex(of: self)! }

    /// How a sentence says it.
    public var phrase: String {
        switch self {
        case .launch: "during launch before any scene was active"
        case .foregroundActive: "in the foreground, active"
        case .foregroundInactive: "in the foreground, inactive"
        case .foreground: "in the foreground"
        case .background: "in the background"
        case .suspended: "while suspended"
        case .unattached: "with its scene unattached"
        case .disconnected: "after its scene disconnected"
        case .unknown: "in an unknown state"
        }
    }
}

/// One place a signature was seen.
public struct Occurrence: Sendable, Equatable {
    public var file: String
    public var position: InputPosition
    public var time: LogTimestamp?
    /// The first lines of the record, for the example excerpt.
    public var excerpt: String

    public init(file: String, position: InputPosition, time: LogTimestamp?, excerpt: String) {
        self.file = file
        self.position = position
        self.time = time
        self.excerpt = excerpt
    }

    /// A place at a line of a text input.
    public init(file: String, line: Int, time: LogTimestamp?, excerpt: String) {
        self.init(file: file, position: .line(line), time: time, excerpt: excerpt)
    }

    /// `FILE:LINE` (`FILE:@0xOFFSET` in a binary input), as the reports name an example.
    public var place: String { position.label(in: file) }

    /// The earlier of two places in a stable order (path, then line): the representative example
    /// does not depend on which thread finished first.
    static func precedes(_ a: Occurrence, _ b: Occurrence) -> Bool { (a.file, a.position) < (b.file, b.position) }
}

/// Everything triage knows about one signature, over every input: merged from per-file tallies
/// in any order with the same result.
public struct SignatureStats: Sendable, Equatable {
    public var signature: Signature
    /// The highest severity of any occurrence (a rule finding at the same event can raise it).
    public var severity: Severity
    public var count = 0
    /// Inputs it was seen in: all of them in one run; after merging partial results, the sample
    /// each partial kept (its `fileSampleLimit` smallest names), the rest counted in `extraFiles`.
    public var files: Set<String> = []
    /// Inputs known only by count (beyond the samples of merged partials).
    public var extraFiles = 0
    /// How many inputs it was seen in.
    public var fileCount: Int { files.count + extraFiles }
    /// The most file names a report or a partial lists per signature (the smallest, in path
    /// order): enough to find examples, and a bound on the size of a report of many inputs.
    public static let fileSampleLimit = 100
    /// The names listed: the `fileSampleLimit` smallest.
    public var fileSample: [String] { Array(files.sorted().prefix(Self.fileSampleLimit)) }
    /// Sessions it was seen in. Counted, not collected (a set of `FILE#SESSION` keys grew with
    /// every session of a launch-heavy log, issue 12): a session is checked whole by one tally,
    /// so its occurrences arrive together, and tallies never share a session.
    public var sessionCount = 0
    /// The session of the last occurrence added (`FILE#SESSION`).
    private var lastSession: String?
    public var firstSeen: LogTimestamp?
    public var lastSeen: LogTimestamp?
    public var phases: [FailurePhase: Int] = [:]
    /// The first occurrence in (path, line) order.
    public var example: Occurrence
    /// Rules that reported at the failure's own event (`LC-F02` beside an uncaught exception).
    public var rules: Set<String> = []
    /// Occurrences per app version, OS version and device model.
    public var releases = ReleaseSpread()
    /// Occurrences per variant the signature leaves out (`Signature.variant`: a system source's
    /// line), when there are any.
    public var variants: [String: Int] = [:]

    /// The variants, most frequent first (ties by name).
    public var rankedVariants: [(value: String, count: Int)] {
        variants.map { ($0.key, $0.value) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.value < $1.value }
    }

    /// Equal when everything reported is (which session came last is bookkeeping).
    public static func == (a: SignatureStats, b: SignatureStats) -> Bool {
        a.signature == b.signature && a.severity == b.severity && a.count == b.count && a.files == b.files && a.extraFiles == b.extraFiles
            && a.sessionCount == b.sessionCount && a.firstSeen == b.firstSeen && a.lastSeen == b.lastSeen
            && a.phases == b.phases && a.example == b.example && a.rules == b.rules && a.releases == b.releases && a.variants == b.variants
    }

    init(signature: Signature, severity: Severity, example: Occurrence) {
        self.signature = signature
        self.severity = severity
        self.example = example
    }

    mutating func add(_ o: Occurrence, session: String, phase: FailurePhase, severity s: Severity, release: Release = Release()) {
        count += 1
        releases.add(release)
        files.insert(o.file)
        if session != lastSession {
            sessionCount += 1
            lastSession = session
        }
        phases[phase, default: 0] += 1
        severity = max(severity, s)
        if Occurrence.precedes(o, example) { example = o }
        // A time of day without a date has seconds on its input's own days: no first or last seen.
        if let t = o.time, t.seconds != nil, !t.isTimeOfDay {
            if firstSeen == nil || Self.earlier(t, firstSeen!) { firstSeen = t }
            if lastSeen == nil || Self.earlier(lastSeen!, t) { lastSeen = t }
        }
    }

    mutating func merge(_ other: SignatureStats) {
        count += other.count
        files.formUnion(other.files)
        extraFiles += other.extraFiles
        sessionCount += other.sessionCount
        for (p, n) in other.phases { phases[p, default: 0] += n }
        severity = max(severity, other.severity)
        rules.formUnion(other.rules)
        releases.merge(other.releases)
        for (v, n) in other.variants { variants[v, default: 0] += n }
        if Occurrence.precedes(other.example, example) { example = other.example }
        if let t = other.firstSeen, firstSeen == nil || Self.earlier(t, firstSeen!) { firstSeen = t }
        if let t = other.lastSeen, lastSeen == nil || Self.earlier(lastSeen!, t) { lastSeen = t }
    }

    /// Time order, with the text as a tie-break so merging is order-independent.
    static func earlier(_ a: LogTimestamp, _ b: LogTimestamp) -> Bool {
        let x = a.seconds ?? 0, y = b.seconds ?? 0
        return x != y ? x < y : a.iso < b.iso
    }

    /// The share of each phase, most frequent first (ties in phase order).
    public var phaseShares: [(phase: FailurePhase, count: Int)] {
        phases.map { ($0.key, $0.value) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.phase < $1.phase }
    }

    /// "82% during launch before any scene was active, 18% in the background".
    public var phaseSummary: String {
        guard count > 0 else { return "" }
        return phaseShares.map { "\(Self.percent($0.count, of: count)) \($0.phase.phrase)" }.joined(separator: ", ")
    }

    static func percent(_ n: Int, of total: Int) -> String {
        let p = Double(n) * 100 / Double(total)
        if p > 0 && p < 1 { return "<1%" }
        if p < 100 && p > 99 { return ">99%" }
        return "\(Int(p.rounded()))%"
    }
}

/// One input as triage read it.
public struct TriageInput: Sendable, Equatable {
    public var path: String
    public var format: LogFormat?
    public var lines: Int
    public var events: Int
    public var sessions: Int
    public var bytes: Int64
    /// Lines no format recognised (the accounting's `unrecognizedLines`).
    public var unrecognizedLines: Int

    /// One row of a report's or a partial's `inputs`, keys sorted.
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("bytes", bytes)
        w.field("events", events)
        w.field("format", format?.rawValue)
        w.field("lines", lines)
        w.field("path", path)
        w.field("sessions", sessions)
        w.field("unrecognizedLines", unrecognizedLines)
        w.endObject()
    }

    init(path: String, format: LogFormat?, lines: Int, events: Int, sessions: Int, bytes: Int64, unrecognizedLines: Int) {
        self.path = path
        self.format = format
        self.lines = lines
        self.events = events
        self.sessions = sessions
        self.bytes = bytes
        self.unrecognizedLines = unrecognizedLines
    }

    public init(stats: InputStats, sessions: Int) {
        path = stats.path
        format = stats.format
        lines = stats.lines
        events = stats.events
        self.sessions = sessions
        bytes = stats.bytes
        unrecognizedLines = stats.unrecognizedLines
    }
}

/// Inputs known only by their sums: those of partial results written without per-input rows.
public struct InputTotals: Sendable, Equatable {
    public var count = 0
    public var lines = 0
    public var events = 0
    public var bytes: Int64 = 0
    public var sessions = 0
    public var unrecognizedLines = 0
    /// Inputs per format (`-` for inputs of no format).
    public var formats: [String: Int] = [:]

    public init() {}

    mutating func add(_ i: TriageInput) {
        count += 1
        lines += i.lines
        events += i.events
        bytes += i.bytes
        sessions += i.sessions
        unrecognizedLines += i.unrecognizedLines
        formats[i.format?.rawValue ?? "-", default: 0] += 1
    }

    mutating func merge(_ o: InputTotals) {
        count += o.count
        lines += o.lines
        events += o.events
        bytes += o.bytes
        sessions += o.sessions
        unrecognizedLines += o.unrecognizedLines
        for (f, n) in o.formats { formats[f, default: 0] += n }
    }
}

/// An input that could not be read, or read only in part, and why.
public struct Unreadable: Sendable, Equatable {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// Whether a signature is new since a baseline run, seen in it too, or gone from this run.
public enum BaselineStatus: String, Sendable {
    case new, recurring, gone
}

/// The result of a triage run: inputs, signatures ranked most frequent first, unreadable inputs.
public struct TriageResult: Sendable {
    public var inputs: [TriageInput]
    public var signatures: [SignatureStats]
    /// The unreadable inputs listed: at most `listLimit`, the first in path order.
    public var unreadable: [Unreadable]
    /// How many inputs could not be read (more than listed when the list was capped).
    public var unreadableCount = 0
    /// How many files were skipped (more than listed in `skipped` when the list was capped).
    public var skippedCount = 0
    /// The most unreadable or skipped inputs a report lists: a bound on its size, whatever the
    /// number of inputs.
    public static let listLimit = 100
    /// Every observed lifecycle transition (the aggregated state diagram).
    public var transitions: TransitionTally
    /// Set by `compare(with:)`: each signature's status, by id, and the baseline's signatures
    /// that did not recur (with their baseline counts).
    public var baseline: [String: BaselineStatus]? = nil
    public var gone: [BaselineSignature] = []
    /// Sessions per app version, OS version and device model, over every input: the releases the
    /// input set covers, whether or not they failed.
    public var sessionReleases = ReleaseSpread()
    /// Files found in a directory and not read (binary data, not a log), with the reason.
    public var skipped: [Unreadable] = []

    /// Inputs of merged partial results written without rows: counted, not listed.
    public var extraInputs = InputTotals()

    /// Inputs read: those listed in `inputs` and those known only by their sums.
    public var inputCount: Int { inputs.count + extraInputs.count }
    public var totalLines: Int { inputs.reduce(extraInputs.lines) { $0 + $1.lines } }
    public var totalEvents: Int { inputs.reduce(extraInputs.events) { $0 + $1.events } }
    public var totalBytes: Int64 { inputs.reduce(extraInputs.bytes) { $0 + $1.bytes } }
    public var totalSessions: Int { inputs.reduce(extraInputs.sessions) { $0 + $1.sessions } }
    /// Nothing could be read: no input, or none with a line while some were unreadable.
    public var nothingRead: Bool { inputCount == 0 || totalLines == 0 && unreadableCount > 0 }

    /// The ranking: most occurrences first, then more files, higher severity, and the id.
    static func ranked(_ s: [SignatureStats]) -> [SignatureStats] {
        s.sorted {
            if $0.count != $1.count { return $0.count > $1.count }
            if $0.fileCount != $1.fileCount { return $0.fileCount > $1.fileCount }
            if $0.severity != $1.severity { return $0.severity > $1.severity }
            return $0.signature.id < $1.signature.id
        }
    }
}

/// What a baseline run said of a signature (read back from its JSON).
public struct BaselineSignature: Sendable, Equatable {
    public var id: String
    public var kind: String
    public var title: String
    public var severity: String
    public var count: Int
}
