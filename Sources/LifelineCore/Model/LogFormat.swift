/// The input formats Lifeline reads. The raw value is the name used on the command line
/// (`--input-format`) and in every output.
public enum LogFormat: String, CaseIterable, Sendable, Codable, Comparable {
    /// Xcode console / NSLog header: `2024-03-01 10:00:00.123456+0800 MyApp[1234:5678] message`.
    case xcode
    /// Xcode 15+ "copy with metadata": message lines followed by `Type: … | Timestamp: … | TID: 0x…`.
    case xcodeMetadata = "xcode-metadata"
    /// Bare `print` / `#function` output with no header.
    case print
    /// `log show` / `log stream`, default style (Timestamp, Thread, Type, Activity, PID[, TTL]).
    case logDefault = "log-default"
    /// `log show --style syslog`.
    case logSyslog = "log-syslog"
    /// `log show --style compact`.
    case logCompact = "log-compact"
    /// `log show --style json` (one JSON array).
    case logJSON = "log-json"
    /// `log show|stream --style ndjson` (one JSON object per line).
    case logNDJSON = "log-ndjson"
    /// idevicesyslog / device syslog relay: `Mar  3 12:17:45 [device] Proc(Lib)[pid] <Level>: message`.
    case idevicesyslog
    /// Rows copied from Console.app (tab separated).
    case console
    /// `.ips` crash report (JSON header line + JSON or text body).
    case ips
    /// Text crash report.
    case crash
    /// MetricKit diagnostic payload (`MXDiagnosticPayload` JSON: crash, hang, CPU, disk-write and
    /// launch diagnostics), one payload or an array of them.
    case metricKit = "metrickit"
    /// JSON Lines written by mandiant's `unifiedlog_iterator` (`-f jsonl`), which reads a
    /// `.logarchive` or `.tracev3` files on Linux: `{"subsystem":…,"thread_id":…,"pid":…,
    /// "process":"/path/App","message":…,"timestamp":"…Z",…}` per line.
    case unifiedLog = "unifiedlog-jsonl"

    public static func < (lhs: LogFormat, rhs: LogFormat) -> Bool { lhs.ordinal < rhs.ordinal }

    /// Position in `allCases` (for per-format counters without hashing).
    var ordinal: Int {
        switch self {
        case .xcode: return 0
        case .xcodeMetadata: return 1
        case .print: return 2
        case .logDefault: return 3
        case .logSyslog: return 4
        case .logCompact: return 5
        case .logJSON: return 6
        case .logNDJSON: return 7
        case .idevicesyslog: return 8
        case .console: return 9
        case .ips: return 10
        case .crash: return 11
        case .metricKit: return 12
        case .unifiedLog: return 13
        }
    }

    /// One-line description for `lifeline formats`.
    /// A diagnostic report (crash, jetsam, resource report, MetricKit payload): one file, one
    /// incident or a few, rather than a stream of log lines.
    public var isReport: Bool { self == .ips || self == .crash || self == .metricKit }

    public var summary: String {
        switch self {
        case .xcode: return "Xcode console / NSLog lines with a date, process[pid:tid] header"
        case .xcodeMetadata: return "Xcode 15+ console copied with metadata (message, then a 'Type: … | TID: …' line)"
        case .print: return "bare print() / #function output without any header"
        case .logDefault: return "log show / log stream, default style"
        case .logSyslog: return "log show --style syslog"
        case .logCompact: return "log show --style compact"
        case .logJSON: return "log show --style json (one JSON array)"
        case .logNDJSON: return "log show / log stream --style ndjson"
        case .idevicesyslog: return "idevicesyslog / device syslog relay, with or without device name"
        case .console: return "rows copied from Console.app (tab separated)"
        case .ips: return ".ips crash report (JSON header line, JSON or text body)"
        case .crash: return "text crash report (Exception Type, Triggered by Thread, backtraces)"
        case .metricKit: return "MetricKit diagnostic payload (MXDiagnosticPayload JSON)"
        case .unifiedLog: return "JSON Lines of mandiant's unifiedlog_iterator (a .logarchive read on Linux)"
        }
    }

    /// A representative line of the format.
    public var sampleLine: String {
        switch self {
        case .xcode: return "2024-03-01 10:00:00.123456+0800 MyApp[1234:5678] -[SceneDelegate sceneDidBecomeActive:]"
        case .xcodeMetadata: return "sceneDidBecomeActive(_:)\nType: stdio"
        case .print: return "scene(_:willConnectTo:options:)"
        case .logDefault: return "2023-10-14 17:53:54.688700+0800 0x1e2cd    Default     0x0                  4004   0    MyApp: -[SceneDelegate sceneDidBecomeActive:]"
        case .logSyslog: return "2023-09-27 22:55:39.622369+0200  localhost MyApp[41737]: (UIKitCore) -[SceneDelegate sceneWillResignActive:]"
        case .logCompact: return "2026-08-11 17:15:22.031 Df MyApp[80328:9875ec] [com.example.app:lifecycle] sceneDidBecomeActive(_:)"
        case .logJSON: return "[{\"eventMessage\" : \"-[SceneDelegate sceneDidBecomeActive:]\", \"processID\" : 412, …}]"
        case .logNDJSON: return "{\"eventMessage\":\"-[SceneDelegate sceneDidBecomeActive:]\",\"processID\":412,\"threadID\":11498972,\"processImagePath\":\"\\/var\\/MyApp.app\\/MyApp\"}"
        case .idevicesyslog: return "Mar  3 12:17:45 iPhone MyApp(UIKitCore)[512] <Notice>: -[SceneDelegate sceneDidEnterBackground:]"
        case .console: return "default\t08:00:54.158544-0600\tMyApp\tUIKitCore\t-[SceneDelegate sceneDidBecomeActive:]"
        case .ips: return "{\"app_name\":\"MyApp\",\"bug_type\":\"309\",\"os_version\":\"iPhone OS 17.2 (21C62)\",…}"
        case .crash: return "Exception Type:  EXC_CRASH (SIGABRT)"
        case .unifiedLog: return "{\"subsystem\":\"\",\"thread_id\":11498972,\"pid\":412,\"euid\":501,\"library\":\"/private/var/containers/Bundle/Application/5E1A/MyApp.app/MyApp\",\"category\":\"\",\"event_type\":\"Log\",\"log_type\":\"Default\",\"process\":\"/private/var/containers/Bundle/Application/5E1A/MyApp.app/MyApp\",\"message\":\"-[SceneDelegate sceneDidBecomeActive:]\",\"timestamp\":\"2026-03-01T09:00:00.123456789Z\"}"
        case .metricKit: return "{\"timeStampBegin\":\"2024-03-01 10:00:00\",\"crashDiagnostics\":[{\"callStackTree\":{\"callStacks\":[],\"callStackPerThread\":true},\"diagnosticMetaData\":{\"appVersion\":\"1.0\",\"exceptionType\":1,\"signal\":11}}]}"
        }
    }

    /// Formats whose every record starts with a recognisable header line, so a large file can be
    /// split at record starts and read by several threads.
    var isSplittable: Bool {
        switch self {
        case .xcode, .logDefault, .logSyslog, .logCompact, .logNDJSON, .unifiedLog, .idevicesyslog, .console: return true
        case .xcodeMetadata, .print, .logJSON, .ips, .crash, .metricKit: return false
        }
    }
}
