/// Appends JSON to a byte buffer: events and input accounting, with sorted keys and no floating-point
/// noise, so outputs are stable for golden files. Hand-written because it runs once per event.
/// Callers write keys in sorted order themselves (the encoders below
/// list them alphabetically), so output is deterministic without sorting anything per record.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    public init() { bytes.reserveCapacity(512) }

    public mutating func beginObject() { beginValue(); bytes.append(123); needsComma.append(false) }
    public mutating func endObject() { bytes.append(125); needsComma.removeLast() }
    public mutating func beginArray() { beginValue(); bytes.append(91); needsComma.append(false) }
    public mutating func endArray() { bytes.append(93); needsComma.removeLast() }

    /// A value right after a key takes no comma; any other value inside an object or array is
    /// separated from the one before it.
    private var afterKey = false
    private mutating func beginValue() {
        if afterKey { afterKey = false; return }
        guard let last = needsComma.last else { return }
        if last { bytes.append(44) } else { needsComma[needsComma.count - 1] = true }
    }

    public mutating func key(_ k: StaticString) {
        beginValue()
        bytes.append(34)
        bytes.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))
        bytes.append(34)
        bytes.append(58)
        afterKey = true
    }

    /// A key known only at run time (escaped like any string).
    public mutating func key(named k: String) {
        beginValue()
        JSONWriter.escape(k, into: &bytes)
        bytes.append(58)
        afterKey = true
    }

    public mutating func string(_ s: String) { beginValue(); JSONWriter.escape(s, into: &bytes) }
    public mutating func raw(_ s: String) { beginValue(); bytes.append(contentsOf: s.utf8) }
    public mutating func int<I: BinaryInteger>(_ i: I) { beginValue(); bytes.append(contentsOf: String(i).utf8) }
    public mutating func bool(_ b: Bool) { beginValue(); bytes.append(contentsOf: (b ? "true" : "false").utf8) }

    public mutating func field(_ k: StaticString, _ v: String?) { if let v { key(k); string(v) } }
    public mutating func field<I: BinaryInteger>(_ k: StaticString, _ v: I?) { if let v { key(k); int(v) } }
    public mutating func field(_ k: StaticString, _ v: Bool?) { if let v { key(k); bool(v) } }
    public mutating func field(_ k: StaticString, _ v: [String]?) {
        guard let v else { return }
        key(k)
        afterKey = false
        bytes.append(91)
        for (i, s) in v.enumerated() {
            if i > 0 { bytes.append(44) }
            JSONWriter.escape(s, into: &bytes)
        }
        bytes.append(93)
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Hands the bytes written so far to `sink` and forgets them (the nesting is kept), so a long
    /// document is written piece by piece instead of held whole.
    public mutating func drain(into sink: ([UInt8]) -> Void) {
        guard !bytes.isEmpty else { return }
        sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// A JSON string literal with every control character, quote and backslash escaped, `</` broken
    /// up (safe inside an HTML `<script>` block) and U+2028/U+2029 escaped (safe inside JavaScript).
    /// Bytes that may need escaping: controls, DEL, `"`, `\\`, `/` (after `<`) and 0xE2 (which
    /// starts U+2028 and U+2029).
    private static let special: [Bool] = (0..<256).map { b in b < 0x20 || b == 0x7F || b == 34 || b == 92 || b == 47 || b == 0xE2 }

    public static func escape(_ s: String, into out: inout [UInt8]) {
        out.append(34)
        var s = s
        s.withUTF8 { u in
            var runStart = 0
            var i = 0
            @inline(__always) func flush(_ upTo: Int) {
                if upTo > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: u[runStart..<upTo])) }
            }
            let special = JSONWriter.special
            while i < u.count {
                let b = u[i]
                // Most bytes need nothing: one table lookup each.
                if !special[Int(b)] { i += 1; continue }
                var replacement: [UInt8]? = nil
                var width = 1
                switch b {
                case 34: replacement = [92, 34]
                case 92: replacement = [92, 92]
                case 10: replacement = [92, 110]
                case 13: replacement = [92, 114]
                case 9: replacement = [92, 116]
                case 47 where i > 0 && u[i - 1] == 60: replacement = [92, 47]
                case 0xE2 where i + 2 < u.count && u[i + 1] == 0x80 && (u[i + 2] == 0xA8 || u[i + 2] == 0xA9):
                    replacement = Array((u[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                    width = 3
                default:
                    if b < 0x20 || b == 0x7F {
                        let hex = Array("0123456789abcdef".utf8)
                        replacement = [92, 117, 48, 48, hex[Int(b >> 4)], hex[Int(b & 15)]]
                    }
                }
                if let replacement {
                    flush(i)
                    out.append(contentsOf: replacement)
                    i += width
                    runStart = i
                } else {
                    i += 1
                }
            }
            flush(u.count)
        }
        out.append(34)
    }
}

extension Event {
    /// The JSONL event contract: `file`, `line` (or `offset` and `length` for a record of a binary input), `format`,
    /// `kind` and, when known, `timestamp`,
    /// `process`, `pid`, `tid`, `class`, `spelling`, `scene`, `message`, plus `details` for failures,
    /// threading reports and configuration messages. Keys are sorted.
    public var jsonLine: String {
        var w = JSONWriter()
        write(to: &w)
        return w.text
    }

    public func write(to w: inout JSONWriter) {
        writeFieldsBeforeLine(to: &w)
        if let line = position.line { w.int(line) }
        writeFieldsAfterLine(to: &w)
    }

    /// The object up to the key `"line"` (the keys are written in sorted order); for a record of a binary input,
    /// up to where `"line"` would go, with its `"length"` in bytes.
    private func writeFieldsBeforeLine(to w: inout JSONWriter) {
        w.beginObject()
        w.field("category", category)
        w.field("class", className)
        if let d = details { w.key("details"); d.printed(about: subject).write(to: &w) }
        w.field("file", file)
        w.field("format", format.rawValue)
        w.field("kind", kind.rawValue)
        if position.byteOffset != nil { w.field("length", extent) }
        w.field("level", level)
        if position.line != nil { w.key("line") }
    }

    /// The object after the value of `"line"`.
    private func writeFieldsAfterLine(to w: inout JSONWriter) {
        if position.line != nil, extent > 1 { w.field("lineCount", extent) }
        w.field("message", message)
        w.field("offset", position.byteOffset)
        // An event about another process prints that process as its own, as it always has: the
        // subject's name, no pid or thread (the logger's are not the event's; the subject's pid
        // and bundle ID print in the details as `reportedPID` and `bundleID`).
        w.field("pid", ownPID)
        w.field("process", attributedProcess)
        if let scene, !scene.isEmpty {
            w.key("scene")
            w.beginObject()
            w.field("activationState", scene.activationState)
            w.field("address", scene.address)
            w.field("class", scene.sceneClass)
            w.field("persistentIdentifier", scene.persistentIdentifier)
            w.field("role", scene.role)
            w.endObject()
        }
        w.field("spelling", spelling)
        w.field("subsystem", subsystem)
        w.field("tid", ownTID)
        w.field("timestamp", timestamp?.iso)
        if timestamp?.yearInferred == true { w.field("yearInferred", true) }
        w.endObject()
    }

    /// Appends the event's `lifeline events` line (JSON Lines or text) to `out`, all of it but its
    /// line number, and records where that goes (`EncodedEvents`).
    func encode(_ style: EventLineStyle, into out: inout EncodedEvents) {
        switch style {
        case .jsonLines:
            out.json.raw("")  // nothing: keeps the writer's state between top-level objects
            writeFieldsBeforeLine(to: &out.json)
            out.mark(line: position.line, at: out.json.bytes.count)
            if position.line != nil { out.json.raw("") }  // the line's value, written by the reader of the chunk
            writeFieldsAfterLine(to: &out.json)
            out.json.raw("\n")
        case .text:
            let (head, tail) = textLineParts
            out.json.raw(head)
            if position.line == nil { out.json.raw(position.label) }
            out.mark(line: position.line, at: out.json.bytes.count)
            out.json.raw(tail)
            out.json.raw("\n")
        }
        out.endEvent()
    }
}

extension InputStats {
    /// `{path, format, lines, records, continuationLines, nonLogLines, unrecognizedLines, events}` plus
    /// `recordsByFormat`, `notes`, `error` and `skipped` (why a file found in a directory was not
    /// read) when present; keys sorted.
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.field("continuationLines", continuationLines)
        w.field("error", error)
        w.field("events", events)
        w.field("format", format?.rawValue)
        w.field("lines", lines)
        w.field("nonLogLines", nonLogLines)
        if !notes.isEmpty {
            w.key("notes")
            w.beginArray()
            for n in notes {
                w.beginObject()
                w.field("line", n.position?.line)
                w.field("message", n.message)
                w.field("offset", n.position?.byteOffset)
                w.field("severity", n.severity.rawValue)
                w.endObject()
            }
            w.endArray()
        }
        w.field("path", path)
        w.field("records", records)
        w.field("skipped", skipped)
        if recordsByFormat.count > 1 {
            w.key("recordsByFormat")
            w.beginObject()
            for (f, n) in recordsByFormat.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { w.key(named: f.rawValue); w.int(n) }
            w.endObject()
        }
        w.field("unrecognizedLines", unrecognizedLines)
        w.endObject()
    }

    /// `{"inputs":[…]}`, as `lifeline events --stats --format json` prints it.
    public static func json(_ inputs: [InputStats]) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.key("inputs")
        w.beginArray()
        for s in inputs { s.write(to: &w) }
        w.endArray()
        w.endObject()
        return w.text
    }
}

