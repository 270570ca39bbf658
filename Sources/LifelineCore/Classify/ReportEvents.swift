import Foundation

/// Turns jetsam and microstackshot reports into failure events, one per killed app or per report.
enum ReportEvents {
    /// One `failure.jetsam` event per killed app of the report (or the one killed process when no
    /// app was), each placed in that process's session by its name and pid.
    static func events(from r: JetsamReport, file: String, line: Int, lineCount: Int, format: LogFormat,
                       context: TimeContext) -> [Event] {
        let killedCount = r.killed.count
        return r.victims.map { p in
            let name = p.name ?? "a process"
            var message = "\(name)\(p.pid.map { " [\($0)]" } ?? "") killed for memory"
            if let reason = p.reason { message += " (\(reason))" }
            // Pages as the report gives them, which may be any number: no size when the product overflows.
            let bytes = p.residentPages.flatMap { pages -> Int? in
                let (b, overflow) = pages.multipliedReportingOverflow(by: r.pageSize)
                return overflow ? nil : b
            }
            if let bytes { message += ", \(NumberText.bytes(bytes)) resident" }
            if !p.states.isEmpty { message += ", \(p.states.joined(separator: " "))" }
            if let largest = r.largestProcess { message += largest == p.name ? "; the largest process" : "; largest process \(largest)" }
            if killedCount > 1 { message += "; \(killedCount - 1) other process\(killedCount == 2 ? "" : "es") killed" }
            var e = Event(file: file, line: line, lineCount: lineCount, format: format, kind: .jetsam, message: message)
            e.process = p.name
            e.pid = p.pid
            e.timestamp = FieldDecoding.timestamp(r.timestamp, format: format, context: context)
            var d = EventDetails()
            d.terminationReason = p.reason
            d.cause = .jetsam
            d.residentBytes = bytes
            d.processStates = p.states.isEmpty ? nil : p.states
            d.largestProcess = r.largestProcess
            d.osVersion = r.osVersion
            d.deviceModel = r.deviceModel
            d.incidentID = r.incidentIdentifier
            e.details = d
            return e
        }
    }

    /// A `failure.hang` or `failure.resourceLimit` event for a microstackshot report.
    static func event(from r: ResourceReport, file: String, line: Int, lineCount: Int, format: LogFormat,
                      context: TimeContext) -> Event {
        let kind: EventKind = r.kind == .hang ? .hang : .resourceLimit
        var message: String
        switch r.kind {
        case .cpu: message = "CPU resource limit"
        case .diskWrites: message = "disk write resource limit"
        case .hang: message = "hang"
        case .other: message = r.event.isEmpty ? "resource report" : r.event
        }
        if r.kind == .hang, !r.event.isEmpty, r.event.lowercased() != "hang" { message += " (\(r.event))" }
        if let usage = r.usage { message += ": \(usage)" }
        if let ms = r.durationMilliseconds, r.kind == .hang { message += String(format: ", %.2f s", Double(ms) / 1000) }
        if let action = r.action { message += "; action taken: \(action)" }
        var e = Event(file: file, line: line, lineCount: lineCount, format: format, kind: kind, message: message)
        e.process = r.process
        e.pid = r.pid
        e.timestamp = FieldDecoding.timestamp(r.timestamp, format: format, context: context)
        var d = EventDetails()
        d.cause = r.kind == .cpu ? .cpuResource : r.kind == .diskWrites ? .diskWriteResource : r.kind == .hang ? .hang : nil
        d.durationMilliseconds = r.durationMilliseconds
        if r.kind == .cpu { d.cpuTime = r.usage.map(usagePart) }
        if let limit = r.usage.flatMap(limitPart) { d.resourceLimit = r.action.map { "\(limit); action taken: \($0)" } ?? limit }
        d.backtrace = r.frames.isEmpty ? nil : .frames(Array(r.frames.prefix(64)))
        d.appFrames = r.appFrames.isEmpty ? nil : r.appFrames
        d.firstAppFrame = r.appFrames.first
        d.bundleID = r.bundleID
        d.appVersion = r.appVersion
        d.appBuild = r.appBuild
        d.osVersion = r.osVersion
        d.deviceModel = r.deviceModel
        d.incidentID = r.incidentIdentifier
        e.details = d
        return e
    }

    /// `CPU: 90 seconds cpu time over 156 seconds (58% cpu average), exceeding limit of …` → the
    /// part before the limit, without its key.
    static func usagePart(_ usage: String) -> String {
        var s = Substring(usage)
        if let colon = s.firstIndex(of: ":") { s = s[s.index(after: colon)...] }
        if let comma = s.range(of: ", exceeding") { s = s[..<comma.lowerBound] }
        return CrashText.trim(s).description
    }

    /// `exceeding limit of 50% cpu over 180 seconds`.
    static func limitPart(_ usage: String) -> String? {
        guard let r = usage.range(of: "exceeding ") else { return nil }
        return String(usage[r.lowerBound...])
    }
}

