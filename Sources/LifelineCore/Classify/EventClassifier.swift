import Foundation

/// The text of one log record, ready to classify: header fields as strings, the first line's
/// message, and the record's other lines (continuations) when it has any.
public struct RecordText: Sendable {
    public var format: LogFormat
    public var timestamp: LogTimestamp?
    public var process: String?
    public var pid: Int?
    public var tid: UInt64?
    public var level: String?
    public var subsystem: String?
    public var category: String?
    public var sender: String?
    public var message: String
    public var continuation: [String]
    public var truncated: Bool

    public init(format: LogFormat, message: String, continuation: [String] = []) {
        self.format = format
        self.message = message
        self.continuation = continuation
        self.truncated = false
    }
}

/// Turns a record into a normalized event, or nil when it holds none. Failures, threading reports
/// and UIKit configuration messages are recognised first (they often quote a callback, e.g. an
/// assertion inside `-[SceneDelegate scene:willConnectToSession:options:]`; `RecognizerTable` says
/// in which order), then callbacks in every spelling. One classifier per thread: it owns PCRE2
/// match data.
public final class EventClassifier {
    let scratch = MatchScratch()
    let p = Patterns.shared
    /// When false (counting passes) only the kind is wanted: details and names are not built.
    private(set) var detailed = true
    /// Set when the last record classified is an exception or assertion whose reason states a
    /// main-thread requirement: the reason. The record then also gives a `thread.mainThreadRequired`
    /// event (`companion(of:)`), for the threading rules and triage.
    private(set) var mainThreadRequirement: String?

    /// App-specific markers tried on records that hold no other event.
    let markers: MarkerMatcher?
    /// The marker that gave up on the last record (PCRE2 work limit), for a note on that line.
    public var markerGaveUp: String? { markers?.gaveUp }
    public var hasMarkers: Bool { markers != nil }

    public init(markers: MarkerSet = .none) {
        self.markers = markers.isEmpty ? nil : MarkerMatcher(markers)
    }

    /// Classifies `record` found at `line` of `file`. With `detailed` false only the kind is
    /// wanted (counting passes): scene descriptions are not parsed.
    /// `position` and `extent`: where the record is in its input (its first line and line count, or the byte
    /// offset and length of a binary input's record).
    public func classify(_ record: RecordText, file: String, at position: InputPosition, extent: Int, detailed: Bool = true) -> Event? {
        self.detailed = detailed
        mainThreadRequirement = nil
        guard var event = recognise(record) ?? marker(record) else { return nil }
        if event.kind == .exception || event.kind == .assertion { mainThreadRequirement = requirement(in: record, event) }
        guard detailed else { return event }
        event.file = file
        event.position = position
        event.extent = extent
        event.format = record.format
        event.takeHeader(of: record)
        if record.truncated {
            var d = event.details ?? EventDetails()
            d.truncated = true
            event.details = d
        }
        if event.scene == nil, let scene = sceneDescription(in: record.message) { event.scene = scene }
        return event
    }

    private func marker(_ record: RecordText) -> Event? {
        guard let markers, let m = markers.match(record.message) else { return nil }
        return event(m.kind, record)
    }

    /// Only the kind, for a headerless line (decides whether it starts a record of its own).
    func startsEvent(_ line: String) -> Bool {
        detailed = false
        return recognise(RecordText(format: .print, message: line)) != nil
    }

    /// The main-thread requirement an exception's reason or an assertion's text states, if any.
    private func requirement(in record: RecordText, _ event: Event) -> String? {
        let text = event.details?.reason ?? ([record.message] + record.continuation.prefix(3)).joined(separator: "\n")
        guard p.mainThreadRequired.firstMatch(in: text, scratch: scratch) != nil else { return nil }
        return text
    }

    /// The `thread.mainThreadRequired` event that goes with `event` (the last record's exception or
    /// assertion, its header fields filled in), or nil when its reason states no such requirement.
    public func companion(of event: Event) -> Event? {
        guard let reason = mainThreadRequirement else { return nil }
        var e = event
        e.kind = .mainThreadRequired
        var d = EventDetails()
        d.reason = reason
        d.api = p.objcMethod.firstMatch(in: reason, scratch: scratch)?[0] ?? event.details?.method
        d.backtrace = event.details?.backtrace
        d.exceptionName = event.details?.exceptionName
        e.details = d
        return e
    }

    func event(_ kind: EventKind, _ record: RecordText, details: EventDetails? = nil) -> Event {
        var e = Event(file: "", line: 0, format: record.format, kind: kind, message: record.message)
        guard detailed else { return e }
        e.details = details
        if kind.isFailure || kind.isThreading || kind.family == "config" {
            // Keep the record's other lines with the failure (stacks, MTC fields).
        } else if !record.continuation.isEmpty {
            e.message = ([record.message] + record.continuation).joined(separator: "\n")
        }
        return e
    }

