import Foundation

/// Parses `.ips` and text crash reports into `CrashReport` values.
public enum CrashReportParser {

    /// Lifecycle predicate used when none is given: symbols of UIKit/CarPlay lifecycle callbacks and
    /// scene machinery. Accepts symbols containing "Scene"/"scene" (scene delegate callbacks,
    /// `UIScene`, `_UISceneLifecycleMultiplexer`, `FBSScene`, ... but not SceneKit/SpriteKit/
    /// RealityKit/GameplayKit scenes), "FinishLaunching", "makeKeyAndVisible", "applicationDid",
    /// "applicationWill", "templateApplication", "configurationForConnecting",
    /// "CarInterfaceController", UIKit's launch drivers `_callInitializationDelegates` and
    /// `_handleDelegateCallbacks`, and the pre-scene `_UICanvas` machinery.
    /// - Parameter symbol: A frame symbol without offset.
    /// - Returns: Whether the frame is part of the app/scene life cycle.
    public static func defaultLifecycleSymbol(_ symbol: String) -> Bool {
        let bytes = Array(symbol.utf8)
        for token in CrashLexicon.lifecycleTokens where CrashText.contains(bytes, token) { return true }
        guard CrashText.contains(bytes, "Scene") || CrashText.contains(bytes, "scene") else { return false }
        for other in CrashLexicon.foreignSceneTokens where CrashText.contains(bytes, other) { return false }
        return true
    }

    /// True when `firstLine` (a file's first non-empty line) starts a crash report: an `.ips` header
    /// (a JSON object with "bug_type") or a text header ("Incident Identifier:", "Hardware Model:",
    /// or "Process:" followed by a name and `[pid]`).
    /// - Parameter firstLine: The first non-empty line; surrounding white space is ignored.
    /// - Returns: Whether a crash report starts here.
    public static func looksLikeStart(_ firstLine: Substring) -> Bool {
        let line = CrashText.trim(firstLine)
        if line.hasPrefix("{") {
            guard CrashText.find("\"bug_type\"", in: line) != nil else { return false }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["bug_type"] != nil
        }
        if line.hasPrefix("Incident Identifier:") || line.hasPrefix("Hardware Model:") { return true }
        if line.hasPrefix("Process:") {
            return CrashText.processAndPID(line.dropFirst("Process:".count)).1 != nil
        }
        return false
    }

    /// Parses a whole report: an `.ips` file's full text or a text crash report.
    ///
    /// An `.ips` body that is cut short does not throw: the result carries what the header line and
    /// the complete parts of the body say, with `truncated == true`.
    /// - Parameters:
    ///   - text: The complete file contents.
    ///   - lifecycleSymbol: Decides which frame symbols are life-cycle frames
    ///     (`CrashReport.lifecycleFrames`); `defaultLifecycleSymbol` when omitted.
    /// - Returns: The parsed report.
    /// - Throws: `CrashReportError` when the text is not a crash report, when the `.ips` header or
    ///   body is malformed JSON (with the 1-based line when known), or when the `.ips` bug_type is
    ///   not a crash report.
    public static func parse(_ text: String, lifecycleSymbol: (String) -> Bool = defaultLifecycleSymbol) throws -> CrashReport {
        try parse(lines: CrashLayouts.unwrapMarkdown(CrashText.lines(text)), lifecycleSymbol: lifecycleSymbol)
    }

