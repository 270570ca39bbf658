/// One event of a timeline with the state before and after it.
public struct TimelineEntry<State: Sendable & Equatable>: Sendable, Equatable {
    /// Index of the event in its session's `events`.
    public var event: Int
    public var before: State
    public var after: State

    public init(event: Int, before: State, after: State) {
        self.event = event
        self.before = before
        self.after = after
    }
}

/// The life of one scene object inside a process session.
public struct SceneTimeline: Sendable, Equatable {
    /// Stable within its session: `S1`, `S2`, … in order of first appearance.
    public var id: String
    public var address: String?
    public var persistentIdentifier: String?
    public var role: String?
    public var sceneClass: String?
    /// The delegate class that logged the callbacks, when no address identifies the scene.
    public var delegateClass: String?
    public var entries: [TimelineEntry<SceneState>]
    public var finalState: SceneState
    /// The first event was not `scene.willConnect` / `cp.didConnect`: the state before it is unknown.
    public var beginsMidLife: Bool
    /// Ids of earlier timelines of the same UISceneSession (same persistent identifier).
    public var previousLives: [String]
    /// Events of this scene, also after `ProcessSession.summarized()` dropped the entries.
    public var eventCount: Int = 0
    /// Set when callbacks that name no scene address cannot be attributed to one scene: another
    /// scene of the same delegate class connected while this one was live (two iPad windows whose
    /// `NSLog(@"%s", __PRETTY_FUNCTION__)` lines carry no pointer). From the entry at this position
    /// on, the timeline holds the callbacks of several scenes: their `before` states are unknown,
    /// and no per-scene ordering rule runs on them.
    public var indistinguishableFrom: Int?
    /// The scene was carried over from the part before (`ProcessSession.continuedFrom`): its
    /// life, and whatever it became there (indistinguishable from another), began earlier.
    public var carriedOver = false
    /// Scene objects whose callbacks this timeline holds: 1, or more once indistinguishable (the
    /// connections seen while one was live).
    public var sceneCount: Int = 1
    /// `.system` when the app logged no callback for this scene and the timeline holds only what
    /// FrontBoard said of it (`systemStates`; `entries` is empty and `finalState` unknown).
    public var source: TimelineSource = .app
    /// FrontBoard's scene identifier (`sceneID:com.example.App-default`), once a `system.sceneState`
    /// event of the scene came.
    public var sceneID: String?
    /// The system's states of this scene (`system.sceneState` events), in order, beside the app's
    /// own `entries`: for a timeline of the app's callbacks, what FrontBoard said at the same time
    /// (a rule can compare: `systemState(before:)`, `SystemSceneState.agrees(with:)`). Never in
    /// `entries`: the app-callback rules and the scene machine's tally read those only.
    public var systemStates: [TimelineEntry<SystemSceneState>] = []
    /// The system's last state of the scene, also after `ProcessSession.summarized()`.
    public var systemFinalState: SystemSceneState?
    /// `systemStates.count`, also after `ProcessSession.summarized()` dropped them.
    public var systemStateCount: Int = 0

    /// True when this timeline holds the callbacks of several scenes that cannot be told apart.
    public var isIndistinguishable: Bool { indistinguishableFrom != nil }
    /// The entries that are this one scene's: all of them, or those before several scenes came to
    /// share the timeline (what per-scene rules, transitions and times in state may use).
    public var ownEntries: ArraySlice<TimelineEntry<SceneState>> { entries.prefix(indistinguishableFrom ?? entries.count) }

    public var isCarPlay: Bool {
        role?.hasPrefix("CPTemplateApplication") == true || sceneClass?.hasPrefix("CPTemplateApplication") == true
    }

    /// The system's state of the scene when event `index` arrived: its latest `systemStates` entry
    /// before `index` (nil when the system said nothing of it before).
    public func systemState(before index: Int) -> SystemSceneState? {
        systemStates.last { $0.event < index }?.after
    }
}

