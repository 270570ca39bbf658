import Foundation

/// A jetsam event report (`JetsamEvent-*.ips`, bug_type 298): the system ran short of memory, or a
/// process went over its own limit, and processes were killed. The report lists every process on
/// the device; those killed carry a `reason` (`per-process-limit`, `vm-pageshortage`, `highwater`,
/// `fc-thrashing`, `vnode-limit`, `idle-exit`, …).
public struct JetsamReport: Sendable, Equatable {
    /// One process of the report.
    public struct Process: Sendable, Equatable {
        public var name: String?
        public var pid: Int?
        /// Why it was killed; nil for processes that were not.
        public var reason: String?
        /// `frontmost`, `active`, `resume`, `suspended`, `daemon`, `idle`, …
        public var states: [String]
        /// Resident pages at the kill (`rpages`) and the most it ever had (`lifetimeMax`).
        public var residentPages: Int?
        public var lifetimeMaxPages: Int?
        /// Not a daemon: an app or app extension (the rows a postmortem of an app is about).
        public var isApp: Bool { !states.contains("daemon") }
    }

    public var incidentIdentifier: String?
    public var timestamp: String?
    public var osVersion: String?
    public var deviceModel: String?
    /// `largestProcess`: the process using the most memory when the event happened.
    public var largestProcess: String?
    /// Bytes per page (`memoryStatus.pageSize`; 16384 on arm64 devices, 4096 on older ones).
    public var pageSize: Int
    public var processes: [Process]

    /// The processes killed, apps first (daemons that idle-exit are routine), in report order.
    public var killed: [Process] {
        let all = processes.filter { $0.reason != nil }
        return all.filter(\.isApp) + all.filter { !$0.isApp }
    }

    /// The rows to report: every killed app; when no app was killed, the first killed process.
    public var victims: [Process] {
        let apps = processes.filter { $0.reason != nil && $0.isApp }
        if !apps.isEmpty { return apps }
        return killed.first.map { [$0] } ?? []
    }

    /// True when a JSON body is a jetsam report: it lists processes and the memory status.
    static func isBody(_ body: [String: Any]) -> Bool {
        body["processes"] is [Any] && (body["memoryStatus"] != nil || body["largestProcess"] != nil || body["pageSize"] != nil)
    }

    /// Reads a jetsam body, with what the `.ips` header line adds.
    static func read(body: [String: Any], header: [String: Any]) -> JetsamReport {
        let memory = body["memoryStatus"] as? [String: Any] ?? [:]
        let pageSize = CrashJSONValue.int(memory["pageSize"]) ?? CrashJSONValue.int(body["pageSize"]) ?? 16384
        let rows = (body["processes"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        let processes = rows.map { p in
            Process(name: CrashJSONValue.string(p["name"]), pid: CrashJSONValue.int(p["pid"]),
                    reason: CrashJSONValue.string(p["reason"]).flatMap { $0.isEmpty ? nil : $0 },
                    states: (p["states"] as? [Any] ?? []).compactMap { CrashJSONValue.string($0) },
                    residentPages: CrashJSONValue.int(p["rpages"]), lifetimeMaxPages: CrashJSONValue.int(p["lifetimeMax"]))
        }
        return JetsamReport(
            incidentIdentifier: CrashJSONValue.string(body["incident"]) ?? CrashJSONValue.string(header["incident_id"]),
            timestamp: CrashJSONValue.string(body["date"]) ?? CrashJSONValue.string(header["timestamp"]),
            osVersion: CrashJSONValue.string(body["build"]) ?? CrashJSONValue.string(header["os_version"]),
            deviceModel: CrashJSONValue.string(body["product"]),
            largestProcess: CrashJSONValue.string(body["largestProcess"]),
            pageSize: max(1, pageSize), processes: processes)
    }
}
