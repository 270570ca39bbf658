import Foundation
import Testing
@testable import LifelineRender

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A tiny lifecycle graph used by most tests.
private let tinyGraph = """
    digraph G { Unattached -> ForegroundInactive [label="willEnterForeground"] }
    """

/// Parses `bytes` as XML and returns whether it is well formed (plus the text).
private func parseXML(_ bytes: [UInt8]) -> (wellFormed: Bool, text: String) {
    let parser = XMLParser(data: Data(bytes))
    // SVG from Graphviz references an external DTD; never fetch it.
    parser.shouldResolveExternalEntities = false
    final class Collector: NSObject, XMLParserDelegate {
        var text = ""
        var elements: [String] = []
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) { elements.append(elementName) }
    }
    let collector = Collector()
    parser.delegate = collector
    let ok = parser.parse()
    return (ok && collector.elements.first == "svg" && !collector.elements.contains("script"),
            collector.text)
}

private func bigEndianUInt32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.reduce(0) { $0 << 8 | UInt32($1) }
}

@Suite struct GraphvizRendererTests {
    let renderer = GraphvizRenderer()

    @Test func svgIsWellFormedXMLWithBothNodes() throws {
        let svg = try renderer.render(tinyGraph, format: .svg)
        let (wellFormed, text) = parseXML(svg)
        #expect(wellFormed)
        #expect(text.contains("Unattached"))
        #expect(text.contains("ForegroundInactive"))
        #expect(text.contains("willEnterForeground"))
    }

    @Test func pngHasSignatureAndSaneSize() throws {
        let png = try renderer.render(tinyGraph, format: .png)
        try #require(png.count > 24)
        #expect(Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        let width = bigEndianUInt32(png[16..<20])
        let height = bigEndianUInt32(png[20..<24])
        #expect(width > 0 && width < 10_000)
        #expect(height > 0 && height < 10_000)
    }

    @Test func pdfHasHeader() throws {
        let pdf = try renderer.render(tinyGraph, format: .pdf)
        #expect(pdf.starts(with: Array("%PDF-".utf8)))
    }

    @Test func dotIsLaidOutCanonicalDOT() throws {
        let dot = String(decoding: try renderer.render(tinyGraph, format: .dot), as: UTF8.self)
        #expect(dot.contains("digraph G"))
        #expect(dot.contains("pos="))
        #expect(dot.contains("ForegroundInactive"))
    }

    @Test(arguments: OutputFormat.allCases)
    func everyFormatRenders(format: OutputFormat) throws {
        #expect(try !renderer.render(tinyGraph, format: format).isEmpty)
    }

    @Test func malformedDOTThrowsAndRendererRecovers() throws {
        let error = #expect(throws: GraphvizError.self) {
            try renderer.render("digraph { a -> }", format: .svg)
        }
        #expect(error?.stage == .parse)
        #expect(error?.message.isEmpty == false)
        #expect(error?.message.contains("syntax error") == true)
        // Graphviz's parser state must not be left broken.
        let svg = try renderer.render(tinyGraph, format: .svg)
        #expect(parseXML(svg).wellFormed)
    }

    @Test func emptyInputThrows() {
        #expect(throws: GraphvizError.self) { try renderer.render("", format: .svg) }
    }

    @Test func unknownLayoutEngineThrows() throws {
        let error = #expect(throws: GraphvizError.self) {
            try renderer.render(tinyGraph, format: .svg, engine: "no-such-engine")
        }
        #expect(error?.stage == .layout)
        #expect(error?.message.contains("no-such-engine") == true)
        #expect(try !renderer.render(tinyGraph, format: .svg).isEmpty)
    }

    @Test func unknownFormatThrows() throws {
        let error = #expect(throws: GraphvizError.self) {
            try renderer.render(tinyGraph, formatName: "no-such-format")
        }
        #expect(error?.stage == .render)
        #expect(error?.message.contains("no-such-format") == true)
        #expect(try !renderer.render(tinyGraph, format: .png).isEmpty)
    }

    @Test func concurrentRendersAreIdentical() async throws {
        let expected = try renderer.render(tinyGraph, format: .svg)
        let results = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 {
                group.addTask { try GraphvizRenderer().render(tinyGraph, format: .svg) }
            }
            return try await group.reduce(into: [[UInt8]]()) { $0.append($1) }
        }
        #expect(results.count == 8)
        for result in results { #expect(result == expected) }
    }

    @Test func hostileLabelIsEscaped() throws {
        // DOT escapes: \" is a quote, \\ a backslash, \n a centred line break;
        // a raw newline inside the quoted string is kept too.
        let dot = """
            digraph G { a [label="say \\"hi\\" C:\\\\path <script>alert(1)</script> & \\n next
            raw line"] }
            """
        let svg = try renderer.render(dot, format: .svg)
        let source = String(decoding: svg, as: UTF8.self)
        #expect(!source.contains("<script"))
        #expect(!source.contains("</script"))
        let (wellFormed, text) = parseXML(svg)
        #expect(wellFormed)
        #expect(text.contains("<script>alert(1)</script>"))
        #expect(text.contains("\"hi\""))
        #expect(text.contains("C:\\path"))
        #expect(text.contains("raw line"))
    }

    /// Regression: cgraph's own id discipline ordered subgraphs by the heap addresses of their
    /// names, so the same DOT text with several clusters came out laid out and written in
    /// different orders from one render to the next.
    @Test func clustersAreLaidOutTheSameWhateverTheHeapHolds() throws {
        var dot = "digraph lifecycle {\n"
        for c in ["scene", "app", "carPlay", "external"] {
            dot += "  subgraph \"cluster_\(c)\" { label=\"\(c)\"\n"
            for s in ["unattached", "inactive", "active", "background", "gone"] {
                dot += "    \"\(c).\(s)\" [label=\"\(s)\"]\n"
            }
            dot += "    \"\(c).unattached\" -> \"\(c).inactive\" -> \"\(c).active\" -> \"\(c).inactive\" -> \"\(c).background\" -> \"\(c).gone\"\n  }\n"
        }
        dot += "  \"scene.active\" -> \"app.active\"\n  \"carPlay.gone\" -> \"external.unattached\"\n}\n"
        let first = try renderer.render(dot, format: .svg)
        var ballast: [[UInt8]] = []
        for round in 1...12 {
            // Allocations of every size between renders move where the next names land.
            for k in 0..<(round * 37) { ballast.append([UInt8](repeating: UInt8(k & 0xFF), count: 8 + (k * round) % 96)) }
            if round.isMultiple(of: 3) { ballast.removeFirst(ballast.count / 2) }
            let again = try renderer.render(dot, format: .svg)
            #expect(again == first, "render \(round + 1) differs from the first")
        }
        let clusters = String(decoding: first, as: UTF8.self).components(separatedBy: "<title>cluster_").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(clusters == ["scene", "app", "carPlay", "external"], "clusters are written in the order of the text")
    }

    @Test func reportsVersion() {
        #expect(GraphvizRenderer.graphvizVersion.first?.isNumber == true)
    }
}