extension Event {
    /// One human-readable line: `file:line  time  process[pid:tid]  kind  spelling-or-message` (`file:@0xOFFSET`
    /// for a record of a binary input).
    public var textLine: String {
        let (head, tail) = textLineParts
        return head + position.label + tail
    }

    /// The text line before and after the line number.
    private var textLineParts: (String, String) {
        var parts: [String] = []
        if let t = timestamp { parts.append(t.iso) }
        var who = attributedProcess ?? ""
        if let pid = ownPID { who += "[\(pid)" + (ownTID.map { ":\($0)" } ?? "") + "]" }
        if !who.isEmpty { parts.append(who) }
        parts.append(kind.rawValue)
        var what = spelling ?? message
        if let scene, let a = scene.address { what += " (\(scene.sceneClass ?? "scene") \(a))" }
        if let d = details {
            if let n = d.exceptionName { what += " — \(n)" }
            if let api = d.api, spelling == nil, !message.contains(api) { what += " — \(api)" }
        }
        parts.append(what.split(separator: "\n").first.map(String.init) ?? "")
        return ("\(file):", "  " + parts.joined(separator: "  "))
    }
}

/// How `lifeline events` writes an event: one JSON object or one text line.
public enum EventLineStyle: Sendable { case jsonLines, text }

