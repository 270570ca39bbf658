import LifelineCore
import LifelineRules

/// The analysis as a SARIF 2.1.0 log (`lifeline analyze --format sarif`), for code-scanning tools.
///
/// One run: `tool.driver` carries the whole rule catalogue (each rule's id, kebab name, summary,
/// rationale, the settings it reads, default level and category); `artifacts` lists the inputs;
/// each diagnostic is a result pointing at its log line, with the session, scene, state and
/// Lifeline severity in its property bag. `invocations` says whether every input could be read and
/// carries the inputs' reading problems (binary data, cut lines) as notifications.
///
/// Every string goes through ``JSONWriter``'s escaping; file paths become URI references with the
/// characters a URI does not allow percent-encoded. In message strings (messages, rule descriptions
/// and help) `{` and `}` are doubled, as SARIF §3.11.5 asks, so that a brace from a log is never
/// read as an argument placeholder (`{0}`). Keys are written in sorted order and nothing
/// depends on the time or the machine, so the same analysis gives the same bytes.
public enum SARIFReport {
    /// The schema the log names (the SARIF 2.1.0 JSON schema, errata01).
    public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

    /// Renders the log. `rules` is the catalogue written into `tool.driver.rules` (in its order);
    /// results whose rule is not in it keep their `ruleId` without a `ruleIndex`.
    /// `manifests` are the Info.plist files checked (default: the analysis's), each an artifact
    /// after the inputs.
    public static func render(_ analysis: Analysis, rules: [any Rule.Type] = RuleRegistry.all, version: String,
                              manifests: [SceneManifest]? = nil) -> String {
        let descriptions = rules.map { $0.description }
        var ruleIndex: [String: Int] = [:]
        for (i, d) in descriptions.enumerated() where ruleIndex[d.id] == nil { ruleIndex[d.id] = i }
        var artifactIndex: [String: Int] = [:]
        for (i, s) in analysis.inputs.enumerated() where artifactIndex[s.path] == nil { artifactIndex[s.path] = i }
        // The Info.plist checked with the logs is a second kind of artifact, after the inputs.
        var plists: [SceneManifest] = []
        for m in manifests ?? analysis.manifest.map({ [$0] }) ?? [] where artifactIndex[m.file] == nil {
            artifactIndex[m.file] = analysis.inputs.count + plists.count
            plists.append(m)
        }

        var w = JSONWriter()
        w.beginObject()
        w.field("$schema", schemaURI)
        w.key("runs")
        w.beginArray()
        w.beginObject()
        w.key("artifacts")
        w.beginArray()
        for s in analysis.inputs { writeArtifact(s, to: &w) }
        for m in plists { writeArtifact(m, to: &w) }
        w.endArray()
        w.key("invocations")
        w.beginArray()
        writeInvocation(analysis.inputs, artifactIndex: artifactIndex, to: &w)
        w.endArray()
        w.key("results")
        w.beginArray()
        for d in analysis.diagnostics {
            writeResult(d, ruleIndex: ruleIndex[d.ruleId], artifacts: artifactIndex, to: &w)
        }
        w.endArray()
        w.key("tool")
        w.beginObject()
        w.key("driver")
        w.beginObject()
        w.field("name", "Lifeline")
        w.key("rules")
        w.beginArray()
        for d in descriptions { writeRule(d, to: &w) }
        w.endArray()
        w.field("version", version)
        w.endObject()
        w.endObject()
        w.endObject()
        w.endArray()
        w.field("version", "2.1.0")
        w.endObject()
        return w.text
    }

    /// The SARIF level of a severity: `fatal` has none of its own and is reported as `error`.
    public static func level(_ s: LifelineRules.Severity) -> String {
        switch s {
        case .note: return "note"
        case .warning: return "warning"
        case .error, .fatal: return "error"
        }
    }

