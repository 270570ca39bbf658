import Foundation
import Testing
import TestSupport
import LifelineCore
import LifelinePipeline
@testable import LifelineRules
@testable import LifelineRender

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct DOTEscapingTests {
    @Test("quoted strings escape quotes and backslashes, turn line breaks into \\n and drop controls")
    func quoted() {
        #expect(DOTEscape.quoted(#"a "b" \N c"#) == #""a \"b\" \\N c""#)
        #expect(DOTEscape.quoted("x\ny\u{1}z\r") == #""x\nyz ""#)
    }

    @Test("HTML-like label text is XML-escaped; only Lifeline's own tags are markup")
    func html() {
        let label = DOTHTML.tag("b", [("title", "\"&<")], .text("<script>alert(1)</script> & 'x'\nnext"))
        #expect(label.markup == "<b title=\"&quot;&amp;&lt;\">&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;x&#39;<br/>next</b>")
    }

    @Test("a hostile log string survives Graphviz as text", arguments: [
        #"<script>alert(1)</script>"#, #"" ] -> x [label="pwned"#, #"\N\G\L \"#, "}\ndigraph { a -> b", "\u{0}\u{7}bell",
    ])
    func hostileSurvivesGraphviz(text: String) throws {
        var g = DOTGraph(name: text)
        g.nodes = [DOTNode(text, [DOTAttribute("label", text), DOTAttribute("tooltip", text)]),
                   DOTNode("h", [DOTAttribute("label", html: .text(text))])]
        g.edges = [DOTEdge(text, "h", [DOTAttribute("label", text)])]
        let svg = try GraphvizRenderer().render(g.text, format: .svg)
        let parser = XMLParser(data: Data(svg))
        parser.shouldResolveExternalEntities = false
        final class Elements: NSObject, XMLParserDelegate {
            var names: [String] = []
            func parser(_ p: XMLParser, didStartElement e: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) { names.append(e) }
        }
        let elements = Elements()
        parser.delegate = elements
        #expect(parser.parse(), "the SVG is well-formed XML")
        #expect(!elements.names.contains("script"))
        #expect(elements.names.filter { $0 == "g" }.count >= 4, "one graph, two nodes and one edge group")
    }
}

@Suite struct DiagramTests {
    static let samples = Repository.sampleLogs
    static let goldens = Repository.tests("LifelineRenderTests", "Goldens")

    static func analysis(_ names: [String], observe: (@Sendable (ProcessSession, [Diagnostic]) -> Void)? = nil) -> Analysis {
        Analysis.run(paths: names.map { samples.appendingPathComponent($0).path }, ingest: IngestOptions(jobs: 1), observe: observe)
    }

