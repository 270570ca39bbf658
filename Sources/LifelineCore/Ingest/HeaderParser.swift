#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-level recognisers for the header of one log line in each line-oriented format.
/// They allocate nothing: a recognised header comes back as offsets into the line, and strings are
/// made later, only for the few records that can hold an event.
struct HeaderSpans {
    var format: LogFormat
    /// Offset of the message text.
    var messageStart: Int
    var pid: Int?
    var tid: UInt64?
    /// Parse every field; when false (lines that cannot hold an event), only recognise the header.
    var full = true
    /// The optional ranges, as (start, end) pairs of Int32 with -1 for "absent", so that clearing
    /// them for the next line is one 64-byte store (this runs for every line).
    private var spans = SIMD16<Int32>(repeating: -1)

    init(format: LogFormat, messageStart: Int) {
        self.format = format
        self.messageStart = messageStart
    }

    /// Starts over for a new header, keeping `full`.
    @inline(__always) mutating func reset(format: LogFormat, messageStart: Int) {
        self.format = format
        self.messageStart = messageStart
        pid = nil
        tid = nil
        spans = SIMD16<Int32>(repeating: -1)
    }

    @inline(__always) private func span(_ i: Int) -> Range<Int>? {
        let lo = spans[2 * i]
        return lo < 0 ? nil : Int(lo)..<Int(spans[2 * i + 1])
    }

    @inline(__always) private mutating func setSpan(_ i: Int, _ r: Range<Int>?) {
        if let r {
            spans[2 * i] = Int32(truncatingIfNeeded: r.lowerBound)
            spans[2 * i + 1] = Int32(truncatingIfNeeded: r.upperBound)
        } else {
            spans[2 * i] = -1
        }
    }

    var timestamp: Range<Int>? { get { span(0) } set { setSpan(0, newValue) } }
    var process: Range<Int>? { get { span(1) } set { setSpan(1, newValue) } }
    var level: Range<Int>? { get { span(2) } set { setSpan(2, newValue) } }
    var sender: Range<Int>? { get { span(3) } set { setSpan(3, newValue) } }
    var subsystem: Range<Int>? { get { span(4) } set { setSpan(4, newValue) } }
    var category: Range<Int>? { get { span(5) } set { setSpan(5, newValue) } }
    var device: Range<Int>? { get { span(6) } set { setSpan(6, newValue) } }
}

typealias Bytes = UnsafeBufferPointer<UInt8>

@inline(__always) func isDigit(_ b: UInt8) -> Bool { b &- 48 < 10 }
@inline(__always) func isHexDigit(_ b: UInt8) -> Bool { b &- 48 < 10 || (b | 0x20) &- 97 < 6 }
@inline(__always) func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 }
@inline(__always) func isUpper(_ b: UInt8) -> Bool { b &- 65 < 26 }
@inline(__always) func isLower(_ b: UInt8) -> Bool { b &- 97 < 26 }
@inline(__always) func isIdent(_ b: UInt8) -> Bool { isDigit(b) || (b | 0x20) &- 97 < 26 || b == 95 }

enum HeaderParser {
    /// Recognises the header of `l` as `preferred` first, then as any other line format.
    /// Fills `h` and returns true when `l` has a header; the preferred format is tried first.
    @inline(__always)
    static func parse(_ l: Bytes, preferred: LogFormat?, into h: inout HeaderSpans) -> Bool {
        if let preferred, parse(l, as: preferred, into: &h) { return true }
        return parseAny(l, into: &h)
    }

    static func parse(_ l: Bytes, as format: LogFormat, into h: inout HeaderSpans) -> Bool {
        switch format {
        case .xcode, .logDefault, .logSyslog, .logCompact: return parseDated(l, into: &h)
        case .idevicesyslog: return parseDeviceSyslog(l, into: &h)
        case .console: return parseConsole(l, into: &h)
        case .xcodeMetadata, .print, .logJSON, .logNDJSON, .unifiedLog, .ips, .crash, .metricKit: return false
        }
    }

