import Foundation
import LifelineCore
import LifelinePipeline
import LifelineRules

/// How to triage.
public struct TriageOptions: Sendable {
    /// Threads: files are read this many at a time; a large file alone is read in ranges by all of them.
    public var jobs: Int
    public var inputFormat: LogFormat?
    public var configuration: Configuration
    public var rules: [any Rule.Type]
    /// Rule findings below this severity are not signatures (failures always are).
    public var minimumSeverity: Severity
    /// Plain files at least twice this size are split into ranges of it across every thread.
    public var rangeBytes: Int64
    /// Names to show instead of paths (`--files-from` lines `PATH<TAB>NAME`), in every output.
    public var displayNames: [String: String] = [:]
    /// Files named in the paths are taken as found in a directory (a listing made elsewhere): one
    /// that is not a log is skipped and reported, as in a directory walk, instead of read.
    public var skipNonLogs = false

    public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, inputFormat: LogFormat? = nil,
                configuration: Configuration = .defaults, rules: [any Rule.Type] = RuleRegistry.all,
                minimumSeverity: Severity = .warning, rangeBytes: Int64 = 16 << 20) {
        self.jobs = max(1, jobs)
        self.inputFormat = inputFormat
        self.configuration = configuration
        self.rules = rules
        self.minimumSeverity = minimumSeverity
        self.rangeBytes = rangeBytes
    }
}

/// How far a run is, for a progress display.
public struct TriageProgress: Sendable, Equatable {
    public var filesDone: Int
    public var filesTotal: Int
    public var bytesDone: Int64
    public var bytesTotal: Int64
}

/// Batch triage: reads every input on every core, each file (or archive member) analysed on its
/// own (sessions never span files), and reduces each to signature tallies as it goes, so memory
/// follows the files being read, not the number of files.
///
/// Scheduling: files largest first. A plain file large enough to split is read alone, in ranges
/// across every thread (merged in order, sessions and rules on the calling thread meanwhile); the
/// rest are shared out to `jobs` workers, each reading one file at a time.
public enum Triage {
    public static func run(paths: [String], options: TriageOptions,
                           progress: (@Sendable (TriageProgress) -> Void)? = nil) -> TriageResult {
        result(of: tally(paths: paths, options: options, progress: progress))
    }

    /// The partial result of a run (`lifeline triage --partial`): what `merge` combines with others.
    public static func partial(paths: [String], options: TriageOptions,
                               progress: (@Sendable (TriageProgress) -> Void)? = nil) -> TriagePartial {
        TriagePartial(settings: TriagePartial.settings(options), tally: tally(paths: paths, options: options, progress: progress))
    }

