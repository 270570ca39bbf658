import LifelineCore
import LifelineRules

/// A diagram ready for a report: its title, the file it is written to and its SVG text.
public struct RenderedDiagram: Sendable, Equatable {
    public var title: String
    /// File name inside the output directory (`state-aggregate.svg`).
    public var fileName: String
    public var svg: String

    public init(title: String, fileName: String, svg: String) {
        self.title = title
        self.fileName = fileName
        self.svg = svg
    }
}

/// Lines of a log around a line a finding points at, as the report shows them.
public struct LogExcerpt: Sendable, Equatable {
    public var file: String
    /// 1-based number of `lines[0]`.
    public var firstLine: Int
    public var lines: [String]

    public init(file: String, firstLine: Int, lines: [String]) {
        self.file = file
        self.firstLine = firstLine
        self.lines = lines
    }
}
