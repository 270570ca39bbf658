/// How events are grouped into process sessions.
public struct SessionOptions: Sendable {
    /// The same process name and pid after a silence longer than this (seconds) is a new launch
    /// that reused the pid. Suspended apps keep their pid for hours, so the default is long.
    public var pidReuseGap: Double
    /// A session that reaches this many events is checked and released as one part, and its
    /// process goes on in a new session that continues it, as if the log had been cut there: what
    /// one session holds, and so memory and the cost of a check, stays bounded however long a
    /// process lives (`lifeline watch` on a day of `log stream`). Far above any one launch's
    /// lifecycle (a launch logs tens to thousands of lifecycle events).
    public var maxEvents: Int

    public init(pidReuseGap: Double = 12 * 3600, maxEvents: Int = SessionOptions.defaultMaxEvents) {
        self.pidReuseGap = pidReuseGap
        self.maxEvents = maxEvents
    }

    /// About 1 KB per event held: some 10 MB for a session at the limit.
    public static let defaultMaxEvents = 10_000

    /// Seconds of silence after which a launch marker on the same pid is a relaunch.
    static let relaunchSilence: Double = 600
}

/// Groups events into process sessions (one per launch) and builds each session's scene and app
/// timelines with the state before and after every event (lifecycle reference §1, §2).
///
/// - Inputs are merged by time when they have timestamps; each file keeps its own order even where
///   its timestamps go backwards.
/// - A session is one process (name and pid). A second launch marker (`willFinishLaunching` /
///   `didFinishLaunching` after one was seen) or a long silence on a reused pid starts a new session.
///   Events without a pid (bare `print` output) belong to the session the same file logged to last,
///   or to one session per file when the file has no pids at all.
/// - A scene is identified by its address; callbacks that name no address go to the only live scene
///   of their delegate class (or the only live scene), and CarPlay callbacks to the CarPlay scene of
///   their role. A scene session reconnecting with a new object starts a new timeline linked to the
///   old one by persistent identifier.
public enum SessionBuilder {
    /// All sessions of `events` (merged by time across files), in order of their first event.
    public static func build(_ events: [Event], options: SessionOptions = SessionOptions()) -> [ProcessSession] {
        var merge = TimeMerge(events)
        return build(&merge, options: options)
    }

    /// All sessions of the events of `merge`, in order of their first event; the merge is drained.
    public static func build(_ merge: inout TimeMerge, options: SessionOptions = SessionOptions()) -> [ProcessSession] {
        var stream = SessionStream(options: options)
        var sessions: [ProcessSession] = []
        while let event = merge.next() { sessions.append(contentsOf: stream.add(event)) }
        sessions.append(contentsOf: stream.finish())
        return sessions.sorted { $0.ordinal < $1.ordinal }
    }

    /// Merges the events of several files by time (see `TimeMerge`).
    static func mergedByTime(_ events: [Event]) -> [Event] {
        var merge = TimeMerge(events)
        guard merge.fileCount > 1 else { return events }
        var merged: [Event] = []
        merged.reserveCapacity(events.count)
        while let e = merge.next() { merged.append(e) }
        return merged
    }

    // MARK: One session under construction

    struct Builder {
        let key: String
        var process: String?
        var pid: Int?
        var files: [String] = []
        var events: [Event] = []
        var hasWillFinish = false
        var hasDidFinish = false
        /// The system told the launch (`system.launch`).
        var hasSystemLaunch = false
        /// The app's bundle ID, as the system or a report names it.
        var bundleID: String?
        /// The process is known to have ended (terminated, crashed, killed).
        var ended = false
        var lastTime: Double?
        /// `lastTime` is a time of day without a date (`LogTimestamp.isTimeOfDay`), on its input's
        /// own days: it is compared only with times like it.
        var lastTimeIsTimeOfDay = false
        /// The kinds of time the session's events have: 1, dates; 2, times of day without one.
        var timeKinds: UInt8 = 0
        /// Sequence number of the session's latest event in its stream.
        var lastSeq = 0
        /// The id of the session this one continues (that one reached `SessionOptions.maxEvents`).
        var continuedFrom: String?
        /// Launch markers seen in the parts before this one (a marker here is a relaunch only
        /// as it would have been in one session; this part itself shows no launch).
        var markersBefore = (will: false, did: false)
        /// The scene timelines and the app's timeline so far, kept as events arrive: a snapshot of
        /// a live session (each online check of `lifeline watch`) copies them instead of tracking
        /// every event again.
        var scenes = SceneTracker()
        var app: [TimelineEntry<AppState>] = []
        var appState: AppState = .unknown
        /// What the system said of the process so far (RunningBoard's states, the kill line).
        var processTimeline = ProcessTimeline()

