import CPCRE2

/// A named pattern for an app-specific event (`window-created`, `root-template-set`), configured by
/// the user. A record that is no other event and whose message matches becomes a `marker.<name>`
/// event, which the timeline shows and some rules wait for.
public struct Marker: Sendable {
    public let name: String
    public let pattern: Pattern

    public init(name: String, pattern: Pattern) {
        self.name = name
        self.pattern = pattern
    }

    public var kind: EventKind { .marker(name) }
}

/// Markers in the order they are tried (the first that matches names the event).
public struct MarkerSet: Sendable {
    public let markers: [Marker]

    public init(_ markers: [Marker]) { self.markers = markers }

    public static let none = MarkerSet([])
    public var isEmpty: Bool { markers.isEmpty }

    /// PCRE2 work limits for user patterns: a catastrophic pattern gives up on a line instead of
    /// running for minutes (the give-up is reported).
    public static let matchLimit: UInt32 = 1_000_000
    public static let depthLimit: UInt32 = 10_000
}

extension EventKind {
    static let markerPrefix = "marker."
    /// The event kind of the marker called `name` (`marker.window-created`).
    public static func marker(_ name: String) -> EventKind { EventKind(rawValue: markerPrefix + name) }
    public var isMarker: Bool { family == "marker" }
    /// `window-created` for `marker.window-created`.
    public var markerName: String? { isMarker ? String(rawValue.dropFirst(Self.markerPrefix.count)) : nil }
}

/// Matches a message against the markers with bounded work.
final class MarkerMatcher {
    let set: MarkerSet
    private let scratch: MatchScratch
    /// The marker that gave up (match or depth limit) on the last message, if any.
    private(set) var gaveUp: String?

    init(_ set: MarkerSet) {
        self.set = set
        scratch = MatchScratch(pairs: 1, matchLimit: MarkerSet.matchLimit, depthLimit: MarkerSet.depthLimit)
    }

    func match(_ message: String) -> Marker? {
        gaveUp = nil
        var text = message
        return text.withUTF8 { buf -> Marker? in
            for m in set.markers {
                scratch.lastError = 0
                if m.pattern.matches(buf, scratch: scratch) { return m }
                if scratch.lastError != 0, gaveUp == nil { gaveUp = m.name }
            }
            return nil
        }
    }
}
