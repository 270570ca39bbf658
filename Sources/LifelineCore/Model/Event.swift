/// A scene as a log line identifies it (from a description such as
/// `<UIWindowScene: 0x…; role: …; persistentIdentifier: …; activationState: …>`).
public struct SceneRef: Sendable, Equatable, Codable {
    public var sceneClass: String?
    public var address: String?
    public var persistentIdentifier: String?
    public var role: String?
    public var activationState: String?

    public init(sceneClass: String? = nil, address: String? = nil, persistentIdentifier: String? = nil,
                role: String? = nil, activationState: String? = nil) {
        self.sceneClass = sceneClass
        self.address = address
        self.persistentIdentifier = persistentIdentifier
        self.role = role
        self.activationState = activationState
    }

    public var isEmpty: Bool {
        sceneClass == nil && address == nil && persistentIdentifier == nil && role == nil && activationState == nil
    }
}

/// One normalized event: a lifecycle callback, a failure, a threading report or a UIKit
/// configuration message, with where it came from.
///
/// A value type over one shared, copy-on-write storage object: a session holds every event of its
/// launch and rules, timelines and steps pass events around, so copying an event costs one
/// reference count, and an array of events holds one pointer per event, whatever the fields.
public struct Event: Sendable, Equatable {
    private var storage: Storage

    public init(file: String, position: InputPosition, extent: Int = 1, format: LogFormat, kind: EventKind, message: String) {
        storage = Storage(file: file, position: position, extent: extent, format: format, kind: kind, message: message)
    }

    /// An event of a text record: lines `line ..< line + lineCount`.
    public init(file: String, line: Int, lineCount: Int = 1, format: LogFormat, kind: EventKind, message: String) {
        self.init(file: file, position: .line(line), extent: lineCount, format: format, kind: kind, message: message)
    }

    /// Input path as given (or `-` for standard input).
    public var file: String {
        get { storage.file }
        set { unique(); storage.file = newValue }
    }
    /// Where the record starts: its first line (text inputs) or byte offset (binary inputs).
    public var position: InputPosition {
        get { storage.position }
        set { unique(); storage.position = newValue }
    }
    /// How much of the input the record spans: lines for a line position, bytes for a byte offset.
    public var extent: Int {
        get { storage.extent }
        set { unique(); storage.extent = newValue }
    }
    public var format: LogFormat {
        get { storage.format }
        set { unique(); storage.format = newValue }
    }
    public var kind: EventKind {
        get { storage.kind }
        set { unique(); storage.kind = newValue }
    }
    public var timestamp: LogTimestamp? {
        get { storage.timestamp }
        set { unique(); storage.timestamp = newValue }
    }
    public var process: String? {
        get { storage.process }
        set { unique(); storage.process = newValue }
    }
    public var pid: Int? {
        get { storage.pid }
        set { unique(); storage.pid = newValue }
    }
    /// The app the line is about when another process logged it (a kill line's killed app); nil when
    /// the line is about its own process. `process`, `pid` and `tid` stay the logger's.
    public var subject: Subject? {
        get { storage.subject }
        set { unique(); storage.subject = newValue }
    }
    /// Thread id in decimal (hex ids of `log` styles and Xcode metadata are converted).
    public var tid: UInt64? {
        get { storage.tid }
        set { unique(); storage.tid = newValue }
    }
    public var level: String? {
        get { storage.level }
        set { unique(); storage.level = newValue }
    }
    public var subsystem: String? {
        get { storage.subsystem }
        set { unique(); storage.subsystem = newValue }
    }
    public var category: String? {
        get { storage.category }
        set { unique(); storage.category = newValue }
    }
    /// Class that logged or owns the callback (`SceneDelegate`, `MyApp.SceneDelegate`).
    public var className: String? {
        get { storage.className }
        set { unique(); storage.className = newValue }
    }
    /// The callback as written (`-[SceneDelegate sceneDidBecomeActive:]`, `sceneDidBecomeActive(_:)`).
    public var spelling: String? {
        get { storage.spelling }
        set { unique(); storage.spelling = newValue }
    }
    public var scene: SceneRef? {
        get { storage.scene }
        set { unique(); storage.scene = newValue }
    }
    /// The record's message (first line, without header); multi-line records keep their other
    /// lines in `details.backtrace` or here, joined with newlines, up to the record limit.
    public var message: String {
        get { storage.message }
        set { unique(); storage.message = newValue }
    }
    /// Failure, threading and configuration specifics. Stored in a shared immutable box: most events
    /// have none, and an event passes through several functions, each copy of it small.
    public var details: EventDetails? {
        get { storage.details?.value }
        set { unique(); storage.details = newValue.map(DetailsBox.init) }
    }

    /// Before a change: a storage object shared with another copy is copied first.
    @inline(__always) private mutating func unique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    public static func == (a: Event, b: Event) -> Bool {
        a.storage === b.storage || a.storage.sameFields(as: b.storage)
    }

    /// The fields of an event. Mutated only through `Event`'s setters, after `unique()`.
    private final class Storage: @unchecked Sendable {
        var file: String
        var position: InputPosition
        var extent: Int
        var format: LogFormat
        var kind: EventKind
        var timestamp: LogTimestamp?
        var process: String?
        var pid: Int?
        var subject: Subject?
        var tid: UInt64?
        var level: String?
        var subsystem: String?
        var category: String?
        var className: String?
        var spelling: String?
        var scene: SceneRef?
        var message: String
        var details: DetailsBox?

        init(file: String, position: InputPosition, extent: Int, format: LogFormat, kind: EventKind, message: String) {
            self.file = file
            self.position = position
            self.extent = extent
            self.format = format
            self.kind = kind
            self.message = message
        }

        func copy() -> Storage {
            let c = Storage(file: file, position: position, extent: extent, format: format, kind: kind, message: message)
            c.timestamp = timestamp
            c.process = process
            c.pid = pid
            c.subject = subject
            c.tid = tid
            c.level = level
            c.subsystem = subsystem
            c.category = category
            c.className = className
            c.spelling = spelling
            c.scene = scene
            c.details = details
            return c
        }

        func sameFields(as o: Storage) -> Bool {
            file == o.file && position == o.position && extent == o.extent && format == o.format && kind == o.kind
                && timestamp == o.timestamp && process == o.process && pid == o.pid && subject == o.subject && tid == o.tid
                && level == o.level && subsystem == o.subsystem && category == o.category
                && className == o.className && spelling == o.spelling && scene == o.scene
                && message == o.message && details == o.details
        }
    }
}

extension Event {
    /// A device-log line about another process's end (a kill or exit line: the event's subject is
    /// the killed process, not the logging daemon), as opposed to a report or the process's own line.
    public var isKillLine: Bool {
        subject?.pid != nil && !format.isReport && kind.isFailure
    }

    /// Copies the header fields of the record the event came from (a category the classifier
    /// found in the message wins over the header's).
    mutating func takeHeader(of r: RecordText) {
        timestamp = r.timestamp
        process = r.process
        pid = r.pid
        tid = r.tid
        level = r.level
        subsystem = r.subsystem
        if category == nil { category = r.category }
    }
}

/// Holds an event's details by reference (replaced, never mutated).
final class DetailsBox: Sendable, Equatable {
    let value: EventDetails
    init(_ value: EventDetails) { self.value = value }
    static func == (a: DetailsBox, b: DetailsBox) -> Bool { a === b || a.value == b.value }
}