        init(key: String) { self.key = key }

        /// A second launch marker starts a new launch. With a pid, only once the process ended
        /// (terminated, crashed) or fell silent for a while: one process cannot launch twice, so a
        /// marker out of order inside it is an ordering problem for the rules, not a new session.
        func startsNewLaunch(_ e: Event, pidKnown: Bool = true) -> Bool {
            let marker: Bool
            switch e.kind {
            // The system launches a process once: a second launch told of one session is a new
            // process (its pid, when known, already routed it elsewhere).
            case .systemLaunch: return hasSystemLaunch || ended
            // After the process ended (a crash, willTerminate) any launch marker is a relaunch,
            // even when this session began after its own launch.
            case .appWillFinishLaunching: marker = hasWillFinish || hasDidFinish || markersBefore.will || markersBefore.did || ended
            case .appDidFinishLaunching: marker = hasDidFinish || markersBefore.did || ended
            default: return false
            }
            guard marker, e.sessionPID != nil, pidKnown else { return marker }
            if ended { return true }
            if let silence = elapsed(until: e), silence > SessionOptions.relaunchSilence { return true }
            return false
        }

        func silenceExceeded(before e: Event, gap: Double) -> Bool {
            guard e.sessionPID != nil, let silence = elapsed(until: e) else { return false }
            return silence > gap
        }

        /// Seconds from the session's last time to `e`'s, when both are known and of one kind: a
        /// time of day without a date (a Console.app row) says nothing about how long before or
        /// after a dated line (an Xcode log of the same process) it was.
        func elapsed(until e: Event) -> Double? {
            guard let last = lastTime, let ts = e.timestamp, let t = ts.seconds, ts.isTimeOfDay == lastTimeIsTimeOfDay else { return nil }
            return t - last
        }

        mutating func add(_ e: Event) {
            if process == nil { process = e.sessionProcess }
            if pid == nil { pid = e.sessionPID }
            if !files.contains(e.file) { files.append(e.file) }
            if e.kind == .appWillFinishLaunching { hasWillFinish = true }
            if e.kind == .appDidFinishLaunching { hasDidFinish = true }
            if e.kind == .systemLaunch { hasSystemLaunch = true }
            if bundleID == nil { bundleID = e.subject?.bundleID ?? (e.format.isReport ? e.details?.bundleID : nil) }
            // Every failure but an assertion (which may be caught) ends the process.
            if e.kind == .appWillTerminate || (e.kind.isFailure && e.kind != .assertion) {
                ended = true
            }
            let processTarget = ProcessState.target(of: e)
            // RunningBoard says the process is gone.
            if processTarget == ProcessState.none { ended = true }
            if let ts = e.timestamp, let t = ts.seconds {
                lastTime = t
                lastTimeIsTimeOfDay = ts.isTimeOfDay
                timeKinds |= lastTimeIsTimeOfDay ? 2 : 1
            }
            if pid == nil { pid = e.namedPID }
            events.append(e)
            let i = events.count - 1
            if let target = AppState.target(of: e.kind) {
                app.append(TimelineEntry(event: i, before: appState, after: target))
                appState = target
            } else if SceneState.isSceneEvent(e.kind) {
                scenes.add(e, index: i)
            } else if e.kind == .systemSceneState {
                scenes.addSystem(e, index: i, launchSeen: processTimeline.launch != nil)
            } else if e.kind == .systemLaunch, processTimeline.launch == nil {
                processTimeline.launch = i
            }
            if let target = processTarget { addProcessState(target, event: e, index: i) }
        }

        /// Moves the process timeline: every state RunningBoard names, and a kill line once the
        /// system has told of the process (a launch or a state before it) unless the process
        /// already reached an ending (a second line telling the same kill).
        private mutating func addProcessState(_ target: ProcessState, event e: Event, index i: Int) {
            let before = processTimeline.finalState
            if e.kind.isFailure {
                guard processTimeline.isTracked, !before.isEnding else { return }
            }
            processTimeline.entries.append(TimelineEntry(event: i, before: before, after: target))
            processTimeline.finalState = target
        }

