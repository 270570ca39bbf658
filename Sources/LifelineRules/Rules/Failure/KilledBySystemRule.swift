import LifelineCore

/// LC-F06: the system killed the process without a crash: for memory (a jetsam report, a
/// `memorystatus` kill) or for another reason a device log states (RunningBoard, FrontBoard,
/// launchd, the debugger).
struct KilledBySystemRule: Rule {
    static let description = RuleDescription(
        id: "LC-F06", name: "killed-by-system", category: .failure, severity: .fatal,
        summary: "the system killed the process (memory or another reason) without a crash report",
        rationale: "No callback runs before a jetsam or RunningBoard kill: the app's last lifecycle state is what it could save. Killed in the background with a large footprint means memory to release on didEnterBackground; killed in the foreground means the app itself outgrew its limit.",
        triggering: [
            RuleExample("""
            ↓{"bug_type":"298","timestamp":"2025-03-14 09:41:27.00 +0100","os_version":"iPhone OS 18.3.2 (22D82)","incident_id":"A5D50795-BA9F-42E7-B729-5D2791EE4116"}
            {
              "build" : "iPhone OS 18.3.2 (22D82)",
              "product" : "iPhone15,2",
              "date" : "2025-03-14 09:41:27.38 +0100",
              "memoryStatus" : { "pageSize" : 16384 },
              "largestProcess" : "Kiln",
              "processes" : [
                { "name" : "logd", "pid" : 32, "states" : ["daemon", "active"], "rpages" : 407 },
                { "name" : "Kiln", "pid" : 1873, "states" : ["active", "frontmost"], "rpages" : 180224, "reason" : "per-process-limit" }
              ]
            }
            """),
        ],
        nonTriggering: [
            RuleExample("""
            {"bug_type":"298","timestamp":"2025-03-14 09:41:27.00 +0100","os_version":"iPhone OS 18.3.2 (22D82)"}
            {
              "product" : "iPhone15,2",
              "memoryStatus" : { "pageSize" : 16384 },
              "largestProcess" : "Kiln",
              "processes" : [ { "name" : "Kiln", "pid" : 1873, "states" : ["active", "frontmost"], "rpages" : 1802 } ]
            }
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        session.indices(of: .jetsam, .killed).compactMap { i in
            let e = session.events[i]
            guard e.kind == .jetsam || e.kind == .killed else { return nil }
            let d = e.details
            var what = e.kind == .jetsam ? "killed for memory" : "killed by the system"
            if let reason = d?.terminationReason { what += " (\(CrashReportRule.abbreviated(reason)))" }
            if let bytes = d?.residentBytes { what += " with \(NumberText.bytes(bytes)) resident" }
            if let states = d?.processStates, !states.isEmpty { what += ", \(states.joined(separator: " "))" }
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state, what + session.whenClause(i))
        }
    }
}
