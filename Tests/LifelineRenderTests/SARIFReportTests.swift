import Foundation
import Testing
import TestSupport
@testable import LifelineCore
import LifelinePipeline
@testable import LifelineRender
@testable import LifelineRules

/// Analyses for the SARIF and JUnit report tests: real ones of the sample logs, and a hand-made one
/// whose paths, messages, processes, scenes and states carry markup, quotes, `&`, control characters
/// and spaces.
enum ReportWriterFixtures {
    static let repositoryRoot = Repository.root
    static let sampleLogs = Repository.sampleLogs

    /// Sample inputs with findings of every severity between them, and the whole directory (many
    /// inputs, some without sessions).
    static let samples = ["xcode-console.log", "scenarios/ordering-violations.log", "exception-launch.crash", ""]

    /// `Analysis.run` on a sample (a file or, for "", the whole `SampleLogs` directory).
    static func analysis(_ sample: String) -> Analysis {
        let path = sample.isEmpty ? sampleLogs.path : sampleLogs.appendingPathComponent(sample).path
        return Analysis.run(paths: [path], ingest: IngestOptions(jobs: 1))
    }

    static let script = "<script>alert(1)</script>"
    /// A path with a space, markup, quotes, `&`, a control character, `%`, `#`, `?`, `:` and non-ASCII.
    static let hostileFile = "logs/My App \(script) \"q\" 'a' & b\u{1}c 100% #1?x:y é.log"
    static let hostileMessage = "scene became active \(script) \"quoted\" 'single' & amp \u{7}bell \u{1B}[31m {0} </b>"

    /// The rules the hand-made findings are of: the first note, warning, error and fatal rule of
    /// the catalogue.
    static func rule(_ severity: LifelineRules.Severity) -> RuleDescription {
        RuleRegistry.all.map { $0.description }.first { $0.severity == severity }!
    }

    static func diagnostic(_ severity: LifelineRules.Severity, file: String = hostileFile, line: Int, session: String,
                           scene: String? = nil, state: String? = nil, message: String = hostileMessage) -> Diagnostic {
        let r = rule(severity)
        return Diagnostic(ruleId: r.id, rule: r.name, severity: severity, message: message, file: file, line: line,
                          session: session, scene: scene, state: state)
    }

    static func session(_ id: String, process: String?, pid: Int?, files: [String]) -> ProcessSession {
        ProcessSession(id: id, process: process, pid: pid, files: files, launchSeen: true, events: [], app: [], scenes: [],
                       mainThread: .none, beginsMidSession: false, endsAbruptly: false, eventCount: 3)
    }

    /// Two inputs: the hostile one, with two sessions (P1 with a fatal, an error and a warning; P2
    /// with a note), and one that could not be read and has no session.
    static var hostile: Analysis {
        var input = InputStats(path: hostileFile)
        input.lines = 10
        input.records = 10
        input.events = 6
        input.format = .xcode
        input.notes = [InputNote(.warning, line: 4, "line cut at 1 MiB: \(script) & \u{2}")]
        var missing = InputStats(path: "missing dir/gone & \(script).log")
        missing.error = "no such file: \(script)"
        missing.notes = [InputNote(.error, line: nil, "no such file: \(script)")]
        let sessions = [
            session("P1", process: "My<App> & \"Co\"", pid: 4242, files: [hostileFile]),
            session("P2", process: nil, pid: nil, files: [hostileFile]),
        ]
        let diagnostics = [
            diagnostic(.fatal, line: 2, session: "P1", scene: "S1 \(script)", state: "foregroundActive \"x\""),
            diagnostic(.error, line: 3, session: "P1", scene: "S1 \(script)", state: "foregroundInactive"),
            diagnostic(.warning, line: 5, session: "P1", message: "multi\nline\r\nmessage\twith tab"),
            diagnostic(.note, line: 8, session: "P2"),
        ]
        return Analysis(inputs: [input, missing], sessions: sessions, diagnostics: diagnostics)
    }

    /// `text` written to `name` in a new temporary directory (removed by ``remove(_:)``).
    static func temporaryFile(_ name: String, _ text: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-reports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    static func remove(_ files: URL...) {
        for f in files { try? FileManager.default.removeItem(at: f.deletingLastPathComponent()) }
    }
}

private typealias F = ReportWriterFixtures
private typealias JSONObject = [String: Any]

/// The SARIF log parsed, with its one run's parts.
private struct ParsedSARIF {
    let root: JSONObject
    let run: JSONObject
    let rules: [JSONObject]
    let results: [JSONObject]
    let artifacts: [JSONObject]