    /// What a run over `paths` tallied.
    static func tally(paths: [String], options: TriageOptions, progress: (@Sendable (TriageProgress) -> Void)?) -> TriageTally {
        let files = InputExpansion.files(paths, archives: true, skipNonLogs: options.skipNonLogs)
            .sorted { $0.size != $1.size ? $0.size > $1.size : $0.path < $1.path }
        let counter = ProgressCounter(total: files.count, bytes: files.reduce(0) { $0 + $1.size }, report: progress)
        let sessionTriage = SessionTriage(
            runner: RuleRunner(rules: options.rules, settings: options.configuration.settings, severities: options.configuration.severities),
            minimumSeverity: options.minimumSeverity)
        var tally = TriageTally()
        let splitAt = options.rangeBytes * 2
        let (large, rest) = (files.filter { isSplittable($0, at: splitAt) }, files.filter { !isSplittable($0, at: splitAt) })
        for file in large {
            triage(file, jobs: options.jobs, options: options, sessions: sessionTriage, into: &tally)
            counter.done(file.size)
        }
        if !rest.isEmpty {
            let queue = WorkQueue(rest)
            let workers = min(options.jobs, rest.count)
            let tallies = Tallies(count: workers)
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                var mine = TriageTally()
                while let file = queue.next() {
                    triage(file, jobs: 1, options: options, sessions: sessionTriage, into: &mine)
                    counter.done(file.size)
                }
                tallies.set(w, mine)
            }
            for t in tallies.all { tally.merge(t) }
        }
        return tally
    }

    /// The result a tally stands for: inputs and lists in path order, signatures ranked.
    static func result(of tally: TriageTally) -> TriageResult {
        let limit = TriageResult.listLimit
        var result = TriageResult(inputs: tally.inputs.sorted { $0.path < $1.path },
                                  signatures: TriageResult.ranked(Array(tally.signatures.values)),
                                  unreadable: Array(tally.unreadable.sorted { ($0.path, $0.reason) < ($1.path, $1.reason) }.prefix(limit)),
                                  transitions: tally.transitions)
        result.unreadableCount = tally.unreadable.count + tally.extraUnreadable
        result.skippedCount = tally.skipped.count + tally.extraSkipped
        result.sessionReleases = tally.releases
        result.skipped = Array(tally.skipped.sorted { ($0.path, $0.reason) < ($1.path, $1.reason) }.prefix(limit))
        result.extraInputs = tally.extraInputs
        return result
    }

    static func isSplittable(_ f: InputExpansion.File, at size: Int64) -> Bool {
        f.error == nil && !f.isArchive && f.size >= size && f.path != "-" && !f.path.lowercased().hasSuffix(".gz")
    }

    /// Reads one file or archive, each input's sessions checked as they end.
    static func triage(_ file: InputExpansion.File, jobs: Int, options: TriageOptions, sessions: SessionTriage,
                       into tally: inout TriageTally) {
        var ingest = IngestOptions(inputFormat: options.inputFormat, jobs: jobs, collectEvents: true, rangeBytes: options.rangeBytes)
        ingest.markers = options.configuration.markers
        ingest.executables = options.configuration.executables
        ingest.displayNames = options.displayNames
        if let error = file.error {
            tally.unreadable.append(Unreadable(path: ingest.shown(file.path), reason: error))
            return
        }
        if let reason = file.skipped {
            tally.skipped.append(Unreadable(path: ingest.shown(file.path), reason: reason))
            return
        }
        let ingester = Ingester(options: ingest)
        // A file read by several threads checks its sessions on lanes of their own, so that the
        // rules overlap with building the next sessions; a file read by one worker checks them on
        // the worker's thread.
        let stage = CheckStage(lanes: jobs > 1 ? jobs : 0, tally: TriageTally()) { s, t in sessions.take(s, into: &t) }
        var feed = SessionFeed(configuration: options.configuration, submit: stage.submit)
        defer { for t in stage.finish() { tally.merge(t) } }
        func finishInput(_ stats: InputStats, sessions: Int) {
            tally.inputs.append(TriageInput(stats: stats, sessions: sessions))
            if let error = stats.error { tally.unreadable.append(Unreadable(path: stats.path, reason: error)) }
        }
        if file.isArchive {
            let error = feed.readArchive(path: file.path, with: ingester, onInput: finishInput)
            if let error { tally.unreadable.append(Unreadable(path: ingest.shown(file.path), reason: error)) }
        } else {
            _ = feed.read(paths: [file.path], with: ingester, sessionsPerInput: true, onInput: finishInput)
        }
    }
}

/// Files handed out to workers in order (largest first).
private final class WorkQueue: @unchecked Sendable {
    private let files: [InputExpansion.File]
    private var next_ = 0
    private let lock = NSLock()
    init(_ files: [InputExpansion.File]) { self.files = files }
    func next() -> InputExpansion.File? {
        lock.lock()
        defer { lock.unlock() }
        guard next_ < files.count else { return nil }
        next_ += 1
        return files[next_ - 1]
    }
}

/// Each worker's tally, collected when it is done.
private final class Tallies: @unchecked Sendable {
    private var slots: [TriageTally?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ t: TriageTally) {
        lock.lock()
        slots[i] = t
        lock.unlock()
    }
    var all: [TriageTally] { slots.compactMap { $0 } }
}

/// Files and bytes done, reported after each file.
private final class ProgressCounter: @unchecked Sendable {
    private var progress: TriageProgress
    private let report: (@Sendable (TriageProgress) -> Void)?
    private let lock = NSLock()
    init(total: Int, bytes: Int64, report: (@Sendable (TriageProgress) -> Void)?) {
        progress = TriageProgress(filesDone: 0, filesTotal: total, bytesDone: 0, bytesTotal: bytes)
        self.report = report
    }
    func done(_ bytes: Int64) {
        guard let report else { return }
        lock.lock()
        progress.filesDone += 1
        progress.bytesDone += bytes
        let p = progress
        lock.unlock()
        report(p)
    }
}
