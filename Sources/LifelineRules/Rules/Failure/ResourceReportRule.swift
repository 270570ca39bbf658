import LifelineCore

/// LC-F07: a hang, a CPU or disk-write resource report, or a slow launch (MetricKit or the
/// device's own reports): the process may have lived on, but the system flagged it.
struct ResourceReportRule: Rule {
    static let description = RuleDescription(
        id: "LC-F07", name: "resource-report", category: .failure, severity: .warning,
        summary: "the system reported a hang, a slow launch, or CPU or disk writes over its limit",
        rationale: "A main thread that does not answer, a launch that takes seconds, or work that burns CPU or writes gigabytes is what the watchdog and jetsam end next time. The lifecycle state at the report says where to move the work: off the main thread during launch, or out of the background.",
        triggering: [
            RuleExample("""
            ↓{"app_name":"Kiln","timestamp":"2024-06-11 14:02:19.00 +0200","app_version":"4.2.1","build_version":"421","bundleID":"com.example.kiln","bug_type":"228","os_version":"iPhone OS 17.5.1 (21F90)","incident_id":"E2F7A9C4-3B18-4D6E-A0F5-91C2D8B74E63","name":"Kiln"}
            Date/Time:        2024-06-11 14:02:07.112 +0200
            OS Version:       iPhone OS 17.5.1 (Build 21F90)
            Command:          Kiln
            Path:             /private/var/containers/Bundle/Application/7427A2B0-8021-4D85-A06E-5BEE3C95A48C/Kiln.app/Kiln
            PID:              1873

            Event:            hang
            Duration:         9.89s
            Steps:            98 (100ms sampling interval)

            Heaviest stack for the main thread of the target process:
              98  ??? (dyld + 88732) [0x1c8b6b8dc]
              98  ??? (Kiln + 352120) [0x10464df78]
              98  ??? (libsystem_kernel.dylib + 4970) [0x1f08f57c8]
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 Kiln[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            """),
        ],
        online: true)

    static let kinds: Set<EventKind> = [.hang, .resourceLimit, .slowLaunch]

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        session.events.indices.compactMap { i in
            let e = session.events[i]
            guard Self.kinds.contains(e.kind) else { return nil }
            var what = CrashReportRule.abbreviated(e.message)
            if let frame = e.details?.firstAppFrame, !e.message.contains(frame.text), !e.message.contains(" in the app at ") { what += " in the app at \(CrashReportRule.place(of: frame))" }
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state, what + session.whenClause(i))
        }
    }
}
