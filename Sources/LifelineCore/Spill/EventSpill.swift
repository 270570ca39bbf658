/// Events written to a spill file and read back whole (`TimeMerge` spills the queues of many
/// inputs): every field, so an event read back equals the one written.
extension Event: SpillCodable {
    public func encode(to w: inout SpillWriter) {
        w.string(file)
        w.int(line)
        w.int(lineCount)
        w.string(format.rawValue)
        w.string(kind.rawValue)
        w.bool(timestamp != nil)
        if let t = timestamp { t.encode(to: &w) }
        w.optional(process)
        w.optional(pid)
        w.bool(subject != nil)
        if let s = subject {
            w.optional(s.bundleID)
            w.optional(s.pid)
            w.optional(s.process)
        }
        w.bool(tid != nil)
        if let tid { w.uint(tid) }
        w.optional(level)
        w.optional(subsystem)
        w.optional(category)
        w.optional(className)
        w.optional(spelling)
        w.bool(scene != nil)
        if let s = scene {
            w.optional(s.sceneClass)
            w.optional(s.address)
            w.optional(s.persistentIdentifier)
            w.optional(s.role)
            w.optional(s.activationState)
        }
        w.string(message)
        w.bool(details != nil)
        if let d = details { d.encode(to: &w) }
    }

    public static func decode(from r: inout SpillReader) -> Event {
        let file = r.string(), line = r.int(), lineCount = r.int()
        let format = LogFormat(rawValue: r.string()) ?? .print
        let kind = EventKind(r.string())
        let timestamp = r.bool() ? LogTimestamp.decode(from: &r) : nil
        let process = r.optionalString(), pid = r.optionalInt()
        let subject = r.bool() ? Subject(bundleID: r.optionalString(), pid: r.optionalInt(), process: r.optionalString()) : nil
        let tid = r.bool() ? r.uint() : nil
        let level = r.optionalString(), subsystem = r.optionalString(), category = r.optionalString()
        let className = r.optionalString(), spelling = r.optionalString()
        let scene = r.bool()
            ? SceneRef(sceneClass: r.optionalString(), address: r.optionalString(), persistentIdentifier: r.optionalString(),
                       role: r.optionalString(), activationState: r.optionalString())
            : nil
        var e = Event(file: file, line: line, lineCount: lineCount, format: format, kind: kind, message: r.string())
        e.timestamp = timestamp
        e.process = process
        e.pid = pid
        e.subject = subject
        e.tid = tid
        e.level = level
        e.subsystem = subsystem
        e.category = category
        e.className = className
        e.spelling = spelling
        e.scene = scene
        if r.bool() { e.details = EventDetails.decode(from: &r) }
        return e
    }
}

extension LogTimestamp {
    func encode(to w: inout SpillWriter) {
        w.string(iso)
        w.bool(seconds != nil)
        if let seconds { w.uint(seconds.bitPattern) }
        w.bool(hasOffset)
        w.bool(yearInferred)
        w.optional(offsetMinutes)
    }

    static func decode(from r: inout SpillReader) -> LogTimestamp {
        let iso = r.string()
        let seconds = r.bool() ? Double(bitPattern: r.uint()) : nil
        return LogTimestamp(iso: iso, seconds: seconds, hasOffset: r.bool(), yearInferred: r.bool(), offsetMinutes: r.optionalInt())
    }
}

extension EventDetails {
    func encode(to w: inout SpillWriter) {
        for s in [exceptionName, reason, method, sourceFile] { w.optional(s) }
        w.optional(sourceLine)
        for s in [trap, api] { w.optional(s) }
        w.optional(reportedPID)
        w.bool(reportedTID != nil)
        if let reportedTID { w.uint(reportedTID) }
        for s in [threadName, queueName] { w.optional(s) }
        w.optional(qos)
        w.lines(backtrace)
        for s in [configurationName, signal, exceptionType, exceptionCodes, terminationReason, watchdogEvent] { w.optional(s) }
        w.optional(crashedThread)
        w.optional(crashedThreadIsMain)
        w.optional(crashedThreadQueue)
        w.lines(lifecycleFrames)
        w.lines(appFrames)
        for s in [bundleID, osVersion, appVersion, appBuild, deviceModel, incidentID, cause, firstAppFrame,
                  terminationNamespace, terminationCode] { w.optional(s) }
        w.optional(durationMilliseconds)
        for s in [cpuTime, resourceLimit] { w.optional(s) }
        w.optional(residentBytes)
        w.lines(processStates)
        for s in [largestProcess, timeWindow] { w.optional(s) }
        w.optional(ignored)
        w.optional(truncated)
    }

    static func decode(from r: inout SpillReader) -> EventDetails {
        var d = EventDetails()
        d.exceptionName = r.optionalString()
        d.reason = r.optionalString()
        d.method = r.optionalString()
        d.sourceFile = r.optionalString()
        d.sourceLine = r.optionalInt()
        d.trap = r.optionalString()
        d.api = r.optionalString()
        d.reportedPID = r.optionalInt()
        d.reportedTID = r.bool() ? r.uint() : nil
        d.threadName = r.optionalString()
        d.queueName = r.optionalString()
        d.qos = r.optionalInt()
        d.backtrace = r.lines()
        d.configurationName = r.optionalString()
        d.signal = r.optionalString()
        d.exceptionType = r.optionalString()
        d.exceptionCodes = r.optionalString()
        d.terminationReason = r.optionalString()
        d.watchdogEvent = r.optionalString()
        d.crashedThread = r.optionalInt()
        d.crashedThreadIsMain = r.optionalBool()
        d.crashedThreadQueue = r.optionalString()
        d.lifecycleFrames = r.lines()
        d.appFrames = r.lines()
        d.bundleID = r.optionalString()
        d.osVersion = r.optionalString()
        d.appVersion = r.optionalString()
        d.appBuild = r.optionalString()
        d.deviceModel = r.optionalString()
        d.incidentID = r.optionalString()
        d.cause = r.optionalString()
        d.firstAppFrame = r.optionalString()
        d.terminationNamespace = r.optionalString()
        d.terminationCode = r.optionalString()
        d.durationMilliseconds = r.optionalInt()
        d.cpuTime = r.optionalString()
        d.resourceLimit = r.optionalString()
        d.residentBytes = r.optionalInt()
        d.processStates = r.lines()
        d.largestProcess = r.optionalString()
        d.timeWindow = r.optionalString()
        d.ignored = r.optionalBool()
        d.truncated = r.optionalBool()
        return d
    }
}

extension SpillWriter {
    mutating func optional(_ b: Bool?) {
        uint(b.map { $0 ? 2 : 1 } ?? 0)
    }

    mutating func lines(_ l: [String]?) {
        bool(l != nil)
        guard let l else { return }
        uint(UInt64(l.count))
        for s in l { string(s) }
    }
}

extension SpillReader {
    mutating func optionalBool() -> Bool? {
        switch uint() { case 0: return nil; case 1: return false; default: return true }
    }

    mutating func lines() -> [String]? {
        guard bool() else { return nil }
        return (0..<uint()).map { _ in string() }
    }
}
