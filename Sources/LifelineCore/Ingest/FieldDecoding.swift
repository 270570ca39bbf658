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

    /// Completes an event with the header fields of its record's first line.
    static func fill(_ e: inout Event, from l: Bytes, spans h: HeaderSpans, context: TimeContext) {
        e.takeHeader(of: record(from: l, spans: h, context: context))
    }

    static func record(from l: Bytes, spans h: HeaderSpans, context: TimeContext) -> RecordText {
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
                                    format: h.format, context: context)
        }
        return r
    }

    /// The same, from text a reader already holds as a string (a JSON field, a report's header).
    static func timestamp(_ text: String?, format: LogFormat, context: TimeContext) -> LogTimestamp? {
        guard var t = text else { return nil }
        return t.withUTF8 { timestamp($0, format: format, context: context) }
    }

    /// Parses `YYYY-MM-DD HH:MM:SS[.f][±HH[:]MM]`, `Mmm dd HH:MM:SS` and `HH:MM:SS[.f][±HHMM]`.
    static func timestamp(_ t: Bytes, format: LogFormat, context: TimeContext) -> LogTimestamp? {
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
                                 fraction: Substring(fraction), offsetMinutes: offset, yearInferred: inferred)
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

    /// The reference date of a file written at `s`, plus a day: the log's own times are local
    /// and may be up to a day ahead of the UTC date of `s`.
    public init(secondsSince1970 s: Double) {
        let (y, m, d) = LogTimestamp.civil(fromDays: Int((s / 86400).rounded(.down)) + 1)
        self.init(referenceYear: y, referenceMonth: m, referenceDay: d)
    }
}