    /// Any line format, dispatched on the first byte.
    @inline(__always)
    static func parseAny(_ l: Bytes, into h: inout HeaderSpans) -> Bool {
        guard l.count >= 16 else { return false }
        let b = l[0]
        if isDigit(b) { return parseDated(l, into: &h) || parseConsole(l, into: &h) }
        if isUpper(b) { return parseDeviceSyslog(l, into: &h) }
        if isLower(b) { return parseConsole(l, into: &h) }
        return false
    }

    /// Whether `l` has a header in any line format (the spans are not kept).
    static func isHeader(_ l: Bytes) -> Bool {
        var h = HeaderSpans(format: .print, messageStart: 0)
        return parseAny(l, into: &h)
    }

    // MARK: Dated formats: NSLog, log default, syslog, compact

    /// `YYYY-MM-DD HH:MM:SS[.f{1,9}][±HH[:]MM]` then one of the four layouts.
    static func parseDated(_ l: Bytes, into h: inout HeaderSpans) -> Bool {
        let n = l.count
        guard n >= 21,
              isDigit(l[0]), isDigit(l[1]), isDigit(l[2]), isDigit(l[3]), l[4] == 45,
              isDigit(l[5]), isDigit(l[6]), l[7] == 45, isDigit(l[8]), isDigit(l[9]),
              l[10] == 32 || l[10] == 84,
              isDigit(l[11]), isDigit(l[12]), l[13] == 58, isDigit(l[14]), isDigit(l[15]), l[16] == 58,
              isDigit(l[17]), isDigit(l[18])
        else { return false }
        var p = 19
        var fractionDigits = 0
        if p < n, l[p] == 46 {
            p += 1
            while p < n, isDigit(l[p]) { p += 1; fractionDigits += 1 }
            if fractionDigits == 0 { return false }
        }
        var hasZone = false
        if p + 5 <= n, l[p] == 43 || l[p] == 45, isDigit(l[p + 1]), isDigit(l[p + 2]) {
            if isDigit(l[p + 3]), isDigit(l[p + 4]) { p += 5; hasZone = true }
            else if p + 6 <= n, l[p + 3] == 58, isDigit(l[p + 4]), isDigit(l[p + 5]) { p += 6; hasZone = true }
        }
        let tsEnd = p
        guard p < n, l[p] == 32 else { return false }
        // log default: whitespace, then the hex thread id.
        var q = p
        while q < n, l[q] == 32 { q += 1 }
        if hasZone, q + 2 < n, l[q] == 48, l[q + 1] == 120, q - p >= 1 {
            return parseLogDefault(l, tsEnd: tsEnd, from: q, into: &h)
        }
        // syslog: exactly two spaces, host, process[pid]:
        if hasZone, q == p + 2, parseSyslogBody(l, tsEnd: tsEnd, from: q, into: &h) { return true }
        // compact: 3-digit fraction, no zone, a type code of one or two letters, the process at column 27.
        if !hasZone, fractionDigits == 3, parseCompactBody(l, tsEnd: tsEnd, into: &h) { return true }
        // NSLog: one space, process (may contain spaces), [pid:tid].
        guard q == p + 1 else { return false }
        return parseNSLogBody(l, tsEnd: tsEnd, from: q, into: &h)
    }

