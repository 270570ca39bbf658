import LifelineCore

/// LC-F05: the process was ended by a signal (`Abort trap: 6`, `Terminated due to signal 9`).
struct KilledBySignalRule: Rule {
    static let description = RuleDescription(
        id: "LC-F05", name: "killed-by-signal", category: .failure, severity: .fatal,
        summary: "the process was ended by a signal",
        rationale: "A shell, the debugger or the system reports the signal that ended the process: SIGABRT after an exception or assertion, SIGKILL from the system (memory, watchdog) or the user. The SIGABRT that follows an uncaught exception of the same process (the SIGTRAP or SIGILL that follows a Swift runtime trap) within a few seconds is that failure's ending, which `uncaught-exception` (`swift-runtime-trap`) reports: one death, one finding.",
        triggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[SceneDelegate sceneDidEnterBackground:]
            ↓Message from debugger: Terminated due to signal 9
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[SceneDelegate sceneDidEnterBackground:]
            """),
            // The exception's own ending: LC-F02 reports it.
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2025-03-01 10:00:00.950000+0100 MyApp[900:41001] *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'we should never make it here'
            Message from debugger: Terminated due to signal 6
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        eachIndexed(.signal, session, where: { _, i in Self.failureEnded(by: i, session) == nil }) { e, i in
            "the process was ended by signal \(e.details?.signal ?? "?")\(session.whenClause(i))"
        }
    }

    /// The signal each in-process failure dies of, by the failure's kind.
    static let signalOfFailure: [EventKind: Set<String>] = [
        .exception: ["SIGABRT"],
        .swiftFatalError: ["SIGTRAP", "SIGILL"],
    ]

    /// The failure of the same process whose ending the signal at `index` is: the failure before
    /// it, with no other ending between them, that dies of this signal, within
    /// `SessionEnding.echoWindow` seconds when both have times, else with no lifecycle callback
    /// between them (the process did nothing else).
    static func failureEnded(by index: Int, _ session: SessionView) -> Int? {
        guard var signal = session.events[index].details?.signal else { return nil }
        // `Terminated due to signal 6` names it by number.
        if let n = Int(signal), let name = DarwinSignal.names[n] { signal = name }
        for j in stride(from: index - 1, through: 0, by: -1) {
            let e = session.events[j]
            if e.kind.isLifecycleCallback { break }
            guard SessionEnding.terminalKinds.contains(e.kind) else { continue }
            guard signalOfFailure[e.kind]?.contains(signal) == true else { return nil }
            if let d = session.interval(from: j, to: index) { return d >= 0 && d <= SessionEnding.echoWindow ? j : nil }
            return j
        }
        return nil
    }
}
