// Rendering (Graphviz in process) lives here.
import CGraphviz
import CLifelineDOT
import Foundation

/// An output format that ``GraphvizRenderer`` can produce.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// Graphviz's own `dot` output *after* layout: the graph in canonical DOT
    /// syntax with `pos`, `bb`, `width`/`height` and label positions filled in.
    /// It is not the input text echoed back.
    case dot
    /// Scalable Vector Graphics (Graphviz's core `svg` device).
    case svg
    /// Portable Network Graphics (cairo device from the `pango` plugin).
    case png
    /// Portable Document Format (cairo device from the `pango` plugin).
    case pdf
}

/// A failure reported by Graphviz, carrying Graphviz's own message text.
public struct GraphvizError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step that failed.
    public enum Stage: String, Sendable {
        /// `gvContext()` could not be created.
        case context
        /// The DOT text could not be parsed (`agread`).
        case parse
        /// The layout engine failed or is unknown (`gvLayout`).
        case layout
        /// The output format failed or is unavailable (`gvRenderData`).
        case render
    }

    /// The step that failed.
    public let stage: Stage
    /// What Graphviz reported (warnings and errors, in order), never empty.
    public let message: String

    /// Creates an error; an empty `message` is replaced by a generic one.
    public init(stage: Stage, message: String) {
        self.stage = stage
        let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
        self.message = trimmed.isEmpty ? "Graphviz \(stage.rawValue) failed" : trimmed
    }

    public var description: String { "Graphviz \(stage.rawValue) error: \(message)" }
}

/// Renders DOT source text with the Graphviz C libraries, in process.
///
/// Graphviz keeps global state and is not thread-safe, so every call into
/// libgvc/libcgraph (parsing included) runs behind one process-wide lock; a
/// `GraphvizRenderer` is therefore cheap and safe to use from any task or
/// thread. Graphviz diagnostics are collected into ``GraphvizError`` instead of
/// being written to stderr.
public struct GraphvizRenderer: Sendable {
    /// Creates a renderer. All renderers share one lazily created `GVC_t`.
    public init() {}

    /// Lays out `source` with `engine` and renders it in `format`.
    ///
    /// - Parameters:
    ///   - source: DOT text; only its first graph is used.
    ///   - format: the output format.
    ///   - engine: a Graphviz layout engine (`dot`, `neato`, `fdp`, …).
    /// - Returns: the rendered bytes.
    /// - Throws: ``GraphvizError`` with Graphviz's message when the text does
    ///   not parse, the engine is unknown, or the format is unavailable.
    public func render(
        _ source: String, format: OutputFormat, engine: String = "dot"
    ) throws(GraphvizError) -> [UInt8] {
        try render(source, formatName: format.rawValue, engine: engine)
    }

    /// Like ``render(_:format:engine:)`` but with any Graphviz `-T` format name;
    /// internal so that tests can exercise an unknown format.
    func render(
        _ source: String, formatName: String, engine: String = "dot"
    ) throws(GraphvizError) -> [UInt8] {
        try Graphviz.locked { gvc throws(GraphvizError) in
            guard let graph = source.withCString({ lifeline_read_dot($0) }) else {
                throw GraphvizError(
                    stage: .parse,
                    message: Graphviz.takeMessages().nonEmpty ?? "no graph found in DOT text")
            }
            defer { agclose(graph) }
            // Always paired with gvFreeLayout: a failed layout may leave partial state.
            defer { gvFreeLayout(gvc, graph) }
            guard gvLayout(gvc, graph, engine) == 0 else {
                throw GraphvizError(stage: .layout, message: Graphviz.takeMessages())
            }
            guard let bytes = renderData(gvRenderData, gvc, graph, formatName) else {
                throw GraphvizError(stage: .render, message: Graphviz.takeMessages())
            }
            return bytes
        }
    }

    /// The version of the Graphviz library in use, e.g. `"2.43.0"`.
    public static var graphvizVersion: String {
        (try? Graphviz.locked { gvc in String(cString: gvcVersion(gvc)) }) ?? "unknown"
    }
}

/// Calls `gvRenderData` and copies its buffer into Swift memory.
///
/// Generic over the length type because Graphviz changed it: `unsigned int *`
/// in 2.x (imported as `UInt32`; 2.43 here), `size_t *` in newer releases
/// (imported as `Int`). Passing `gvRenderData` as `function` lets Swift infer `Length`, so
/// this compiles against both.
private func renderData<Length: BinaryInteger>(
    _ function: (
        OpaquePointer?, UnsafeMutablePointer<Agraph_t>?, UnsafePointer<CChar>?,
        UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<Length>?
    ) -> Int32,
    _ gvc: OpaquePointer, _ graph: UnsafeMutablePointer<Agraph_t>, _ format: String
) -> [UInt8]? {
    var data: UnsafeMutablePointer<CChar>? = nil
    var length: Length = 0
    let status = function(gvc, graph, format, &data, &length)
    defer { if let data { gvFreeRenderData(data) } }
    guard status == 0, let data else { return nil }
    return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
        Array(UnsafeBufferPointer(start: $0, count: Int(length)))
    }
}

/// The process-wide Graphviz state. Everything here is guarded by `lock`.
private enum Graphviz {
    static let lock = NSLock()
    /// The shared context, created on first use. Guarded by `lock`.
    nonisolated(unsafe) static var context: OpaquePointer?
    /// Diagnostics collected by `collect` during the current call. Guarded by `lock`.
    nonisolated(unsafe) static var messages = ""

    /// cgraph error function: Graphviz calls it (with `lock` held, since every
    /// Graphviz call is made under it) with pieces such as `"Error"`, `": "`
    /// and the message text; they are accumulated instead of printed.
    static let collect: agusererrf = { piece in
        if let piece { Graphviz.messages += String(cString: piece) }
        return 0
    }

    /// Returns and clears the collected diagnostics.
    static func takeMessages() -> String {
        defer { messages = "" }
        return messages
    }

    /// Runs `body` with the lock held, the shared context created, and cgraph's
    /// error output redirected to `collect` (the previous handler and level are
    /// restored afterwards, so other cgraph users in the process are unaffected).
    static func locked<T>(
        _ body: (OpaquePointer) throws(GraphvizError) -> T
    ) throws(GraphvizError) -> T {
        lock.lock()
        defer { lock.unlock() }
        let previousHandler = agseterrf(collect)
        let previousLevel = agseterr(AGWARN)
        defer {
            agseterrf(previousHandler)
            agseterr(previousLevel)
            messages = ""
        }
        messages = ""
        if context == nil {
            context = gvContext()
        }
        guard let gvc = context else {
            throw GraphvizError(stage: .context, message: takeMessages())
        }
        messages = ""  // drop plugin-loading warnings from creating the context
        return try body(gvc)
    }
}

extension String {
    fileprivate var nonEmpty: String? {
        trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : self
    }
}
