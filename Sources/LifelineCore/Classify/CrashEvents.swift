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
        if var ts = r.timestamp {
            e.timestamp = ts.withUTF8 { FieldDecoding.timestamp($0, format: format, context: context) }
        }
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
        d.lifecycleFrames = r.lifecycleFrames.isEmpty ? nil : r.lifecycleFrames.map(describe)
        d.appFrames = r.appFrames.isEmpty ? nil : r.appFrames.map(describe)
        let stack = (r.lastExceptionBacktrace.isEmpty ? r.crashedThreadFrames : r.lastExceptionBacktrace)
        d.backtrace = stack.isEmpty ? nil : stack.prefix(64).map(describe)
        d.bundleID = r.bundleID
        d.osVersion = r.osVersion
        d.appVersion = r.appVersion
        d.appBuild = r.appBuild
        d.deviceModel = r.deviceModel
        d.incidentID = r.incidentIdentifier
        d.cause = r.cause.rawValue
        d.firstAppFrame = r.firstAppFrame.map(describe)
        d.terminationNamespace = r.terminationNamespace
        d.terminationCode = r.terminationCode
        e.details = d
        return e
    }

    static func describe(_ f: CrashFrame) -> String {
        [String(f.index), f.image, f.address, f.symbol].compactMap { $0 }.joined(separator: " ")
    }
}