    /// The first recognizer of the table (`RecognizerTable`) that makes an event of `r`, else a
    /// callback. A line with no trigger of any family goes straight to the callback spellings.
    private func recognise(_ r: RecordText) -> Event? {
        var m = r.message
        let found = m.withUTF8 { buf -> Event? in
            let table = RecognizerTable.compiled
            var families = table.families(in: buf).rawValue
            guard families != 0 else { return nil }
            for i in table.recognizers.indices where families & table.familyBits[i] != 0 {
                let recognizer = table.recognizers[i]
                guard recognizer.pattern.matches(buf, scratch: scratch) else { continue }
                switch recognizer.build(self, Match(scratch: scratch), r) {
                case .event(let e): return e
                case .dismissed: families &= ~table.settleBits[i]
                case .declined: continue
                }
            }
            return nil
        }
        return found ?? callback(r)
    }

    // MARK: Callbacks

    private func callback(_ r: RecordText) -> Event? {
        var text = r.message
        return text.withUTF8 { buf -> Event? in
            // -[Class selector] / +[Class selector] anywhere in the message.
            if let (cb, cls, whole) = Self.objcCallback(buf) {
                var e = event(cb.kind, r)
                if detailed {
                    e.className = String(decoding: UnsafeBufferPointer(rebasing: buf[cls]), as: UTF8.self)
                    e.spelling = String(decoding: UnsafeBufferPointer(rebasing: buf[whole]), as: UTF8.self)
                }
                return e
            }
            // Swift `#function` spellings, optionally qualified: `SceneDelegate.sceneDidBecomeActive(_:)`.
            if let (cb, cls, whole) = Self.swiftCallback(buf) {
                var e = event(cb.kind, r)
                if detailed {
                    e.className = cls.map { String(decoding: UnsafeBufferPointer(rebasing: buf[$0]), as: UTF8.self) }
                    e.spelling = String(decoding: UnsafeBufferPointer(rebasing: buf[whole]), as: UTF8.self)
                }
                return e
            }
            // A selector or bare callback name leading the message: `applicationDidBecomeActive: hiding cover`,
            // `scene:willConnectToSession:options:`, `SceneDelegate: sceneDidBecomeActive`.
            if p.leadingSelector.matches(buf, scratch: scratch), let word = scratch.string(2) {
                let cb = CallbackCatalog.bySelector[word]
                    ?? (word.hasSuffix(":") ? nil : CallbackCatalog.byBareName[word])
                    ?? (word.hasSuffix(":") && !word.dropLast().contains(":") ? CallbackCatalog.byBareName[String(word.dropLast())] : nil)
                if let cb {
                    var e = event(cb.kind, r)
                    if detailed {
                        e.className = scratch.string(1)
                        e.spelling = word
                    }
                    return e
                }
            }
            return nil
        }
    }

    // MARK: Spelling scanners

    /// `-[Class(Category) selector:with:]` or `+[…]` anywhere: the first whose selector is a callback.
    static func objcCallback(_ b: Bytes) -> (Callback, Range<Int>, Range<Int>)? {
        var i = 0
        let n = b.count
        while let open = HeaderParser.nextByte(b, 91, from: i) {  // '['
            i = open + 1
            guard open > 0, b[open - 1] == 45 || b[open - 1] == 43 else { continue }
            // Class: identifier characters, dots, and an optional `(Category)`.
            var k = open + 1
            guard k < n, isIdentStart(b[k]) else { continue }
            while k < n, isIdent(b[k]) || b[k] == 46 { k += 1 }
            if k < n, b[k] == 40 {
                k += 1
                while k < n, isIdent(b[k]) { k += 1 }
                guard k < n, b[k] == 41 else { continue }
                k += 1
            }
            let cls = (open + 1)..<k
            guard k < n, b[k] == 32 else { continue }
            k += 1
            let selStart = k
            guard k < n, isIdentStart(b[k]) else { continue }
            while k < n, isIdent(b[k]) || b[k] == 58 { k += 1 }
            guard k < n, b[k] == 93 else { continue }
            if let cb = CallbackCatalog.selectorTable.lookup(Bytes(rebasing: b[selStart..<k])) {
                return (cb, cls, (open - 1)..<(k + 1))
            }
        }
        return nil
    }

