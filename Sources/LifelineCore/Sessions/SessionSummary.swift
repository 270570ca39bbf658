/// What the `analyze` reports print of a session once its rules ran: no events, no timelines.
/// Small enough to spill (`ExternalSort`) when a log has hundreds of thousands of sessions.
public struct SessionSummary: Sendable, Equatable {
    public struct Scene: Sendable, Equatable {
        public var id: String
        public var address: String?
        public var persistentIdentifier: String?
        public var role: String?
        public var delegateClass: String?
        public var finalState: String
        public var beginsMidLife: Bool
        public var eventCount: Int
        /// Scene objects the timeline holds: more than 1 when their callbacks cannot be told apart.
        public var sceneCount: Int = 1
        /// `SceneTimeline.source`, `.sceneID` and `.systemFinalState`: what the system said of the scene.
        public var source: TimelineSource = .app
        public var sceneID: String?
        public var systemFinalState: String?
    }

    public var id: String
    public var ordinal: Int
    public var process: String?
    public var pid: Int?
    public var bundleID: String?
    public var files: [String]
    public var launchSeen: Bool
    public var launchKind: LaunchKind?
    public var eventCount: Int
    public var beginsMidSession: Bool
    public var endsAbruptly: Bool
    /// `ProcessSession.continuedFrom` and `.continuesLater`: a part of a session cut at the event limit.
    public var continuedFrom: String?
    public var continuesLater = false
    public var mainThread: UInt64?
    public var mainThreadCallbacks: Int
    public var mainThreadConflicts: Int
    public var scenes: [Scene]
    /// The process's last state as the system told it (`ProcessTimeline.finalState`), when the
    /// session has a process timeline.
    public var processState: String?

    public init(_ s: ProcessSession) {
        id = s.id
        ordinal = s.ordinal
        process = s.process
        pid = s.pid
        bundleID = s.bundleID
        files = s.files
        launchSeen = s.launchSeen
        launchKind = s.launchKind
        eventCount = s.eventCount
        beginsMidSession = s.beginsMidSession
        endsAbruptly = s.endsAbruptly
        continuedFrom = s.continuedFrom
        continuesLater = s.continuesLater
        mainThread = s.mainThread.tid
        mainThreadCallbacks = s.mainThread.supportingCallbacks
        mainThreadConflicts = s.mainThread.conflicts.count
        scenes = s.scenes.map {
            Scene(id: $0.id, address: $0.address, persistentIdentifier: $0.persistentIdentifier, role: $0.role,
                  delegateClass: $0.delegateClass, finalState: $0.finalState.rawValue, beginsMidLife: $0.beginsMidLife,
                  eventCount: $0.eventCount, sceneCount: $0.sceneCount, source: $0.source, sceneID: $0.sceneID,
                  systemFinalState: $0.systemFinalState?.rawValue)
        }
        let process = s.processTimeline
        processState = process.isTracked ? process.finalState.rawValue : nil
    }

    /// What the reports say of a part of a session cut at the event limit, if this is one.
    public var partNotes: [String] { ProcessSession.partNotes(continuedFrom: continuedFrom, continuesLater: continuesLater) }

    /// Scene objects seen: timelines, counting each one that holds several indistinguishable
    /// scenes as the number of them.
    public var sceneObjects: Int { scenes.reduce(0) { $0 + $1.sceneCount } }

    /// About the bytes the summary holds in memory (for spill budgets).
    public var estimatedSize: Int {
        var n = 160 + id.utf8.count + (process?.utf8.count ?? 0)
        for f in files { n += 16 + f.utf8.count }
        n += scenes.count * 160
        return n
    }
}

extension SessionSummary: SpillCodable {
    public func encode(to w: inout SpillWriter) {
        w.string(id)
        w.int(ordinal)
        w.optional(process)
        w.optional(pid)
        w.optional(bundleID)
        w.uint(UInt64(files.count))
        for f in files { w.string(f) }
        w.bool(launchSeen)
        w.optional(launchKind?.rawValue)
        w.int(eventCount)
        w.bool(beginsMidSession)
        w.bool(endsAbruptly)
        w.optional(continuedFrom)
        w.bool(continuesLater)
        w.bool(mainThread != nil)
        if let mainThread { w.uint(mainThread) }
        w.int(mainThreadCallbacks)
        w.int(mainThreadConflicts)
        w.uint(UInt64(scenes.count))
        for s in scenes {
            w.string(s.id)
            w.optional(s.address)
            w.optional(s.persistentIdentifier)
            w.optional(s.role)
            w.optional(s.delegateClass)
            w.string(s.finalState)
            w.bool(s.beginsMidLife)
            w.int(s.eventCount)
            w.int(s.sceneCount)
            w.bool(s.source == .system)
            w.optional(s.sceneID)
            w.optional(s.systemFinalState)
        }
        w.optional(processState)
    }

    public static func decode(from r: inout SpillReader) -> SessionSummary {
        var s = SessionSummary(empty: ())
        s.id = r.string()
        s.ordinal = r.int()
        s.process = r.optionalString()
        s.pid = r.optionalInt()
        s.bundleID = r.optionalString()
        s.files = (0..<r.uint()).map { _ in r.string() }
        s.launchSeen = r.bool()
        s.launchKind = r.optionalString().flatMap(LaunchKind.init(rawValue:))
        s.eventCount = r.int()
        s.beginsMidSession = r.bool()
        s.endsAbruptly = r.bool()
        s.continuedFrom = r.optionalString()
        s.continuesLater = r.bool()
        s.mainThread = r.bool() ? r.uint() : nil
        s.mainThreadCallbacks = r.int()
        s.mainThreadConflicts = r.int()
        s.scenes = (0..<r.uint()).map { _ in
            Scene(id: r.string(), address: r.optionalString(), persistentIdentifier: r.optionalString(), role: r.optionalString(),
                  delegateClass: r.optionalString(), finalState: r.string(), beginsMidLife: r.bool(), eventCount: r.int(),
                  sceneCount: r.int(), source: r.bool() ? .system : .app, sceneID: r.optionalString(), systemFinalState: r.optionalString())
        }
        s.processState = r.optionalString()
        return s
    }

    private init(empty: Void) {
        id = ""; ordinal = 0; process = nil; pid = nil; files = []; launchSeen = false; eventCount = 0
        beginsMidSession = false; endsAbruptly = false; mainThread = nil; mainThreadCallbacks = 0
        mainThreadConflicts = 0; scenes = []
    }
}

extension ProcessSession {
    /// What the reports say of a part of a session cut at the event limit, if this is one.
    public var partNotes: [String] { Self.partNotes(continuedFrom: continuedFrom, continuesLater: continuesLater) }

    static func partNotes(continuedFrom: String?, continuesLater: Bool) -> [String] {
        var notes: [String] = []
        if let from = continuedFrom { notes.append("continues \(from), which reached the session event limit; scene states carry over") }
        if continuesLater {
            notes.append("reached the session event limit (thresholds.session-events): checked as one part; the process goes on in the next session")
        }
        return notes
    }
}
