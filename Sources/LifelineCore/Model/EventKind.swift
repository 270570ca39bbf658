import Foundation

/// Canonical event ids. Lifecycle callbacks use the ids of the lifecycle reference (§1.4):
/// every spelling of one callback (Objective-C selector, Swift `#function`, `Type.method`) maps to
/// one id. The other families are failures, threading reports and UIKit configuration messages.
public struct EventKind: RawRepresentable, Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: String
    /// `app`, `scene`, `windowScene`, `cp`, `failure`, `thread` or `config` (computed once).
    public let family: String
    /// A UIApplication, UIScene, UIWindowScene or CarPlay callback (worked out once: rules and the
    /// session builder ask for every event).
    public let isLifecycleCallback: Bool
    /// The same number for the same raw value within a run: comparing and hashing kinds (which
    /// sessions and rules do for every event) compares integers, not strings.
    private let id: Int32
    public init(rawValue: String) {
        self.rawValue = rawValue
        family = String(rawValue.prefix { $0 != "." })
        isLifecycleCallback = ["app", "scene", "windowScene", "cp"].contains(family)
        id = KindNumbers.shared.number(for: rawValue)
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
}

/// Numbers raw kind values in order of first use (the catalogue's kinds, then markers). Kinds are
/// made when the catalogue and rules load and when a marker is named, not per log line, so one
/// lock is enough.
private final class KindNumbers: @unchecked Sendable {
    static let shared = KindNumbers()
    private let lock = NSLock()
    private var numbers: [String: Int32] = [:]

    func number(for raw: String) -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        if let n = numbers[raw] { return n }
        let n = Int32(numbers.count)
        numbers[raw] = n
        return n
    }
}
