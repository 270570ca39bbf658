/// A Graphviz graph as a value, written out by ``DOTGraph/text`` with every identifier and label
/// escaped, so text from a log can never end a string, start an attribute or break an HTML label.
public struct DOTGraph: Sendable, Equatable {
    public var name: String
    public var attributes: [DOTAttribute] = []
    public var nodeDefaults: [DOTAttribute] = []
    public var edgeDefaults: [DOTAttribute] = []
    public var nodes: [DOTNode] = []
    public var edges: [DOTEdge] = []
    /// Clusters (written `subgraph "cluster_…"`) and rank groups (`subgraph { rank=same … }`).
    public var subgraphs: [DOTSubgraph] = []

    public init(name: String) { self.name = name }

    /// The graph in DOT syntax (always a `digraph`; ids and strings always quoted).
    public var text: String {
        var out = "digraph \(DOTEscape.quoted(name)) {\n"
        func list(_ head: String, _ attrs: [DOTAttribute]) {
            if !attrs.isEmpty { out += "  \(head) [\(DOTEscape.attributes(attrs))];\n" }
        }
        for a in attributes { out += "  \(DOTEscape.attribute(a));\n" }
        list("node", nodeDefaults)
        list("edge", edgeDefaults)
        for s in subgraphs { out += s.text(indent: "  ") }
        for n in nodes { out += "  \(n.text);\n" }
        for e in edges { out += "  \(e.text);\n" }
        out += "}\n"
        return out
    }
}

public struct DOTSubgraph: Sendable, Equatable {
    public var name: String
    public var attributes: [DOTAttribute] = []
    public var nodes: [DOTNode] = []
    /// Ids of nodes declared elsewhere that belong here (for `rank=same` groups).
    public var members: [String] = []

    public init(name: String, attributes: [DOTAttribute] = [], nodes: [DOTNode] = [], members: [String] = []) {
        self.name = name
        self.attributes = attributes
        self.nodes = nodes
        self.members = members
    }

    func text(indent: String) -> String {
        var out = "\(indent)subgraph \(DOTEscape.quoted(name)) {\n"
        for a in attributes { out += "\(indent)  \(DOTEscape.attribute(a));\n" }
        for n in nodes { out += "\(indent)  \(n.text);\n" }
        for m in members { out += "\(indent)  \(DOTEscape.quoted(m));\n" }
        return out + "\(indent)}\n"
    }
}

public struct DOTNode: Sendable, Equatable {
    public var id: String
    public var attributes: [DOTAttribute]

    public init(_ id: String, _ attributes: [DOTAttribute] = []) {
        self.id = id
        self.attributes = attributes
    }

    var text: String {
        attributes.isEmpty ? DOTEscape.quoted(id) : "\(DOTEscape.quoted(id)) [\(DOTEscape.attributes(attributes))]"
    }
}

public struct DOTEdge: Sendable, Equatable {
    public var from: String
    public var to: String
    public var attributes: [DOTAttribute]

    public init(_ from: String, _ to: String, _ attributes: [DOTAttribute] = []) {
        self.from = from
        self.to = to
        self.attributes = attributes
    }

    var text: String {
        let head = "\(DOTEscape.quoted(from)) -> \(DOTEscape.quoted(to))"
        return attributes.isEmpty ? head : "\(head) [\(DOTEscape.attributes(attributes))]"
    }
}

/// One `name=value` pair. Values are text (quoted and escaped) or an HTML-like label (its text
/// escaped as XML; the markup is built by ``DOTHTML``, never taken from a log).
public struct DOTAttribute: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case text(String)
        case html(DOTHTML)
    }
    public var name: String
    public var value: Value

    public init(_ name: String, _ text: String) {
        self.name = name
        value = .text(text)
    }

    public init(_ name: String, html: DOTHTML) {
        self.name = name
        value = .html(html)
    }
}

/// Markup for an HTML-like label, built from pieces: literal tags written by Lifeline, and text
/// that is always escaped.
public struct DOTHTML: Sendable, Equatable {
    public private(set) var markup: String = ""

    public init() {}

    /// Text, escaped for XML (`&`, `<`, `>`, quotes), line breaks as `<br/>`.
    public static func text(_ s: String) -> DOTHTML {
        var h = DOTHTML()
        h.markup = DOTEscape.xml(s).replacingOccurrences(of: "\n", with: "<br/>")
        return h
    }

    /// A tag around `content`: `tag` and the attribute names are Lifeline's own; values escaped.
    public static func tag(_ name: String, _ attributes: [(String, String)] = [], _ content: DOTHTML) -> DOTHTML {
        var h = DOTHTML()
        let attrs = attributes.map { " \($0.0)=\"\(DOTEscape.xml($0.1))\"" }.joined()
        h.markup = "<\(name)\(attrs)>\(content.markup)</\(name)>"
        return h
    }

    public static func + (a: DOTHTML, b: DOTHTML) -> DOTHTML {
        var h = DOTHTML()
        h.markup = a.markup + b.markup
        return h
    }

    public static let lineBreak: DOTHTML = { var h = DOTHTML(); h.markup = "<br/>"; return h }()
}

/// Escaping for DOT. Quoted strings: `"` and `\` are escaped (so Graphviz's `\n`, `\l`, `\N` …
/// escapes cannot be smuggled in), line breaks become `\n`, other control characters are dropped.
public enum DOTEscape {
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r", "\t": out += " "
            default:
                if u.value < 0x20 || u.value == 0x7F { continue }
                out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// Text for an HTML-like label or attribute value: XML-escaped, control characters dropped.
    public static func xml(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n": out += "\n"
            default:
                if u.value < 0x20 || u.value == 0x7F { continue }
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    static func attribute(_ a: DOTAttribute) -> String {
        switch a.value {
        case .text(let t): return "\(quoted(a.name))=\(quoted(t))"
        case .html(let h): return "\(quoted(a.name))=<\(h.markup)>"
        }
    }

    static func attributes(_ attrs: [DOTAttribute]) -> String { attrs.map(attribute).joined(separator: ", ") }
}