extension ReportEvents {
    /// One event per MetricKit diagnostic: a crash as a crash report would give it (watchdog kills
    /// included), a hang, a CPU or disk-write resource limit, a slow launch.
    static func event(from m: MetricKitDiagnostic, file: String, line: Int, lineCount: Int, context: TimeContext) -> Event {
        let process = m.appBinary.map { $0.hasSuffix(".debug.dylib") ? String($0.dropLast(".debug.dylib".count)) : $0 }
            ?? m.bundleID.flatMap { $0.split(separator: ".").last.map(String.init) }
        var e: Event
        if m.kind == .crash {
            var draft = CrashDraft(report: CrashReport(source: .metricKit))
            var r = CrashReport(source: .metricKit)
            r.process = process
            r.pid = m.pid
            r.bundleID = m.bundleID
            r.appVersion = m.appVersion
            r.appBuild = m.appBuild
            r.osVersion = m.osVersion
            r.deviceModel = m.deviceModel
            r.timestamp = m.begin
            r.exceptionType = m.exceptionType
            r.signal = m.signal
            r.exceptionCodes = m.exceptionCode
            r.exceptionName = m.exceptionName
            r.exceptionReason = m.exceptionReason
            if let reason = m.terminationReason {
                r.terminationReasons = [reason]
                let (namespace, code) = terminationParts(reason)
                r.terminationNamespace = namespace
                r.terminationCode = code
            }
            draft.report = r
            var thread = CrashRawThread(index: 0)
            thread.crashed = true
            thread.frames = m.frames
            thread.appFlags = m.appFlags
            draft.threads = [thread]
            let report = draft.finish(lifecycleSymbol: { _ in false })
            e = CrashEvents.event(from: report, file: file, line: line, lineCount: lineCount, format: .metricKit, context: context)
            var d = e.details ?? EventDetails()
            // One attributed stack, not a numbered thread: which thread it was is not known.
            d.crashedThread = nil
            d.crashedThreadIsMain = nil
            e.details = d
        } else {
            let kind: EventKind
            var message: String
            var cause: FailureCause
            switch m.kind {
            case .hang:
                kind = .hang; cause = .hang
                message = "hang" + (m.measurement.map { " of \($0)" } ?? "") + (m.hangType.map { " (\($0))" } ?? "")
            case .cpuException:
                kind = .resourceLimit; cause = .cpuResource
                message = "CPU resource limit" + (m.measurement.map { ": \($0) of CPU time" } ?? "")
                    + (m.sampledTime.map { " over \($0) sampled" } ?? "")
            case .diskWriteException:
                kind = .resourceLimit; cause = .diskWriteResource
                message = "disk write resource limit" + (m.measurement.map { ": \($0) written" } ?? "")
            case .appLaunch:
                kind = .slowLaunch; cause = .slowLaunch
                message = "slow launch" + (m.measurement.map { ": \($0)" } ?? "")
            case .crash:
                fatalError("handled above")
            }
            if let first = zip(m.frames, m.appFlags).first(where: { $0.1 })?.0 { message += " in the app at \(CrashEvents.place(first))" }
            e = Event(file: file, line: line, lineCount: lineCount, format: .metricKit, kind: kind, message: message)
            e.process = process
            e.pid = m.pid
            var d = EventDetails()
            d.cause = cause
            d.durationMilliseconds = m.durationMilliseconds
            if m.kind == .cpuException { d.cpuTime = m.measurement }
            d.backtrace = m.frames.isEmpty ? nil : .frames(Array(m.frames.prefix(64)))
            let app = zip(m.frames, m.appFlags).filter(\.1).map(\.0)
            d.appFrames = app.isEmpty ? nil : app
            d.firstAppFrame = app.first
            d.bundleID = m.bundleID
            d.appVersion = m.appVersion
            d.appBuild = m.appBuild
            d.osVersion = m.osVersion
            d.deviceModel = m.deviceModel
            e.details = d
            e.timestamp = FieldDecoding.timestamp(m.begin, format: .metricKit, context: context)
        }
        if let b = m.begin, let end = m.end, b != end {
            var d = e.details ?? EventDetails()
            d.timeWindow = "\(b) – \(end)"
            e.details = d
        }
        return e
    }

    /// `Namespace SIGNAL, Code 0xb` → (`SIGNAL`, `0xb`); `… Code 2343432205` → `0x8badf00d`.
    static func terminationParts(_ reason: String) -> (String?, String?) {
        var namespace: String?, code: String?
        if let r = reason.range(of: "Namespace ") {
            namespace = String(reason[r.upperBound...].prefix { $0 != "," && $0 != " " })
        }
        if let r = reason.range(of: "Code ") {
            let raw = reason[r.upperBound...].prefix { !$0.isWhitespace && $0 != "," }
            if raw.lowercased().hasPrefix("0x"), let v = UInt64(raw.dropFirst(2), radix: 16) { code = "0x" + String(v, radix: 16) }
            else if let v = UInt64(raw) { code = "0x" + String(v, radix: 16) }
        }
        return (namespace, code)
    }
}
