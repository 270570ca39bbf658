import Foundation
import LifelineCore
import LifelineRules

/// The JSON contract of `lifeline triage --format json` (fields may be added, none renamed):
/// `{"inputs":[{path, format, lines, events}], "signatures":[{id, kind, title, severity, count,
/// files, sessions, firstSeen, lastSeen, states, example:{file, line, excerpt}, appVersions, osVersions,
/// devices, firstVersion, lastVersion, newInVersion}], "releases":{appVersions, osVersions, devices},
/// "groups":[{by, value, sessions, signatures:[{id, rank, count}]}] (with --group-by),
/// "unreadable":[{path, reason}], "skipped":[{path, reason}] (files found in a directory and not read)}`, signatures ranked most frequent first. A distribution is
/// `[{value, count}]`, most frequent first, with `value: null` for occurrences where it is unknown.
public enum TriageJSON {
    public static func render(_ r: TriageResult, groupBy: ReleaseDimension? = nil) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.key("gone")
        w.beginArray()
        if r.baseline != nil {
            for g in r.gone {
                w.beginObject()
                w.field("count", g.count)
                w.field("id", g.id)
                w.field("kind", g.kind)
                w.field("severity", g.severity)
                w.field("title", g.title)
                w.endObject()
            }
        }
        w.endArray()
        if let groupBy {
            let rank = Dictionary(uniqueKeysWithValues: r.signatures.enumerated().map { ($1.signature.id, $0 + 1) })
            w.key("groups")
            w.beginArray()
            for g in r.groups(by: groupBy) {
                w.beginObject()
                w.field("by", groupBy.rawValue)
                w.field("sessions", g.sessions)
                w.key("signatures")
                w.beginArray()
                for (s, n) in g.signatures {
                    w.beginObject()
                    w.field("count", n)
                    w.field("id", s.signature.id)
                    w.field("rank", rank[s.signature.id])
                    w.endObject()
                }
                w.endArray()
                w.key("value")
                if let v = g.value { w.string(v) } else { w.raw("null") }
                w.endObject()
            }
            w.endArray()
        }
        w.key("inputs")
        w.beginArray()
        for i in r.inputs {
            i.write(to: &w)
        }
        w.endArray()
        if r.baseline != nil {
            // The signatures new since the baseline, in rank order (each is also in `signatures`,
            // with `status: "new"`): what a CI job reports first.
            w.key("new")
            w.beginArray()
            for s in r.newSignatures() {
                w.beginObject()
                w.field("count", s.count)
                w.key("example")
                w.beginObject()
                w.field("file", s.example.file)
                w.field("line", s.example.position.line)
                w.field("offset", s.example.position.byteOffset)
                w.endObject()
                w.field("id", s.signature.id)
                w.field("kind", s.signature.kind.rawValue)
                w.field("severity", s.severity.description)
                w.field("title", s.signature.title)
                w.endObject()
            }
            w.endArray()
        }
        w.key("releases")
        w.beginObject()
        distribution(&w, "appVersions", r.sessionReleases.versions, versions: true)
        distribution(&w, "devices", r.sessionReleases.devices)
        distribution(&w, "osVersions", r.sessionReleases.osVersions, versions: true)
        w.endObject()
        w.key("signatures")
        w.beginArray()
        for (rank, s) in r.signatures.enumerated() {
            w.beginObject()
            distribution(&w, "appVersions", s.releases.versions, versions: true)
            w.field("count", s.count)
            w.key("example")
            w.beginObject()
            w.field("excerpt", s.example.excerpt)
            w.field("file", s.example.file)
            w.field("line", s.example.position.line)
            w.field("offset", s.example.position.byteOffset)
            w.endObject()
            distribution(&w, "devices", s.releases.devices)
            w.field("fileCount", s.fileCount)
            w.field("files", s.fileSample)
            w.field("firstSeen", s.firstSeen?.iso)
            w.field("firstVersion", s.releases.firstVersion)
            w.field("id", s.signature.id)
            w.field("key", s.signature.key)
            w.field("kind", s.signature.kind.rawValue)
            w.field("lastSeen", s.lastSeen?.iso)
            w.field("lastVersion", s.releases.lastVersion)
            w.field("newInVersion", r.newInVersion(s))
            distribution(&w, "osVersions", s.releases.osVersions, versions: true)
            w.field("rank", rank + 1)
            w.field("rules", s.rules.sorted())
            w.field("sessions", s.sessionCount)
            w.field("severity", s.severity.description)
            w.key("states")
            w.beginObject()
            for (p, n) in s.phases.sorted(by: { $0.key < $1.key }) { w.key(named: p.rawValue); w.int(n) }
            w.endObject()
            w.field("statesSummary", s.phaseSummary)
            w.field("status", r.baseline?[s.signature.id]?.rawValue)
            w.field("title", s.signature.title)
            if !s.variants.isEmpty {
                w.key("variants")
                w.beginArray()
                for (v, n) in s.rankedVariants {
                    w.beginObject()
                    w.field("count", n)
                    w.field("value", v)
                    w.endObject()
                }
                w.endArray()
            }
            w.endObject()
        }
        w.endArray()
        w.key("summary")
        w.beginObject()
        w.field("bytes", r.totalBytes)
        w.field("events", r.totalEvents)
        w.field("inputs", r.inputCount)
        w.field("lines", r.totalLines)
        w.field("occurrences", r.signatures.reduce(0) { $0 + $1.count })
        w.field("sessions", r.totalSessions)
        w.field("signatures", r.signatures.count)
        w.field("skipped", r.skippedCount)
        w.field("unreadable", r.unreadableCount)
        w.endObject()
        for (key, list) in [("skipped", r.skipped), ("unreadable", r.unreadable)] {
            w.key(named: key)
            w.beginArray()
            for u in list {
                w.beginObject()
                w.field("path", u.path)
                w.field("reason", u.reason)
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
        return w.text + "\n"
    }

    /// `[{"count":12,"value":"2.1"}, …, {"count":1,"value":null}]`.
    static func distribution(_ w: inout JSONWriter, _ name: StaticString, _ d: Distribution, versions: Bool = false) {
        w.key(name)
        w.beginArray()
        for (v, n) in d.ranked(versions: versions) {
            w.beginObject()
            w.field("count", n)
            w.field("value", v)
            w.endObject()
        }
        if d.unknown > 0 {
            w.beginObject()
            w.field("count", d.unknown)
            w.key("value")
            w.raw("null")
            w.endObject()
        }
        w.endArray()
    }
}

/// The ranked table for a terminal: one block per signature, what it is, how often, where the
/// app was when it happened, and one example.
public enum TriageText {
    public static func render(_ r: TriageResult, limit: Int? = nil, width: Int = 120, groupBy: ReleaseDimension? = nil) -> String {
        var out = summaryLine(r) + "\n"
        if r.baseline != nil {
            let new = r.newSignatureLines()
            out += new.isEmpty ? "\nnothing new since the baseline\n" : "\nnew since the baseline (\(new.count)):\n" + new.map { "  \($0)\n" }.joined()
        }
        let shown = limit.map { Array(r.signatures.prefix($0)) } ?? r.signatures
        if shown.isEmpty {
            out += "\nno failures, and no findings at or above the minimum severity\n"
        } else {
            out += "\n" + table(r, shown.map { ($0, $0.count) }, width: width)
            if shown.count < r.signatures.count {
                out += "\n… and \(r.signatures.count - shown.count) more signatures (--limit, or --format json for all)\n"
            }
        }
        if let groupBy, !r.signatures.isEmpty {
            for g in r.groups(by: groupBy) {
                let name = g.value.map { "\(groupBy.noun) \(oneLine($0))" } ?? "\(groupBy.noun) unknown"
                let occurrences = g.signatures.reduce(0) { $0 + $1.count }
                out += "\n\(name): \(grouped(g.sessions)) session\(g.sessions == 1 ? "" : "s"), "
                out += "\(grouped(occurrences)) occurrence\(occurrences == 1 ? "" : "s")\n"
                let rows = limit.map { Array(g.signatures.prefix($0)) } ?? g.signatures
                if !rows.isEmpty { out += table(r, rows, width: width, details: false) }
                if rows.count < g.signatures.count { out += "… and \(g.signatures.count - rows.count) more\n" }
            }
        }
        if r.baseline != nil, !r.gone.isEmpty {
            out += "\ngone since the baseline:\n"
            for g in r.gone { out += "  \(g.id)  \(g.severity)  \(oneLine(g.title)) (was \(grouped(g.count)))\n" }
        }
        if !r.unreadable.isEmpty {
            out += "\nunreadable (\(r.unreadableCount)):\n"
            for u in r.unreadable { out += "  \(oneLine(u.path)): \(oneLine(u.reason))\n" }
            if r.unreadableCount > r.unreadable.count { out += "  … and \(r.unreadableCount - r.unreadable.count) more\n" }
        }
        if !r.skipped.isEmpty {
            out += "\nskipped (\(r.skippedCount), found in a directory and not read):\n"
            for u in r.skipped { out += "  \(oneLine(u.path)): \(oneLine(u.reason))\n" }
            if r.skippedCount > r.skipped.count { out += "  … and \(r.skippedCount - r.skipped.count) more\n" }
        }
        return out
    }