    /// `name(label:label:)` anywhere, optionally qualified by `Type.` or `Module.Type.`: the first that
    /// is a callback. Every callback's Swift spelling has an argument list starting `(_:` or `(for:`.
    static func swiftCallback(_ b: Bytes) -> (Callback, Range<Int>?, Range<Int>)? {
        var i = 0
        let n = b.count
        while let open = HeaderParser.nextByte(b, 40, from: i) {  // '('
            i = open + 1
            // Labels: `(a:b:)` — identifier characters and colons, then ')'.
            var k = open + 1
            while k < n, isIdent(b[k]) || b[k] == 58 { k += 1 }
            guard k < n, b[k] == 41, k > open + 1, b[k - 1] == 58 else { continue }
            let close = k
            // Name: a lower-case identifier right before '('.
            var s = open
            while s > 0, isIdent(b[s - 1]) { s -= 1 }
            guard s < open, isLower(b[s]) else { continue }
            if s > 0, b[s - 1] != 46, isIdent(b[s - 1]) { continue }
            guard let cb = CallbackCatalog.swiftTable.lookup(Bytes(rebasing: b[s...close])) else { continue }
            // Optional qualification: `Type.` / `Module.Type.` before the name.
            var start = s
            var cls: Range<Int>? = nil
            if s > 1, b[s - 1] == 46 {
                var q = s - 1
                while q > 0, isIdent(b[q - 1]) || b[q - 1] == 46 { q -= 1 }
                if q < s - 1, isIdentStart(b[q]) { cls = q..<(s - 1); start = q }
            }
            return (cb, cls, start..<(close + 1))
        }
        return nil
    }

    @inline(__always) static func isIdentStart(_ c: UInt8) -> Bool { isUpper(c) || isLower(c) || c == 95 }

    // MARK: Scene descriptions

    /// `<UIWindowScene: 0x…; role: …; persistentIdentifier: …; activationState: …>` and
    /// `<UISceneSession: 0x…; persistentIdentifier: …>`.
    func sceneDescription(in message: String) -> SceneRef? {
        var m = message
        return m.withUTF8 { buf -> SceneRef? in
            guard AnchorSet.sceneGate.find(in: buf) != nil else { return nil }
            var ref = SceneRef()
            if p.sceneDescription.matches(buf, scratch: scratch) {
                ref.sceneClass = scratch.string(1)
                ref.address = scratch.string(2)
                if let fields = scratch.range(3) {
                    Self.eachField(Bytes(rebasing: buf[fields])) { key, value in
                        switch key {
                        case "role": ref.role = value
                        case "persistentIdentifier": ref.persistentIdentifier = value
                        case "activationState": ref.activationState = value
                        default: break
                        }
                    }
                }
            }
            if ref.persistentIdentifier == nil, p.sessionDescription.matches(buf, scratch: scratch) {
                ref.persistentIdentifier = scratch.string(1)
            }
            return ref.isEmpty ? nil : ref
        }
    }

    /// Calls `body` for each `key: value` of a `; `-separated description list.
    static func eachField(_ b: Bytes, _ body: (String, String) -> Void) {
        var i = 0
        while i < b.count {
            while i < b.count, b[i] == 32 { i += 1 }
            let keyStart = i
            while i < b.count, b[i] != 58, b[i] != 59 { i += 1 }
            guard i < b.count, b[i] == 58 else { while i < b.count, b[i] != 59 { i += 1 }; i += 1; continue }
            let keyEnd = i
            i += 1
            while i < b.count, b[i] == 32 { i += 1 }
            let valueStart = i
            while i < b.count, b[i] != 59 { i += 1 }
            var valueEnd = i
            while valueEnd > valueStart, b[valueEnd - 1] == 32 { valueEnd -= 1 }
            body(String(decoding: Bytes(rebasing: b[keyStart..<keyEnd]), as: UTF8.self),
                 String(decoding: Bytes(rebasing: b[valueStart..<valueEnd]), as: UTF8.self))
            i += 1
        }
    }

    // MARK: Multi-line parts

    func parseCheckerFields(_ lines: [String], into d: inout EventDetails) {
        guard detailed else { return }
        // `PID: 16941, TID: 3137868, Thread name: (none), Queue name: com.apple…, QoS: 0`; the queue name
        // may be broken by interleaved stdout, so the fields are read from the joined text.
        let joined = lines.prefix(4).joined(separator: "\n")
        let f = p.checkerFieldGroups
        p.checkerFields.firstMatch(in: joined, scratch: scratch) { m in
            d.reportedPID = m[f.pid].flatMap { Int($0) }
            d.reportedTID = m[f.tid].flatMap { UInt64($0) }
            d.threadName = m[f.threadName]
            d.queueName = m[f.queueName].map { String($0.unicodeScalars.filter { $0 != "\n" }) }
            d.qos = m[f.qos].flatMap { Int($0) }
            if d.threadName == "(none)" { d.threadName = nil }
        }
        if let i = lines.firstIndex(where: { $0.hasPrefix("Backtrace:") }) {
            d.backtrace = .lines(lines[(i + 1)...].map { $0.trimmed }.filter { !$0.isEmpty })
        }
    }

