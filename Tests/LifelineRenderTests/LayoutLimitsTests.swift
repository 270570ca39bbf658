import Foundation
import Testing
@testable import LifelineRender

/// Graphviz is never handed a graph too large to lay out in bounded time.
@Suite struct LayoutLimitsTests {
    static func chain(_ n: Int) -> DOTGraph {
        var g = DOTGraph(name: "big")
        g.attributes = [DOTAttribute("label", "a long chain")]
        g.nodes = (0..<n).map { DOTNode("n\($0)") }
        g.edges = (1..<n).map { DOTEdge("n\($0 - 1)", "n\($0)") }
        return g
    }

    @Test("a graph within the limits is rendered as it is")
    func withinLimits() throws {
        let g = Self.chain(10)
        #expect(LayoutLimits.standard.bounded(g) == g)
        let svg = String(decoding: try GraphvizRenderer().render(g, format: .svg), as: UTF8.self)
        #expect(svg.contains(">n9<"))
    }

    @Test("a graph past the limits is replaced by a note saying how large it was, and renders at once")
    func pastLimits() throws {
        let g = Self.chain(50_000)
        let bounded = LayoutLimits.standard.bounded(g)
        #expect(bounded.nodes.count == 1 && bounded.edges.isEmpty)
        let svg = String(decoding: try GraphvizRenderer().render(g, format: .svg), as: UTF8.self)
        #expect(svg.contains("50000 nodes and 49999 edges exceed the limit"))
        #expect(svg.contains("a long chain"), "the title is kept")
        let small = LayoutLimits(maxNodes: 5, maxEdges: 100)
        #expect(small.bounded(Self.chain(6)).nodes.count == 1, "nodes alone can exceed")
        #expect(LayoutLimits(maxNodes: 100, maxEdges: 4).bounded(Self.chain(6)).nodes.count == 1, "edges alone can exceed")
    }
}