/// A process as the system saw it: RunningBoard's (or SpringBoard's) states of it, in order, and
/// the kill line that ended it (`MachineDefinition.process`). Empty when the session has no
/// `system.processState` or `system.launch` event: the process timeline begins at the first of
/// them, and a kill line before it moves nothing (it stays a failure of the session only).
public struct ProcessTimeline: Sendable, Equatable {
    /// One entry per `system.processState` event that names a state this machine knows, and per
    /// ending (`failure.signal`, `.killed`, `.jetsam`, `.watchdog`) that is not the echo of one
    /// already reached.
    public var entries: [TimelineEntry<ProcessState>] = []
    /// The state after the last entry (or carried over from the part before); kept by `summarized()`.
    public var finalState: ProcessState = .unknown
    /// Index of the session's first `system.launch` event, when the trace shows the launch.
    public var launch: Int?
    /// The state was carried over from the part before (`ProcessSession.continuedFrom`).
    public var carriedOver = false
    /// `entries.count`, also after `summarized()` dropped them.
    public var eventCount = 0

    public init() {}

    /// The system has told of the process: a launch, a state, or a part before this one did.
    public var isTracked: Bool { launch != nil || !entries.isEmpty || eventCount > 0 || carriedOver }

    /// The first entry left the launch (`start`), not a state from before the trace.
    public var beginsAtLaunch: Bool {
        guard let launch, !carriedOver else { return false }
        return entries.first.map { launch < $0.event } ?? true
    }

    /// The process's state when event `index` arrived (its own entry's `before` for a state
    /// event), nil when no state was known by then.
    public func state(before index: Int) -> ProcessState? {
        var lo = 0, hi = entries.count   // first entry at or after `index`
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].event < index { lo = mid + 1 } else { hi = mid }
        }
        let s: ProcessState
        if lo < entries.count, entries[lo].event == index { s = entries[lo].before }
        else if lo > 0 { s = entries[lo - 1].after }
        else { s = entries.first?.before ?? finalState }   // before the first entry: what it arrived in
        return s == .unknown ? nil : s
    }
}

/// Where the main thread of a process was learned from.
public struct ThreadEvidence: Sendable, Equatable {
    public enum Kind: String, Sendable { case lifecycleCallback, mainThreadCheckerReport }
    public var tid: UInt64
    public var kind: Kind
    /// True when the evidence says this thread is the main thread, false when it says it is not.
    public var isMain: Bool
    public var file: String
    public var position: InputPosition
}

/// The main thread of a process and the evidence for it; conflicting evidence is kept, not hidden.
public struct MainThreadInference: Sendable, Equatable {
    public var tid: UInt64?
    /// Lifecycle callbacks seen on `tid` (UIKit delivers them on the main thread).
    public var supportingCallbacks: Int
    /// Evidence that disagrees: lifecycle callbacks on another thread (called by hand, off main), or
    /// a Main Thread Checker report naming `tid` as a background thread.
    public var conflicts: [ThreadEvidence]
    /// The first evidence of each kind, for the report.
    public var evidence: [ThreadEvidence]

    public static let none = MainThreadInference(tid: nil, supportingCallbacks: 0, conflicts: [], evidence: [])
}