    /// The ranked table: one row per signature with its overall rank (counts as given, so a group
    /// shows its own), and with `details` the files, sessions, states, releases and example of each
    /// (a group's table has no files or sessions columns: they are counted over the whole run).
    static func table(_ r: TriageResult, _ shown: [(signature: SignatureStats, count: Int)], width: Int, details: Bool = true) -> String {
        let rank = Dictionary(uniqueKeysWithValues: r.signatures.enumerated().map { ($1.signature.id, $0 + 1) })
        let withStatus = r.baseline != nil
        let rows = shown.map { (s, n) -> [String] in
            var row = ["\(rank[s.signature.id] ?? 0)", grouped(n)]
            if details { row += [grouped(s.fileCount), grouped(s.sessionCount)] }
            row += [s.severity.description, s.signature.kind.rawValue]
            if withStatus { row.append(r.baseline?[s.signature.id]?.rawValue ?? "") }
            return row
        }
        var header = details ? ["#", "count", "files", "sessions", "severity", "kind"] : ["#", "count", "severity", "kind"]
        if withStatus { header.append("status") }
        let right: Set<Int> = details ? [0, 1, 2, 3] : [0, 1]
        var widths = header.map(\.count)
        for row in rows { for (c, cell) in row.enumerated() { widths[c] = max(widths[c], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return right.contains(c) ? pad + cell : cell + pad
            }.joined(separator: "  ")
        }
        let indent = widths.reduce(0, +) + 2 * widths.count
        let room = max(40, width - indent)
        let pad = String(repeating: " ", count: indent)
        var out = line(header) + "  signature\n"
        for (i, (s, _)) in shown.enumerated() {
            var title = oneLine(s.signature.title)
            if let v = r.newInVersion(s) { title = "[new in \(oneLine(v))] " + title }
            out += line(rows[i]) + "  " + clipTitle(title, room) + "\n"
            guard details else { continue }
            out += pad + clip(s.phaseSummary, room) + "\n"
            if let variants = variantLine(s) { out += pad + clip(oneLine(variants), room) + "\n" }
            if let releases = releaseLine(s) { out += pad + clip(oneLine(releases), room) + "\n" }
            var seen = "e.g. \(s.example.place)"
            if let f = s.firstSeen?.iso, let l = s.lastSeen?.iso { seen += f == l ? " · at \(f)" : " · first \(f) · last \(l)" }
            out += pad + clip(seen, room) + "\n"
        }
        return out
    }

    /// "variants: UINSApplicationDelegate.m:912 ×3, UINSApplicationDelegate.m:886 ×1", when the
    /// signature leaves a detail out (a system source's line).
    public static func variantLine(_ s: SignatureStats) -> String? {
        s.variants.isEmpty ? nil : "variants: " + s.rankedVariants.map { "\($0.value) ×\(grouped($0.count))" }.joined(separator: ", ")
    }

    /// "app 2.1 ×12, 2.0 ×3 · iOS 17.2 ×15 · iPhone14,2 ×15", when any of them is known.
    public static func releaseLine(_ s: SignatureStats) -> String? {
        var parts: [String] = []
        if !s.releases.versions.isEmpty { parts.append("app " + s.releases.versions.summary(versions: true)) }
        if !s.releases.osVersions.isEmpty { parts.append(s.releases.osVersions.summary(versions: true)) }
        if !s.releases.devices.isEmpty { parts.append(s.releases.devices.summary()) }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    static func summaryLine(_ r: TriageResult) -> String { "triage: " + TriageSummary.line(r) }
}

/// One line saying what a run read and found.
public enum TriageSummary {
    public static func line(_ r: TriageResult) -> String {
        var parts = ["\(grouped(r.inputCount)) input\(r.inputCount == 1 ? "" : "s")",
                     "\(megabytes(r.totalBytes))", "\(grouped(r.totalLines)) lines", "\(grouped(r.totalEvents)) events",
                     "\(grouped(r.totalSessions)) sessions"]
        parts.append("\(grouped(r.signatures.count)) signature\(r.signatures.count == 1 ? "" : "s")")
        if let b = r.baseline {
            let new = b.values.filter { $0 == .new }.count
            parts.append("\(new) new, \(r.gone.count) gone")
        }
        if r.unreadableCount > 0 { parts.append("\(r.unreadableCount) unreadable") }
        if r.skippedCount > 0 { parts.append("\(r.skippedCount) skipped") }
        return parts.joined(separator: ", ")
    }
}

/// One row per signature, for spreadsheets. Cells that a spreadsheet would read as a formula
/// (starting with `=`, `+`, `-`, `@`, tab or carriage return) get a leading `'`.
public enum TriageCSV {
    public static let header = ["rank", "id", "kind", "severity", "count", "files", "sessions", "firstSeen", "lastSeen",
                                "states", "status", "title", "exampleFile", "exampleLine", "appVersions", "osVersions", "devices",
                                "firstVersion", "lastVersion", "newInVersion"]

    public static func render(_ r: TriageResult) -> String {
        var out = header.map(cell).joined(separator: ",") + "\r\n"
        // With a baseline the new signatures come first (their rank column keeps the ranking).
        var rows = Array(r.signatures.enumerated())
        if let b = r.baseline {
            rows = rows.filter { b[$0.element.signature.id] == .new } + rows.filter { b[$0.element.signature.id] != .new }
        }
        for (i, s) in rows {
            let states = s.phaseShares.map { "\($0.phase.rawValue)=\($0.count)" }.joined(separator: ";")
            let row = ["\(i + 1)", s.signature.id, s.signature.kind.rawValue, s.severity.description, "\(s.count)", "\(s.fileCount)",
                       "\(s.sessionCount)", s.firstSeen?.iso ?? "", s.lastSeen?.iso ?? "", states,
                       r.baseline?[s.signature.id]?.rawValue ?? "", s.signature.title, s.example.file, s.example.position.label,
                       pairs(s.releases.versions, versions: true), pairs(s.releases.osVersions, versions: true),
                       pairs(s.releases.devices), s.releases.firstVersion ?? "", s.releases.lastVersion ?? "",
                       r.newInVersion(s) ?? ""]
            out += row.map(cell).joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// `2.1=12;2.0=3;unknown=1`, like the states column.
    static func pairs(_ d: Distribution, versions: Bool = false) -> String {
        var parts = d.ranked(versions: versions).map { "\($0.value)=\($0.count)" }
        if d.unknown > 0 { parts.append("unknown=\(d.unknown)") }
        return parts.joined(separator: ";")
    }

    /// A quoted CSV cell, neutralised against formula injection.
    public static func cell(_ s: String) -> String {
        var v = s
        if let first = v.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { v = "'" + v }
        return "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A Markdown table (for a pull request or an issue): log text is escaped so that it shows as
/// text, not as Markdown or HTML.
public enum TriageMarkdown {
    public static func render(_ r: TriageResult, limit: Int? = nil, groupBy: ReleaseDimension? = nil) -> String {
        var out = "# Lifeline triage\n\n" + escape(TriageSummary.line(r)) + "\n\n"
        if r.baseline != nil {
            let new = r.newSignatures()
            out += "## New since the baseline\n\n"
            if new.isEmpty { out += "Nothing new.\n\n" }
            for s in new {
                out += "- **\(escape(s.signature.title))** (\(escape(s.signature.id)), \(s.severity), ×\(grouped(s.count)), e.g. \(escape("\(s.example.place)")))\n"
            }
            if !new.isEmpty { out += "\n" }
            out += "## Signatures\n\n"
        }
        let shown = limit.map { Array(r.signatures.prefix($0)) } ?? r.signatures
        if shown.isEmpty {
            out += "No failures, and no findings at or above the minimum severity.\n"
        } else {
            let status = r.baseline != nil
            out += "| # | count | files | sessions | severity | kind |\(status ? " status |" : "") signature | when | example |\n"
            out += "|---:|---:|---:|---:|---|---|\(status ? "---|" : "")---|---|---|\n"
            for (i, s) in shown.enumerated() {
                var cells = ["\(i + 1)", grouped(s.count), grouped(s.fileCount), grouped(s.sessionCount), s.severity.description,
                             s.signature.kind.rawValue]
                if status { cells.append(r.baseline?[s.signature.id]?.rawValue ?? "") }
                let title = (r.newInVersion(s).map { "**new in \(escape($0))** " } ?? "") + escape(s.signature.title)
                var when = escape(s.phaseSummary)
                if let releases = TriageText.releaseLine(s) { when += "<br>" + escape(releases) }
                if let variants = TriageText.variantLine(s) { when += "<br>" + escape(variants) }
                cells += [title, when, escape("\(s.example.place)")]
                out += "| " + cells.joined(separator: " | ") + " |\n"
            }
        }
        if let groupBy, !r.signatures.isEmpty {
            let rank = Dictionary(uniqueKeysWithValues: r.signatures.enumerated().map { ($1.signature.id, $0 + 1) })
            for g in r.groups(by: groupBy) {
                out += "\n## \(escape(groupBy.noun.prefix(1).uppercased() + groupBy.noun.dropFirst())) \(g.value.map(escape) ?? "unknown")\n\n"
                out += "\(grouped(g.sessions)) session\(g.sessions == 1 ? "" : "s").\n\n"
                guard !g.signatures.isEmpty else { continue }
                out += "| # | count | severity | kind | signature |\n|---:|---:|---|---|---|\n"
                for (s, n) in limit.map({ Array(g.signatures.prefix($0)) }) ?? g.signatures {
                    out += "| \(rank[s.signature.id] ?? 0) | \(grouped(n)) | \(s.severity) | \(s.signature.kind.rawValue) | \(escape(s.signature.title)) |\n"
                }
            }
        }
        if r.baseline != nil, !r.gone.isEmpty {
            out += "\n## Gone since the baseline\n\n"
            for g in r.gone { out += "- \(escape(g.title)) (\(escape(g.id)), was \(g.count))\n" }
        }
        if !r.unreadable.isEmpty {
            out += "\n## Unreadable\n\n"
            for u in r.unreadable { out += "- \(escape(u.path)): \(escape(u.reason))\n" }
        }
        if !r.skipped.isEmpty {
            out += "\n## Skipped (found in a directory and not read)\n\n"
            for u in r.skipped { out += "- \(escape(u.path)): \(escape(u.reason))\n" }
        }
        return out
    }

    /// Escapes Markdown and HTML syntax, and keeps a cell on one line.
    public static func escape(_ s: String) -> String {
        var out = ""
        for ch in oneLine(s) {
            switch ch {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "|", "\\", "`", "*", "_", "[", "]", "#", "!": out += "\\" + String(ch)
            default: out.append(ch)
            }
        }
        return out
    }
}

// MARK: Formatting

/// `12,345`.
func grouped<I: BinaryInteger>(_ n: I) -> String { NumberText.grouped(n) }

func megabytes(_ bytes: Int64) -> String {
    let mb = Double(bytes) / 1_000_000
    if mb >= 1000 { return "\((mb / 10).rounded() / 100) GB" }
    if mb >= 10 { return "\(Int(mb.rounded())) MB" }
    return "\((mb * 10).rounded() / 10) MB"
}

/// Control characters and line breaks shown as spaces, so one value stays on one line.
func oneLine(_ s: String) -> String {
    String(String.UnicodeScalarView(s.unicodeScalars.map { $0.value < 32 || $0.value == 127 ? " " : $0 }))
}

func clip(_ s: String, _ width: Int) -> String {
    s.count <= width ? s : String(s.prefix(max(1, width - 1))) + "…"
}

/// A title cut to `width` keeping its end when that is what tells two titles apart: the
/// `(file:line)` of an assertion or a trap, or the ` at frame` of a crash (`Assertion failure in
/// -[UINSApplicationDelegate applicationShouldHa… (UINSApplicationDelegate.m:912)`).
func clipTitle(_ s: String, _ width: Int) -> String {
    guard s.count > width else { return s }
    let tailStart = s.range(of: " (", options: .backwards)?.lowerBound ?? s.range(of: " at ", options: .backwards)?.lowerBound
    guard let start = tailStart else { return clip(s, width) }
    let tail = String(s[start...])
    guard tail.count <= width / 2 else { return clip(s, width) }
    return String(s.prefix(max(1, width - tail.count - 1))) + "…" + tail
}
