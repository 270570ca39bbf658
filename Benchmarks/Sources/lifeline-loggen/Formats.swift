/// The text shapes of lifecycle-reference.md §6.
enum LogFormat: Int, CaseIterable {
    /// §6.1 Xcode console, NSLog header: `2024-03-05 14:22:01.123456+0100 App[pid:tid] [Category] msg`
    case xcode
    /// §6.4 / §6.5 `log show` / `log stream`, default style (column header, hex thread, type, activity, pid[, ttl]).
    case logDefault
    /// §6.7 `--style compact`: `2024-03-05 14:22:01.123 Df App[pid:tidhex] [sub:cat] msg`
    case logCompact
    /// §6.6 `--style syslog`: `2024-03-05 14:22:01.123456+0100  localhost App[pid]: (sender) [sub:cat] msg`
    case logSyslog
    /// §6.9 idevicesyslog: `Mar  5 14:22:01 [device ]App(lib)[pid] <Notice>: msg`
    case idevicesyslog
    /// Rows copied from Console.app, four tab-separated columns (type, time, process, message) as in
    /// shared/corpus/device-logs: `default\t21:08:54.590768-0500\tSpringBoard\tBootstrapping …`. No date,
    /// no pid. Not in the mixed rotation (the device shape writes it).
    case console

    var name: StaticString {
        switch self {
        case .xcode: "xcode"
        case .logDefault: "log-default"
        case .logCompact: "log-compact"
        case .logSyslog: "log-syslog"
        case .idevicesyslog: "idevicesyslog"
        case .console: "console"
        }
    }

    static func named(_ s: String) -> LogFormat? {
        allCases.first { String(describing: $0.name) == s }
    }

    /// The `mixed` rotation.
    static let rotation: [LogFormat] = [.xcode, .logDefault, .logCompact, .logSyslog, .idevicesyslog]
}

enum Level: Int {
    case `default`, info, debug, error, fault

    /// `log show` default style, padded by the caller.
    var typeName: StaticString {
        switch self {
        case .default: "Default"
        case .info: "Info"
        case .debug: "Debug"
        case .error: "Error"
        case .fault: "Fault"
        }
    }

    /// `--style compact`: two characters.
    var compactCode: StaticString {
        switch self {
        case .default: "Df"
        case .info: "I "
        case .debug: "Db"
        case .error: "E "
        case .fault: "F "
        }
    }

    /// Console.app's Type column.
    var consoleName: StaticString {
        switch self {
        case .default: "default"
        case .info: "info"
        case .debug: "debug"
        case .error: "error"
        case .fault: "fault"
        }
    }

    /// idevicesyslog `<Level>`.
    var syslogName: StaticString {
        switch self {
        case .default: "Notice"
        case .info: "Info"
        case .debug: "Debug"
        case .error: "Error"
        case .fault: "Error"
        }
    }
}

/// Who wrote a line: the header fields of every format are derived from this.
struct Origin {
    var process: [UInt8]
    var pid: Int
    var tid: UInt64
    var level: Level = .default
    /// Sender image (`(CFNetwork)` in log show/syslog, `App(CFNetwork)[pid]` in idevicesyslog).
    var sender: StaticString? = nil
    /// `[subsystem:category]` in the unified-log styles; the Xcode console shows `[category]` only.
    var subsystem: StaticString? = nil
    var appSubsystem: [UInt8]? = nil
    var category: StaticString? = nil
    /// `log show` activity id (0 = none).
    var activity: UInt64 = 0
}

/// Per-segment settings: one capture made with one tool.
struct SegmentStyle {
    var format: LogFormat
    /// `+0100`
    var timeZone: StaticString = "+0000"
    /// `log stream` (no TTL column) rather than `log show`.
    var isStream = false
    /// idevicesyslog raw relay keeps the device name; newer idevicesyslog drops it.
    var deviceName: StaticString? = nil
}

let timeZones: [StaticString] = ["+0000", "+0100", "+0200", "+0300", "-0500", "-0700", "-0800", "+0530", "+0800", "+0900", "-0300", "+1000"]
let monthNames: StaticString = "JanFebMarAprMayJunJulAugSepOctNovDec"

/// Formats timestamps from microseconds since 1970 (local time already applied), caching the date.
struct TimeFormatter {
    private var cachedDay: Int64 = .min
    private var year = 1970, month = 1, day = 1

    /// Howard Hinnant's days-to-civil.
    private mutating func setDay(_ z0: Int64) {
        cachedDay = z0
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        year = Int(yoe + era * 400 + (m <= 2 ? 1 : 0))
        month = Int(m)
        day = Int(d)
    }

    /// `timeOnly`: Console.app's `21:08:54.482829` (the caller appends the zone).
    enum Style { case micro, milli, syslog, timeOnly }

    mutating func write(_ us: Int64, _ style: Style, to s: Sink) {
        let dayNumber = us / 86_400_000_000
        if dayNumber != cachedDay { setDay(dayNumber) }
        let rem = Int(us - dayNumber * 86_400_000_000)
        let secs = rem / 1_000_000
        let frac = rem % 1_000_000
        switch style {
        case .micro, .milli:
            s.dec(year, width: 4); s.byte(0x2D)
            s.dec(month, width: 2); s.byte(0x2D)
            s.dec(day, width: 2); s.byte(0x20)
        case .timeOnly:
            break
        case .syslog:
            monthNames.withUTF8Buffer { s.raw(UnsafeBufferPointer(rebasing: $0[(month - 1) * 3 ..< month * 3])) }
            s.byte(0x20)
            if day < 10 { s.byte(0x20); s.dec(day) } else { s.dec(day) }
            s.byte(0x20)
        }
        s.dec(secs / 3600, width: 2); s.byte(0x3A)
        s.dec(secs / 60 % 60, width: 2); s.byte(0x3A)
        s.dec(secs % 60, width: 2)
        switch style {
        case .micro, .timeOnly: s.byte(0x2E); s.dec(frac, width: 6)
        case .milli: s.byte(0x2E); s.dec(frac / 1000, width: 3)
        case .syslog: break
        }
    }
}
