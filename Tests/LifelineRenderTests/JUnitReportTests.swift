import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import LifelineCore
@testable import LifelineRender
@testable import LifelineRules

private typealias F = ReportWriterFixtures

/// An element of the parsed report: name, attributes, text and children.
private final class XMLNode {
    let name: String
    let attributes: [String: String]
    var text = ""
    var children: [XMLNode] = []

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    func all(_ name: String) -> [XMLNode] { children.filter { $0.name == name } }
    func first(_ name: String) -> XMLNode? { children.first { $0.name == name } }
    func int(_ attribute: String) -> Int? { attributes[attribute].flatMap { Int($0) } }
}

/// Parses XML with Foundation's `XMLParser` into a tree; any parse error fails.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLNode] = [XMLNode(name: "#document", attributes: [:])]
    private(set) var error: String?

    static func parse(_ xml: String) throws -> XMLNode {
        let parser = XMLParser(data: Data(xml.utf8))
        let builder = TreeBuilder()
        parser.delegate = builder
        let ok = parser.parse()
        if let error = builder.error ?? (ok ? nil : "\(parser.parserError.map { "\($0)" } ?? "unknown error") at line \(parser.lineNumber)") {
            Issue.record("the report is not well-formed XML: \(error)")
            throw ParseFailure()
        }
        return try #require(builder.stack.first?.children.first, "a root element")
    }

    struct ParseFailure: Error {}

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String]) {
        let node = XMLNode(name: name, attributes: attributes)
        stack.last?.children.append(node)
        stack.append(node)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.text += string }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        error = error ?? "\(parseError) at line \(parser.lineNumber), column \(parser.columnNumber)"
    }
}

private let severities: [LifelineRules.Severity?] = [nil, .note, .warning, .error, .fatal]

/// One `file:line ruleId severity message` line.
private func line(_ d: Diagnostic) -> String { "\(d.file):\(d.line) \(d.ruleId) \(d.severity) \(d.message)" }

/// The text XML 1.0 can carry: characters it does not allow replaced by U+FFFD.
private func xmlSafe(_ s: String) -> String {
    String(String.UnicodeScalarView(s.unicodeScalars.map { JUnitReport.isXMLChar($0) ? $0 : "\u{FFFD}" }))
}

@Suite struct JUnitReportTests {
    @Test("one suite per input, one test case per session, failures at the threshold", arguments: F.samples)
    func sampleReport(sample: String) throws {
        let analysis = F.analysis(sample)
        #expect(!analysis.diagnostics.isEmpty, "the sample must have findings for this test to mean something")
        for failOn in severities {
            let xml = JUnitReport.render(analysis, failOn: failOn)
            let root = try TreeBuilder.parse(xml)
            #expect(root.name == "testsuites")
            let suites = root.all("testsuite")
            #expect(suites.map { $0.attributes["name"] } == analysis.inputs.map(\.path))

            var sessionsSeen: [String] = []
            var failingCases = 0, failingFindings = 0, passingFindings = 0, tests = 0
            for (suite, input) in zip(suites, analysis.inputs) {
                let cases = suite.all("testcase")
                let sessions = analysis.sessions.filter { $0.files.first == input.path }
                let expectedNames = sessions.isEmpty ? ["(no sessions)"] : sessions.map(JUnitReport.name)
                #expect(cases.map { $0.attributes["name"] } == expectedNames, "\(input.path)")
                #expect(cases.allSatisfy { $0.attributes["classname"] == input.path })
                #expect(suite.int("tests") == cases.count)
                #expect(suite.int("failures") == cases.filter { $0.first("failure") != nil }.count)
                tests += cases.count
                for (c, s) in zip(cases, sessions) {
                    sessionsSeen.append(s.id)
                    let findings = analysis.diagnostics.filter { $0.session == s.id }
                    let failing = findings.filter { d in failOn.map { d.severity >= $0 } ?? false }
                    let passing = findings.filter { d in failOn.map { d.severity < $0 } ?? true }
                    #expect(c.all("failure").count == (failing.isEmpty ? 0 : 1))
                    if let failure = c.first("failure"), let first = failing.first {
                        failingCases += 1
                        #expect(failure.attributes["message"]?.hasPrefix("\(first.ruleId) \(first.rule): \(first.message)") == true)
                        #expect(failure.attributes["type"] == failing.map(\.severity).max()?.description)
                        #expect(failure.text == failing.map(line).joined(separator: "\n"))
                    }
                    #expect((c.first("system-out")?.text ?? "") == passing.map(line).joined(separator: "\n"))
                    failingFindings += failing.count
                    passingFindings += passing.count
                }
            }
            // In its input's suite, in the analysis's order (checked above); sessions of several inputs interleave.
            #expect(sessionsSeen.sorted() == analysis.sessions.map(\.id).sorted(), "every session is a test case")
            #expect(failingFindings + passingFindings == analysis.diagnostics.count, "every finding is reported")
            #expect(failingFindings == analysis.diagnostics.filter { d in failOn.map { d.severity >= $0 } ?? false }.count)
            #expect(root.int("tests") == tests)
            #expect(root.int("failures") == failingCases)
            #expect(root.int("failures") == Set(analysis.diagnostics.filter { d in failOn.map { d.severity >= $0 } ?? false }.map(\.session)).count)
            #expect(root.int("errors") == 0)
            #expect(JUnitReport.render(analysis, failOn: failOn) == xml, "the same analysis gives the same bytes")
        }
    }

