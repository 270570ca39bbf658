import LifelineCore

/// The app version, OS version and device model a failure was seen on. Crash, jetsam and MetricKit
/// reports carry them; a log line gets them from a report of its own session (`Release.of(_:)`).
public struct Release: Sendable, Hashable {
    /// Which app the version is of: the bundle identifier, else the process name. Versions are
    /// compared only within one app.
    public var app: String?
    public var appVersion: String?
    public var osVersion: String?
    public var device: String?

    public init(app: String? = nil, appVersion: String? = nil, osVersion: String? = nil, device: String? = nil) {
        self.app = app
        self.appVersion = appVersion
        self.osVersion = osVersion
        self.device = device
    }

    /// What an event says of itself, each field filled from `fallback` where the event is silent.
    public static func of(_ e: Event, fallback: Release = Release()) -> Release {
        let d = e.details
        return Release(app: d?.bundleID ?? e.subject?.bundleID ?? fallback.app ?? e.attributedProcess,
                       appVersion: d?.appVersion ?? fallback.appVersion,
                       osVersion: d?.osVersion.map(osVersion) ?? fallback.osVersion,
                       device: d?.deviceModel ?? fallback.device)
    }

    /// What a session's reports say: for each field, the first event that carries it.
    public static func of(session events: [Event]) -> Release {
        var r = Release()
        for e in events {
            guard let d = e.details else { continue }
            if r.app == nil { r.app = d.bundleID ?? e.subject?.bundleID }
            if r.appVersion == nil { r.appVersion = d.appVersion }
            if r.osVersion == nil { r.osVersion = d.osVersion.map(osVersion) }
            if r.device == nil { r.device = d.deviceModel }
            if r.app != nil && r.appVersion != nil && r.osVersion != nil && r.device != nil { break }
        }
        if r.app == nil { r.app = events.lazy.compactMap(\.attributedProcess).first }
        return r
    }

    /// The OS version without its build, so that builds of one release group together:
    /// `iPhone OS 16.0 (20A362)` → `iPhone OS 16.0`, `iOS 17.2.1 (21C66)` → `iOS 17.2.1`.
    static func osVersion(_ s: String) -> String {
        var t = Substring(s)
        if let open = t.lastIndex(of: "("), t.hasSuffix(")") { t = t[..<open] }
        while t.last == " " { t.removeLast() }
        return t.isEmpty ? s : String(t)
    }

    public func value(_ dimension: ReleaseDimension) -> String? {
        switch dimension {
        case .version: appVersion
        case .os: osVersion
        case .device: device
        }
    }
}

/// What `triage --group-by` breaks the ranking down by.
public enum ReleaseDimension: String, Sendable, CaseIterable {
    /// The app version (`CFBundleShortVersionString`).
    case version
    /// The OS version, without its build.
    case os
    /// The device model code (`iPhone14,2`).
    case device

    /// How a heading names it.
    public var noun: String {
        switch self {
        case .version: "app version"
        case .os: "OS"
        case .device: "device"
        }
    }
}

/// Counts per value of one dimension; occurrences whose value is not known are counted apart.
/// Merging adds counts, so it is associative and commutative.
public struct Distribution: Sendable, Equatable {
    public private(set) var counts: [String: Int] = [:]
    public private(set) var unknown = 0

    public init() {}

    public mutating func add(_ value: String?, count n: Int = 1) {
        if let value { counts[value, default: 0] += n } else { unknown += n }
    }

    public mutating func merge(_ other: Distribution) {
        for (v, n) in other.counts { counts[v, default: 0] += n }
        unknown += other.unknown
    }

    public var isEmpty: Bool { counts.isEmpty }

    /// Most frequent first; ties in value order (versions by `VersionOrder`).
    public func ranked(versions: Bool = false) -> [(value: String, count: Int)] {
        counts.map { ($0.key, $0.value) }.sorted {
            if $0.count != $1.count { return $0.count > $1.count }
            return versions ? VersionOrder.less($1.value, $0.value) : $0.value < $1.value
        }
    }

    /// Values oldest version first.
    public var versionsAscending: [String] { counts.keys.sorted(by: VersionOrder.less) }

    /// "2.1 ×12, 2.0 ×3, unknown ×1".
    public func summary(versions: Bool = false) -> String {
        var parts = ranked(versions: versions).map { "\($0.value) ×\($0.count)" }
        if unknown > 0 { parts.append("unknown ×\(unknown)") }
        return parts.joined(separator: ", ")
    }
}

/// Orders version strings as people read them: numeric parts numerically (`2.10` after `2.9`),
/// other parts as text, a shorter prefix first (`2.1` before `2.1.1`).
public enum VersionOrder {
    public static func less(_ a: String, _ b: String) -> Bool {
        let x = parts(a), y = parts(b)
        for (p, q) in zip(x, y) where p != q {
            switch (p, q) {
            case let (.number(m), .number(n)): return m < n
            case (.number, .text): return true
            case (.text, .number): return false
            case let (.text(s), .text(t)): return s < t
            }
        }
        return x.count != y.count ? x.count < y.count : a < b
    }

