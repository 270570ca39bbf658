// A process's own account of its end: watchdog terminations (0x8badf00d) and the shell's or
// debugger's signal lines (lifecycle reference §5.4). Kill lines logged by the system are
// `KillLines`.

extension RecognizerFamily {
    static let watchdog = RecognizerFamily("watchdog")
    static let signal = RecognizerFamily("signal")
}

extension Recognizer {
    static let watchdog = Recognizer("watchdog termination", family: .watchdog, triggers: ["watc|hdog", "8badf|00d", "8BADF|00D"],
                                     pattern: .builtIn(#"watchdog transgression|0x8badf00d|exhausted real \(wall clock\) time allowance"#, caseless: true)) { c, r in
        var d = EventDetails()
        d.terminationReason = r.message.trimmed
        if c.detailed, let w = c.p.watchdogEvent(in: r.message, scratch: c.scratch) { d.watchdogEvent = w }
        return c.event(.watchdog, r, details: d)
    }

    static let signal: Recognizer = {
        let pattern = Pattern.builtIn(#"^\s*(?:Message from debugger: )?(?:(?<name>Abort trap|Segmentation fault|Bus error|Illegal instruction|Trace/BPT trap|Killed): (?<number>\d+)|Terminated due to signal (?<terminatedBy>\d+))\s*$"#)
        let name = pattern.group("name"), number = pattern.group("number"), terminatedBy = pattern.group("terminatedBy")
        return Recognizer("signal", family: .signal,
                          triggers: ["|Abort trap", "|Segmentation fault", "|Terminated due to signal", "BPT |trap", "|Bus error",
                                     "|Illegal instruction", "|Killed: "], pattern: pattern) { c, m, r in
            var d = EventDetails()
            d.signal = m[number] ?? m[terminatedBy] ?? m[name]
            d.reason = r.message.trimmed
            return .event(c.event(.signal, r, details: d))
        }
    }()
}
