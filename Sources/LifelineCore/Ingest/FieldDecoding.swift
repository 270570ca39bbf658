/// Turns the header offsets of a record's first line into strings and a timestamp. Runs only for
/// records that can hold an event.
enum FieldDecoding {
    static func string(_ l: Bytes, _ r: Range<Int>?) -> String? {
        guard let r, !r.isEmpty, let base = l.baseAddress else { return nil }
        return String(decoding: UnsafeBufferPointer(start: base + r.lowerBound, count: r.count), as: UTF8.self)
    }

    /// Just the message of a record's first line.
    static func message(from l: Bytes, spans h: HeaderSpans) -> RecordText {
        var r = RecordText(format: h.format, message: string(l, h.messageStart..<l.count) ?? "")
        r.category = string(l, h.category)
        return r
    }

    /// Completes an event with the header fields of its record's first line. `day`: the input's
    /// day a time written without a date falls on (`DaylessClock`).
    static func fill(_ e: inout Event, from l: Bytes, spans h: HeaderSpans, context: TimeContext, day: Int = 0) {
        e.takeHeader(of: record(from: l, spans: h, context: context, day: day))
    }

    static func record(from l: Bytes, spans h: HeaderSpans, context: TimeContext, day: Int = 0) -> RecordText {
        var r = RecordText(format: h.format, message: string(l, h.messageStart..<l.count) ?? "")
        r.process = string(l, h.process)
        r.pid = h.pid
        r.tid = h.tid
        r.level = string(l, h.level)
        r.subsystem = string(l, h.subsystem)
        r.category = string(l, h.category)
        r.sender = string(l, h.sender)
        if let ts = h.timestamp, let base = l.baseAddress {
            r.timestamp = timestamp(UnsafeBufferPointer(start: base + ts.lowerBound, count: ts.count),
                                    format: h.format, context: context, day: day)
        }
        return r
    }

    /// The same, from text a reader already holds as a string (a JSON field, a report's header).
    static func timestamp(_ text: String?, format: LogFormat, context: TimeContext) -> LogTimestamp? {
        guard var t = text else { return nil }
        return t.withUTF8 { timestamp($0, format: format, context: context) }
    }

    /// Parses `YYYY-MM-DD HH:MM:SS[.f][±HH[:]MM]`, `Mmm dd HH:MM:SS` and `HH:MM:SS[.f][±HHMM]`;
    /// the last falls on the input's day `day`.
    static func timestamp(_ t: Bytes, format: LogFormat, context: TimeContext, day dayIndex: Int = 0) -> LogTimestamp? {
        func num(_ a: Int, _ n: Int) -> Int? {
            guard a + n <= t.count else { return nil }
            var v = 0
            for i in a..<(a + n) { guard isDigit(t[i]) else { return nil }; v = v * 10 + Int(t[i] &- 48) }
            return v
        }
        var year: Int?, month: Int?, day: Int?
        var p = 0
        var inferred = false
        if t.count >= 19, t[4] == 45 {
            year = num(0, 4); month = num(5, 2); day = num(8, 2); p = 11
        } else if t.count >= 15, let mo = HeaderParser.monthNumber(t[0], t[1], t[2]) {
            month = mo
            day = t[4] == 32 ? num(5, 1) : num(4, 2)
            year = context.inferYear(month: mo, day: day)
            inferred = true
            p = 7
        }
        guard let hour = num(p, 2), let minute = num(p + 3, 2), let second = num(p + 6, 2) else { return nil }
        p += 8
        var fracStart = p, fracEnd = p
        if p < t.count, t[p] == 46 {
            fracStart = p + 1
            p += 1
            while p < t.count, isDigit(t[p]) { p += 1 }
            fracEnd = p
        }
        var offset: Int? = nil
        // Crash reports write the offset after a space (`2022-09-18 15:28:37.00 +0900`).
        if format.isReport, p + 1 < t.count, t[p] == 32, t[p + 1] == 43 || t[p + 1] == 45 { p += 1 }
        if p < t.count, t[p] == 90 {  // `Z`: RFC 3339 UTC (unifiedlog_iterator)
            offset = 0
        } else if p < t.count, t[p] == 43 || t[p] == 45 {
            let sign = t[p] == 45 ? -1 : 1
            if let hh = num(p + 1, 2) {
                let mm = num(p + 3, 2) ?? num(p + 4, 2) ?? 0
                offset = sign * (hh * 60 + mm)
            }
        }
        let fraction = String(decoding: UnsafeBufferPointer(rebasing: t[fracStart..<fracEnd]), as: UTF8.self)
        return LogTimestamp.make(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                                 fraction: Substring(fraction), offsetMinutes: offset, yearInferred: inferred, dayIndex: dayIndex)
    }
}

