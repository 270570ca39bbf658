import Foundation
import LifelineCore
import LifelineRules

/// A partial triage result: everything a run over some inputs tallied, as one JSON document that
/// merges exactly with others (`lifeline triage --partial`, `lifeline triage merge`). Merging the
/// partials of any split of the inputs, in any order or grouping, gives the result of one run over
/// all of them: every part is a count, a set, a minimum or a maximum.
///
/// Version 1 holds each signature's file list and the per-input rows whole; the settings that
/// change results are kept as `settings`, and partials made with different ones do not merge.
public struct TriagePartial: Sendable {
    public static let formatVersion = 1
    /// What changes results, by name: Lifeline's version, the rules and their severities, the
    /// configuration file, the minimum severity, a forced input format.
    public var settings: [String: String]
    var tally: TriageTally

    /// The settings of a run with `options` (the configuration file's text, if any, as a hash).
    public static func settings(_ options: TriageOptions) -> [String: String] {
        let c = options.configuration
        var config = "defaults"
        if let path = c.path, let data = FileManager.default.contents(atPath: path) {
            config = SignatureHash.fnv1a64Prefix(String(decoding: data, as: UTF8.self))
        }
        let rules = options.rules.map { r -> String in
            let d = r.description
            return "\(d.id):\(c.severities[d.id] ?? d.severity)"
        }.sorted()
        return [
            "lifeline": LifelineVersion.current,
            "rules": rules.joined(separator: ","),
            "configuration": config,
            "minSeverity": options.minimumSeverity.description,
            "inputFormat": options.inputFormat?.rawValue ?? "auto",
        ]
    }

    /// The result the partial stands for (as `Triage.run` makes it).
    public var result: TriageResult { Triage.result(of: tally) }

    /// Merges `others` into this one.
    /// - Throws: `PartialError` naming the first setting that differs.
    public mutating func merge(_ other: TriagePartial) throws {
        for key in Set(settings.keys).union(other.settings.keys).sorted() where settings[key] != other.settings[key] {
            throw PartialError("partials made with different settings cannot be merged: \(key) is '\(settings[key] ?? "-")' in one and '\(other.settings[key] ?? "-")' in the other")
        }
        tally.merge(other.tally)
    }

    // MARK: JSON

    /// The partial as JSON. With `inputRows`, one row per input (the report lists them); without,
    /// their sums only, so the document does not grow with the number of inputs.
    public func json(inputRows: Bool = false) -> String {
        var w = JSONWriter()
        w.beginObject()
        var totals = tally.extraInputs
        if !inputRows { for i in tally.inputs { totals.add(i) } }
        w.key("inputTotals")
        w.beginObject()
        w.field("bytes", totals.bytes)
        w.field("count", totals.count)
        w.field("events", totals.events)
        w.key("formats")
        w.beginObject()
        for (f, n) in totals.formats.sorted(by: { $0.key < $1.key }) { w.key(named: f); w.int(n) }
        w.endObject()
        w.field("lines", totals.lines)
        w.field("sessions", totals.sessions)
        w.field("unrecognizedLines", totals.unrecognizedLines)
        w.endObject()
        w.key("inputs")
        w.beginArray()
        for i in (inputRows ? tally.inputs : []).sorted(by: { $0.path < $1.path }) {
            i.write(to: &w)
        }
        w.endArray()
        w.field("lifelinePartial", Self.formatVersion)
        w.key("releases")
        Self.write(tally.releases, to: &w)
        w.key("settings")
        w.beginObject()
        for (k, v) in settings.sorted(by: { $0.key < $1.key }) { w.key(named: k); w.string(v) }
        w.endObject()
        w.key("signatures")
        w.beginArray()
        for s in tally.signatures.values.sorted(by: { $0.signature.id < $1.signature.id }) { Self.write(s, to: &w) }
        w.endArray()
        // Capped lists, the first in path order, and how many there are in all.
        func list(_ key: String, _ items: [Unreadable], count: Int) {
            w.key(named: key)
            w.beginArray()
            for u in items.sorted(by: { ($0.path, $0.reason) < ($1.path, $1.reason) }).prefix(TriageResult.listLimit) {
                w.beginObject()
                w.field("path", u.path)
                w.field("reason", u.reason)
                w.endObject()
            }
            w.endArray()
            w.key(named: key + "Count")
            w.int(count)
        }
        list("skipped", tally.skipped, count: tally.skipped.count + tally.extraSkipped)
        w.key("transitions")
        tally.transitions.write(to: &w)
        list("unreadable", tally.unreadable, count: tally.unreadable.count + tally.extraUnreadable)
        w.endObject()
        return w.text + "\n"
    }

