import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `--output` never overwrites an input, replaces only Lifeline's own files, and escapes what
/// comes from a log in every file it writes.
@Suite struct SafeOutputTests {
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-safe-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes `hostile` as `in/app.log` under `dir`.
    static func writeHostileLog(in dir: URL) throws -> URL {
        let log = dir.appendingPathComponent("in/app.log")
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(hostile.utf8).write(to: log)
        return log
    }

    /// A log whose every text field carries markup, a formula and quote-breaking characters.
    static let hostile = """
        2024-03-01 10:00:00.000000+0000 Evil<script>alert(1)</script>[42:7] -[AppDelegate application:didFinishLaunchingWithOptions:]
        2024-03-01 10:00:01.000000+0000 Evil<script>alert(1)</script>[42:7] *** Assertion failure in -[=HYPERLINK("javascript:alert(1)") "quoted" \\"x\\" <img src=x onerror=alert(1)>], /tmp/<b>x</b>.m:12
        2024-03-01 10:00:02.000000+0000 Evil<script>alert(1)</script>[42:7] *** Terminating app due to uncaught exception '<svg/onload=alert(1)>', reason: '@SUM(1+1) -cmd|' & "}; digraph x {"'

        """

    @Test("an input inside the output directory, named like a report file, is not overwritten; the run says so and exits 2")
    func inputNeverOverwritten() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("report.json")
        try Data(Self.hostile.utf8).write(to: input)
        let before = try Data(contentsOf: input)
        for arguments in [["analyze", input.path, "--fail-on", "never", "--output", dir.path],
                          ["triage", dir.path, "--output", dir.path, "--quiet"]] {
            if arguments[0] == "triage" {
                // Triage writes triage.json: make the input that file.
                try FileManager.default.moveItem(at: input, to: dir.appendingPathComponent("triage.json"))
            }
            let r = try CLI.run(arguments)
            #expect(r.status == 2, "\(arguments[0]): \(r.stderr)")
            #expect(r.stderr.contains("is one of the inputs; it is not overwritten"), "\(r.stderr)")
        }
        #expect(try Data(contentsOf: dir.appendingPathComponent("triage.json")) == before, "the input is unchanged")
    }

    @Test("writing into an existing directory replaces only Lifeline's own files and leaves no temporary files")
    func onlyOwnFilesReplaced() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.writeHostileLog(in: dir)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let mine = out.appendingPathComponent("notes.txt")
        try Data("keep me".utf8).write(to: mine)
        try Data("old".utf8).write(to: out.appendingPathComponent("report.json"))
        let r = try CLI.run(["analyze", log.path, "--fail-on", "never", "--output", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOf: mine, encoding: .utf8) == "keep me")
        #expect(try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8) != "old")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("log text is inert in every file analyze and triage write: HTML, SVG, DOT, JSON, CSV, Markdown, SARIF, JUnit")
    func everyOutputEscapes() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.writeHostileLog(in: dir)
        let out = dir.appendingPathComponent("out")
        #expect(try CLI.run(["analyze", log.path, "--fail-on", "never", "--output", out.path]).status == 0)
        #expect(try CLI.run(["triage", log.path, "--output", out.path, "--quiet"]).status == 0)
        #expect(try CLI.run(["graph", log.path, "--kind", "timeline", "--as", "dot", "-o", out.path]).status == 0)
        func text(_ name: String) throws -> String { try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8) }

        // HTML and SVG: no element or attribute from the log; the only script is the report's own.
        for name in ["report.html", "triage.html", "state.svg", "timeline-P1.svg"] {
            let t = try text(name)
            #expect(!t.contains("<script>alert"), "\(name)")
            #expect(!t.contains("<img src=x"), "\(name)")
            #expect(!t.contains("<svg/onload"), "\(name)")
            #expect(!t.contains("<b>x</b>"), "\(name)")
            #expect(!t.lowercased().contains("href=\"javascript:"), "\(name): no link from the log")
            #expect(t.components(separatedBy: "<script").count <= 2, "\(name): at most the report's own script")
        }
        #expect(try text("report.html").contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        // XML outputs parse, so nothing from the log broke out of an attribute or element.
        for name in ["junit.xml", "state.svg", "timeline-P1.svg"] {
            #expect(throws: Never.self, "\(name) is well-formed") { _ = try XMLDocument(contentsOf: out.appendingPathComponent(name)) }
        }
        // JSON outputs parse and give back the log's text unchanged.
        for name in ["report.json", "report.sarif", "triage.json"] {
            let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: out.appendingPathComponent(name)))
            #expect(String(describing: object).contains("alert(1)"), "\(name) keeps the text")
        }
        // DOT: every log string stays inside one quoted string (the graph is one graph).
        let dot = try text("app.P1.timeline.dot")
        let graphs = dot.split(separator: "\n").filter { $0.hasPrefix("digraph") || $0.hasPrefix("}") }
        #expect(graphs.count == 2, "one graph, opened and closed once: \(graphs)")
        #expect(dot.contains(#"\"}; digraph x {\""#), "the log's text stays inside a quoted DOT string")
        // CSV: no cell starts with a formula character.
        for line in try text("triage.csv").split(separator: "\r\n") {
            for cell in line.split(separator: ",") where cell.hasPrefix("\"") {
                let value = cell.dropFirst()
                #expect(!(value.first.map { "=+-@".contains($0) } ?? false), "\(cell)")
            }
        }
        // Markdown: markup from the log is escaped.
        #expect(!(try text("triage.md")).contains("<img"), "Markdown escapes HTML")
    }
}