/// One launch of an app: its events in order, one timeline per scene object, the app-level
/// timeline, and what is known about its threads.
public struct ProcessSession: Sendable, Equatable {
    /// Stable across runs on the same inputs: `P1`, `P2`, … in order of the first event.
    public var id: String
    public var process: String?
    public var pid: Int?
    /// The app's bundle ID, when the system's lines (or a report) name it.
    public var bundleID: String?
    /// Files the session's events come from, in order of appearance.
    public var files: [String]
    /// `app.willFinishLaunching` or `app.didFinishLaunching` was seen.
    public var launchSeen: Bool
    /// Why the process was launched, when the trace shows its launch and enough after it.
    public var launchKind: LaunchKind?
    public var events: [Event]
    public var app: [TimelineEntry<AppState>]
    public var scenes: [SceneTimeline]
    public var mainThread: MainThreadInference
    /// Said once each: the trace begins in the middle of the process's life, or ends with scenes
    /// still in the foreground (no violation is inferred from the history that is missing).
    public var beginsMidSession: Bool
    public var endsAbruptly: Bool
    /// What earlier launches of the same app (same process name) showed.
    public var earlier = EarlierLaunches()
    /// Order of the session's first event among all sessions (its id is `P<ordinal>`).
    public var ordinal: Int = 0
    /// Events and scene events, also after `summarized()` dropped them.
    public var eventCount: Int = 0
    /// The wall-clock time of the session's first timestamped event, as the log wrote it
    /// (`LogTimestamp.wallClock`); kept by `summarized()`.
    public var startedAt: String?
    /// The failure that ended the launch, where it stands in it; kept by `summarized()`.
    public var ending: SessionEnding?
    /// The session this one continues: that one reached `SessionOptions.maxEvents` events and was
    /// checked as a part of its own. This one begins where the cut was, in the middle of the
    /// process's life.
    public var continuedFrom: String?
    /// The session reached `SessionOptions.maxEvents` events: it was checked as one part, and its
    /// process goes on in the session that continues it. It ends where the cut was.
    public var continuesLater = false
    /// What the system said of the process: RunningBoard's states and the kill line that ended it.
    public var processTimeline = ProcessTimeline()

    /// The session without its events and timeline entries (what reports print once rules ran),
    /// so a long analysis holds only what it reports.
    public func summarized() -> ProcessSession {
        var s = self
        s.ending = s.ending ?? endingFailure()
        s.events = []
        s.app = []
        s.earlier = EarlierLaunches()  // per app, it grows with every launch before this one
        for i in s.scenes.indices {
            s.scenes[i].eventCount = s.scenes[i].entries.count
            s.scenes[i].entries = []
            s.scenes[i].systemStates = []
        }
        s.processTimeline.entries = []
        return s
    }

    /// The first failure that ends a process (a report, a kill, an uncaught exception, a Swift
    /// trap or a fatal signal), placed in the session: its time after the session's first timed
    /// event and the state the app or its scene in play was in. A report read with a log of the
    /// same process joins its session, so this is where the log and the report meet.
    public func endingFailure() -> SessionEnding? {
        guard let i = events.firstIndex(where: { SessionEnding.terminalKinds.contains($0.kind) }) else { return nil }
        let e = events[i]
        let start = events.lazy.compactMap { $0.timestamp?.seconds }.first
        let offset = e.timestamp?.seconds.flatMap { t in start.map { t - $0 } }
        return SessionEnding(kind: e.kind, message: e.message, file: e.file, position: e.position, offset: offset, state: context(at: i).state)
    }

    /// Events that repeat an ending already in the session: a device log reports one kill in up to
    /// three lines (the kernel's `memorystatus`, RunningBoard's `termination reported by launchd`,
    /// FrontBoard's `Process exited`), and a crash report's process also gets an exit line. An
    /// ending is a repeat when an earlier ending of the session lies within `echoWindow` seconds and
    /// one of the two is such a kill line. Rules and triage count the first only; the timeline
    /// keeps every line. Times of day without a date (a Console.app copy) are compared by the clock:
    /// an uncaught exception and RunningBoard's SIGABRT line 15 ms later are one ending there too.
    public func repeatedEndings() -> Set<Int> {
        var repeated: Set<Int> = []
        var last: (time: LogTimestamp, killLine: Bool)?
        for (i, e) in events.enumerated() where SessionEnding.terminalKinds.contains(e.kind) {
            guard let t = e.timestamp else { last = nil; continue }
            let killLine = e.isKillLine
            if let l = last, let d = t.interval(since: l.time), abs(d) <= SessionEnding.echoWindow, l.killLine || killLine {
                repeated.insert(i)
                continue
            }
            last = (t, killLine)
        }
        return repeated
    }

