/// A timestamp as a log wrote it, normalised to ISO 8601.
public struct LogTimestamp: Sendable, Equatable, Hashable {
    /// ISO 8601 text: `2024-03-01T10:00:00.123456+08:00`; without offset when the log has none;
    /// time only (`08:00:54.158544-06:00`) when the log has no date (Console.app copies).
    public var iso: String
    /// Seconds since 1970-01-01T00:00:00Z when the date and offset are known; seconds since
    /// 1970 in the log's own (unknown) zone when only the offset is missing. For a time of day
    /// written without a date (`isTimeOfDay`): seconds from the start of the input's first day,
    /// taken as 1970-01-01, plus a day for each time the input's times went past midnight
    /// (`DaylessClock`), so durations and order within the input hold; it is no date.
    public var seconds: Double?
    /// The log carries a UTC offset.
    public var hasOffset: Bool
    /// The year was not in the log and was inferred (idevicesyslog).
    public var yearInferred: Bool
    /// The UTC offset in minutes, as written or (for times written without one) as last seen in the
    /// same input; nil when unknown.
    public var offsetMinutes: Int?

    public init(iso: String, seconds: Double?, hasOffset: Bool, yearInferred: Bool = false, offsetMinutes: Int? = nil) {
        self.iso = iso
        self.seconds = seconds
        self.hasOffset = hasOffset
        self.yearInferred = yearInferred
        self.offsetMinutes = offsetMinutes
    }

    /// The log wrote a time of day and no date (`08:00:54.158544-06:00`, Console.app copies):
    /// `seconds` counts the input's own days, not the calendar's.
    public var isTimeOfDay: Bool {
        let u = iso.utf8
        return u.count > 2 && u[u.index(u.startIndex, offsetBy: 2)] == 58  // `HH:`, never `YYYY-`
    }

    /// The date as written (`YYYY-MM-DD` at the start of `iso`), or nil for a time of day only.
    var civilDate: (year: Int, month: Int, day: Int)? {
        let u = Array(iso.utf8.prefix(10))
        guard u.count == 10, u[4] == 45, u[7] == 45 else { return nil }
        var v: [Int] = []
        for r in [0..<4, 5..<7, 8..<10] {
            var x = 0
            for b in u[r] { guard isDigit(b) else { return nil }; x = x * 10 + Int(b &- 48) }
            v.append(x)
        }
        return (v[0], v[1], v[2])
    }

    /// The wall-clock time as the log wrote it, for people: `2024-03-01 10:00:00.123 +08:00`
    /// (milliseconds; the log's own UTC offset, or none when it gave none).
    public var wallClock: String {
        var text = iso.replacingOccurrences(of: "T", with: " ")
        var zone = ""
        if let z = text.lastIndex(where: { $0 == "+" || $0 == "-" || $0 == "Z" }), z > text.index(text.startIndex, offsetBy: min(text.count, 10)) {
            zone = " " + text[z...]
            text = String(text[..<z])
        }
        if let dot = text.lastIndex(of: "."), text.distance(from: dot, to: text.endIndex) > 4 {
            text = String(text[..<text.index(dot, offsetBy: 4)])
        }
        return text + zone
    }

    /// A time written without an offset, read with the offset the same input uses elsewhere.
    mutating func assumeOffset(_ minutes: Int) {
        guard !hasOffset, offsetMinutes == nil, let s = seconds else { return }
        seconds = s - Double(minutes * 60)
        offsetMinutes = minutes
    }

    /// Days from 1970-01-01 to the given civil date (proleptic Gregorian).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The civil date of a day count from 1970-01-01 (the inverse of `daysFromCivil`).
    static func civil(fromDays z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// Builds a timestamp from parsed fields. `fraction` holds the digits after the point as written.
    /// `dayIndex`: for a time without a date, the input's day it falls on (0: its first).
    static func make(year: Int?, month: Int?, day: Int?, hour: Int, minute: Int, second: Int,
                     fraction: Substring, offsetMinutes: Int?, yearInferred: Bool = false, dayIndex: Int = 0) -> LogTimestamp {
        // Written byte by byte: this runs once per event.
        var b: [UInt8] = []
        b.reserveCapacity(40)
        func digits(_ v: Int, _ width: Int) {
            let start = b.count
            for _ in 0..<width { b.append(48) }
            var x = v
            var i = start + width - 1
            while i >= start { b[i] = UInt8(48 + x % 10); x /= 10; i -= 1 }
        }
        if let year, let month, let day {
            digits(year, 4); b.append(45); digits(month, 2); b.append(45); digits(day, 2); b.append(84)
        }
        digits(hour, 2); b.append(58); digits(minute, 2); b.append(58); digits(second, 2)
        var fractionValue = 0.0
        if !fraction.isEmpty {
            b.append(46)
            var scale = 0.1
            for u in fraction.utf8 {
                b.append(u)
                fractionValue += Double(u &- 48) * scale
                scale /= 10
            }
        }
        if let off = offsetMinutes {
            b.append(off < 0 ? 45 : 43)
            digits(abs(off) / 60, 2); b.append(58); digits(abs(off) % 60, 2)
        }
        let iso = String(decoding: b, as: UTF8.self)
        let days: Int
        if let year, let month, let day { days = daysFromCivil(year, month, day) } else { days = dayIndex }
        var secs = Double(days * 86400 + hour * 3600 + minute * 60 + second) + fractionValue
        if let off = offsetMinutes { secs -= Double(off * 60) }
        return LogTimestamp(iso: iso, seconds: secs, hasOffset: offsetMinutes != nil, yearInferred: yearInferred,
                            offsetMinutes: offsetMinutes)
    }
}

extension LogTimestamp {
    /// The fields of an `iso` text this type writes: the date when there is one, the time of day
    /// (seconds with their fraction as written) and the UTC offset in minutes when there is one.
    private struct Fields {
        var year: Int?, month: Int?, day: Int?
        var hour: Int, minute: Int, second: Int
        var fraction: Substring
        var offset: Int?