    /// `Proc Name[pid:tid] [Category] message` (tid decimal).
    private static func parseNSLogBody(_ l: Bytes, tsEnd: Int, from start: Int, into h: inout HeaderSpans) -> Bool {
        let n = l.count
        var i = start
        while let k = nextByte(l, 91, from: i) {  // '['
            i = k
            if i > start {
                if let (pid, pidEnd) = decimal(l, at: i + 1), pidEnd < n, l[pidEnd] == 58 {
                    var j = pidEnd + 1
                    var tid: UInt64 = 0, tidDigits = 0
                    while j < n, isDigit(l[j]), tidDigits < 20 { tid = tid &* 10 &+ UInt64(l[j] &- 48); j += 1; tidDigits += 1 }
                    if tidDigits > 0, j < n, l[j] == 93, j + 1 == n || l[j + 1] == 32 {
                        h.reset(format: .xcode, messageStart: min(j + 2, n))
                        h.timestamp = 0..<tsEnd
                        h.process = start..<i
                        h.pid = pid
                        h.tid = tid
                        // Optional os_log category: `[SceneConfiguration] …`.
                        let m = h.messageStart
                        if m < n, l[m] == 91 {
                            var k = m + 1
                            while k < n, k - m < 64, l[k] != 93, l[k] != 32 { k += 1 }
                            if k < n, l[k] == 93, k > m + 1, k + 1 == n || l[k + 1] == 32 {
                                h.category = (m + 1)..<k
                            }
                        }
                        return true
                    }
                }
            }
            i += 1
        }
        return false
    }

    /// `0x1e2cd    Error       0x0                  4004   14   Proc: (Sender) [sub:cat] text`.
    private static func parseLogDefault(_ l: Bytes, tsEnd: Int, from start: Int, into h: inout HeaderSpans) -> Bool {
        let n = l.count
        var i = start + 2
        var tid: UInt64 = 0
        let tidStart = i
        while i < n, isHexDigit(l[i]) { tid = tid &* 16 &+ UInt64(hexValue(l[i])); i += 1 }
        guard i > tidStart, i < n, l[i] == 32 else { return false }
        while i < n, l[i] == 32 { i += 1 }
        let typeStart = i
        while i < n, l[i] != 32 { i += 1 }
        let typeEnd = i
        guard typeEnd > typeStart else { return false }
        while i < n, l[i] == 32 { i += 1 }
        guard i + 2 < n, l[i] == 48, l[i + 1] == 120 else { return false }  // activity id 0x…
        i += 2
        while i < n, isHexDigit(l[i]) { i += 1 }
        guard i < n, l[i] == 32 else { return false }
        while i < n, l[i] == 32 { i += 1 }
        guard let (pid, pidEnd) = decimal(l, at: i), pidEnd == n || l[pidEnd] == 32 else { return false }
        i = pidEnd
        while i < n, l[i] == 32 { i += 1 }
        // Optional TTL column (`log show` only): digits followed by spaces.
        var k = i
        while k < n, isDigit(l[k]) { k += 1 }
        if k > i, k < n, l[k] == 32 {
            i = k
            while i < n, l[i] == 32 { i += 1 }
        }
        let full = h.full
        h.reset(format: .logDefault, messageStart: i)
        guard full else { return true }
        h.timestamp = 0..<tsEnd
        h.tid = tid
        h.pid = pid
        h.level = typeStart..<typeEnd
        parseUnifiedMessage(l, into: &h, from: i)
        return true
    }

    /// `<process>: (<sender>) [<subsystem>:<category>] text` of the default style.
    private static func parseUnifiedMessage(_ l: Bytes, into h: inout HeaderSpans, from start: Int) {
        let n = l.count
        var i = start
        while i + 1 < n, !(l[i] == 58 && l[i + 1] == 32) { i += 1 }
        guard i + 1 < n, i > start else { return }
        h.process = start..<i
        var m = i + 2
        m = parseSenderAndCategory(l, into: &h, from: m)
        h.messageStart = m
    }

    /// Optional `(sender) ` and `[subsystem:category] ` prefixes; returns where the text starts.
    private static func parseSenderAndCategory(_ l: Bytes, into h: inout HeaderSpans, from start: Int) -> Int {
        let n = l.count
        var m = start
        if m < n, l[m] == 40 {  // (
            var k = m + 1
            while k < n, l[k] != 41, k - m < 256 { k += 1 }
            if k + 1 < n, l[k] == 41, l[k + 1] == 32 { h.sender = (m + 1)..<k; m = k + 2 }
            else if k + 1 == n, k < n, l[k] == 41 { h.sender = (m + 1)..<k; m = n }
        }
        if m < n, l[m] == 91 {  // [sub:cat]
            var k = m + 1
            var colon = -1
            while k < n, l[k] != 93, l[k] != 32, k - m < 256 { if l[k] == 58, colon < 0 { colon = k }; k += 1 }
            if k < n, l[k] == 93, colon > m + 1, k + 1 == n || l[k + 1] == 32 {
                h.subsystem = (m + 1)..<colon
                h.category = (colon + 1)..<k
                m = min(k + 2, n)
            }
        }
        return m
    }