    /// How the launch looked at its end, for the next launch of the same app.
    var end: LaunchEnd? {
        guard let last = events.indices.last else { return nil }
        let c = context(at: last)
        return LaunchEnd(session: id, ended: events.contains { $0.kind == .appWillTerminate || $0.kind.isFailure },
                         sceneStates: scenes.map(\.finalState), file: events[last].file, position: events[last].position,
                         scene: c.scene?.id, state: c.state)
    }

    /// What the app was doing when event `index` arrived: the scene most recently in play and its
    /// state, or the app's state, for failures and reports that name no scene.
    public func context(at index: Int) -> (scene: SceneTimeline?, state: String?) {
        var best: (SceneTimeline, TimelineEntry<SceneState>)? = nil
        for scene in scenes {
            if let e = scene.entries.last(where: { $0.event <= index }), best == nil || e.event > best!.1.event { best = (scene, e) }
        }
        if let (scene, entry) = best { return (scene, entry.event == index ? entry.before.rawValue : entry.after.rawValue) }
        // An app callback arrives in the state before it, as a scene callback does.
        if let a = app.last(where: { $0.event <= index }) { return (nil, "app." + (a.event == index ? a.before : a.after).rawValue) }
        if let frames = events[index].details?.lifecycleFrames, let state = FramePlacement.state(frames: frames) { return (nil, state) }
        return (nil, launchSeen ? nil : SceneState.unknown.rawValue)
    }
}

/// The failure that ended a launch, placed in its session.
public struct SessionEnding: Sendable, Equatable {
    public var kind: EventKind
    public var message: String
    public var file: String
    public var position: InputPosition
    /// Seconds after the session's first timed event, when both times are known.
    public var offset: Double?
    /// The state of the app, or of its scene in play, when it happened.
    public var state: String?

    /// Failures that end the process.
    public static let terminalKinds: Set<EventKind> = [
        .crashReport, .watchdog, .jetsam, .killed, .exception, .swiftFatalError, .signal,
    ]
    /// Seconds within which kill lines and reports of one process tell of the same ending.
    public static let echoWindow = 10.0
}

/// The end of a launch: whether it was seen ending, its scenes' last states and its last event.
public struct LaunchEnd: Sendable, Equatable {
    public var session: String
    /// applicationWillTerminate or a failure was logged.
    public var ended: Bool
    public var sceneStates: [SceneState]
    public var file: String
    public var position: InputPosition
    /// The scene in play at the last event and its state (or the app's state).
    public var scene: String?
    public var state: String?
}

/// A summary of the earlier launches of an app, for rules that compare a launch with its past
/// (a session restored at relaunch, a callback the app is known to log).
public struct EarlierLaunches: Sendable, Equatable {
    /// Event kinds the earlier launches logged.
    public var kinds: Set<EventKind> = []
    /// Persistent identifiers of the scene sessions they used (in a released session: only those
    /// its own scenes use too, which is what a rule can ask about).
    public var persistentIdentifiers: Set<String> = []
    /// How the launch just before this one ended.
    public var previous: LaunchEnd?
    public init() {}

    mutating func add(_ s: ProcessSession) {
        addParts(s)
        previous = s.end
    }

    /// What a part of a launch cut at the event limit adds: its kinds and scene sessions, not how
    /// the launch ended (it goes on in the next part).
    mutating func addParts(_ s: ProcessSession) {
        // Insert only what is new: the sets are shared with the sessions handed out so far, and
        // an insert would copy them even when the element is already there.
        for i in s.events.indices where !kinds.contains(s.events[i].kind) { kinds.insert(s.events[i].kind) }
        for id in s.scenes.compactMap(\.persistentIdentifier) where !persistentIdentifiers.contains(id) { persistentIdentifiers.insert(id) }
    }

    /// What `session` may ask of these launches: the persistent identifiers narrowed to its scenes'.
    func narrowed(to session: ProcessSession) -> EarlierLaunches {
        var e = self
        e.persistentIdentifiers = Set(session.scenes.compactMap(\.persistentIdentifier).filter { persistentIdentifiers.contains($0) })
        return e
    }
}