    /// `path` as a URI reference: unreserved characters, sub-delimiters, `@` and `/` are kept, every
    /// other byte of its UTF-8 (space, `%`, `?`, `#`, `\`, non-ASCII …) is percent-encoded. A `:`
    /// is kept too, except in the first segment of a relative path, where it would read as a scheme.
    public static func uriReference(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        var inFirstSegment = path.utf8.first != UInt8(ascii: "/")
        for b in path.utf8 {
            if b == UInt8(ascii: "/") { inFirstSegment = false }
            if keptInPath[Int(b)] || (b == UInt8(ascii: ":") && !inFirstSegment) {
                out.append(b)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes a path segment may carry as they are (RFC 3986 `pchar` without `:`, plus `/`).
    private static let keptInPath: [Bool] = (0..<256).map { b in
        let c = UInt8(b)
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=@/".utf8.contains(c)
        }
    }

    // MARK: - Parts of the run

    private static func writeRule(_ d: RuleDescription, to w: inout JSONWriter) {
        w.beginObject()
        w.key("defaultConfiguration")
        w.beginObject()
        w.field("level", level(d.severity))
        w.endObject()
        w.key("fullDescription")
        message(d.rationale, to: &w)
        w.key("help")
        w.beginObject()
        w.field("markdown", messageString(helpMarkdown(d)))
        w.field("text", messageString(helpText(d)))
        w.endObject()
        w.field("id", d.id)
        w.field("name", d.name)
        w.key("properties")
        w.beginObject()
        w.field("category", d.category.rawValue)
        w.field("severity", d.severity.description)
        w.endObject()
        w.key("shortDescription")
        message(d.summary, to: &w)
        w.endObject()
    }

    /// Summary, rationale and the `.lifeline.yml` settings the rule reads, as plain text.
    static func helpText(_ d: RuleDescription) -> String {
        var text = "\(d.id) \(d.name): \(d.summary).\n\n\(d.rationale)\n\n"
        if d.configuration.isEmpty {
            text += "Settings: none."
        } else {
            text += "Settings (.lifeline.yml):\n" + d.configuration.map { "- " + $0 }.joined(separator: "\n")
        }
        return text
    }

    /// The same help as Markdown (the form of `Documentation/Rules.md`).
    static func helpMarkdown(_ d: RuleDescription) -> String {
        var text = "**\(d.id)** `\(d.name)` · \(d.severity) · \(d.summary)\n\n\(d.rationale)\n"
        if !d.configuration.isEmpty {
            text += "\nConfiguration (`.lifeline.yml`):\n\n" + d.configuration.map { "- \($0)\n" }.joined()
        }
        return text
    }

    private static func writeArtifact(_ s: InputStats, to w: inout JSONWriter) {
        w.beginObject()
        w.key("location")
        w.beginObject()
        w.field("uri", uriReference(s.path))
        w.endObject()
        w.key("properties")
        w.beginObject()
        w.field("error", s.error)
        w.field("events", s.events)
        w.field("format", s.format?.rawValue)
        w.field("lines", s.lines)
        w.endObject()
        w.field("roles", ["analysisTarget"])
        w.endObject()
    }

    private static func writeArtifact(_ m: SceneManifest, to w: inout JSONWriter) {
        w.beginObject()
        w.key("location")
        w.beginObject()
        w.field("uri", uriReference(m.file))
        w.endObject()
        w.field("mimeType", m.format == .xml ? "application/xml" : m.container == .ipa ? "application/zip" : "application/octet-stream")
        w.key("properties")
        w.beginObject()
        w.field("container", m.container.rawValue)
        w.field("format", m.format == .xml ? "xml" : "binary")
        w.field("member", m.member)
        w.field("role", "Info.plist")
        w.endObject()
        w.field("roles", ["analysisTarget"])
        w.endObject()
    }

    /// Whether every input was read, and each input's reading problems as notifications.
    private static func writeInvocation(_ inputs: [InputStats], artifactIndex: [String: Int], to w: inout JSONWriter) {
        w.beginObject()
        w.field("executionSuccessful", inputs.allSatisfy { $0.error == nil })
        var notifications: [(path: String, level: String, position: InputPosition?, message: String)] = []
        for s in inputs {
            for n in s.notes {
                let level: String
                switch n.severity { case .info: level = "note"; case .warning: level = "warning"; case .error: level = "error" }
                notifications.append((s.path, level, n.position, n.message))
            }
            // The error is usually among the notes too; say it once.
            if let error = s.error, !s.notes.contains(where: { $0.severity == .error && $0.message == error }) {
                notifications.append((s.path, "error", nil, error))
            }
        }
        if !notifications.isEmpty {
            w.key("toolExecutionNotifications")
            w.beginArray()
            for n in notifications {
                w.beginObject()
                w.field("level", n.level)
                w.key("locations")
                w.beginArray()
                location(file: n.path, position: n.position, artifactIndex: artifactIndex[n.path], to: &w)
                w.endArray()
                w.key("message")
                message(n.message, to: &w)
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
    }

    private static func writeResult(_ d: Diagnostic, ruleIndex: Int?, artifacts: [String: Int], to w: inout JSONWriter) {
        w.beginObject()
        w.field("level", level(d.severity))
        w.key("locations")
        w.beginArray()
        location(file: d.file, position: d.position, keyPath: d.keyPath, artifactIndex: artifacts[d.file], to: &w)
        w.endArray()
        w.key("message")
        message(d.message.isEmpty ? d.rule : d.message, to: &w)
        w.key("properties")
        w.beginObject()
        w.field("scene", d.scene)
        w.field("session", d.session.isEmpty ? nil : d.session)
        w.field("severity", d.severity.description)
        w.field("state", d.state)
        w.endObject()
        if !d.related.isEmpty {
            // The lines that explain it (the scene's connect a violation contradicts, the
            // assertion behind a completion), ids from 1 in the order the rule gave them.
            w.key("relatedLocations")
            w.beginArray()
            for (k, r) in d.related.enumerated() {
                location(file: r.file, position: r.position, keyPath: r.keyPath, artifactIndex: artifacts[r.file], id: k + 1, message: r.message, to: &w)
            }
            w.endArray()
        }
        w.field("ruleId", d.ruleId)
        w.field("ruleIndex", ruleIndex)
        w.endObject()
    }

    /// `{"physicalLocation":{"artifactLocation":{…},"region":{"startLine":…}}}`; no region for a
    /// line the schema does not allow (lines start at 1). A key of an Info.plist is also a logical
    /// location (its key path, the only place a binary property list has).
    private static func location(file: String, position: InputPosition?, keyPath: String? = nil, artifactIndex: Int?, id: Int? = nil,
                                 message text: String? = nil, to w: inout JSONWriter) {
        w.beginObject()
        if let id { w.field("id", id) }
        if let keyPath {
            w.key("logicalLocations")
            w.beginArray()
            w.beginObject()
            w.field("fullyQualifiedName", keyPath)
            w.field("kind", "member")
            w.endObject()
            w.endArray()
        }
        if let text {
            w.key("message")
            message(text, to: &w)
        }
        w.key("physicalLocation")
        w.beginObject()
        w.key("artifactLocation")
        w.beginObject()
        w.field("index", artifactIndex)
        w.field("uri", uriReference(file))
        w.endObject()
        // A line from 1 is a region's startLine; a record of a binary input is a region by byte offset (SARIF
        // §3.30.2: byteOffset, a non-negative integer, the artifact's contents taken as bytes).
        switch position {
        case .line(let line)? where line >= 1:
            w.key("region")
            w.beginObject()
            w.field("startLine", line)
            w.endObject()
        case .byte(let offset)?:
            w.key("region")
            w.beginObject()
            w.field("byteOffset", offset)
            w.endObject()
        default: break
        }
        w.endObject()
        w.endObject()
    }

    /// A message object: `{"text": …}`, braces doubled.
    private static func message(_ text: String, to w: inout JSONWriter) {
        w.beginObject()
        w.field("text", messageString(text))
        w.endObject()
    }

    /// `text` as a SARIF message string without placeholders: `{` and `}` doubled (§3.11.5).
    public static func messageString(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) else { return text }
        var out = String.UnicodeScalarView()
        for c in text.unicodeScalars {
            out.append(c)
            if c == "{" || c == "}" { out.append(c) }
        }
        return String(out)
    }
}