    /// `  localhost proc[pid]: (sender) [sub:cat] text`.
    private static func parseSyslogBody(_ l: Bytes, tsEnd: Int, from start: Int, into h: inout HeaderSpans) -> Bool {
        let n = l.count
        var i = start
        let hostStart = i
        while i < n, l[i] != 32 { i += 1 }
        guard i > hostStart, i < n else { return false }
        let procStart = i + 1
        // process[pid]: — the process may contain spaces; find `[digits]:`.
        var j = procStart
        while let b = nextByte(l, 91, from: j) {
            j = b
            if j > procStart {
                if let (pid, k) = decimal(l, at: j + 1), k + 1 < n, l[k] == 93, l[k + 1] == 58 {
                    var m = k + 2
                    while m < n, l[m] == 32 { m += 1 }
                    let full = h.full
                    h.reset(format: .logSyslog, messageStart: m)
                    guard full else { return true }
                    h.timestamp = 0..<tsEnd
                    h.device = hostStart..<(procStart - 1)
                    h.process = procStart..<j
                    h.pid = pid
                    h.messageStart = parseSenderAndCategory(l, into: &h, from: m)
                    return true
                }
            }
            j += 1
        }
        return false
    }

    /// `Df proc[pid:tidhex] [sub:cat] text` with the process at column 27.
    private static func parseCompactBody(_ l: Bytes, tsEnd: Int, into h: inout HeaderSpans) -> Bool {
        let n = l.count
        guard tsEnd == 23, n > 28, l[23] == 32, isUpper(l[24]), l[26] == 32,
              l[25] == 32 || isLower(l[25]), l[27] != 32 else { return false }
        let procStart = 27
        var j = procStart
        while let b = nextByte(l, 91, from: j) {
            j = b
            if j > procStart {
                if let (pid, pidEnd) = decimal(l, at: j + 1), pidEnd < n, l[pidEnd] == 58 {
                    var k = pidEnd + 1
                    var tid: UInt64 = 0, hex = 0
                    while k < n, isHexDigit(l[k]), hex < 16 { tid = tid &* 16 &+ UInt64(hexValue(l[k])); k += 1; hex += 1 }
                    if hex > 0, k < n, l[k] == 93, k + 1 == n || l[k + 1] == 32 {
                        let full = h.full
                        h.reset(format: .logCompact, messageStart: min(k + 2, n))
                        guard full else { return true }
                        h.timestamp = 0..<tsEnd
                        h.level = 24..<(l[25] == 32 ? 25 : 26)
                        h.process = procStart..<j
                        h.pid = pid
                        h.tid = tid
                        h.messageStart = parseSenderAndCategory(l, into: &h, from: h.messageStart)
                        return true
                    }
                }
            }
            j += 1
        }
        return false
    }

    // MARK: idevicesyslog

