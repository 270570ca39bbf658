import Foundation

// MARK: - Text reports

/// Reads text crash reports (also the body of bug_type 109 `.ips` files), line by line.
enum CrashTextReportReader {
    /// The block the current line belongs to.
    enum Section { case none, asi, lastException, thread(Int), images, terminationReason, terminationDescription }

    /// Reads `lines` (starting at the first non-empty line) into `draft`.
    static func read(lines: ArraySlice<Substring>, into draft: inout CrashDraft) {
        var r = draft.report
        var section = Section.none
        var parenthesised: [Substring]? = nil   // collecting a "( 0x.. 0x.. )" exception backtrace
        var threadSlots: [Int: Int] = [:]        // thread number -> index in draft.threads
        var triggeredThread: Int?

        func thread(_ n: Int) -> Int {
            if let slot = threadSlots[n] { return slot }
            draft.threads.append(CrashRawThread(index: n))
            threadSlots[n] = draft.threads.count - 1
            return draft.threads.count - 1
        }

        func finishParenthesised() {
            guard let parts = parenthesised else { return }
            let joined = parts.joined(separator: " ")
            let addresses = joined.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" || $0 == ")" || $0 == "," })
            for a in addresses where CrashText.isHexAddress(a) {
                draft.lastExceptionBacktrace.append(CrashFrame(index: draft.lastExceptionBacktrace.count, address: String(a)))
            }
            parenthesised = nil
        }

        for raw in lines {
            let line = CrashText.trim(raw)
            if let parts = parenthesised {
                parenthesised = parts + [line]
                if line.contains(")" as Character) || line.isEmpty { finishParenthesised(); section = .none }
                continue
            }
            if line.isEmpty {
                section = .none
                continue
            }

            // Thread headers: "Thread 0 name:  ...", "Thread 0 Crashed:", "Thread 1:", "Thread 0 Crashed::  Dispatch queue: x".
            if line.hasPrefix("Thread "), let header = CrashText.threadHeader(line) {
                let slot = thread(header.number)
                switch header.kind {
                case .name(let value):
                    CrashText.assignNameOrQueue(value, to: &draft.threads[slot])
                    section = .none
                case .start(let crashed, let value):
                    if crashed { draft.threads[slot].crashed = true }
                    if let value { CrashText.assignNameOrQueue(value, to: &draft.threads[slot]) }
                    section = .thread(header.number)
                    draft.foundCrashContent = true
                case .state:
                    section = .none
                }
                continue
            }

            // macOS-style reports give the exception's stack as "Application Specific Backtrace 1:".
            if line.hasPrefix("Application Specific Backtrace"), line.hasSuffix(":") {
                section = draft.lastExceptionBacktrace.isEmpty ? .lastException : .none
                continue
            }
            if !(raw.first?.crashIsSpace ?? false), let (key, value) = CrashText.headerField(line) {
                switch key {
                case "Incident Identifier":
                    if r.incidentIdentifier == nil { r.incidentIdentifier = String(value) }
                    draft.foundCrashContent = true
                case "Process":
                    if r.process == nil {
                        let (name, pid) = CrashText.processAndPID(value)
                        r.process = name
                        r.pid = pid
                        if pid != nil { draft.foundCrashContent = true }
                    }
                case "Path":
                    if draft.processPath == nil { draft.processPath = String(value) }
                case "Identifier":
                    if r.bundleID == nil { r.bundleID = String(value) }
                case "Version":
                    if draft.textVersion == nil, r.appVersion == nil { draft.textVersion = String(value) }
                case "Hardware Model", "Model":
                    if r.deviceModel == nil, let model = CrashText.words(value, limit: 1).first {
                        r.deviceModel = String(model.hasSuffix(",") ? model.dropLast() : model)
                    }
                case "OS Version":
                    if r.osVersion == nil { r.osVersion = String(value) }
                case "Date/Time":
                    if r.timestamp == nil { r.timestamp = String(value) }
                case "Exception Type":
                    if r.exceptionType == nil {
                        let (type, signal) = CrashText.exceptionTypeAndSignal(value)
                        r.exceptionType = type
                        r.signal = signal
                        draft.foundCrashContent = true
                    }
                case "Exception Codes":
                    if r.exceptionCodes == nil { r.exceptionCodes = String(value) }
                case "Exception Subtype":
                    if r.exceptionSubtype == nil { r.exceptionSubtype = String(value) }
                case "Termination Reason":
                    CrashText.readTerminationReason(value, into: &r)
                    section = .terminationReason
                case "Termination Description":
                    r.terminationReasons += CrashText.descriptionParts(value)
                    section = .terminationDescription
                case "Triggered by Thread", "Crashed Thread":
                    let digits = value.prefix(while: { $0.crashIsDigit })
                    if triggeredThread == nil, let n = Int(digits) {
                        triggeredThread = n
                        draft.foundCrashContent = true
                        let rest = CrashText.trim(value.dropFirst(digits.count))
                        if !rest.isEmpty {
                            let slot = thread(n)
                            CrashText.assignNameOrQueue(rest, to: &draft.threads[slot])
                        }
                    }
                case "Application Specific Information":
                    if !value.isEmpty { r.applicationSpecificInformation.append(String(value)) }
                    section = .asi
                case "Last Exception Backtrace":
                    section = .lastException
                    if value.hasPrefix("(") {
                        parenthesised = [value]
                        if value.contains(")" as Character) { finishParenthesised(); section = .none }
                    }
                case "Binary Images":
                    section = .images
                default:
                    section = .none
                }
                continue
            }

            switch section {
            case .none:
                break
            case .asi:
                r.applicationSpecificInformation.append(String(line))
            case .lastException:
                if line.hasPrefix("(") {
                    parenthesised = [line]
                    if line.contains(")" as Character) { finishParenthesised(); section = .none }
                } else if let frame = CrashText.frame(line) {
                    draft.lastExceptionBacktrace.append(frame)
                } else {
                    section = .none
                }
            case .thread(let n):
                if let frame = CrashText.frame(line) {
                    draft.threads[thread(n)].frames.append(frame)
                } else {
                    section = .none
                }
            case .images:
                draft.imageLines.append(line)
            case .terminationReason, .terminationDescription:
                r.terminationReasons += CrashText.descriptionParts(line)
            }
        }
        finishParenthesised()

        r.crashedThread = triggeredThread ?? r.crashedThread
        draft.report = r
        draft.fallbackExceptionText = lines.joined(separator: "\n")
    }
}