    /// Compares with a committed golden; `LIFELINE_UPDATE_GOLDENS=1` rewrites it.
    static func golden(_ name: String, _ text: String) throws {
        // Paths in the DOT are absolute and differ per checkout: compare them relative to SampleLogs.
        // Line anchors hash the path too: `#L-<hash>-<line>`.
        let stable = text.replacingOccurrences(of: samples.path + "/", with: "")
            .replacingOccurrences(of: #"#L-[0-9a-f]{12}-"#, with: "#L-<path hash>-", options: .regularExpression)
        let url = goldens.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["LIFELINE_UPDATE_GOLDENS"] == "1" {
            try stable.write(to: url, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(stable == expected, "\(name) differs from its golden (LIFELINE_UPDATE_GOLDENS=1 rewrites it)")
    }

    @Test("aggregated state diagram of the scenarios matches its golden")
    func aggregateGolden() throws {
        let a = Self.analysis(["scenarios"])
        try Self.golden("state-scenarios.dot", StateDiagram.graph(a.transitions, title: "scenarios").text)
    }

    @Test("timeline of the background/foreground scenario matches its golden")
    func timelineGolden() throws {
        let box = Box()
        _ = Self.analysis(["scenarios/background-foreground-cycles.log"]) { s, d in box.add(TimelineDiagram.graph(s, diagnostics: d).text) }
        try Self.golden("timeline-background-foreground.dot", box.texts.joined())
    }

    @Test("the state diagram marks an illegal transition red with its first file:line and dims legal ones never seen")
    func illegalAndDimmed() {
        let a = Self.analysis(["scenarios/ordering-violations.log"])
        let dot = StateDiagram.graph(a.transitions, title: "t").text
        #expect(dot.contains(#""scene.unattached" -> "scene.foregroundActive" ["label"="didBecomeActive ×1\n"#))
        #expect(dot.contains("error at ordering-violations.log:6"))
        #expect(dot.contains(##""color"="#d1242f""##))
        #expect(dot.contains(#""tooltip"="legal, never observed: scene.didDisconnect""#))
    }

    /// Issue 17, item 1: the CarPlay session that died connecting its CarPlay scene drew a healthy launch.
    @Test("a failure is an edge from the state it happened in to a failed node, with count, kind, first file:line and what it said")
    func failuresAreMarked() {
        let a = Self.analysis(["log-stream-default.log"])
        let dot = StateDiagram.graph(a.transitions, title: "t").text
        #expect(dot.contains(#""app.failed" ["label"="failed (1)", "shape"="octagon""#), "\(dot)")
        let edge = dot.split(separator: "\n").first { $0.hasPrefix(#"  "app.launched" -> "app.failed""#) }
        #expect(edge?.contains(#"1 exception\nfirst at log-stream-default.log:17\nNSGenericException: Application does"#) == true, "\(edge ?? "missing")")
        #expect(edge?.contains(##""color"="#82071e""##) == true, "fatal (LC-C01): dark red")
        // Per session and per scene too: the same tally, one session's.
        let box = Box()
        _ = Self.analysis(["catalyst-reopen.log"]) { s, d in
            var t = TransitionTally()
            t.add(s, findings: d, scene: s.scenes.first?.id)
            box.add(StateDiagram.graph(t, title: "scene").text)
        }
        #expect(box.texts.joined().contains(#""scene.disconnected" -> "scene.failed" ["label"="1 assertion"#), "\(box.texts)")
    }

    /// Issue 17, item 2: a scene app's UIApplication machine sat at `launched`, titled "(1 launches)".
    @Test("a scene app's UIApplication states are derived from its scenes, labelled as derived, and counted in the singular")
    func appStateDerivedFromScenes() {
        let box = Box()
        _ = Self.analysis(["scenarios/background-foreground-cycles.log"]) { s, d in
            var t = TransitionTally()
            t.add(s, findings: d)
            box.add(StateDiagram.graph(t, title: "one").text)
        }
        let dot = box.texts.joined()
        #expect(dot.contains("UIApplication (1 launch, states derived from the scenes)"), "\(dot)")
        for edge in [#""app.launched" -> "app.foregroundInactive" ["label"="willEnterForeground ×1"#,
                     #""app.foregroundInactive" -> "app.foregroundActive" ["label"="didBecomeActive ×"#,
                     #""app.foregroundInactive" -> "app.background" ["label"="didEnterBackground ×"#] {
            #expect(dot.contains(edge), "\(edge)")
        }
    }

    /// Issue 17, item 3: LC-S10 (a note) was drawn red as illegal.
    @Test("an edge is coloured by the severity of the findings at it: a note is grey, not red")
    func edgesBySeverity() {
        let a = Self.analysis(["log-show.json"])
        let dot = StateDiagram.graph(a.transitions, title: "t").text
        let edge = dot.split(separator: "\n").first { $0.hasPrefix(#"  "scene.foregroundInactive" -> "scene.disconnected""#) }
        #expect(edge?.contains(#"note at log-show.json:331"#) == true, "\(edge ?? "missing")")
        #expect(edge?.contains(##""color"="#57606a""##) == true && edge?.contains("#d1242f") == false)
        #expect(StateDiagram.colour(.error) == "#d1242f" && StateDiagram.colour(.fatal) == "#82071e")
        #expect(StateDiagram.colour(.warning) != StateDiagram.colour(.error) && StateDiagram.colour(.note) != StateDiagram.colour(.error))
    }

    /// One process whose scene goes round the foreground cycle `events` times over, with irregular
    /// gaps (so no stretch repeats exactly and its timeline stays long), a second scene now and then.
    static func longSession(events count: Int) -> ProcessSession {
        var events: [Event] = []
        let kinds = ["scene.willEnterForeground", "scene.didBecomeActive", "scene.willResignActive", "scene.didEnterBackground"]
        for i in 0..<count {
            var e = Event(file: "long.log", line: i + 1, format: .xcode, kind: EventKind(i == 0 ? "scene.willConnect" : kinds[(i - 1) % 4]),
                          message: "m")
            e.pid = 1
            e.process = "Long"
            e.tid = 5
            e.timestamp = LogTimestamp(iso: "t", seconds: Double(i * i % 97) + Double(i) * 3, hasOffset: true)
            e.scene = SceneRef(address: i % 7 == 0 ? "0x2" : "0x1")
            events.append(e)
        }
        return SessionBuilder.build(events)[0]
    }

    /// Issue 17, item 4: timelines of long sessions came out 2,400-2,600 px wide and shrank to
    /// unreadable text in the HTML report. Laid out top to bottom, their width is their lanes'.
    @Test("a timeline runs top to bottom: a long session is tall, not wide, and fits the report's width at full size")
    func timelineRunsDown() throws {
        let session = Self.longSession(events: 400)
        let svg = String(decoding: try GraphvizRenderer().render(TimelineDiagram.graph(session, diagnostics: []).text, format: .svg), as: UTF8.self)
        func points(_ name: String) throws -> Double {
            let m = try #require(svg.firstMatch(of: try Regex("<svg width=\"([0-9.]+)pt\" height=\"([0-9.]+)pt\"")))
            return Double(String(m.output[name == "width" ? 1 : 2].substring!))!
        }
        let (width, height) = (try points("width"), try points("height"))
        #expect(width < 900, "a report's column is about 1,000 px: the timeline fits without shrinking its text (\(width) pt)")
        #expect(height > width * 2, "events run down the page (\(width) × \(height) pt)")
    }

    @Test("a timeline's failure box says what failed: the exception's name and reason")
    func timelineNamesTheException() {
        let box = Box()
        _ = Self.analysis(["xcode-console.log"]) { s, d in box.add(TimelineDiagram.graph(s, diagnostics: d).text) }
        #expect(box.texts.joined().contains(#"exception\nNSInternalInconsistencyException:"#), "\(box.texts)")
    }

    /// Regression: the CarPlay machine knew only the template scene's didConnect/didDisconnect, so a
    /// dashboard or instrument-cluster scene connecting and going away was drawn red as illegal.
    @Test("dashboard and instrument-cluster scenes connect and disconnect legally; only the template scene's edges are outlined")
    func carPlayDashboardAndClusterAreLegal() {
        let a = Self.analysis(["log-show-compact.log"])
        let dot = StateDiagram.graph(a.transitions, title: "t").text
        for event in ["cp.dashboard.didConnect", "cp.cluster.didConnect", "cp.dashboard.didDisconnect", "cp.cluster.didDisconnect"] {
            let edge = dot.split(separator: "\n").first { $0.contains("\"label\"=\"\(event) ×") }
            #expect(edge?.contains("#1f6feb") == true, "\(event) is drawn as an observed legal transition: \(edge ?? "missing")")
            #expect(edge?.contains("first at") == false)
        }
        #expect(!dot.contains("#d1242f"), "nothing in this log is illegal")
        #expect(dot.contains(#""tooltip"="legal, never observed: cp.didDisconnect""#))
        #expect(!dot.contains("legal, never observed: cp.dashboard"), "the other kinds' callbacks are not outlined")
        #expect(LifecycleMachine.carPlay.outline.count < LifecycleMachine.carPlay.legal.count)
    }

    @Test("SVG is well-formed XML with every state node; PNG decodes with sane dimensions; PDF has a header")
    func renderedFormats() throws {
        let a = Self.analysis(["scenarios"])
        let graph = StateDiagram.graph(a.transitions, title: "scenarios")
        let renderer = GraphvizRenderer()
        let svg = try renderer.render(graph.text, format: .svg)
        final class Titles: NSObject, XMLParserDelegate {
            var inTitle = false, titles: [String] = []
            func parser(_ p: XMLParser, didStartElement e: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) { if e == "title" { inTitle = true; titles.append("") } }
            func parser(_ p: XMLParser, didEndElement e: String, namespaceURI: String?, qualifiedName: String?) { if e == "title" { inTitle = false } }
            func parser(_ p: XMLParser, foundCharacters s: String) { if inTitle { titles[titles.count - 1] += s } }
        }
        let parser = XMLParser(data: Data(svg))
        parser.shouldResolveExternalEntities = false
        let titles = Titles()
        parser.delegate = titles
        #expect(parser.parse())
        for m in [LifecycleMachine.scene, .app, .carPlay] {
            for s in m.states { #expect(titles.titles.contains("\(m.rawValue).\(s)"), "node \(m.rawValue).\(s)") }
        }
        let png = try renderer.render(graph.text, format: .png)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect((200...20000).contains(width) && (100...20000).contains(height), "\(width)×\(height)")
        let pdf = try renderer.render(graph.text, format: .pdf)
        #expect(String(decoding: pdf.prefix(5), as: UTF8.self) == "%PDF-")
        #expect(String(decoding: pdf.suffix(8), as: UTF8.self).contains("%%EOF"))
    }

    @Test("a timeline box with findings names their rules and highest severity in words, not only in colour")
    func findingLineNamesRulesAndSeverity() {
        func d(_ id: String, _ s: LifelineRules.Severity) -> Diagnostic {
            Diagnostic(ruleId: id, rule: "r", severity: s, message: "m", file: "f.log", line: 1, session: "P1", scene: nil, state: nil)
        }
        #expect(TimelineDiagram.findingLine([d("LC-T02", .error)]) == "LC-T02 error")
        #expect(TimelineDiagram.findingLine([d("LC-F01", .error), d("LC-F02", .fatal), d("LC-F01", .error)]) == "LC-F01, LC-F02 fatal")
        #expect(TimelineDiagram.findingLine([d("LC-A01", .note), d("LC-A03", .warning), d("LC-S01", .note)]) == "LC-A01, LC-A03 +1 warning")
        let box = Box()
        _ = Self.analysis(["xcode-console.log"]) { s, d in box.add(TimelineDiagram.graph(s, diagnostics: d).text) }
        #expect(box.texts.joined().contains("items in section 0. T…\\n+339.620 s\\nLC-F02 fatal"), "the exception's box names its rule")
    }

    @Test("a 100,000-event session renders as a summarised timeline that says what was collapsed")
    func hugeTimeline() throws {
        var events: [Event] = []
        let kinds = ["scene.willResignActive", "scene.didBecomeActive"]
        for i in 0..<100_000 {
            var e = Event(file: "big.log", line: i + 1, format: .xcode, kind: EventKind(i < 2 ? ["scene.willConnect", "scene.willEnterForeground"][i] : kinds[i % 2]), message: "m")
            e.pid = 1
            e.process = "Big"
            e.tid = i % 997 == 0 ? 77 : 5
            e.timestamp = LogTimestamp(iso: "t", seconds: Double(i) / 10, hasOffset: true)
            e.scene = SceneRef(address: "0x1")
            events.append(e)
        }
        // One session of them all (by default one of 20,000 events is checked as a part).
        let session = SessionBuilder.build(events, options: SessionOptions(maxEvents: .max))[0]
        let graph = TimelineDiagram.graph(session, diagnostics: [])
        #expect(graph.nodes.count + graph.subgraphs.count < TimelineDiagram.maxItems * 2 + 10)
        let title = graph.attributes.first { $0.name == "label" }
        guard case .text(let label)? = title?.value else { Issue.record("no label"); return }
        #expect(label.contains("100000 events"))
        #expect(label.contains("repetitive stretches") || label.contains("summarised"))
        let svg = try GraphvizRenderer().render(graph.text, format: .svg)
        #expect(svg.count > 1000)
    }
}

private final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var texts: [String] = []
    func add(_ t: String) { lock.lock(); texts.append(t); lock.unlock() }
}
