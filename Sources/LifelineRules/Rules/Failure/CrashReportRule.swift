import LifelineCore

/// LC-F04: a crash report (other than a watchdog kill, LC-T07, or an isolation trap, LC-T05).
struct CrashReportRule: Rule {
    static let description = RuleDescription(
        id: "LC-F04", name: "crash-report", category: .failure, severity: .fatal,
        summary: "a crash report shows the process died",
        rationale: "The report's exception type, crashed thread and the lifecycle frames on its stack say whether the crash happened during launch, inside a scene callback, or elsewhere.",
        triggering: [
            RuleExample("""
            ↓Incident Identifier: 5F1B7A3C-2D4E-4A9B-8C7D-1E2F3A4B5C6D
            Process:             Kiln [2417]
            Identifier:          com.example.kiln
            Exception Type:  EXC_CRASH (SIGABRT)
            Triggered by Thread:  0

            Thread 0 name:  Dispatch queue: com.apple.main-thread
            Thread 0 Crashed:
            0   libsystem_kernel.dylib        \t0x00000001b3a2e0dc __pthread_kill + 8
            1   Kiln                          \t0x0000000100f2c3a0 -[AppDelegate application:didFinishLaunchingWithOptions:] + 412
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            """),
        ],
        online: true)

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        session.indices(of: .crashReport).compactMap { i in
            let e = session.events[i]
            guard e.kind == .crashReport, !ActorIsolationTrapRule.isIsolationTrap(e) else { return nil }
            let d = e.details
            var what = "crash"
            let type = [d?.exceptionType, d?.signal].compactMap { $0 }.uniqued().joined(separator: " / ")
            if !type.isEmpty { what += " (\(type))" }
            switch d?.cause {
            case .swiftTrap: what += ", a Swift runtime trap"
            case .launchFailure: what += ", the app could not be launched"
            case .killed: what += ", killed by the system"
            default: break
            }
            if let name = d?.exceptionName {
                what += " from an uncaught \(name)"
                if let reason = d?.reason { what += " ('\(Self.abbreviated(reason))')" }
            } else if d?.cause == .swiftTrap, let reason = d?.reason {
                what += " ('\(Self.abbreviated(reason))')"
            }
            if let frame = d?.firstAppFrame { what += " in the app at \(Self.place(of: frame))" }
            if let main = d?.crashedThreadIsMain { what += main ? " on the main thread" : " on a background thread" }
            if let frame = d?.lifecycleFrames?.first { what += " inside the life cycle (\(Self.symbol(of: frame)))" }
            let c = session.context(at: i)
            return diagnostic(session, event: i, scene: c.scene, state: c.state, what)
        }
    }
}

extension CrashReportRule {
    /// A frame said as `symbol (image, frame N)`, or `image address (frame N, not symbolicated)`;
    /// a frame without an image or an address as its `text`.
    static func place(of frame: CrashFrame) -> String {
        guard let address = frame.address, let image = frame.image, !image.isEmpty else { return frame.text }
        if let location = frame.location { return "\(location) (\(image), frame \(frame.index))" }
        return "\(image) \(address) (frame \(frame.index), not symbolicated)"
    }

    /// The first line of a reason, at most 120 characters.
    static func abbreviated(_ reason: String) -> String {
        let first = reason.split(separator: "\n").first.map(String.init) ?? reason
        return first.count > 120 ? String(first.prefix(119)) + "…" : first
    }

    /// The symbol of a frame (or what stands for it), else the frame's `text`.
    static func symbol(of frame: CrashFrame) -> String {
        if frame.address != nil, let location = frame.location { return location }
        return frame.text
    }
}

extension Array where Element: Hashable {
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
