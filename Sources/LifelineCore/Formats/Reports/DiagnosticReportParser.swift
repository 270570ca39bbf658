import Foundation

/// Any report a device, Xcode or Console writes about a process's end or trouble.
public enum DiagnosticReport: Sendable, Equatable {
    /// A crash report (`.ips` JSON, text, or both), watchdog kills included.
    case crash(CrashReport)
    /// A jetsam event report: processes killed for memory.
    case jetsam(JetsamReport)
    /// A CPU, disk-write or hang microstackshot report.
    case resource(ResourceReport)
    /// A report that is not about a failure (a stackshot taken on request): recognised and counted,
    /// with what it is, but no event.
    case notAFailure(String)
}

/// Reads a report file and decides by its content (the header's `bug_type` and the body's shape)
/// which reader it needs: jetsam, microstackshot (CPU, disk writes, hang), stackshot, or crash.
public enum DiagnosticReportParser {
    /// Bug types of reports that are recognised but carry no failure.
    static let notAFailure: [String: String] = [
        "288": "a stackshot (bug_type 288): a snapshot of every process taken on request or by the system, not a crash",
        "210": "a kernel panic (bug_type 210): the device restarted; not a report about an app",
        "409": "a system watchdog report (bug_type 409): about the system, not an app",
    ]

    /// Parses a whole report.
    /// - Throws: `CrashReportError`, as `CrashReportParser.parse` does, when nothing here reads it.
    public static func parse(_ text: String, lifecycleSymbol: (String) -> Bool = CrashReportParser.defaultLifecycleSymbol) throws -> DiagnosticReport {
        try parse(lines: CrashText.lines(text), lifecycleSymbol: lifecycleSymbol)
    }

    /// The same, from lines already cut (an input's lines as the line reader cut them). Every line
    /// number in the result (`startLine`, `trailingTextLine`, an error's line) is an index into
    /// `lines`, whatever a line holds: a lone `\r` inside a log line is not a line break here, so
    /// a report read from a log's lines never points past them.
    static func parse(lines raw: [Substring], lifecycleSymbol: (String) -> Bool = CrashReportParser.defaultLifecycleSymbol) throws -> DiagnosticReport {
        let lines = CrashLayouts.unwrapMarkdown(raw)
        if let first = lines.firstIndex(where: { !CrashText.trim($0).isEmpty }) {
            let start = CrashLayouts.reportStart(lines, from: first)
            if let other = try other(lines: lines, start: start) { return other }
        }
        return .crash(try CrashReportParser.parse(lines: lines, lifecycleSymbol: lifecycleSymbol))
    }

    /// A report that is not a crash report, or nil to read it as one.
    static func other(lines: [Substring], start: Int) throws -> DiagnosticReport? {
        let headerText = CrashText.trim(lines[start])
        var header: [String: Any] = [:]
        var bodyStart = start
        if headerText.hasPrefix("{"), headerText.hasSuffix("}"),
           let object = try? JSONSerialization.jsonObject(with: Data(headerText.utf8)) as? [String: Any], object["bug_type"] != nil {
            header = object
            bodyStart = start + 1
        }
        let bugType = CrashJSONValue.string(header["bug_type"])
        if let bugType, CrashLayouts.crashBugTypes.contains(bugType) { return nil }
        guard let firstBody = lines[bodyStart...].firstIndex(where: { !CrashText.trim($0).isEmpty }) else {
            if let bugType, let what = notAFailure[bugType] { return .notAFailure(what) }
            return nil
        }
        let body = lines[firstBody...]
        if CrashText.trim(body[firstBody]).hasPrefix("{") {
            let object = try? JSONSerialization.jsonObject(with: Data(body.joined(separator: "\n").utf8)) as? [String: Any]
            if let object, JetsamReport.isBody(object) { return .jetsam(JetsamReport.read(body: object, header: header)) }
            if bugType == "298" {
                throw CrashReportError(kind: object == nil ? .malformedJSON : .notACrashReport,
                                       message: object == nil ? "the jetsam report's JSON body is malformed or cut"
                                                              : "the jetsam report's body lists no processes",
                                       line: firstBody + 1)
            }
            if let bugType, let what = notAFailure[bugType] { return .notAFailure(what) }
            if let object, object["processByPid"] != nil, object["threads"] == nil { return .notAFailure(notAFailure["288"]!) }
            return nil
        }
        if ResourceReport.isBody(body) { return .resource(ResourceReport.read(lines: body, header: header)) }
        if let bugType, let what = notAFailure[bugType] { return .notAFailure(what) }
        return nil
    }
}