/// What is needed to complete dates that a log writes without a year.
public struct TimeContext: Sendable {
    /// Date of the input's modification time (or of the run, for standard input), plus a day.
    public var referenceYear: Int
    public var referenceMonth: Int
    /// Day of the reference month (nil: its last day, when only the month is known).
    public var referenceDay: Int?

    public init(referenceYear: Int, referenceMonth: Int, referenceDay: Int? = nil) {
        self.referenceYear = referenceYear
        self.referenceMonth = referenceMonth
        self.referenceDay = referenceDay
    }

    /// The year of a date written without one: the latest year that puts it no later than the
    /// reference date (a log is older than its file). So a log that crosses New Year (`Dec 31`
    /// then `Jan  1`) keeps its order whatever month its file was last written in (comparing months
    /// only put `Jan  1` eleven months before `Dec 31` when the file's time was in December).
    func inferYear(month: Int, day: Int? = nil) -> Int {
        let day = day ?? 1
        let limit = referenceDay.map { LogTimestamp.daysFromCivil(referenceYear, referenceMonth, $0) }
            ?? LogTimestamp.daysFromCivil(referenceMonth == 12 ? referenceYear + 1 : referenceYear, referenceMonth % 12 + 1, 1) - 1
        if LogTimestamp.daysFromCivil(referenceYear, month, day) <= limit { return referenceYear }
        return referenceYear - 1
    }

    /// Moves the reference date to the day after `date` a year later: `date` was inferred a year
    /// too early (the reference date was behind the log: a stream read past New Year).
    mutating func moveReference(pastNewYearOf date: (year: Int, month: Int, day: Int)) {
        let (y, m, d) = LogTimestamp.civil(fromDays: LogTimestamp.daysFromCivil(date.year + 1, date.month, date.day) + 1)
        self = TimeContext(referenceYear: y, referenceMonth: m, referenceDay: d)
    }

    /// The reference date of a file written at `s`, plus a day: the log's own times are local
    /// and may be up to a day ahead of the UTC date of `s`.
    public init(secondsSince1970 s: Double) {
        let (y, m, d) = LogTimestamp.civil(fromDays: Int((s / 86400).rounded(.down)) + 1)
        self.init(referenceYear: y, referenceMonth: m, referenceDay: d)
    }
}

/// Per input: how many times the times it writes without a date (Console.app copies:
/// `default<TAB>21:08:54.482829-0500<TAB>SpringBoard<TAB>…`) went past midnight. Fed the time of
/// each record's header in input order; a time more than twelve hours earlier than the one before
/// it is on the next day. Processes interleaved out of order (a few seconds or minutes back) and a
/// change to daylight saving time (an hour back) stay on their day. Half a day without a single
/// line cannot be told from a new day, and a capture pasted newest first is not turned around.
struct DaylessClock: Sendable {
    /// Days past the input's first so far.
    private(set) var day = 0
    /// Second of the day (as the log wrote it, in its own zone) of the input's first and last
    /// times without a date; -1 before the first.
    private(set) var first = -1
    private(set) var last = -1

    static let rollover = 12 * 3600

    /// Whether a time at second `next` of its day, after one at `previous`, is on the next day.
    @inline(__always) static func rolls(from previous: Int, to next: Int) -> Bool {
        previous >= 0 && previous - next > rollover
    }

    /// Notes the time at `span` of `l` when it is a time of day with no date (`HH:MM:SS…`).
    /// Returns true for the input's first such time. Runs once per record header: a few byte reads.
    @inline(__always) mutating func observe(_ l: Bytes, _ span: Range<Int>) -> Bool {
        let s = span.lowerBound
        guard span.count >= 8, l[s + 2] == 58, l[s + 5] == 58 else { return false }
        @inline(__always) func two(_ i: Int) -> Int { Int(l[i] &- 48) * 10 + Int(l[i + 1] &- 48) }
        let t = two(s) * 3600 + two(s + 3) * 60 + two(s + 6)
        if Self.rolls(from: last, to: t) { day += 1 }
        let isFirst = last < 0
        if isFirst { first = t }
        last = t
        return isFirst
    }
}
