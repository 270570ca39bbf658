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

/// What a failure, threading report or configuration message says beyond its kind.
/// Only the fields that apply are set.
public struct EventDetails: Sendable, Equatable, Codable {
    /// Objective-C exception name (`NSInternalInconsistencyException`) or C++ type.
    public var exceptionName: String?
    /// Exception reason, Swift fatal error message, or assertion description.
    public var reason: String?
    /// The method an assertion fired in (`-[UIApplication _run…]`).
    public var method: String?
    /// Source file and line named by an assertion or Swift trap.
    public var sourceFile: String?
    public var sourceLine: Int?
    /// Swift trap prefix: `Fatal error`, `Precondition failed`, `Assertion failed`.
    public var trap: String?
    /// The API a threading report names (`-[UIApplication applicationState]`).
    public var api: String?
    /// Main Thread Checker: the reporting process and thread.
    public var reportedPID: Int?
    /// Main Thread Checker: the (background) thread it caught, decimal.
    public var reportedTID: UInt64?
    public var threadName: String?
    public var queueName: String?
    public var qos: Int?
    /// Backtrace or stack lines attached to the record, as written (trimmed).
    public var backtrace: [String]?
    /// UIKit scene configuration name from `(looking for configuration named "…")`.
    public var configurationName: String?
    /// Signal name or number (`SIGABRT`, `9`).
    public var signal: String?
    /// Crash reports.
    public var exceptionType: String?
    public var exceptionCodes: String?
    public var terminationReason: String?
    public var watchdogEvent: String?
    public var crashedThread: Int?
    public var crashedThreadIsMain: Bool?
    public var crashedThreadQueue: String?
    public var lifecycleFrames: [String]?
    public var appFrames: [String]?
    public var bundleID: String?
    public var osVersion: String?
    /// True when an exception was caught and ignored by the system (`Ignored Exception:`).
    public var ignored: Bool?
    /// The record was cut at the per-record limit.
    public var truncated: Bool?

    public init() {}
}

/// One normalized event: a lifecycle callback, a failure, a threading report or a UIKit
/// configuration message, with where it came from.
public struct Event: Sendable, Equatable {
    /// Input path as given (or `-` for standard input).
    public var file: String
    /// 1-based number of the record's first line.
    public var line: Int
    /// Number of input lines the record spans.
    public var lineCount: Int
    public var format: LogFormat
    public var kind: EventKind
    public var timestamp: LogTimestamp?
    public var process: String?
    public var pid: Int?
    /// Thread id in decimal (hex ids of `log` styles and Xcode metadata are converted).
    public var tid: UInt64?
    public var level: String?
    public var subsystem: String?
    public var category: String?
    /// Class that logged or owns the callback (`SceneDelegate`, `MyApp.SceneDelegate`).
    public var className: String?
    /// The callback as written (`-[SceneDelegate sceneDidBecomeActive:]`, `sceneDidBecomeActive(_:)`).
    public var spelling: String?
    public var scene: SceneRef?
    /// The record's message (first line, without header); multi-line records keep their other
    /// lines in `details.backtrace` or here, joined with newlines, up to the record limit.
    public var message: String
    /// Failure, threading and configuration specifics. Stored in a shared immutable box: most events
    /// have none, and an event passes through several functions, each copy of it small.
    public var details: EventDetails? {
        get { detailsBox?.value }
        set { detailsBox = newValue.map(DetailsBox.init) }
    }
    private var detailsBox: DetailsBox?

    public init(file: String, line: Int, lineCount: Int = 1, format: LogFormat, kind: EventKind, message: String) {
        self.file = file
        self.line = line
        self.lineCount = lineCount
        self.format = format
        self.kind = kind
        self.message = message
    }
}

extension Event {
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
