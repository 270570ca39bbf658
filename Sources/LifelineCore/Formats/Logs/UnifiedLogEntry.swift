import Foundation

/// One line of the JSON Lines that mandiant's `unifiedlog_iterator` writes (`-f jsonl`): the
/// `LogData` of its `macos-unifiedlogs` library serialized field by field, so a `.logarchive` from
/// a sysdiagnose can be read on Linux without `log show`.
///
/// Fields used (names and types from the library's `LogData`, which has no serde renames):
/// `message` (the formatted message), `process` and `library` (full image paths, `""` when the
/// string files were missing), `pid`, `thread_id`, `log_type` (`Default`, `Info`, `Debug`,
/// `Error`, `Fault`, signpost and dump types), `subsystem`, `category`, and the time as
/// `timestamp` (RFC 3339 UTC with nanoseconds, `…T03:05:26.434850816Z`) or, when absent, `time`
/// (nanoseconds since 1970 as a double). Newer releases write `null` for absent strings; both are
/// taken as absent.
enum UnifiedLogEntry {
    static func record(_ obj: [String: Any], context: TimeContext) -> RecordText {
        func string(_ key: String) -> String? {
            (obj[key] as? String).flatMap { $0.isEmpty ? nil : $0 }
        }
        func lastComponent(_ path: String?) -> String? {
            path.flatMap { $0.split(separator: "/").last.map(String.init) }
        }
        var t = RecordText(format: .unifiedLog, message: (obj["message"] as? String) ?? "")
        t.process = lastComponent(string("process"))
        let library = lastComponent(string("library"))
        t.sender = library == t.process ? nil : library
        t.pid = (obj["pid"] as? NSNumber)?.intValue
        t.tid = (obj["thread_id"] as? NSNumber)?.uint64Value
        t.level = string("log_type")
        t.subsystem = string("subsystem")
        t.category = string("category")
        if let ts = string("timestamp") {
            t.timestamp = FieldDecoding.timestamp(ts, format: .unifiedLog, context: context)
        } else if let ns = (obj["time"] as? NSNumber)?.doubleValue, ns > 0 {
            t.timestamp = timestamp(nanoseconds: ns)
        }
        // Multi-line messages keep their other lines as continuation.
        let parts = t.message.split(separator: "\n", omittingEmptySubsequences: false)
        if parts.count > 1 {
            t.message = String(parts[0])
            t.continuation = parts.dropFirst().map(String.init)
        }
        return t
    }

    /// A UTC timestamp from nanoseconds since 1970 (microsecond precision: the double holding
    /// them has no more).
    static func timestamp(nanoseconds ns: Double) -> LogTimestamp {
        let micros = Int64((ns / 1000).rounded())
        let secs = Int(micros / 1_000_000), frac = Int(micros % 1_000_000)
        let days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400
        let (y, m, d) = LogTimestamp.civil(fromDays: days)
        let rest = secs - days * 86400
        var fraction = String(frac)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        return LogTimestamp.make(year: y, month: m, day: d, hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60,
                                 fraction: Substring(fraction), offsetMinutes: 0)
    }
}