    @Test("hostile paths, processes and messages are escaped; illegal characters become U+FFFD")
    func hostileStrings() throws {
        let analysis = F.hostile
        let xml = JUnitReport.render(analysis, failOn: .error)
        #expect(!xml.contains(F.script), "no markup from a log reaches the report")
        #expect(!xml.unicodeScalars.contains { !JUnitReport.isXMLChar($0) })
        let root = try TreeBuilder.parse(xml)
        let suites = root.all("testsuite")
        #expect(suites.map { $0.attributes["name"] } == analysis.inputs.map { xmlSafe($0.path) })

        // The hostile input: P1 fails (fatal and error findings), its warning goes to system-out; P2 passes.
        let cases = suites[0].all("testcase")
        #expect(cases.map { $0.attributes["name"] } == ["P1 My<App> & \"Co\" [4242]", "P2 (unknown process)"])
        #expect(cases.allSatisfy { $0.attributes["classname"] == xmlSafe(F.hostileFile) })
        let failure = try #require(cases[0].first("failure"))
        let fatal = analysis.diagnostics[0]
        #expect(failure.attributes["message"] == xmlSafe("\(fatal.ruleId) \(fatal.rule): \(F.hostileMessage) (and 1 more)"))
        #expect(failure.attributes["type"] == "fatal")
        #expect(failure.text == xmlSafe(analysis.diagnostics[0...1].map(line).joined(separator: "\n")))
        #expect(failure.text.contains(F.script))
        // Line breaks, carriage returns and tabs survive, in text and attributes alike.
        #expect(cases[0].first("system-out")?.text == xmlSafe(line(analysis.diagnostics[2])))
        #expect(cases[0].first("system-out")?.text.contains("multi\nline\r\nmessage\twith tab") == true)
        #expect(cases[1].first("failure") == nil)
        #expect(cases[1].first("system-out")?.text == xmlSafe(line(analysis.diagnostics[3])))
        #expect(suites[0].int("tests") == 2 && suites[0].int("failures") == 1 && suites[0].int("errors") == 0)

        // The unreadable input is visible: an error, and a test case saying it has no session.
        let missing = suites[1].all("testcase")
        #expect(missing.map { $0.attributes["name"] } == ["(input)"])
        #expect(missing[0].first("error")?.attributes["message"] == "no such file: \(F.script)")
        #expect(suites[1].int("tests") == 1 && suites[1].int("failures") == 0 && suites[1].int("errors") == 1)
        #expect(root.int("tests") == 3 && root.int("failures") == 1 && root.int("errors") == 1)
    }

    @Test("attribute values keep line breaks and tabs")
    func attributeWhitespace() throws {
        var analysis = F.hostile
        analysis.diagnostics = [F.diagnostic(.fatal, line: 1, session: "P1", message: "a\nb\tc\r\nd")]
        let root = try TreeBuilder.parse(JUnitReport.render(analysis, failOn: .fatal))
        let failure = try #require(root.first("testsuite")?.first("testcase")?.first("failure"))
        #expect(failure.attributes["message"]?.hasSuffix(": a\nb\tc\r\nd") == true)
    }

    @Test("escaping: the five XML specials, character references for whitespace in attributes, U+FFFD for the rest")
    func escaping() {
        #expect(JUnitReport.text("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;")
        #expect(JUnitReport.attribute("a\nb\tc\rd") == "\"a&#10;b&#9;c&#13;d\"")
        #expect(JUnitReport.text("a\nb\tc\rd") == "a\nb\tc&#13;d")
        #expect(JUnitReport.text("\u{0}\u{1}\u{8}\u{B}\u{C}\u{1F}\u{FFFE}\u{FFFF}") == String(repeating: "\u{FFFD}", count: 8))
        #expect(JUnitReport.text("é 日志 \u{7F} \u{85} \u{1F600}") == "é 日志 \u{7F} \u{85} \u{1F600}")
        #expect(JUnitReport.text("]]>") == "]]&gt;")
    }

    @Test("sessions whose file is no input and findings of no session still count")
    func strays() throws {
        let stray = F.session("P3", process: "Stray", pid: 7, files: ["elsewhere.log"])
        var analysis = F.hostile
        analysis.sessions.append(stray)
        analysis.diagnostics.append(F.diagnostic(.error, file: "elsewhere.log", line: 1, session: "P3"))
        analysis.diagnostics.append(F.diagnostic(.fatal, file: "other.log", line: 9, session: "P9"))
        let root = try TreeBuilder.parse(JUnitReport.render(analysis, failOn: .error))
        let suites = root.all("testsuite")
        #expect(suites.map { $0.attributes["name"] } == analysis.inputs.map { xmlSafe($0.path) } + ["elsewhere.log", "other.log"])
        #expect(suites[2].all("testcase").map { $0.attributes["name"] } == ["P3 Stray [7]"])
        #expect(suites[3].all("testcase").map { $0.attributes["name"] } == ["(no session)"])
        #expect(suites[3].first("testcase")?.first("failure")?.attributes["type"] == "fatal")
        #expect(root.int("failures") == 3)
    }

    @Test("an input without sessions has one passing test case")
    func inputWithoutSessions() throws {
        let analysis = Analysis(inputs: [InputStats(path: "empty.log")], sessions: [], diagnostics: [])
        let xml = JUnitReport.render(analysis, failOn: .error)
        #expect(xml == """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="lifeline" tests="1" failures="0" errors="0">
              <testsuite name="empty.log" tests="1" failures="0" errors="0">
                <testcase classname="empty.log" name="(no sessions)"/>
              </testsuite>
            </testsuites>

            """)
        _ = try TreeBuilder.parse(xml)
    }
}
