import LifelineCore

/// LC-D05: the system ended the process while it had it suspended: for memory (normal, a note),
/// or for another reason, such as a file lock held into the suspension (0xdead10cc) or a watchdog.
struct KilledWhileSuspendedRule: Rule {
    static let description = RuleDescription(
        id: "LC-D05", name: "killed-while-suspended", category: .system, severity: .error,
        summary: "the system ended the process while it was suspended",
        rationale: "A suspended app is the first the kernel reclaims when memory runs short: a jetsam kill of a suspended process (a note here; `killed-by-system`, LC-F06, reports the kill itself) is normal iOS behaviour, and the app must have saved what it needs in sceneDidEnterBackground and restore it on the next launch. Any other kill of a suspended process says the app was suspended holding something it should not: 0xdead10cc is a file lock or SQLite database in a shared container held into the suspension (end the work, or take a background task until it is done), a watchdog or RunningBoard termination is work the system stopped waiting for. A kill whose reason the log does not give is a warning.",
        triggering: [
            RuleExample("""
            2026-03-10 00:00:41.512240-0500 runningboardd[33:700] Now tracking process: [app<com.example.tidemark>:4127]
            2026-03-10 00:00:41.530671-0500 runningboardd[33:700] Calculated state for app<com.example.tidemark>: running-active (role: Background) (endowments: <private>)
            2026-03-10 00:00:43.883016-0500 runningboardd[33:700] Calculated state for app<com.example.tidemark>: running-suspended (role: None) (endowments: <private>)
            ↓2026-03-10 00:00:44.102511-0500 runningboardd[33:700] [app<com.example.tidemark>:4127] Terminating with context: <RBSTerminateContext| domain:15 code:0xDEAD10CC explanation:[app<com.example.tidemark>:4127] was suspended with locked system files: /private/var/mobile/Containers/Shared/AppGroup/4E1B7A90/Library/tides.sqlite reportType:CrashLog maxTerminationResistance:Interactive>
            """),
            // Jetsam reclaiming a suspended app: a note.
            RuleExample("""
            2026-03-10 00:00:41.512240-0500 runningboardd[33:700] Now tracking process: [app<com.example.tidemark>:4127]
            2026-03-10 00:00:43.883016-0500 runningboardd[33:700] Calculated state for app<com.example.tidemark>: running-suspended (role: None) (endowments: <private>)
            ↓2026-03-10 00:07:12.640095-0500 kernel[0:0] memorystatus: killing_top_process pid 4127 [Tidemark] (vm-pageshortage 0) 96544KB - memorystatus_available_pages: 6212
            2026-03-10 00:07:12.641880-0500 runningboardd[33:700] [app<com.example.tidemark>:4127] termination reported by launchd (1, 4, 9)
            """),
        ],
        nonTriggering: [
            // Killed for memory while it ran in the foreground: LC-F06 says so.
            RuleExample("""
            2026-03-10 00:00:41.512240-0500 runningboardd[33:700] Now tracking process: [app<com.example.tidemark>:4127]
            2026-03-10 00:00:41.530671-0500 runningboardd[33:700] Calculated state for app<com.example.tidemark>: running-active (role: UserInteractiveFocal) (endowments: <private>)
            2026-03-10 00:07:12.640095-0500 kernel[0:0] memorystatus: killing_top_process pid 4127 [Tidemark] (per-process-limit 0) 2750000KB - memorystatus_available_pages: 6212
            """),
            // No word of the system about the process's state.
            RuleExample("""
            2026-03-10 00:07:12.641880-0500 runningboardd[33:700] [app<com.example.tidemark>:4127] Terminating with context: <RBSTerminateContext| domain:15 code:0xDEAD10CC explanation:[app<com.example.tidemark>:4127] was suspended with locked system files: /private/var/mobile/Containers/Shared/AppGroup/4E1B7A90/Library/tides.sqlite reportType:CrashLog maxTerminationResistance:Interactive>
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        let endings = session.indices(of: .jetsam, .killed, .watchdog)
        guard !endings.isEmpty, session.hasSystemEvents else { return [] }
        let contexts = session.systemContexts
        return endings.compactMap { i in
            let c = contexts[i]
            guard c.isSuspended, c.processState != "none" else { return nil }
            let e = session.events[i]
            let details = e.details
            let code = details?.terminationCode
            let severity: Severity
            var what: String
            switch e.kind {
            case .jetsam:
                severity = .note
                what = "killed for memory\(details?.terminationReason.map { " (\($0))" } ?? "") while suspended: the kernel reclaims suspended apps first, which is normal; what the app needs must be saved when it enters the background and restored at the next launch"
            case .watchdog:
                severity = .error
                what = "the watchdog killed the process while the system had it suspended: work the system stopped waiting for"
            default:
                if code == "0xdead10cc" {
                    severity = .error
                    what = "killed while suspended for holding a file lock (0xdead10cc): a file or SQLite database in a shared container was still locked when the app was suspended; finish or cancel that work before the suspension, or hold a background task until it is done"
                } else if let code {
                    severity = .error
                    what = "killed while suspended (\(CrashReportRule.abbreviated(details?.terminationReason ?? code))): the app was suspended holding something the system would not leave it"
                } else {
                    severity = .warning
                    what = "killed while suspended (\(details?.terminationReason ?? "no reason given")), for a reason the log does not give"
                }
            }
            let scene = session.context(at: i)
            var d = diagnostic(session, event: i, scene: scene.scene, state: scene.state, severity: severity, what)
            if let s = Self.suspension(session, before: i) {
                let at = session.events[s]
                d.related.insert(RelatedLocation(file: at.file, position: at.position, message: "the system suspended the process here"), at: 0)
            }
            return d
        }
    }

    /// The system event that suspended the process last before event `index`.
    static func suspension(_ session: SessionView, before index: Int) -> Int? {
        var at: Int?
        for j in 0..<index where session.events[j].kind == .systemProcessState {
            guard let d = session.events[j].details?.system else { continue }
            if d.saysSuspended { at = at ?? j } else if d.saysNotSuspended { at = nil }
        }
        return at
    }
}