    /// Reads a partial written by `json()`.
    /// - Throws: `PartialError` with what is wrong (not JSON, another version, a missing field).
    public init(json data: Data, name: String) throws {
        guard let doc = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw PartialError("\(name): not a partial triage result (not a JSON object)")
        }
        guard let version = doc["lifelinePartial"] as? Int else {
            throw PartialError("\(name): not a partial triage result (no lifelinePartial version; make one with `lifeline triage --partial`)")
        }
        guard version == Self.formatVersion else {
            throw PartialError("\(name): partial format \(version), this Lifeline reads \(Self.formatVersion)")
        }
        func fail(_ what: String) -> PartialError { PartialError("\(name): malformed partial triage result: \(what)") }
        guard let settings = doc["settings"] as? [String: String] else { throw fail("settings") }
        self.settings = settings
        var tally = TriageTally()
        for i in doc["inputs"] as? [[String: Any]] ?? [] {
            guard let path = i["path"] as? String else { throw fail("an input without a path") }
            tally.inputs.append(TriageInput(path: path, format: (i["format"] as? String).flatMap(LogFormat.init(rawValue:)),
                                            lines: i["lines"] as? Int ?? 0, events: i["events"] as? Int ?? 0,
                                            sessions: i["sessions"] as? Int ?? 0, bytes: (i["bytes"] as? NSNumber)?.int64Value ?? 0,
                                            unrecognizedLines: i["unrecognizedLines"] as? Int ?? 0))
        }
        if let t = doc["inputTotals"] as? [String: Any] {
            var totals = InputTotals()
            totals.count = t["count"] as? Int ?? 0
            totals.lines = t["lines"] as? Int ?? 0
            totals.events = t["events"] as? Int ?? 0
            totals.bytes = (t["bytes"] as? NSNumber)?.int64Value ?? 0
            totals.sessions = t["sessions"] as? Int ?? 0
            totals.unrecognizedLines = t["unrecognizedLines"] as? Int ?? 0
            totals.formats = t["formats"] as? [String: Int] ?? [:]
            tally.extraInputs = totals
        }
        for s in doc["signatures"] as? [[String: Any]] ?? [] {
            let stats = try Self.signature(s, fail: fail)
            tally.signatures[stats.signature.id] = stats
        }
        for (key, list) in [("skipped", \TriageTally.skipped), ("unreadable", \TriageTally.unreadable)] {
            for u in doc[key] as? [[String: Any]] ?? [] {
                guard let path = u["path"] as? String, let reason = u["reason"] as? String else { throw fail(key) }
                tally[keyPath: list].append(Unreadable(path: path, reason: reason))
            }
        }
        tally.extraSkipped = max(0, (doc["skippedCount"] as? Int ?? tally.skipped.count) - tally.skipped.count)
        tally.extraUnreadable = max(0, (doc["unreadableCount"] as? Int ?? tally.unreadable.count) - tally.unreadable.count)
        guard let transitions = TransitionTally.read(doc["transitions"]) else { throw fail("transitions") }
        tally.transitions = transitions
        tally.releases = try Self.releases(doc["releases"], fail: fail)
        self.tally = tally
    }

    init(settings: [String: String], tally: TriageTally) {
        self.settings = settings
        self.tally = tally
    }

    // MARK: Parts

    static func write(_ s: SignatureStats, to w: inout JSONWriter) {
        w.beginObject()
        w.field("count", s.count)
        w.key("example")
        write(s.example, to: &w)
        // A capped sample, the smallest names; the rest by count (each input is in one partial).
        w.field("fileCount", s.fileCount)
        w.field("files", s.fileSample)
        if let t = s.firstSeen { w.key("firstSeen"); write(t, to: &w) }
        w.field("key", s.signature.key)
        w.field("kind", s.signature.kind.rawValue)
        if let t = s.lastSeen { w.key("lastSeen"); write(t, to: &w) }
        w.key("phases")
        w.beginObject()
        for (p, n) in s.phases.sorted(by: { $0.key < $1.key }) { w.key(named: p.rawValue); w.int(n) }
        w.endObject()
        w.key("releases")
        write(s.releases, to: &w)
        w.field("rules", s.rules.sorted())
        w.field("sessions", s.sessionCount)
        w.field("severity", s.severity.description)
        w.field("title", s.signature.title)
        if !s.variants.isEmpty {
            w.key("variants")
            w.beginObject()
            for (v, n) in s.variants.sorted(by: { $0.key < $1.key }) { w.key(named: v); w.int(n) }
            w.endObject()
        }
        w.endObject()
    }

    static func signature(_ s: [String: Any], fail: (String) -> PartialError) throws -> SignatureStats {
        guard let kind = (s["kind"] as? String).flatMap(SignatureKind.init(rawValue:)), let key = s["key"] as? String,
              let title = s["title"] as? String, let severity = (s["severity"] as? String).flatMap(Severity.named),
              let example = occurrence(s["example"]) else { throw fail("a signature without kind, key, title, severity or example") }
        var stats = SignatureStats(signature: Signature(kind: kind, key: key, title: title), severity: severity, example: example)
        stats.count = s["count"] as? Int ?? 0
        stats.files = Set(s["files"] as? [String] ?? [])
        stats.extraFiles = max(0, (s["fileCount"] as? Int ?? stats.files.count) - stats.files.count)
        stats.sessionCount = s["sessions"] as? Int ?? 0
        stats.firstSeen = timestamp(s["firstSeen"])
        stats.lastSeen = timestamp(s["lastSeen"])
        for (p, n) in s["phases"] as? [String: Int] ?? [:] {
            guard let phase = FailurePhase(rawValue: p) else { throw fail("phase '\(p)'") }
            stats.phases[phase] = n
        }
        stats.rules = Set(s["rules"] as? [String] ?? [])
        stats.releases = try releases(s["releases"], fail: fail)
        stats.variants = s["variants"] as? [String: Int] ?? [:]
        return stats
    }

    static func write(_ o: Occurrence, to w: inout JSONWriter) {
        w.beginObject()
        w.field("excerpt", o.excerpt)
        w.field("file", o.file)
        w.field("line", o.position.line)
        w.field("offset", o.position.byteOffset)
        if let t = o.time { w.key("time"); write(t, to: &w) }
        w.endObject()
    }

    static func occurrence(_ any: Any?) -> Occurrence? {
        guard let o = any as? [String: Any], let file = o["file"] as? String else { return nil }
        let position: InputPosition
        if let line = o["line"] as? Int { position = .line(line) } else if let offset = o["offset"] as? Int { position = .byte(offset) } else { return nil }
        return Occurrence(file: file, position: position, time: timestamp(o["time"]), excerpt: o["excerpt"] as? String ?? "")
    }

    /// A time with everything merging compares: the text as written and the seconds (full precision).
    static func write(_ t: LogTimestamp, to w: inout JSONWriter) {
        w.beginObject()
        w.field("hasOffset", t.hasOffset)
        w.field("iso", t.iso)
        w.field("offsetMinutes", t.offsetMinutes)
        if let s = t.seconds { w.key("seconds"); w.raw("\(s)") }
        w.field("yearInferred", t.yearInferred)
        w.endObject()
    }

    static func timestamp(_ any: Any?) -> LogTimestamp? {
        guard let t = any as? [String: Any], let iso = t["iso"] as? String else { return nil }
        return LogTimestamp(iso: iso, seconds: JSONNumber.double(t["seconds"]), hasOffset: t["hasOffset"] as? Bool ?? false,
                            yearInferred: t["yearInferred"] as? Bool ?? false, offsetMinutes: t["offsetMinutes"] as? Int)
    }

    static func write(_ r: ReleaseSpread, to w: inout JSONWriter) {
        func distribution(_ d: Distribution) {
            w.beginObject()
            w.key("counts")
            w.beginObject()
            for (v, n) in d.counts.sorted(by: { $0.key < $1.key }) { w.key(named: v); w.int(n) }
            w.endObject()
            w.field("unknown", d.unknown)
            w.endObject()
        }
        w.beginObject()
        w.key("byApp")
        w.beginObject()
        for (app, d) in r.versionsByApp.sorted(by: { $0.key < $1.key }) { w.key(named: app); distribution(d) }
        w.endObject()
        w.key("devices"); distribution(r.devices)
        w.key("osVersions"); distribution(r.osVersions)
        w.key("versions"); distribution(r.versions)
        w.endObject()
    }

    static func releases(_ any: Any?, fail: (String) -> PartialError) throws -> ReleaseSpread {
        guard let r = any as? [String: Any] else { throw fail("releases") }
        func distribution(_ any: Any?) throws -> Distribution {
            guard let d = any as? [String: Any], let counts = d["counts"] as? [String: Int] else { throw fail("a distribution") }
            var out = Distribution()
            for (v, n) in counts { out.add(v, count: n) }
            out.add(nil, count: d["unknown"] as? Int ?? 0)
            return out
        }
        var spread = ReleaseSpread()
        spread.versions = try distribution(r["versions"])
        spread.osVersions = try distribution(r["osVersions"])
        spread.devices = try distribution(r["devices"])
        for (app, d) in r["byApp"] as? [String: Any] ?? [:] { spread.versionsByApp[app] = try distribution(d) }
        return spread
    }
}

/// A partial result that cannot be read or merged, and why.
public struct PartialError: Error, CustomStringConvertible, Equatable {
    public var description: String
    init(_ description: String) { self.description = description }
}