    /// The same, from the text's lines with any Markdown wrapping already removed
    /// (`CrashLayouts.unwrapMarkdown`), as `DiagnosticReportParser` holds them.
    static func parse(lines: [Substring], lifecycleSymbol: (String) -> Bool) throws -> CrashReport {
        guard let first = lines.firstIndex(where: { !CrashText.trim($0).isEmpty }) else {
            throw CrashReportError(kind: .notACrashReport, message: "input is empty")
        }
        // "Translated Report (Full Report Below)": the text of an incident, then its `.ips`. One
        // report: the JSON says it all, the text fills what a cut JSON lost.
        if let full = CrashLayouts.fullReportStart(lines, from: first) {
            var textDraft = CrashDraft(report: CrashReport(source: .text))
            CrashTextReportReader.read(lines: lines[first..<full], into: &textDraft)
            if var draft = try? parseIPS(lines: lines, headerIndex: full) {
                if draft.report.truncated || draft.threads.isEmpty { draft.absorb(textDraft) }
                draft.report.layouts = ["text", "ips"]
                draft.report.startLine = first + 1
                return draft.finish(lifecycleSymbol: lifecycleSymbol)
            }
            guard textDraft.foundCrashContent else {
                throw CrashReportError(kind: .notACrashReport, message: "neither the translated text nor the full report reads as a crash report", line: first + 1)
            }
            textDraft.report.startLine = first + 1
            return textDraft.finish(lifecycleSymbol: lifecycleSymbol)
        }
        let start = CrashLayouts.reportStart(lines, from: first)
        let firstLine = CrashText.trim(lines[start])
        var draft: CrashDraft
        if firstLine.hasPrefix("{") || CrashLayouts.isCutHeader(firstLine) {
            draft = try parseIPS(lines: lines, headerIndex: start)
        } else {
            draft = CrashDraft(report: CrashReport(source: .text))
            CrashTextReportReader.read(lines: lines[start...], into: &draft)
            guard draft.foundCrashContent else {
                throw CrashReportError(
                    kind: .notACrashReport,
                    message: "no crash report header (Incident Identifier, Process [pid], Exception Type) or thread backtrace found; first line is '\(CrashText.abbreviate(firstLine))'",
                    line: start + 1)
            }
        }
        draft.report.startLine = start + 1
        return draft.finish(lifecycleSymbol: lifecycleSymbol)
    }
}

// MARK: - .ips

extension CrashReportParser {
    /// Parses an `.ips` file whose first non-empty line (index `headerIndex`) starts with `{` or is
    /// what is left of a header cut at its start.
    static func parseIPS(lines: [Substring], headerIndex: Int) throws -> CrashDraft {
        let headerText = CrashText.trim(lines[headerIndex])
        let headerLine = headerIndex + 1
        let bodyLines = lines[(headerIndex + 1)...]

        let headerObject: Any
        do {
            headerObject = try JSONSerialization.jsonObject(with: Data(headerText.utf8))
        } catch {
            // A body-only file (pretty-printed JSON starting with a lone "{").
            let whole = lines[headerIndex...].joined(separator: "\n")
            if let object = try? JSONSerialization.jsonObject(with: Data(whole.utf8)) as? [String: Any],
               CrashLayouts.isCrashBody(object) {
                var draft = CrashDraft(report: CrashReport(source: .ips))
                draft.report.bugType = CrashJSONValue.string(object["bug_type"])
                draft.report.layouts = ["ips-body"]
                CrashIPSBodyReader.read(body: object, header: [:], into: &draft)
                return draft
            }
            // A header cut at its start when it was pasted: what is left of it still names the
            // incident, and the body follows.
            if let salvaged = CrashLayouts.salvageCutHeader(headerText) {
                return try readIPS(header: salvaged, bodyLines: bodyLines, headerLine: headerLine, layout: "ips-cut-header")
            }
            throw CrashReportError(
                kind: .malformedJSON,
                message: "the .ips header line is not valid JSON (\(CrashJSONValue.errorSummary(error)))",
                line: headerLine)
        }
        guard let header = headerObject as? [String: Any] else {
            throw CrashReportError(kind: .notACrashReport, message: "the .ips header line is not a JSON object", line: headerLine)
        }
        return try readIPS(header: header, bodyLines: bodyLines, headerLine: headerLine, layout: "ips")
    }

