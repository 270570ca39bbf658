import Foundation

/// The wrappings a crash report arrives in: Markdown around a paste, a cut `.ips` header, the
/// "Translated Report (Full Report Below)" export, a body without its header.
enum CrashLayouts {
    /// `bug_type`s whose report is a crash whatever its body looks like (309 JSON v2, 109 legacy
    /// text, 385 watchOS/iOS 16+ crash with a text body).
    static let crashBugTypes: Set<String> = ["309", "109", "385"]

    /// The lines of a report pasted into Markdown: fence lines (```` ``` ````, `~~~`) dropped, and the
    /// `> ` quoting removed when most lines carry it. Other lines are kept, so line numbers stay.
    static func unwrapMarkdown(_ lines: [Substring]) -> [Substring] {
        var nonBlank = 0, quoted = 0, fences = 0
        for l in lines {
            let t = CrashText.trim(l)
            if t.isEmpty { continue }
            nonBlank += 1
            if t.hasPrefix(">") { quoted += 1 }
            if isFence(t) { fences += 1 }
        }
        let unquote = nonBlank > 0 && quoted * 2 > nonBlank
        guard unquote || fences > 0 else { return lines }
        return lines.map { l in
            var line = l
            if unquote {
                let t = line.drop(while: { $0 == " " })
                if t.hasPrefix(">") { line = t.dropFirst(); if line.hasPrefix(" ") { line = line.dropFirst() } }
            }
            return isFence(CrashText.trim(line)) ? line[line.endIndex...] : line
        }
    }

    static func isFence(_ t: Substring) -> Bool { t.hasPrefix("```") || t.hasPrefix("~~~") }

    /// Where the report starts: the first line that starts one (an `.ips` header, a text header, a
    /// body's lone `{`), skipping prose before it; `first` when none does.
    static func reportStart(_ lines: [Substring], from first: Int) -> Int {
        for i in first..<min(lines.count, first + 200) {
            let t = CrashText.trim(lines[i])
            if t.isEmpty { continue }
            if CrashReportParser.looksLikeStart(t) || isCutHeader(t) { return i }
            if t == "{" { return i }
            // Key lines of a text report mean it started at the first of them.
            if t.hasPrefix("Exception Type:") || t.hasPrefix("Date/Time:") || t.hasPrefix("OS Version:") { return first }
        }
        return first
    }

    /// What is left of an `.ips` header line cut at its start: a line ending in `}` that holds
    /// `"bug_type":` but does not start with `{`.
    static func isCutHeader(_ t: Substring) -> Bool {
        !t.hasPrefix("{") && t.hasSuffix("}") && t.contains("\"bug_type\"") && t.contains("\":")
    }

    /// The header fields a cut header line still holds: the longest tail after `,"` that is a
    /// JSON object once `{` is put back.
    static func salvageCutHeader(_ t: Substring) -> [String: Any]? {
        var index = t.startIndex
        while let r = t.range(of: ",\"", range: index..<t.endIndex) {
            let candidate = "{" + t[t.index(after: r.lowerBound)...]
            if let object = try? JSONSerialization.jsonObject(with: Data(candidate.utf8)) as? [String: Any], !object.isEmpty {
                return object
            }
            index = r.upperBound
        }
        return nil
    }

    /// Whether a JSON object is a crash body (v2): it has threads or an exception.
    static func isCrashBody(_ object: [String: Any]) -> Bool {
        object["threads"] != nil || object["exception"] != nil || object["faultingThread"] != nil
    }

    /// In a "Translated Report (Full Report Below)" export, the line of the full report's `.ips`
    /// header (after the `Full Report` banner); nil for any other layout.
    static func fullReportStart(_ lines: [Substring], from first: Int) -> Int? {
        guard let translated = lines[first...].prefix(4).firstIndex(where: { CrashText.trim($0).hasPrefix("Translated Report") }) else {
            return nil
        }
        guard let banner = lines[(translated + 1)...].firstIndex(where: { CrashText.trim($0) == "Full Report" }) else { return nil }
        return lines[(banner + 1)...].firstIndex(where: { CrashText.trim($0).hasPrefix("{") })
    }

    /// A JSON body followed by something else (the prose after a pasted report): the body up to
    /// its last line that is a lone `}`, or its first line when that is the whole object; with the
    /// index of the first line after it.
    static func bodyBeforeTrailingText(_ body: ArraySlice<Substring>) -> (object: Any, next: Int)? {
        if let close = body.lastIndex(where: { CrashText.trim($0) == "}" }), close < body.endIndex - 1 {
            let text = body[...close].joined(separator: "\n")
            if let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) { return (object, close + 1) }
        }
        if let first = body.first, CrashText.trim(first).hasSuffix("}"), body.count > 1,
           let object = try? JSONSerialization.jsonObject(with: Data(CrashText.trim(first).utf8)) {
            return (object, body.startIndex + 1)
        }
        return nil
    }
}
