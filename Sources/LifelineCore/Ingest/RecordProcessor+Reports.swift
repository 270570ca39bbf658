import Foundation

/// Crash reports, jetsam and resource reports and MetricKit payloads: a report is one record of
/// many lines, read whole when the input ends (or when a second report starts), and gives one
/// event or several (one per killed app, one per MetricKit diagnostic).
extension RecordProcessor {

    mutating func feedCrash(_ l: Bytes) {
        let text = string(l)
        if crashText.isEmpty {
            if isBlank(l) { nonLog(); return }
            crashStart = lineNo
            stats.records += 1
        } else if mode != .metricKit, text.hasPrefix("Incident Identifier:"), crashText.contains(where: { $0.hasPrefix("Incident Identifier:") || $0.hasPrefix("Exception Type:") }) {
            // A second report in the same file.
            flushCrash()
            crashStart = lineNo
            stats.records += 1
        } else {
            stats.continuationLines += 1
        }
        if crashBytes + l.count <= Self.maxCrashBytes {
            crashText.append(text)
            crashBytes += l.count + 1
        } else if crashBytes <= Self.maxCrashBytes {
            crashBytes = Self.maxCrashBytes + 1
            stats.notes.append(InputNote(.warning, line: lineNo, "crash report longer than \(Self.maxCrashBytes) bytes; the rest was not read"))
        }
    }

    mutating func flushCrash() {
        guard !crashText.isEmpty else { return }
        defer { crashText.removeAll(); crashBytes = 0 }
        let lineCount = lineNo - crashStart + 1
        recordsPerFormat[formatIndex(mode)] += 1
        if mode == .metricKit { return flushMetricKit(lineCount: lineCount) }
        do {
            // The report's lines are the reader's lines: line numbers it gives are offsets into them.
            switch try DiagnosticReportParser.parse(lines: crashText.map { Substring($0) }, lifecycleSymbol: CallbackCatalog.isLifecycleSymbol) {
            case .crash(let report):
                // A report pasted into Markdown starts after the prose and fence before it, and the
                // prose after it is Markdown too: those lines are not the report's.
                let lead = max(0, report.startLine - 1)
                var tail = 0
                if let t = report.trailingTextLine {
                    // Pasted between fences: what follows the closing fence is the prose.
                    let fenced = markdown || crashText.contains { CrashLayouts.isFence(CrashText.trim(Substring($0))) }
                    if fenced {
                        tail = max(0, lineCount - (t - 1))
                    } else {
                        stats.notes.append(InputNote(.warning, line: crashStart + t - 1, "text after the crash report's JSON body is not part of the report"))
                    }
                }
                let moved = min(lead + tail, stats.continuationLines)
                stats.continuationLines -= moved
                stats.nonLogLines += moved
                emit(CrashEvents.event(from: report, file: file, line: crashStart + lead, lineCount: max(1, lineCount - lead - tail),
                                       format: mode, context: context))
            case .jetsam(let report):
                let events = ReportEvents.events(from: report, file: file, line: crashStart, lineCount: lineCount, format: mode, context: context)
                if events.isEmpty { stats.notes.append(InputNote(.info, line: crashStart, "a jetsam report in which no process was killed")) }
                for e in events { emit(e) }
            case .resource(let report):
                emit(ReportEvents.event(from: report, file: file, line: crashStart, lineCount: lineCount, format: mode, context: context))
            case .notAFailure(let what):
                stats.notes.append(InputNote(.info, line: crashStart, "\(what); no event"))
            }
        } catch {
            stats.notes.append(InputNote(.error, line: crashStart, "not a readable crash report: \(error)"))
        }
    }

    /// Every diagnostic of the MetricKit payloads read, one event each at the line it starts.
    private mutating func flushMetricKit(lineCount: Int) {
        do {
            let diagnostics = try MetricKitReader.read(Array(crashText.joined(separator: "\n").utf8))
            // Each diagnostic that starts on a line of its own is a record: the payload's first line
            // was counted as one, the others as continuation lines.
            let starts = Set(diagnostics.map(\.line)).subtracting([1]).count
            stats.records += starts
            stats.continuationLines -= starts
            recordsPerFormat[formatIndex(.metricKit)] += starts
            for d in diagnostics {
                let line = crashStart + d.line - 1
                emit(ReportEvents.event(from: d, file: file, line: line, lineCount: max(1, lineCount - (line - crashStart)), context: context))
            }
        } catch {
            stats.notes.append(InputNote(.error, line: crashStart + ((error as? CrashReportError)?.line ?? 1) - 1,
                                         "not a readable MetricKit payload: \((error as? CrashReportError)?.message ?? "\(error)")"))
        }
    }
}