    /// `Mmm dd HH:MM:SS [device ]proc[(lib)][pid] <Level>: text` (also legacy lines without `<Level>`).
    static func parseDeviceSyslog(_ l: Bytes, into h: inout HeaderSpans) -> Bool {
        let n = l.count
        guard n >= 20, isUpper(l[0]), isLower(l[1]), isLower(l[2]), l[3] == 32,
              l[4] == 32 || isDigit(l[4]), isDigit(l[5]), l[6] == 32,
              isDigit(l[7]), isDigit(l[8]), l[9] == 58, isDigit(l[10]), isDigit(l[11]), l[12] == 58,
              isDigit(l[13]), isDigit(l[14]), l[15] == 32, monthNumber(l[0], l[1], l[2]) != nil
        else { return false }
        // Find `[digits]` followed by ` <Level>:` or `:`.
        var j = 16
        while let b = nextByte(l, 91, from: j) {
            j = b
            if j > 16 {
                if let (pid, k) = decimal(l, at: j + 1), k < n, l[k] == 93 {
                    var m = k + 1
                    var level: Range<Int>? = nil
                    if m + 1 < n, l[m] == 32, l[m + 1] == 60 {  // ' <'
                        var e = m + 2
                        while e < n, isIdent(l[e]) { e += 1 }
                        guard e + 1 < n, l[e] == 62, l[e + 1] == 58 else { j += 1; continue }
                        level = (m + 2)..<e
                        m = e + 2
                    } else if m < n, l[m] == 58 {
                        m += 1
                    } else { j += 1; continue }
                    if m < n, l[m] == 32 { m += 1 }
                    guard h.full else {
                        h.reset(format: .idevicesyslog, messageStart: m)
                        return true
                    }
                    // Process token: back from '[' to the previous space (a `(Library)` part stays with it).
                    var ps = j
                    var paren = 0
                    while ps > 16 {
                        let c = l[ps - 1]
                        if c == 41 { paren += 1 } else if c == 40 { paren -= 1 }
                        if c == 32, paren <= 0 { break }
                        ps -= 1
                    }
                    h.reset(format: .idevicesyslog, messageStart: m)
                    h.timestamp = 0..<15
                    h.pid = pid
                    h.level = level
                    if ps > 17 { h.device = 16..<(ps - 1) }
                    // Split `Proc(Library)`.
                    var procEnd = j
                    if j > ps, l[j - 1] == 41 {
                        var o = j - 1
                        while o > ps, l[o] != 40 { o -= 1 }
                        if o > ps { h.sender = (o + 1)..<(j - 1); procEnd = o }
                    }
                    h.process = ps..<procEnd
                    return true
                }
            }
            j += 1
        }
        return false
    }

    // MARK: Console.app copies

    /// Tab-separated visible columns; needs a `HH:MM:SS.ffffff±ZZZZ` time field.
    static func parseConsole(_ l: Bytes, into h: inout HeaderSpans) -> Bool {
        let n = l.count
        guard n > 10, let base = l.baseAddress, memchr(base, 9, n) != nil else { return false }
        // Up to 12 tab positions; the last field is the message.
        var start = 0
        var tabs = [Int]()
        tabs.reserveCapacity(10)
        var i = 0
        while i < n {
            if l[i] == 9 { tabs.append(i); if tabs.count == 12 { break } }
            i += 1
        }
        guard tabs.count >= 2 else { return false }
        var timeField: Range<Int>? = nil
        var typeField: Range<Int>? = nil
        var pid: Int? = nil
        var ranges: [Range<Int>] = []
        for t in tabs { ranges.append(start..<t); start = t + 1 }
        let message = start..<n
        for r in ranges {
            if timeField == nil, isConsoleTime(l, r) { timeField = r; continue }
            if typeField == nil, isConsoleType(l, r) { typeField = r; continue }
        }
        guard let time = timeField else { return false }
        h.reset(format: .console, messageStart: message.lowerBound)
        h.timestamp = time
        h.level = typeField
        // Process: the first field after the time that is neither the type nor all digits.
        var afterTime = false
        var rest: [Range<Int>] = []
        for r in ranges {
            if r == time { afterTime = true; continue }
            if !afterTime || r == typeField { continue }
            if pid == nil, !r.isEmpty, r.allSatisfy({ isDigit(l[$0]) }), r.count < 10 {
                pid = r.reduce(0) { $0 * 10 + Int(l[$1] &- 48) }
                continue
            }
            rest.append(r)
        }
        if rest.isEmpty {  // type/time/process order may put the process before the time
            for r in ranges where r != time && r != typeField && !r.isEmpty { rest.append(r) }
        }
        h.pid = pid
        if let p = rest.first { h.process = p }
        if rest.count >= 2 { h.sender = rest[1] }
        if rest.count >= 3, l[rest[2]].contains(46) { h.subsystem = rest[2] }
        return true
    }

