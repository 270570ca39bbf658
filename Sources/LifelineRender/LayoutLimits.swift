/// Caps on what is handed to Graphviz: the dot layout grows faster than linearly with nodes and
/// edges, so a graph past these sizes is replaced by a small diagram that says what it was, instead
/// of a layout that could run for minutes. The diagrams Lifeline draws stay far below them (a state
/// diagram has a fixed set of states; a timeline is summarised at `TimelineDiagram.maxItems`), so
/// the caps guard against what they could become, not what they are.
public struct LayoutLimits: Sendable, Equatable {
    public var maxNodes: Int
    public var maxEdges: Int

    public init(maxNodes: Int = 2_000, maxEdges: Int = 4_000) {
        self.maxNodes = maxNodes
        self.maxEdges = maxEdges
    }

    public static let standard = LayoutLimits()

    /// `graph` itself when within the limits; otherwise a one-node diagram with a note saying how
    /// large the graph was and where to get it whole (`--as dot`).
    public func bounded(_ graph: DOTGraph) -> DOTGraph {
        let nodes = graph.nodes.count + graph.subgraphs.reduce(0) { $0 + $1.nodes.count }
        let edges = graph.edges.count
        guard nodes > maxNodes || edges > maxEdges else { return graph }
        var note = DOTGraph(name: graph.name)
        note.attributes = graph.attributes.filter { $0.name == "label" || $0.name == "labelloc" }
        note.nodes = [DOTNode("summary", [
            DOTAttribute("shape", "note"),
            DOTAttribute("label", "Diagram not laid out: \(nodes) nodes and \(edges) edges exceed the limit of "
                + "\(maxNodes) nodes and \(maxEdges) edges.\nWrite it with --as dot to get the whole graph."),
        ])]
        return note
    }
}

extension GraphvizRenderer {
    /// Renders `graph` after `limits.bounded(_:)`: a graph too large to lay out in bounded time
    /// comes out as a small diagram saying so.
    public func render(_ graph: DOTGraph, format: OutputFormat, limits: LayoutLimits = .standard) throws(GraphvizError) -> [UInt8] {
        try render(limits.bounded(graph).text, format: format)
    }
}
