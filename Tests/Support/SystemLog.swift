import LifelineCore

/// A device log built event by event for the tests of issue 30's system events: the app's own
/// lines (process `Comet`, pid 812, timed one second apart) and the system's lines about it
/// (logged by SpringBoard or runningboardd, their subject the app), made as the classifier makes
/// them, so sessions, rules and diagrams can be tested before and apart from the reader.
public struct SystemLog: Sendable {
    public static let bundle = "com.example.comet"
    public static let sceneID = "sceneID:com.example.comet-default"

    public var events: [Event] = []
    public var pid = 812
    public var file: String

    public init(file: String = "device.log") { self.file = file }

    private mutating func append(_ e: Event) {
        var e = e
        e.timestamp = LogTimestamp(iso: "t\(events.count)", seconds: Double(events.count), hasOffset: true)
        events.append(e)
    }

    /// One of the app's own lines (`scene.willConnect`, `app.didFinishLaunching`, …).
    public mutating func app(_ kind: String, scene address: String? = "0xA1", persistentID: String? = nil) {
        var e = Event(file: file, line: events.count + 1, format: .console, kind: EventKind(kind), message: kind)
        e.process = "Comet"
        e.pid = pid
        e.tid = 7
        if address != nil || persistentID != nil { e.scene = SceneRef(address: address, persistentIdentifier: persistentID) }
        append(e)
    }

    /// A system event about the app, its `SystemDetails` filled by `fill`.
    public mutating func system(_ kind: EventKind, logger: String = "SpringBoard", _ fill: (inout SystemDetails) -> Void = { _ in }) {
        var e = Event(file: file, line: events.count + 1, format: .console, kind: kind, message: "\(kind.rawValue) of \(Self.bundle)")
        e.process = logger
        e.pid = 55
        e.subject = Subject(bundleID: Self.bundle, pid: pid, process: "Comet")
        var details = EventDetails()
        var system = SystemDetails()
        fill(&system)
        details.system = system
        e.details = details
        append(e)
    }

    public mutating func launch(intent: String? = "foreground-interactive", trigger: String? = "icon") {
        system(.systemLaunch) { $0.intent = intent; $0.trigger = trigger }
    }

    public mutating func process(_ state: String?, role: String? = nil, taskState: String? = nil) {
        system(.systemProcessState, logger: "runningboardd") { $0.state = state; $0.role = role; $0.taskState = taskState }
    }

    public mutating func scene(_ state: String, id: String? = SystemLog.sceneID) {
        system(.systemSceneState) { $0.state = state; $0.sceneID = id }
    }

    /// A kill line about the app (`failure.jetsam`, `.killed`, `.signal`, `.watchdog`).
    public mutating func kill(_ kind: EventKind, message: String = "killed") {
        var e = Event(file: file, line: events.count + 1, format: .console, kind: kind, message: message)
        e.process = "runningboardd"
        e.pid = 33
        e.subject = Subject(bundleID: Self.bundle, pid: pid, process: "Comet")
        append(e)
    }

    /// The sessions of the log.
    public func sessions(maxEvents: Int = SessionOptions.defaultMaxEvents) -> [ProcessSession] {
        SessionBuilder.build(events, options: SessionOptions(maxEvents: maxEvents))
    }
}
