/// Turns a parsed crash report into one failure event.
enum CrashEvents {
    static func event(from r: CrashReport, file: String, line: Int, lineCount: Int, format: LogFormat,
                      context: TimeContext) -> Event {
        let kind: EventKind = r.isWatchdog ? .watchdog : .crashReport
        // `EXC_CRASH (SIGABRT)`; a bare signal (PLCrashReporter, a missing type) is said once.
        let signal = r.signal == r.exceptionType ? nil : r.signal
        var summary = [r.exceptionType, signal.map { r.exceptionType == nil ? $0 : "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        if let name = r.exceptionName { summary += summary.isEmpty ? name : " — \(name)" }
        if let reason = r.exceptionReason { summary += ": \(reason)" }
        if r.isWatchdog, let reason = r.terminationReasons.first { summary += summary.isEmpty ? reason : " — \(reason)" }
        var e = Event(file: file, line: line, lineCount: lineCount, format: format, kind: kind,
                      message: summary.isEmpty ? "crash report" : summary)
        e.process = r.process
        e.pid = r.pid
        e.timestamp = FieldDecoding.timestamp(r.timestamp, format: format, context: context)
        var d = EventDetails()
        d.exceptionType = r.exceptionType
        d.signal = r.signal
        d.exceptionCodes = r.exceptionCodes
        d.exceptionName = r.exceptionName
        d.reason = r.exceptionReason
        d.terminationReason = r.terminationReasons.isEmpty ? nil : r.terminationReasons.joined(separator: " | ")
        d.watchdogEvent = r.watchdogEvent
        d.crashedThread = r.crashedThread
        d.crashedThreadIsMain = r.crashedThreadIsMain
        d.crashedThreadQueue = r.crashedThreadQueue
        d.threadName = r.crashedThreadName
        d.lifecycleFrames = r.lifecycleFrames.isEmpty ? nil : r.lifecycleFrames
        d.appFrames = r.appFrames.isEmpty ? nil : r.appFrames
        let stack = (r.lastExceptionBacktrace.isEmpty ? r.crashedThreadFrames : r.lastExceptionBacktrace)
        d.backtrace = stack.isEmpty ? nil : .frames(Array(stack.prefix(64)))
        d.bundleID = r.bundleID
        d.osVersion = r.osVersion
        d.appVersion = r.appVersion
        d.appBuild = r.appBuild
        d.deviceModel = r.deviceModel
        d.incidentID = r.incidentIdentifier
        d.cause = r.cause
        d.firstAppFrame = r.firstAppFrame
        d.terminationNamespace = r.terminationNamespace
        d.terminationCode = r.terminationCode
        d.cpuTime = cpuTime(r.terminationReasons + r.applicationSpecificInformation)
        e.details = d
        return e
    }

    /// A watchdog's CPU statistics: `11.480 s total (user 11.480, system 0.000), 57% CPU; 5.812 s
    /// in the app, 29% CPU` from its `Elapsed total CPU time (seconds): …` and `Elapsed application
    /// CPU time (seconds): …` parts, wherever the report put them.
    static func cpuTime(_ texts: [String]) -> String? {
        var total: String?, app: String?
        for text in texts {
            for part in text.split(whereSeparator: { $0 == "\n" || $0 == "|" }) {
                var t = Substring(part.trimmingCharacters(in: .whitespaces))
                t = t.drop { $0 == "\"" || $0 == "(" }
                while let last = t.last, last == "\"" || last == "," || last == ")" && !t.contains("(") { t = t.dropLast() }
                if t.hasPrefix("Elapsed total CPU time (seconds):"), total == nil {
                    total = t.dropFirst("Elapsed total CPU time (seconds):".count).trimmingCharacters(in: .whitespaces)
                } else if t.hasPrefix("Elapsed application CPU time (seconds):"), app == nil {
                    app = t.dropFirst("Elapsed application CPU time (seconds):".count).trimmingCharacters(in: .whitespaces)
                }
            }
        }
        guard total != nil || app != nil else { return nil }
        return [total.map { "total \($0)" }, app.map { "app \($0)" }].compactMap { $0 }.joined(separator: "; ")
    }

    /// Where a frame is, for a message: `-[Foo bar] (Comet, frame 3)`, or `Comet + 601448 (frame 1)`
    /// when it is not symbolicated.
    static func place(_ f: CrashFrame) -> String {
        if let symbol = f.symbol { return "\(symbol) (\(f.image ?? "???"), frame \(f.index))" }
        return "\(f.image ?? "???")\(f.offset.map { " + \($0)" } ?? f.address.map { " \($0)" } ?? "") (frame \(f.index))"
    }
}
