/// A corpus shape: one kind of single-file log the generator writes (`--shape NAME`). Each shape is
/// one type in its own file; `corpusShapes` lists them. A shape writes through a `Sink` (which
/// counts bytes and lines) and counts every event it writes per `Kind`, so `FILE.expected.json` is
/// exact whatever the shape.
protocol CorpusShape: AnyObject {
    /// The `--shape` name.
    static var name: String { get }
    /// Names the bytes the shape writes for a given seed; bump it with every change to them.
    /// `scripts/bench` regenerates a saved corpus whose `.expected.json` names another version.
    static var version: String { get }
    /// One paragraph for `--help` (wrapped by the caller's layout: lines of at most ~80 columns).
    static var summary: String { get }
    /// Whether `--format` and `--app-per-mille` apply (the mixed shape only).
    static var takesMixedOptions: Bool { get }

    init(out: Sink, seed: UInt64, options: ShapeOptions)

    /// Writes about `targetBytes` bytes (the last record is completed) and flushes the sink.
    func run(targetBytes: Int)
    /// Events written, indexed by `Kind.rawValue`.
    var counts: [Int] { get }
    /// The clock's end in whole seconds since 1970: the file's modification time.
    var endSeconds: Int { get }
    /// The fields of `.expected.json` after `bytes`, `lines`, `events`, `kinds` and `generator`
    /// (and `shape`/`shapeVersion`, which the caller writes for every shape but mixed): each a key
    /// and its JSON value, in order.
    func expectedFields(seed: UInt64) -> [(String, String)]
}

/// The options of the mixed shape (`--format`, `--app-per-mille`).
struct ShapeOptions {
    var single: LogFormat? = nil
    var formatName = "mixed"
    var appPerMille = 33
}

/// Every shape, in `--help` order. The first is the default.
var corpusShapes: [any CorpusShape.Type] {
    [MixedShape.self, LongLivedShape.self, LaunchesShape.self, DenseShape.self, DeviceShape.self]
}

func shapeNamed(_ name: String) -> (any CorpusShape.Type)? {
    corpusShapes.first { $0.name == name }
}

/// Per-format line and segment counts, as `.expected.json`'s `segments` object (the five formats of
/// the mixed rotation unless a shape names its own).
func segmentsJSON(lines: [Int], segments: [Int], formats: [LogFormat] = LogFormat.rotation) -> String {
    "{\n" + formats.map {
        "    \"\($0.name)\": {\"segments\": \(segments[$0.rawValue]), \"lines\": \(lines[$0.rawValue])}"
    }.joined(separator: ",\n") + "\n  }"
}