    /// Stack lines of a record (`*** First throw call stack:` blocks, frames, single-line address lists).
    func stack(_ lines: [String]) -> Backtrace? {
        guard detailed else { return nil }
        let frames = lines.map { $0.trimmed }.filter {
            !$0.isEmpty && $0 != "(" && $0 != ")" && !$0.hasPrefix("*** First throw call stack")
        }
        return frames.isEmpty ? nil : .lines(frames)
    }
}

/// Tells the record reader which continuation lines belong to a failure block.
enum BlockHints {
    /// Literals in a first line that announce a stack or field block below it.
    static let blockStarts = AnchorSet(["|Terminating app", "Main T|hread Checker", "|Assertion failure",
                                        "uncaught ex|ception", "|Fatal error", "|Precondition failed"])
}

extension AnchorSet {
    /// Scene and session descriptions.
    static let sceneGate = AnchorSet(["Scene: 0x", "Session: 0x"])
}

/// The PCRE2 patterns of the classifier, compiled once.
final class Patterns: Sendable {
    static let shared = Patterns()
    /// Main Thread Checker's `PID: …, TID: …, Thread name: …, Queue name: …, QoS: …` line.
    let checkerFields: Pattern
    let checkerFieldGroups: (pid: Pattern.Group, tid: Pattern.Group, threadName: Pattern.Group, queueName: Pattern.Group, qos: Pattern.Group)
    /// `scene-update watchdog transgression` or `WatchdogEvent: scene-update`.
    let watchdogEventPattern: Pattern
    let watchdogEventGroups: (phase: Pattern.Group, event: Pattern.Group)

    init() {
        let c = Pattern.builtIn(#"PID: (?<pid>\d+), TID: (?<tid>\d+), Thread name: (?<threadName>[^,]*), Queue name: (?<queueName>[\s\S]*?), QoS: (?<qos>\d+)"#)
        checkerFields = c
        checkerFieldGroups = (c.group("pid"), c.group("tid"), c.group("threadName"), c.group("queueName"), c.group("qos"))
        let w = Pattern.builtIn(#"(?<phase>[a-z]+-[a-z]+) watchdog transgression|WatchdogEvent: (?<event>[a-z-]+)"#)
        watchdogEventPattern = w
        watchdogEventGroups = (w.group("phase"), w.group("event"))
    }

    /// The watchdog event a termination text names (`scene-update`), if any.
    func watchdogEvent(in text: String, scratch: MatchScratch) -> String? {
        let g = watchdogEventGroups
        return watchdogEventPattern.firstMatch(in: text, scratch: scratch) { m in m[g.phase] ?? m[g.event] } ?? nil
    }
    let mainThreadRequired = Pattern.builtIn(#"(?:must|should only|can only|may only) be (?:called|used|invoked|performed|accessed|made) (?:from|on) (?:the )?main thread|must be used from main thread only|requires? the main thread|expected the main thread|autolayout engine from a background thread|layout engine must not be performed from a background thread"#, caseless: true)
    let objcMethod = Pattern.builtIn(#"[-+]\[[A-Za-z_][\w.]*(?:\([\w]*\))? [A-Za-z_][\w:]*\]"#)
    /// Optional decorations (symbols, `[Tag]`, `Tag:` / `Tag -`), an optional `Class.`, then a selector or word.
    let leadingSelector = Pattern.builtIn(#"^[^A-Za-z\[]{0,8}(?:\[[^\]]{1,64}\]\s*)?(?:[A-Z][\w.]{0,63}\s*(?::|-|–|>|\|)+\s+)?(?:((?:[A-Za-z_]\w*\.)*[A-Z]\w*)\.)?([a-z]\w*(?::(?:[A-Za-z_]\w*:)*)?)(?:\s|$|[,.!])"#)
    let sceneDescription = Pattern.builtIn(#"<(\w*Scene): (0x[0-9a-fA-F]+)(?:; ([^>]*))?>"#)
    let sessionDescription = Pattern.builtIn(#"<UISceneSession: 0x[0-9a-fA-F]+; persistentIdentifier: ([^;>\s]+)"#)
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (by UTF-8 bytes: both are ASCII, so a cut can
    /// never split a character).
    var trimmed: String {
        let s = Substring(self)
        let u = s.utf8
        var start = u.startIndex, end = u.endIndex
        while start < end, u[start] == 32 || u[start] == 9 { start = u.index(after: start) }
        while end > start, case let b = u[u.index(before: end)], b == 32 || b == 9 { end = u.index(before: end) }
        return String(s[start..<end])
    }
}