        /// What is kept of a part cut at the event limit until the part that continues it begins:
        /// its flags and its scenes' and app's states, without its events and timeline entries.
        func cutRemains() -> Builder {
            var cut = self
            cut.events = []
            cut.app = []
            cut.scenes = scenes.carriedOver()
            var told = ProcessTimeline()
            told.finalState = processTimeline.finalState
            told.carriedOver = processTimeline.isTracked
            cut.processTimeline = told
            return cut
        }

        /// Starts from the states the part `cut` (its `cutRemains()`) ended with, before this
        /// part's first event.
        mutating func continueFrom(_ cut: Builder) {
            precondition(events.isEmpty, "a part continues from its first event")
            scenes = cut.scenes
            appState = cut.appState
            processTimeline = cut.processTimeline
        }

        func finish(id: String) -> ProcessSession {
            // Times of day without a date among dated times (a Console.app copy read with an Xcode
            // log of the same process): their seconds cannot be set against the dates, so the
            // session's durations and gaps use the dated times only.
            var events = self.events
            if timeKinds == 3 {
                for i in events.indices where events[i].timestamp?.isTimeOfDay == true { events[i].timestamp?.seconds = nil }
            }
            let timelines = scenes.timelines()
            let launchSeen = hasWillFinish || hasDidFinish || hasSystemLaunch
            let hasLifecycle = events.contains { $0.kind.isLifecycleCallback }
            var told = processTimeline
            told.eventCount = told.entries.count
            return ProcessSession(
                // A process the system alone told of, and only by its bundle, goes by its bundle ID.
                id: id, process: process ?? (hasSystemLaunch || events.contains { $0.kind.isSystemLifecycle } ? bundleID : nil),
                pid: pid, bundleID: bundleID, files: files, launchSeen: launchSeen,
                launchKind: launchSeen ? LaunchKind.classify(events) : nil, events: events,
                app: app, scenes: timelines, mainThread: MainThreadInferrer.infer(events),
                beginsMidSession: hasLifecycle && !launchSeen && continuedFrom == nil,
                endsAbruptly: !ended && timelines.contains {
                    [.foregroundActive, .foregroundInactive, .unattached].contains($0.finalState)
                }, eventCount: events.count, startedAt: events.lazy.compactMap(\.timestamp).first?.wallClock,
                continuedFrom: continuedFrom, processTimeline: told)
        }
    }
}

/// Learns the main thread of a process from its events (reference §4.5).
enum MainThreadInferrer {
    static func infer(_ events: [Event]) -> MainThreadInference {
        // Indices, not `for e in events`: a loop variable would copy every event.
        var votes: [UInt64: Int] = [:]
        var firstOn: [UInt64: Int] = [:]
        for i in events.indices where events[i].kind.isLifecycleCallback {
            guard let tid = events[i].tid else { continue }
            votes[tid, default: 0] += 1
            if firstOn[tid] == nil { firstOn[tid] = i }
        }
        let checkerThreads = events.indices.compactMap { i -> ThreadEvidence? in
            guard events[i].kind == .mainThreadChecker, let tid = events[i].details?.reportedTID ?? events[i].tid else { return nil }
            return ThreadEvidence(tid: tid, kind: .mainThreadCheckerReport, isMain: false, file: events[i].file, position: events[i].position)
        }
        guard let (main, count) = votes.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }) else {
            return MainThreadInference(tid: nil, supportingCallbacks: 0, conflicts: [], evidence: Array(checkerThreads.prefix(1)))
        }
        var evidence: [ThreadEvidence] = []
        if let i = firstOn[main] { evidence.append(ThreadEvidence(tid: main, kind: .lifecycleCallback, isMain: true, file: events[i].file, position: events[i].position)) }
        evidence.append(contentsOf: checkerThreads.prefix(1))
        var conflicts: [ThreadEvidence] = []
        for i in events.indices where events[i].kind.isLifecycleCallback {
            if let tid = events[i].tid, tid != main {
                conflicts.append(ThreadEvidence(tid: tid, kind: .lifecycleCallback, isMain: true, file: events[i].file, position: events[i].position))
            }
        }
        conflicts.append(contentsOf: checkerThreads.filter { $0.tid == main })
        return MainThreadInference(tid: main, supportingCallbacks: count, conflicts: conflicts, evidence: evidence)
    }
}
