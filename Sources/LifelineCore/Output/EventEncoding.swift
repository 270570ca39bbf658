/// Writes events and input accounting as JSON with sorted keys and no floating-point noise, so
/// outputs are stable for golden files. Hand-written because it runs once per event.
public enum JSONText {
    /// A JSON string literal with every control character, quote and backslash escaped
    /// (and `</` broken up, so the text is safe inside an HTML `<script>` block).
    public static func quote(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        var previous: Unicode.Scalar = " "
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "/" where previous == "<": out += "\\/"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if u.value < 0x20 || u.value == 0x7F {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
            previous = u
        }
        return out + "\""
    }

    /// An object from key/value pairs whose values are already JSON; keys are sorted, nil values left out.
    public static func object(_ pairs: [(String, String?)]) -> String {
        let kept = pairs.compactMap { k, v in v.map { (k, $0) } }.sorted { $0.0 < $1.0 }
        return "{" + kept.map { quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    public static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
    static func str(_ s: String?) -> String? { s.map(quote) }
    static func int<I: BinaryInteger>(_ i: I?) -> String? { i.map { String($0) } }
    static func bool(_ b: Bool?) -> String? { b.map { $0 ? "true" : "false" } }
    static func strings(_ a: [String]?) -> String? { a.map { array($0.map(quote)) } }
}

extension Event {
    /// The JSONL event contract: `file`, `line`, `format`, `kind` and, when known, `timestamp`,
    /// `process`, `pid`, `tid`, `class`, `spelling`, `scene`, `message`, plus `details` for failures,
    /// threading reports and configuration messages.
    public var jsonLine: String {
        var pairs: [(String, String?)] = [
            ("file", JSONText.quote(file)), ("line", String(line)), ("format", JSONText.quote(format.rawValue)),
            ("kind", JSONText.quote(kind.rawValue)), ("message", JSONText.quote(message)),
            ("timestamp", JSONText.str(timestamp?.iso)), ("process", JSONText.str(process)),
            ("pid", JSONText.int(pid)), ("tid", JSONText.int(tid)), ("level", JSONText.str(level)),
            ("subsystem", JSONText.str(subsystem)), ("category", JSONText.str(category)),
            ("class", JSONText.str(className)), ("spelling", JSONText.str(spelling)),
        ]
        if lineCount > 1 { pairs.append(("lineCount", String(lineCount))) }
        if timestamp?.yearInferred == true { pairs.append(("yearInferred", "true")) }
        if let scene, !scene.isEmpty {
            pairs.append(("scene", JSONText.object([
                ("class", JSONText.str(scene.sceneClass)), ("address", JSONText.str(scene.address)),
                ("persistentIdentifier", JSONText.str(scene.persistentIdentifier)), ("role", JSONText.str(scene.role)),
                ("activationState", JSONText.str(scene.activationState)),
            ])))
        }
        if let d = details { pairs.append(("details", d.json)) }
        return JSONText.object(pairs)
    }
}

extension EventDetails {
    var json: String {
        JSONText.object([
            ("exceptionName", JSONText.str(exceptionName)), ("reason", JSONText.str(reason)),
            ("method", JSONText.str(method)), ("sourceFile", JSONText.str(sourceFile)),
            ("sourceLine", JSONText.int(sourceLine)), ("trap", JSONText.str(trap)), ("api", JSONText.str(api)),
            ("reportedPID", JSONText.int(reportedPID)), ("threadName", JSONText.str(threadName)),
            ("queueName", JSONText.str(queueName)), ("qos", JSONText.int(qos)),
            ("backtrace", JSONText.strings(backtrace)), ("configurationName", JSONText.str(configurationName)),
            ("signal", JSONText.str(signal)), ("exceptionType", JSONText.str(exceptionType)),
            ("exceptionCodes", JSONText.str(exceptionCodes)), ("terminationReason", JSONText.str(terminationReason)),
            ("watchdogEvent", JSONText.str(watchdogEvent)), ("crashedThread", JSONText.int(crashedThread)),
            ("crashedThreadIsMain", JSONText.bool(crashedThreadIsMain)),
            ("crashedThreadQueue", JSONText.str(crashedThreadQueue)),
            ("lifecycleFrames", JSONText.strings(lifecycleFrames)), ("appFrames", JSONText.strings(appFrames)),
            ("bundleID", JSONText.str(bundleID)), ("osVersion", JSONText.str(osVersion)),
            ("ignored", JSONText.bool(ignored)), ("truncated", JSONText.bool(truncated)),
        ])
    }
}

extension InputStats {
    /// `{path, format, lines, records, continuationLines, nonLogLines, unrecognizedLines, events}` plus
    /// `recordsByFormat`, `notes` and `error` when present.
    public var json: String {
        var pairs: [(String, String?)] = [
            ("path", JSONText.quote(path)), ("format", JSONText.str(format?.rawValue)), ("lines", String(lines)),
            ("records", String(records)), ("continuationLines", String(continuationLines)),
            ("nonLogLines", String(nonLogLines)), ("unrecognizedLines", String(unrecognizedLines)),
            ("events", String(events)), ("error", JSONText.str(error)),
        ]
        if recordsByFormat.count > 1 {
            pairs.append(("recordsByFormat", JSONText.object(recordsByFormat.map { ($0.key.rawValue, String($0.value)) })))
        }
        if !notes.isEmpty {
            pairs.append(("notes", JSONText.array(notes.map {
                JSONText.object([("severity", JSONText.quote($0.severity.rawValue)), ("line", JSONText.int($0.line)),
                                 ("message", JSONText.quote($0.message))])
            })))
        }
        return JSONText.object(pairs)
    }
}

extension Event {
    /// One human-readable line: `file:line  time  process[pid:tid]  kind  spelling-or-message`.
    public var textLine: String {
        var parts = ["\(file):\(line)"]
        if let t = timestamp { parts.append(t.iso) }
        var who = process ?? ""
        if let pid { who += "[\(pid)" + (tid.map { ":\($0)" } ?? "") + "]" }
        if !who.isEmpty { parts.append(who) }
        parts.append(kind.rawValue)
        var what = spelling ?? message
        if let scene, let a = scene.address { what += " (\(scene.sceneClass ?? "scene") \(a))" }
        if let d = details {
            if let n = d.exceptionName { what += " — \(n)" }
            if let api = d.api, spelling == nil, !message.contains(api) { what += " — \(api)" }
        }
        parts.append(what.split(separator: "\n").first.map(String.init) ?? "")
        return parts.joined(separator: "  ")
    }
}