    init(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        root = try #require(object as? JSONObject, sourceLocation: sourceLocation)
        let runs = try #require(root["runs"] as? [JSONObject], sourceLocation: sourceLocation)
        try #require(runs.count == 1, "exactly one run", sourceLocation: sourceLocation)
        run = runs[0]
        let driver = try #require((run["tool"] as? JSONObject)?["driver"] as? JSONObject, sourceLocation: sourceLocation)
        rules = try #require(driver["rules"] as? [JSONObject], sourceLocation: sourceLocation)
        results = try #require(run["results"] as? [JSONObject], sourceLocation: sourceLocation)
        artifacts = try #require(run["artifacts"] as? [JSONObject], sourceLocation: sourceLocation)
    }

    var driver: JSONObject { (run["tool"] as! JSONObject)["driver"] as! JSONObject }
}

private func location(_ result: JSONObject) -> (uri: String?, index: Int?, line: Int?) {
    let locations = result["locations"] as? [JSONObject] ?? []
    let physical = locations.first?["physicalLocation"] as? JSONObject
    let artifact = physical?["artifactLocation"] as? JSONObject
    let region = physical?["region"] as? JSONObject
    return (artifact?["uri"] as? String, artifact?["index"] as? Int, region?["startLine"] as? Int)
}

private func text(_ object: Any?) -> String? { (object as? JSONObject)?["text"] as? String }

private let expectedLevel: [LifelineRules.Severity: String] = [.note: "note", .warning: "warning", .error: "error", .fatal: "error"]

@Suite struct SARIFReportTests {
    @Test("the log is SARIF 2.1.0 with one run, the whole catalogue and every finding", arguments: F.samples)
    func sampleLog(sample: String) throws {
        let analysis = F.analysis(sample)
        #expect(!analysis.diagnostics.isEmpty, "the sample must have findings for this test to mean something")
        let sarif = SARIFReport.render(analysis, version: "1.2.3")
        let log = try ParsedSARIF(sarif)

        #expect(log.root["version"] as? String == "2.1.0")
        #expect(log.root["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        #expect(log.driver["name"] as? String == "Lifeline")
        #expect(log.driver["version"] as? String == "1.2.3")
        #expect(log.driver["informationUri"] == nil)

        // The catalogue, in order, with its texts and default levels.
        let catalogue = RuleRegistry.all.map { $0.description }
        #expect(log.rules.map { $0["id"] as? String } == catalogue.map(\.id))
        for (rule, d) in zip(log.rules, catalogue) {
            #expect(rule["name"] as? String == d.name)
            #expect(text(rule["shortDescription"]) == SARIFReport.messageString(d.summary))
            #expect(text(rule["fullDescription"]) == SARIFReport.messageString(d.rationale))
            let help = try #require(text(rule["help"]))
            #expect(help.contains(SARIFReport.messageString(d.summary)) && help.contains(SARIFReport.messageString(d.rationale)))
            for setting in d.configuration { #expect(help.contains(setting), "\(d.id) help names \(setting)") }
            #expect((rule["defaultConfiguration"] as? JSONObject)?["level"] as? String == expectedLevel[d.severity])
            #expect((rule["properties"] as? JSONObject)?["category"] as? String == d.category.rawValue)
        }

        // Every finding, in the analysis's order, pointing at its rule, line and file.
        #expect(log.results.count == analysis.diagnostics.count)
        for (result, d) in zip(log.results, analysis.diagnostics) {
            let id = try #require(result["ruleId"] as? String)
            #expect(id == d.ruleId)
            let index = try #require(result["ruleIndex"] as? Int, "\(id) has a ruleIndex")
            #expect(log.rules.indices.contains(index) && log.rules[index]["id"] as? String == id)
            #expect(result["level"] as? String == expectedLevel[d.severity])
            let properties = try #require(result["properties"] as? JSONObject)
            #expect(properties["severity"] as? String == d.severity.description)
            #expect(properties["session"] as? String == d.session)
            #expect(properties["scene"] as? String == d.scene)
            #expect(properties["state"] as? String == d.state)
            #expect(text(result["message"]) == SARIFReport.messageString(d.message))
            let where_ = location(result)
            #expect(where_.line == d.line)
            let uri = try #require(where_.uri)
            #expect(uri.removingPercentEncoding == d.file)
            #expect(URL(string: uri) != nil, "\(uri) is a URI reference")
            if let i = where_.index { #expect(log.artifacts[i]["location"].flatMap { ($0 as? JSONObject)?["uri"] as? String } == uri) }
        }
        let levels = Set(log.results.compactMap { $0["level"] as? String })
        #expect(levels.isSubset(of: ["note", "warning", "error"]))

        #expect(log.artifacts.count == analysis.inputs.count)
        for (artifact, input) in zip(log.artifacts, analysis.inputs) {
            #expect(((artifact["location"] as? JSONObject)?["uri"] as? String)?.removingPercentEncoding == input.path)
        }
        #expect(SARIFReport.render(analysis, version: "1.2.3") == sarif, "the same analysis gives the same bytes")
    }

    /// Issue 17, item 12: a finding's explaining lines (the connect a violation contradicts, the
    /// assertion behind an LC-T04) are SARIF related locations, JSON `related` and HTML links.
    @Test("results carry relatedLocations: where the scene entered the state a violation contradicts, the assertion behind LC-T04")
    func relatedLocations() throws {
        let ordering = try ParsedSARIF(SARIFReport.render(F.analysis("scenarios/ordering-violations.log"), version: "1"))
        let s03 = try #require(ordering.results.first { $0["ruleId"] as? String == "LC-S03" })
        let related = try #require(s03["relatedLocations"] as? [JSONObject])
        let first = try #require(related.first)
        #expect(first["id"] as? Int == 1)
        #expect(((first["message"] as? JSONObject)?["text"] as? String)?.contains("became unattached here (scene.willConnect)") == true, "\(first)")
        let region = ((first["physicalLocation"] as? JSONObject)?["region"] as? JSONObject)?["startLine"] as? Int
        let own = (((s03["locations"] as? [JSONObject])?.first?["physicalLocation"] as? JSONObject)?["region"] as? JSONObject)?["startLine"] as? Int
        #expect(region != nil && own != nil && region! < own!, "the connect comes before the violation")

        let catalyst = F.analysis("catalyst-reopen.log")
        let t04 = try #require(catalyst.diagnostics.first { $0.ruleId == "LC-T04" })
        #expect(t04.related.first?.message == "the assertion that fired in this completion")
        #expect(t04.related.first?.line == catalyst.diagnostics.first { $0.ruleId == "LC-F01" }.map(\.line) ?? 16, "\(t04.related)")
        // JSON and HTML too.
        let json = AnalysisJSON.render(catalyst)
        #expect(json.contains(#""related":[{"file":"#) && json.contains("the assertion that fired in this completion"))
        let html = HTMLReport.render(catalyst, diagrams: [], excerpts: LogExcerpts.read(around: catalyst.diagnostics))
        #expect(html.contains("<span class=\"related muted\">↳ <a href=\"#excerpt-"), "a related line links to its excerpt")
    }

    @Test("fatal findings are errors in SARIF, with their severity kept as a property")
    func levels() throws {
        let log = try ParsedSARIF(SARIFReport.render(F.hostile, version: "0"))
        #expect(log.results.map { $0["level"] as? String } == ["error", "error", "warning", "note"])
        #expect(log.results.map { ($0["properties"] as? JSONObject)?["severity"] as? String } == ["fatal", "error", "warning", "note"])
        #expect(SARIFReport.level(.fatal) == "error")
    }

    @Test("hostile paths and messages stay data: escaped JSON, percent-encoded URIs, doubled braces")
    func hostileStrings() throws {
        let analysis = F.hostile
        let sarif = SARIFReport.render(analysis, version: "0")
        // JSONWriter escapes control characters and breaks up `</`: nothing of a log can end a
        // script block or hide in raw control bytes.
        #expect(!sarif.contains("</script>"))
        #expect(!sarif.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        let log = try ParsedSARIF(sarif)

        let result = log.results[0]
        #expect(text(result["message"]) == F.hostileMessage.replacingOccurrences(of: "{0}", with: "{{0}}"))
        let uri = try #require(location(result).uri)
        #expect(uri == "logs/My%20App%20%3Cscript%3Ealert(1)%3C/script%3E%20%22q%22%20'a'%20&%20b%01c%20100%25%20%231%3Fx:y%20%C3%A9.log")
        #expect(uri.removingPercentEncoding == F.hostileFile)
        #expect(location(result).index == 0)
        #expect(((log.artifacts[1]["location"] as? JSONObject)?["uri"] as? String) == "missing%20dir/gone%20&%20%3Cscript%3Ealert(1)%3C/script%3E.log")
        let properties = try #require(result["properties"] as? JSONObject)
        #expect(properties["scene"] as? String == "S1 \(F.script)")
        #expect(properties["state"] as? String == "foregroundActive \"x\"")
        #expect(text(log.results[2]["message"]) == "multi\nline\r\nmessage\twith tab")

        // The unreadable input: the invocation failed, and says why.
        let invocation = try #require((log.run["invocations"] as? [JSONObject])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        let notifications = try #require(invocation["toolExecutionNotifications"] as? [JSONObject])
        #expect(notifications.map { $0["level"] as? String } == ["warning", "error"])
        #expect(notifications.map { text($0["message"]) } == ["line cut at 1 MiB: \(F.script) & \u{2}", "no such file: \(F.script)"])
    }

    @Test("URI references keep what a path may hold and encode the rest")
    func uriReferences() {
        #expect(SARIFReport.uriReference("SampleLogs/xcode-console.log") == "SampleLogs/xcode-console.log")
        #expect(SARIFReport.uriReference("/tmp/My Logs/a b.log") == "/tmp/My%20Logs/a%20b.log")
        #expect(SARIFReport.uriReference("50%?#[]\\") == "50%25%3F%23%5B%5D%5C")
        // A colon in a relative path's first segment would read as a scheme.
        #expect(SARIFReport.uriReference("c:/logs/a:b.log") == "c%3A/logs/a:b.log")
        #expect(SARIFReport.uriReference("/c:/a") == "/c:/a")
        #expect(SARIFReport.uriReference("日志.log") == "%E6%97%A5%E5%BF%97.log")
    }

    @Test("braces in message strings are doubled, as SARIF placeholders require")
    func braces() throws {
        #expect(SARIFReport.messageString("a {0} b }") == "a {{0}} b }}")
        #expect(SARIFReport.messageString("plain") == "plain")
        let log = try ParsedSARIF(SARIFReport.render(F.hostile, version: "0"))
        let guardRule = try #require(log.rules.first { text($0["fullDescription"])?.contains("else {{ return }}") == true },
                                     "a rationale with braces has them doubled")
        #expect(text(guardRule["fullDescription"])?.contains("else { return }") == false)
    }

    @Test("a finding of a rule outside the given catalogue keeps its id and has no index")
    func ruleOutsideCatalogue() throws {
        let rules = Array(RuleRegistry.all.prefix(1))
        var analysis = F.hostile
        analysis.diagnostics[0].ruleId = "LC-X99"
        let log = try ParsedSARIF(SARIFReport.render(analysis, rules: rules, version: "0"))
        #expect(log.rules.count == 1)
        #expect(log.results[0]["ruleId"] as? String == "LC-X99")
        #expect(log.results[0]["ruleIndex"] == nil)
    }

    @Test("an analysis without inputs or findings is still a valid log")
    func empty() throws {
        let log = try ParsedSARIF(SARIFReport.render(Analysis(inputs: [], sessions: [], diagnostics: []), version: "0"))
        #expect(log.results.isEmpty && log.artifacts.isEmpty)
        #expect(((log.run["invocations"] as? [JSONObject])?.first?["executionSuccessful"]) as? Bool == true)
    }

    // MARK: - Schema

    static let validator = F.repositoryRoot.appendingPathComponent("scripts/validate-sarif").path
    static let python3Available = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/python3") }

    /// Runs `scripts/validate-sarif` (which sets up its pinned jsonschema and the OASIS schema in
    /// `.venv-tools/` on first use) on `files`; standard input is empty, as on CI.
    static func validate(_ files: [URL]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", validator] + files.map(\.path)
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test("report.sarif validates against the SARIF 2.1.0 JSON schema", .tags(.sarif), .external(.sarif),
          .enabled(if: python3Available, "python3 is not installed: scripts/validate-sarif cannot run"),
          .timeLimit(.minutes(5)))
    func schema() throws {
        let directory = try F.temporaryFile("report.sarif", SARIFReport.render(F.analysis(""), version: "0.1.0"))
        let hostile = try F.temporaryFile("hostile.sarif", SARIFReport.render(F.hostile, version: "0.1.0"))
        defer { F.remove(directory, hostile) }
        let run = try Self.validate([directory, hostile])
        #expect(run.status == 0, "scripts/validate-sarif failed:\n\(run.output)")
        #expect(run.output.contains("ok \(directory.path)") && run.output.contains("ok \(hostile.path)"), "\(run.output)")
    }

    @Test("the schema check fails a log that breaks the schema", .tags(.sarif), .external(.sarif),
          .enabled(if: python3Available, "python3 is not installed: scripts/validate-sarif cannot run"),
          .timeLimit(.minutes(5)))
    func schemaRejects() throws {
        // A Lifeline severity where SARIF wants a level, and a URI with a raw space.
        let sarif = SARIFReport.render(F.hostile, version: "0")
            .replacingOccurrences(of: "\"level\":\"note\"", with: "\"level\":\"fatal\"")
            .replacingOccurrences(of: "\"uri\":\"logs/My%20App", with: "\"uri\":\"logs/My App")
        let file = try F.temporaryFile("broken.sarif", sarif)
        defer { F.remove(file) }
        let run = try Self.validate([file])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("'fatal' is not one of"), "\(run.output)")
        #expect(run.output.contains("is not a 'uri-reference'"), "\(run.output)")
        #expect(!run.output.contains("ok \(file.path)"))
    }
}