/// Events written out by the reader that found them (`lifeline events`), so that encoding runs on
/// every reader thread instead of on the one that prints. A range's line numbers are known only
/// once the ranges before it were counted, so each event's line number is left out and written
/// when the chunk is printed (`write(lineOffset:to:)`).
public struct EncodedEvents: Sendable {
    /// One event, encoded.
    init(_ event: Event, style: EventLineStyle) {
        self.init()
        event.encode(style, into: &self)
    }

    fileprivate var json = JSONWriter()
    /// Per event: where its bytes end, where its line number goes, and its line in the unit (-1: an event of a
    /// binary input, whose byte offset is written already and never moved).
    private var ends: [Int] = []
    private var marks: [(position: Int, line: Int)] = []

    public init() {}

    public var count: Int { ends.count }
    public var isEmpty: Bool { ends.isEmpty }

    fileprivate mutating func mark(line: Int?, at position: Int) { marks.append((position, line ?? -1)) }
    fileprivate mutating func endEvent() { ends.append(json.bytes.count) }

    /// The events with their line numbers moved by `lineOffset`, in pieces for `sink` (valid only
    /// during the call: the caller copies them where they go).
    public func write(lineOffset: Int, to sink: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        var digits = [UInt8](repeating: 0, count: 24)
        json.bytes.withUnsafeBufferPointer { b in
            for i in ends.indices {
                let m = marks[i]
                sink(UnsafeBufferPointer(rebasing: b[start..<m.position]))
                if m.line >= 0 {
                    var n = m.line + lineOffset, k = digits.count
                    repeat { k -= 1; digits[k] = UInt8(48 + n % 10); n /= 10 } while n > 0
                    digits.withUnsafeBufferPointer { sink(UnsafeBufferPointer(rebasing: $0[k...])) }
                }
                sink(UnsafeBufferPointer(rebasing: b[m.position..<ends[i]]))
                start = ends[i]
            }
        }
    }
}

extension EventDetails {
    /// The details as `lifeline events` prints them: an event about another process (a kill line) names that
    /// process here, as `reportedPID` and `bundleID`, when the details name none. Only such events are copied.
    func printed(about subject: Subject?) -> EventDetails {
        guard let subject, (reportedPID == nil && subject.pid != nil) || (bundleID == nil && subject.bundleID != nil) else { return self }
        var d = self
        if d.reportedPID == nil { d.reportedPID = subject.pid }
        if d.bundleID == nil { d.bundleID = subject.bundleID }
        return d
    }
}