    private static func isConsoleTime(_ l: Bytes, _ r: Range<Int>) -> Bool {
        let n = r.count, s = r.lowerBound
        guard n >= 8, isDigit(l[s]), isDigit(l[s + 1]), l[s + 2] == 58, isDigit(l[s + 3]), isDigit(l[s + 4]),
              l[s + 5] == 58, isDigit(l[s + 6]), isDigit(l[s + 7]) else { return false }
        var i = s + 8
        if i < r.upperBound, l[i] == 46 { i += 1; while i < r.upperBound, isDigit(l[i]) { i += 1 } }
        if i < r.upperBound, l[i] == 43 || l[i] == 45 { i += 1; while i < r.upperBound, isDigit(l[i]) || l[i] == 58 { i += 1 } }
        return i == r.upperBound
    }

    private static func isConsoleType(_ l: Bytes, _ r: Range<Int>) -> Bool {
        let words: [[UInt8]] = [Array("default".utf8), Array("info".utf8), Array("debug".utf8), Array("error".utf8),
                                Array("fault".utf8), Array("notice".utf8), Array("activity".utf8)]
        guard r.count >= 4, r.count <= 8 else { return false }
        for w in words where w.count == r.count {
            var same = true
            for (k, b) in w.enumerated() where (l[r.lowerBound + k] | 0x20) != b { same = false; break }
            if same { return true }
        }
        return false
    }

    // MARK: Xcode 15+ metadata

    /// `Type: Error | Timestamp: … | Process: … | Library: … | Subsystem: … | Category: … | TID: 0x…`.
    static func isMetadataLine(_ l: Bytes) -> Bool {
        guard l.count >= 7, l[0] == 84, l[1] == 121, l[2] == 112, l[3] == 101, l[4] == 58, l[5] == 32 else { return false }
        var i = 6
        while i < l.count, isIdent(l[i]) { i += 1 }
        guard i > 6 else { return false }
        if i == l.count { return true }
        return i + 2 < l.count && l[i] == 32 && l[i + 1] == 124 && l[i + 2] == 32
    }

    // MARK: helpers

    /// The decimal number at `i` (at most `limit` digits): its value and where it ends, or nil
    /// when no digit is there.
    @inline(__always) static func decimal(_ l: Bytes, at i: Int, limit: Int = 10) -> (value: Int, end: Int)? {
        var k = i, value = 0
        while k < l.count, isDigit(l[k]), k - i < limit { value = value &* 10 &+ Int(l[k] &- 48); k += 1 }
        return k > i ? (value, k) : nil
    }

    /// Offset of the next `byte` at or after `from` (memchr: SIMD in every libc).
    @inline(__always) static func nextByte(_ l: Bytes, _ byte: UInt8, from: Int) -> Int? {
        guard from < l.count, let base = l.baseAddress, let p = memchr(base + from, Int32(byte), l.count - from) else { return nil }
        return UnsafeRawPointer(p) - UnsafeRawPointer(base)
    }

    @inline(__always) static func hexValue(_ b: UInt8) -> UInt8 {
        isDigit(b) ? b &- 48 : (b | 0x20) &- 87
    }

    static func monthNumber(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int? {
        switch (a, b | 0x20, c | 0x20) {
        case (74, 97, 110): return 1   // Jan
        case (70, 101, 98): return 2   // Feb
        case (77, 97, 114): return 3   // Mar
        case (65, 112, 114): return 4  // Apr
        case (77, 97, 121): return 5   // May
        case (74, 117, 110): return 6  // Jun
        case (74, 117, 108): return 7  // Jul
        case (65, 117, 103): return 8  // Aug
        case (83, 101, 112): return 9  // Sep
        case (79, 99, 116): return 10  // Oct
        case (78, 111, 118): return 11 // Nov
        case (68, 101, 99): return 12  // Dec
        default: return nil
        }
    }
}