        init?(_ text: String) {
            let b = Array(text.utf8)
            var i = 0
            func number(_ width: Int) -> Int? {
                guard i + width <= b.count else { return nil }
                var v = 0
                for k in i..<(i + width) {
                    guard b[k] >= 48, b[k] <= 57 else { return nil }
                    v = v * 10 + Int(b[k] - 48)
                }
                i += width
                return v
            }
            func expect(_ c: UInt8) -> Bool {
                guard i < b.count, b[i] == c else { return false }
                i += 1
                return true
            }
            if b.count >= 11, b[4] == 45, b[10] == 84 {  // YYYY-MM-DDT
                guard let y = number(4), expect(45), let m = number(2), expect(45), let d = number(2), expect(84) else { return nil }
                (year, month, day) = (y, m, d)
            }
            guard let h = number(2), expect(58), let m = number(2), expect(58), let s = number(2) else { return nil }
            (hour, minute, second) = (h, m, s)
            fraction = ""
            if expect(46) {
                let start = i
                while i < b.count, b[i] >= 48, b[i] <= 57 { i += 1 }
                guard i > start else { return nil }
                fraction = Substring(String(decoding: b[start..<i], as: UTF8.self))
            }
            if i < b.count {
                let sign = b[i] == 45 ? -1 : b[i] == 43 ? 1 : 0
                guard sign != 0 else { return nil }
                i += 1
                guard let oh = number(2), expect(58), let om = number(2) else { return nil }
                offset = sign * (oh * 60 + om)
            }
            guard i == b.count else { return nil }
        }

        /// Seconds of the day, in UTC when the offset is known.
        var secondsOfDay: Double {
            var s = Double(hour * 3600 + minute * 60 + second)
            var scale = 0.1
            for u in fraction.utf8 { s += Double(u - 48) * scale; scale /= 10 }
            return s - Double((offset ?? 0) * 60)
        }
    }

    /// Reads back an `iso` text this type writes (`2024-03-01T10:00:00.123+08:00`,
    /// `08:00:54.158544-06:00`, a time without an offset), such as a launch's `tapTime`; nil for
    /// anything else.
    public init?(iso text: String) {
        guard let f = Fields(text) else { return nil }
        self = Self.make(year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second,
                         fraction: f.fraction, offsetMinutes: f.offset)
        // A time of day read back on its own has lost the day of its input (`DaylessClock`): it
        // compares by the clock (`interval(since:)`), not by seconds.
        if isTimeOfDay { seconds = nil }
    }

    /// The log wrote a date (a Console.app copy writes the time of day only).
    public var hasDate: Bool { iso.utf8.count > 10 && iso.utf8.dropFirst(10).first == 84 }

    /// The smallest step the log's clock shows: 1 s for whole seconds (idevicesyslog, syslog),
    /// 0.001 s for milliseconds, and so on.
    public var resolution: Double {
        guard let f = Fields(iso) else { return 1 }
        var r = 1.0
        for _ in f.fraction.utf8 { r /= 10 }
        return r
    }

    /// Seconds from `earlier` to this time: by `seconds` when both have them; for two times of day
    /// without a date (a Console.app copy, whose lines are in time order) by the clock, across
    /// midnight when that is the shorter way (within 12 hours either way); nil when the two cannot
    /// be compared.
    public func interval(since earlier: LogTimestamp) -> Double? {
        // A dated time and a time of day are on no common clock.
        guard isTimeOfDay == earlier.isTimeOfDay else { return nil }
        if let a = earlier.seconds, let b = seconds { return b - a }
        guard !hasDate, !earlier.hasDate, let a = Fields(earlier.iso), let b = Fields(iso) else { return nil }
        var d = (b.secondsOfDay - a.secondsOfDay).truncatingRemainder(dividingBy: 86400)
        if d > 43200 { d -= 86400 } else if d <= -43200 { d += 86400 }
        return d
    }

    /// This time is later than `earlier` by at least either clock's resolution, so not the same
    /// moment written at whole seconds; nil when the two cannot be compared.
    public func isSurelyAfter(_ earlier: LogTimestamp) -> Bool? {
        // Half a step: two times a step apart differ by a step, give or take the rounding of a double.
        interval(since: earlier).map { $0 > max(resolution, earlier.resolution) / 2 }
    }
}