    enum Part: Equatable {
        case number(Int)
        case text(String)
    }

    static func parts(_ s: String) -> [Part] {
        var out: [Part] = []
        var digits = ""
        var other = ""
        func flush() {
            if !digits.isEmpty { out.append(Int(digits.prefix(18)).map(Part.number) ?? .text(digits)); digits = "" }
            if !other.isEmpty { out.append(.text(other)); other = "" }
        }
        for ch in s {
            if ch == "." || ch == " " || ch == "-" || ch == "(" || ch == ")" { flush(); continue }
            if ch.isASCII && ch.isNumber {
                if !other.isEmpty { flush() }
                digits.append(ch)
            } else {
                if !digits.isEmpty { flush() }
                other.append(ch)
            }
        }
        flush()
        return out
    }
}

/// A signature's spread over releases: one distribution per dimension.
public struct ReleaseSpread: Sendable, Equatable {
    public var versions = Distribution()
    public var osVersions = Distribution()
    public var devices = Distribution()
    /// The known app versions per app (bundle id or process), for comparing versions of one app.
    public var versionsByApp: [String: Distribution] = [:]

    public init() {}

    mutating func add(_ r: Release) {
        versions.add(r.appVersion)
        osVersions.add(r.osVersion)
        devices.add(r.device)
        if let app = r.app, let v = r.appVersion { versionsByApp[app, default: Distribution()].add(v) }
    }

    mutating func merge(_ other: ReleaseSpread) {
        versions.merge(other.versions)
        osVersions.merge(other.osVersions)
        devices.merge(other.devices)
        for (app, d) in other.versionsByApp { versionsByApp[app, default: Distribution()].merge(d) }
    }

    public subscript(_ dimension: ReleaseDimension) -> Distribution {
        switch dimension {
        case .version: versions
        case .os: osVersions
        case .device: devices
        }
    }

    /// The oldest and newest app versions it was seen in.
    public var firstVersion: String? { versions.versionsAscending.first }
    public var lastVersion: String? { versions.versionsAscending.last }
}

/// One value of a `--group-by` breakdown: its sessions and the signatures seen there, ranked.
public struct ReleaseGroup: Sendable {
    /// The version, OS or device; `nil` for the occurrences where it is not known.
    public var value: String?
    /// Sessions of this value in the input set.
    public var sessions: Int
    /// Signatures seen with this value and how often, most frequent first.
    public var signatures: [(signature: SignatureStats, count: Int)]
}

extension TriageResult {
    /// The app version a signature first appeared in, when the input set holds sessions of an
    /// earlier version in which it never occurred: a regression of that version.
    public func newInVersion(_ s: SignatureStats) -> String? {
        // Per app (versions of different apps do not compare); the oldest such version if several.
        var found: [String] = []
        for (app, seen) in s.releases.versionsByApp {
            guard let first = seen.versionsAscending.first,
                  let all = sessionReleases.versionsByApp[app],
                  all.counts.keys.contains(where: { VersionOrder.less($0, first) }) else { continue }
            found.append(first)
        }
        return found.min(by: VersionOrder.less)
    }

    /// The ranking broken down by one dimension: newest version or OS first (devices by sessions),
    /// occurrences whose value is not known last.
    public func groups(by dimension: ReleaseDimension) -> [ReleaseGroup] {
        var values = Set(sessionReleases[dimension].counts.keys)
        var unknown = sessionReleases[dimension].unknown > 0
        for s in signatures {
            values.formUnion(s.releases[dimension].counts.keys)
            if s.releases[dimension].unknown > 0 { unknown = true }
        }
        let sessions = sessionReleases[dimension].counts
        let ordered: [String]
        switch dimension {
        case .version, .os: ordered = values.sorted { VersionOrder.less($1, $0) }
        case .device: ordered = values.sorted { (sessions[$0] ?? 0, $1) > (sessions[$1] ?? 0, $0) }
        }
        var groups: [ReleaseGroup] = ordered.map { v in
            ReleaseGroup(value: v, sessions: sessions[v] ?? 0,
                         signatures: signatures.compactMap { s in s.releases[dimension].counts[v].map { (s, $0) } })
        }
        if unknown {
            groups.append(ReleaseGroup(value: nil, sessions: sessionReleases[dimension].unknown,
                                       signatures: signatures.compactMap { s in
                                           let n = s.releases[dimension].unknown
                                           return n > 0 ? (s, n) : nil
                                       }))
        }
        // Within a group: most frequent first, then the overall rank (stable, deterministic).
        let rank = Dictionary(uniqueKeysWithValues: signatures.enumerated().map { ($1.signature.id, $0) })
        for i in groups.indices {
            groups[i].signatures.sort {
                $0.count != $1.count ? $0.count > $1.count : rank[$0.signature.signature.id]! < rank[$1.signature.signature.id]!
            }
        }
        return groups
    }
}
