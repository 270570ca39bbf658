import LifelineCore
import LifelineRules

/// The one streaming path from events to checked sessions: events go into a session stream, and
/// each session that ends goes to the check stage (`submit`). Every mode reads through it: one
/// file, many files merged by time, a file read in ranges by several threads (the ingester merges
/// them in file order before they arrive here), each input of a triage file on its own, and live
/// input (`LiveAnalysis`).
public struct SessionFeed {
    /// The sessions being built (live ones can be looked at: `snapshot`, `liveOrdinals`).
    public private(set) var stream: SessionStream
    private let options: SessionOptions
    private let submit: ([ProcessSession]) -> Void
    /// Sessions ended since the current input began (of the apps followed).
    public private(set) var sessionsOfInput = 0
    /// Which apps get sessions checked (`AppSelection`): the others are only counted in `apps`.
    private let selection: AppSelection
    /// The apps the system's lines told of, followed or not.
    public private(set) var apps = AppsSeen()

    /// Sessions with `configuration`'s options; each batch of ended sessions goes to `submit` (a
    /// check stage's, usually), on the thread that feeds.
    public init(configuration: Configuration, submit: @escaping ([ProcessSession]) -> Void) {
        options = configuration.sessionOptions
        selection = configuration.apps
        stream = SessionStream(options: options)
        self.submit = submit
    }

    /// The next event, in the order of the input (or of the merge).
    @inline(__always)
    public mutating func add(_ event: Event) { take(stream.add(event)) }

    /// Ends every live session (the input, or the run, ended); returns how many sessions ended since
    /// the current input began, and starts counting anew. The stream can go on: a later event starts
    /// new sessions (sessions never span two inputs ended this way).
    @discardableResult
    public mutating func endInput() -> Int {
        take(stream.finish())
        stream = SessionStream(options: options)
        defer { sessionsOfInput = 0 }
        return sessionsOfInput
    }

    private mutating func take(_ ended: [ProcessSession]) {
        guard !ended.isEmpty else { return }
        var followed = ended
        followed.removeAll { s in
            let follows = selection.follows(s)
            if s.bundleID != nil { apps.add(s, followed: follows) }
            return !follows
        }
        guard !followed.isEmpty else { return }
        submit(followed)
        sessionsOfInput += followed.count
    }

    /// Reads `paths` with `ingester`: each input's accounting goes to `onInput` with the number of
    /// sessions it ended (0 unless `sessionsPerInput`). Returns problems of the reading itself.
    ///
    /// With `sessionsPerInput`, each input's sessions end with it (triage: sessions never span files).
    /// Otherwise one input streams straight into the sessions, and several are read each into a
    /// queue of its own, then merged by time (a k-way merge) into one stream, each event released
    /// as it is merged; the sessions end when the caller ends them (`endInput`).
    public mutating func read(paths: [String], with ingester: Ingester, sessionsPerInput: Bool,
                              onInput: (InputStats, Int) -> Void) -> [String] {
        if sessionsPerInput {
            ingester.run(paths: paths, onEvent: { add($0) }, onInput: { onInput($0, endInput()) })
            return []
        }
        if Ingester.inputCount(paths) == 1 {
            ingester.run(paths: paths, onEvent: { add($0) }, onInput: { onInput($0, 0) })
            return []
        }
        var merge = TimeMerge()
        ingester.run(paths: paths, onEvent: { merge.append($0) }, onInput: { onInput($0, 0) })
        while let event = merge.next() { add(event) }
        if let failure = merge.spillFailure { return ["inputs merged in memory: \(failure)"] }
        return []
    }

    /// Reads the log-like members of the tar archive at `path`, each member's sessions ending with it
    /// (as `read(sessionsPerInput: true)`). Returns why the archive could not be read to its end.
    public mutating func readArchive(path: String, with ingester: Ingester, onInput: (InputStats, Int) -> Void) -> String? {
        ingester.runArchive(path: path, onEvent: { add($0) }, onInput: { onInput($0, endInput()) })
    }
}
