/// Canonical event ids. Lifecycle callbacks use the ids of the lifecycle reference (§1.4):
/// every spelling of one callback (Objective-C selector, Swift `#function`, `Type.method`) maps to
/// one id. The other families are failures, threading reports and UIKit configuration messages.
public struct EventKind: RawRepresentable, Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: String
    /// `app`, `scene`, `windowScene`, `cp`, `failure`, `thread` or `config` (computed once).
    public let family: String
    public init(rawValue: String) {
        self.rawValue = rawValue
        family = String(rawValue.prefix { $0 != "." })
    }
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
    public static func == (a: EventKind, b: EventKind) -> Bool { a.rawValue == b.rawValue }
    public func hash(into h: inout Hasher) { h.combine(rawValue) }
    public init(from decoder: Decoder) throws { self.init(rawValue: try decoder.singleValueContainer().decode(String.self)) }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
    public var description: String { rawValue }
    public static func < (a: EventKind, b: EventKind) -> Bool { a.rawValue < b.rawValue }

    public var isFailure: Bool { family == "failure" }
    public var isThreading: Bool { family == "thread" }
    public var isLifecycleCallback: Bool { ["app", "scene", "windowScene", "cp"].contains(family) }

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