    /// Reads the body under an `.ips` header. The body's shape decides how: JSON (`{`) is the v2
    /// body, anything else a text report, whatever `bug_type` says.
    static func readIPS(header: [String: Any], bodyLines: ArraySlice<Substring>, headerLine: Int, layout: String) throws -> CrashDraft {
        guard let bugType = CrashJSONValue.string(header["bug_type"]) ?? (layout == "ips-cut-header" ? "" : nil) else {
            throw CrashReportError(kind: .notACrashReport, message: "the JSON header line has no bug_type", line: headerLine)
        }
        var draft = CrashDraft(report: CrashReport(source: .ips))
        draft.report.bugType = bugType.isEmpty ? nil : bugType
        guard let firstBody = bodyLines.firstIndex(where: { !CrashText.trim($0).isEmpty }) else {
            // Only the header: what it says, marked as cut.
            draft.report.truncated = true
            draft.report.layouts = [layout]
            CrashIPSBodyReader.read(body: [:], header: header, into: &draft)
            return draft
        }
        if !CrashText.trim(bodyLines[firstBody]).hasPrefix("{") {
            draft.report.layouts = [layout, "text"]
            CrashTextReportReader.read(lines: bodyLines[firstBody...], into: &draft)
            guard draft.foundCrashContent else {
                if !CrashLayouts.crashBugTypes.contains(bugType) {
                    throw CrashReportError(kind: .unsupportedBugType,
                                           message: "bug_type \(bugType) is not a crash report and its body has no crash report content",
                                           line: headerLine)
                }
                draft.report.truncated = true
                CrashIPSBodyReader.applyHeader(header, to: &draft.report)
                return draft
            }
            CrashIPSBodyReader.applyHeader(header, to: &draft.report)
            return draft
        }
        draft.report.layouts = [layout, "json"]
        let body = bodyLines[firstBody...].joined(separator: "\n")
        let bodyLine = headerLine + 1 + (firstBody - bodyLines.startIndex)
        let bytes = Array(body.utf8)
        var parsed = try? JSONSerialization.jsonObject(with: Data(bytes))
        if parsed == nil, let cut = CrashLayouts.bodyBeforeTrailingText(bodyLines[firstBody...]),
           let next = bodyLines[cut.next...].firstIndex(where: { !CrashText.trim($0).isEmpty }) {
            parsed = cut.object
            draft.report.trailingTextLine = next + 1
        }
        if let object = parsed {
            guard let dict = object as? [String: Any] else {
                throw CrashReportError(kind: .malformedJSON, message: "the .ips body is JSON but not an object", line: bodyLine)
            }
            guard CrashLayouts.isCrashBody(dict) || CrashLayouts.crashBugTypes.contains(bugType) else {
                throw CrashReportError(kind: .unsupportedBugType,
                                       message: "bug_type \(bugType) is not a crash report (its body has no threads or exception)",
                                       line: headerLine)
            }
            CrashIPSBodyReader.read(body: dict, header: header, into: &draft)
            return draft
        }
        let shape = CrashJSONShape.scan(bytes)
        switch shape.status {
        case .truncated:
            draft.report.truncated = true
            CrashIPSBodyReader.read(body: shape.salvage(bytes), header: header, into: &draft)
            return draft
        case .invalid(let offset):
            throw CrashReportError(
                kind: .malformedJSON,
                message: "the .ips JSON body is malformed (unexpected character at byte \(offset) of the body)",
                line: bodyLine + CrashText.newlineCount(bytes, upTo: offset))
        case .complete:
            var line: Int?
            let reason: String
            do {
                _ = try JSONSerialization.jsonObject(with: Data(bytes))
                reason = "unknown error"
            } catch {
                reason = CrashJSONValue.errorSummary(error)
                if let offset = CrashJSONValue.errorOffset(error) {
                    line = bodyLine + CrashText.newlineCount(bytes, upTo: min(offset, bytes.count))
                }
            }
            throw CrashReportError(kind: .malformedJSON, message: "the .ips JSON body is malformed (\(reason))", line: line)
        }
    }
}
