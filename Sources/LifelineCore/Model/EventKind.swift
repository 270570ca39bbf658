import Foundation

/// Canonical event ids. Lifecycle callbacks use the ids of the lifecycle reference (§1.4):
/// every spelling of one callback (Objective-C selector, Swift `#function`, `Type.method`) maps to
/// one id. The other families are failures, threading reports and UIKit configuration messages.
public struct EventKind: RawRepresentable, Hashable, @unchecked Sendable, Comparable, Codable, CustomStringConvertible {
    /// The kind's interned description, made once per raw value and never freed: a kind is one
    /// pointer, copied without reference counting (every event and timeline entry carries one).
    private let info: Unmanaged<KindInfo>

    public var rawValue: String { info._withUnsafeGuaranteedRef { $0.rawValue } }
    /// `app`, `scene`, `windowScene`, `cp`, `failure`, `thread` or `config` (computed once).
    public var family: String { info._withUnsafeGuaranteedRef { $0.family } }
    /// A UIApplication, UIScene, UIWindowScene or CarPlay callback (worked out once: rules and the
    /// session builder ask for every event).
    public var isLifecycleCallback: Bool { info._withUnsafeGuaranteedRef { $0.isLifecycleCallback } }
    /// The same number for the same raw value within a run: comparing and hashing kinds (which
    /// sessions and rules do for every event) compares integers, not strings.
    private var id: Int32 { info._withUnsafeGuaranteedRef { $0.id } }

    public init(rawValue: String) {
        info = KindNumbers.shared.info(for: rawValue)
    }
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
    public static func == (a: EventKind, b: EventKind) -> Bool { a.id == b.id }
    public func hash(into h: inout Hasher) { h.combine(id) }
    public init(from decoder: Decoder) throws { self.init(rawValue: try decoder.singleValueContainer().decode(String.self)) }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
    public var description: String { rawValue }
    public static func < (a: EventKind, b: EventKind) -> Bool { a.rawValue < b.rawValue }

    public var isFailure: Bool { family == "failure" }
    public var isThreading: Bool { family == "thread" }

    // Failures (reference §5).
    public static let assertion = EventKind("failure.assertion")
    public static let exception = EventKind("failure.exception")
    public static let swiftFatalError = EventKind("failure.swiftFatalError")
    public static let signal = EventKind("failure.signal")
    public static let crashReport = EventKind("failure.crashReport")
    public static let watchdog = EventKind("failure.watchdog")
    /// Killed by the system for memory (a jetsam report, or a `memorystatus` kill in a device log).
    public static let jetsam = EventKind("failure.jetsam")
    /// Killed without a crash report (RunningBoard, FrontBoard, launchd or the debugger saying so),
    /// for a reason other than memory or the watchdog.
    public static let killed = EventKind("failure.killed")
    /// A resource report: CPU use or disk writes over the system's limit (the process may live on).
    public static let resourceLimit = EventKind("failure.resourceLimit")
    /// The main thread did not respond for a while (a hang report or a MetricKit hang diagnostic).
    public static let hang = EventKind("failure.hang")
    /// A slow launch (a MetricKit app launch diagnostic).
    public static let slowLaunch = EventKind("failure.slowLaunch")
    // Threading (reference §4).
    public static let mainThreadChecker = EventKind("thread.mainThreadChecker")
    public static let offMainCompletion = EventKind("thread.offMainCompletion")
    public static let mainThreadRequired = EventKind("thread.mainThreadRequired")
    public static let backgroundPublish = EventKind("thread.backgroundPublish")
    public static let mainThreadIO = EventKind("thread.mainThreadIO")
    // UIKit configuration messages (reference §5.3, §2.4).
    public static let sceneConfiguration = EventKind("config.sceneConfiguration")
    public static let sceneLifecycleNotAdopted = EventKind("config.sceneLifecycleNotAdopted")
    public static let uikitClientBug = EventKind("config.uikitClientBug")
    // What the system says of an app (`Documentation/SystemEvents.md`): events of the app (their
    // subject), not of the daemon that logged them.
    public static let systemLaunch = EventKind("system.launch")
    public static let systemProcessState = EventKind("system.processState")
    public static let systemSceneState = EventKind("system.sceneState")

    /// One of the system's lifecycle events (`system.*`).
    public var isSystemLifecycle: Bool { self == .systemLaunch || self == .systemProcessState || self == .systemSceneState }
}

/// What a kind is, worked out once per raw value.
private final class KindInfo: @unchecked Sendable {
    let rawValue: String
    let family: String
    let isLifecycleCallback: Bool
    let id: Int32

    init(rawValue: String, id: Int32) {
        self.rawValue = rawValue
        family = String(rawValue.prefix { $0 != "." })
        isLifecycleCallback = ["app", "scene", "windowScene", "cp"].contains(family)
        self.id = id
    }
}

/// Interns raw kind values, numbered in order of first use (the catalogue's kinds, then markers).
/// Kinds are made when the catalogue and rules load and when a marker is named, not per log line,
/// so one lock is enough. The table keeps every `KindInfo` alive for the life of the process.
private final class KindNumbers: @unchecked Sendable {
    static let shared = KindNumbers()
    private let lock = NSLock()
    private var infos: [String: KindInfo] = [:]

    func info(for raw: String) -> Unmanaged<KindInfo> {
        lock.lock()
        defer { lock.unlock() }
        if let known = infos[raw] { return Unmanaged.passUnretained(known) }
        let made = KindInfo(rawValue: raw, id: Int32(infos.count))
        infos[raw] = made
        return Unmanaged.passUnretained(made)
    }
}
