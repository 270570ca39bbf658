import LifelineCore
import LifelineRules

/// The analysis as JUnit XML (`lifeline analyze --format junit`), for CI test-report views.
///
/// One `<testsuite>` per input (in the analysis's order), named by its path; in it one `<testcase>`
/// per process session that starts in that input (`P1 MyApp [1234]`, sessions in order). A session
/// fails when it has findings at or above `failOn`: its one `<failure>` names the first of them in
/// `message`, carries the highest of their severities in `type`, and lists them all in its text, one
/// `file:line ruleId severity message` line each. Findings below the threshold are listed the same
/// way in the test case's `<system-out>`. An input without sessions still shows, with one test case
/// `(no sessions)`; an input that could not be read gets a test case `(input)` with an `<error>`.
/// Sessions and findings that belong to no input are kept too, in suites of their own, so that the
/// report never passes what the analysis fails.
///
/// One failure per test case (not one per finding): JUnit consumers count and show failed test
/// cases, and most read only a test case's first `<failure>`.
///
/// Every text and attribute value is escaped (`&`, `<`, `>`, quotes; line breaks and tabs in
/// attributes as character references), and characters XML 1.0 does not allow (control characters
/// other than tab, line feed and carriage return; U+FFFE, U+FFFF) become U+FFFD. No times, no host
/// names: the same analysis gives the same bytes.
public enum JUnitReport {
    /// Renders the report; `failOn` nil never fails a test case.
    public static func render(_ analysis: Analysis, failOn: LifelineRules.Severity?) -> String {
        let suites = group(analysis)
        var totals = (tests: 0, failures: 0, errors: 0)
        var body = ""
        for suite in suites {
            let cases = suite.cases.map { render($0, failOn: failOn) }
            let failures = cases.filter(\.failed).count
            let errors = suite.cases.filter { $0.error != nil }.count
            totals.tests += cases.count
            totals.failures += failures
            totals.errors += errors
            body += "  <testsuite name=\(attribute(suite.name)) tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
            for c in cases { body += c.xml }
            body += "  </testsuite>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"lifeline\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"\(totals.errors)\">\n"
            + body
            + "</testsuites>\n"
    }

    // MARK: - Grouping

    struct Suite {
        var name: String
        var cases: [Case]
    }

    struct Case {
        var classname: String
        var name: String
        var diagnostics: [Diagnostic]
        /// Why the input could not be read.
        var error: String?
    }

    /// Suites in input order, then suites for files that are no input of the analysis (sessions
    /// whose first file, findings whose session is unknown), in order of appearance.
    static func group(_ analysis: Analysis) -> [Suite] {
        let bySession = Dictionary(grouping: analysis.diagnostics, by: \.session)
        let sessionIds = Set(analysis.sessions.map(\.id))
        var suites: [Suite] = []
        var suiteIndex: [String: Int] = [:]
        func index(_ name: String) -> Int {
            if let i = suiteIndex[name] { return i }
            suites.append(Suite(name: name, cases: []))
            suiteIndex[name] = suites.count - 1
            return suites.count - 1
        }
        for s in analysis.inputs {
            let i = index(s.path)
            if let error = s.error { suites[i].cases.append(Case(classname: s.path, name: "(input)", diagnostics: [], error: error)) }
        }
        for s in analysis.sessions {
            let file = s.files.first ?? ""
            suites[index(file)].cases.append(Case(classname: file, name: name(s), diagnostics: bySession[s.id] ?? [], error: nil))
        }
        // Findings of no known session: the Info.plist's own (a test case `scene manifest` in a suite
        // of the plist), otherwise none in practice; one test case per file, so they still count.
        let orphans = analysis.diagnostics.filter { !sessionIds.contains($0.session) }
        var orphanFiles: [String] = []
        for d in orphans where !orphanFiles.contains(d.file) { orphanFiles.append(d.file) }
        for file in orphanFiles {
            let isManifest = analysis.manifest?.file == file
            suites[index(file)].cases.append(Case(classname: file, name: isManifest ? "scene manifest" : "(no session)",
                                                  diagnostics: orphans.filter { $0.file == file }, error: nil))
        }
        for i in suites.indices where suites[i].cases.isEmpty {
            suites[i].cases.append(Case(classname: suites[i].name, name: "(no sessions)", diagnostics: [], error: nil))
        }
        return suites
    }

    /// `P1 MyApp [1234]`, as the text report heads a session.
    static func name(_ s: ProcessSession) -> String {
        var name = "\(s.id) \(s.process ?? "(unknown process)")"
        if let pid = s.pid { name += " [\(pid)]" }
        return name
    }

    // MARK: - XML

    private static func render(_ c: Case, failOn: LifelineRules.Severity?) -> (xml: String, failed: Bool) {
        let failing = c.diagnostics.filter { d in failOn.map { d.severity >= $0 } ?? false }
        let passing = c.diagnostics.filter { d in failOn.map { d.severity < $0 } ?? true }
        let open = "    <testcase classname=\(attribute(c.classname)) name=\(attribute(c.name))"
        if failing.isEmpty && passing.isEmpty && c.error == nil { return (open + "/>\n", false) }
        var xml = open + ">\n"
        if let error = c.error {
            xml += "      <error message=\(attribute(error)) type=\"input\"/>\n"
        }
        if let first = failing.first {
            var message = "\(first.ruleId) \(first.rule): \(first.message)"
            if failing.count > 1 { message += " (and \(failing.count - 1) more)" }
            let worst = failing.map(\.severity).max() ?? first.severity
            xml += "      <failure message=\(attribute(message)) type=\"\(worst)\">"
                + text(lines(failing)) + "</failure>\n"
        }
        if !passing.isEmpty {
            xml += "      <system-out>" + text(lines(passing)) + "</system-out>\n"
        }
        return (xml + "    </testcase>\n", !failing.isEmpty)
    }

    private static func lines(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map { "\($0.position.label(in: $0.file)) \($0.ruleId) \($0.severity) \($0.message)" }.joined(separator: "\n")
    }

    /// A quoted attribute value: `"…"`, escaped, with tab, line feed and carriage return as character
    /// references (a parser would turn them into spaces).
    static func attribute(_ s: String) -> String { "\"" + escape(s, inAttribute: true) + "\"" }

    /// Element text, escaped; carriage returns as references (a parser would drop them before a line feed).
    static func text(_ s: String) -> String { escape(s, inAttribute: false) }

    static func escape(_ s: String, inAttribute: Bool) -> String {
        var out = String.UnicodeScalarView()
        for c in s.unicodeScalars {
            switch c {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&apos;".unicodeScalars)
            case "\r": out.append(contentsOf: "&#13;".unicodeScalars)
            case "\n": if inAttribute { out.append(contentsOf: "&#10;".unicodeScalars) } else { out.append(c) }
            case "\t": if inAttribute { out.append(contentsOf: "&#9;".unicodeScalars) } else { out.append(c) }
            default: out.append(isXMLChar(c) ? c : "\u{FFFD}")
            }
        }
        return String(out)
    }

    /// XML 1.0's `Char`: tab, line feed, carriage return, U+0020–U+D7FF, U+E000–U+FFFD, U+10000 and up
    /// (a Unicode scalar is never a surrogate).
    static func isXMLChar(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
