/// Line accounting for one input. Every line is counted exactly once:
/// `lines == records + continuationLines + nonLogLines + unrecognizedLines`.
public struct InputStats: Sendable, Equatable {
    public var path: String
    /// The format most records of the input were in (or the forced one).
    public var format: LogFormat?
    public var lines = 0
    /// Lines that start a record (a log entry; its other lines are continuations).
    public var records = 0
    /// Lines that belong to the record above them (stack frames, multi-line messages, JSON bodies).
    public var continuationLines = 0
    /// Lines known not to be log entries: blank lines, `log` preambles and column headers,
    /// statistics footers, Markdown prose and fences, `[connected]` markers.
    public var nonLogLines = 0
    /// Lines that fit no known shape and belong to no record.
    public var unrecognizedLines = 0
    /// Events extracted.
    public var events = 0
    /// Bytes read (after decompression).
    public var bytes: Int64 = 0
    /// Records per format, for inputs that mix shapes.
    public var recordsByFormat: [LogFormat: Int] = [:]
    /// Problems worth telling the user about (binary input, cut lines, malformed JSON), each with a line.
    public var notes: [InputNote] = []
    /// Set when the input could not be read (missing, unreadable, binary); its counts then cover
    /// what was read before the error, or every line as unrecognized for binary data.
    public var error: String?
    /// Set when a file found in a directory was not read, with the reason (binary data, not a
    /// log); its counts are zero. Not an error: the run goes on and its exit status is unchanged.
    public var skipped: String?

    public init(path: String) { self.path = path }

    public var isBalanced: Bool { lines == records + continuationLines + nonLogLines + unrecognizedLines }

    /// Adds the counts of a later part of the same input.
    mutating func absorb(_ other: InputStats, lineOffset: Int) {
        lines += other.lines
        records += other.records
        continuationLines += other.continuationLines
        nonLogLines += other.nonLogLines
        unrecognizedLines += other.unrecognizedLines
        events += other.events
        bytes += other.bytes
        for (f, n) in other.recordsByFormat { recordsByFormat[f, default: 0] += n }
        for var note in other.notes where notes.count < InputNote.maximumPerInput {
            note.position = note.position?.shifted(lines: lineOffset)
            notes.append(note)
        }
    }

    /// Picks the format reported for the input: the one with most records (ties by format order).
    mutating func settleFormat(forced: LogFormat?, sniffed: LogFormat?) {
        if let forced { format = forced; return }
        if let best = recordsByFormat.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }) {
            format = best.key
        } else {
            format = sniffed
        }
    }
}

/// A message about an input, with the place it concerns when there is one (a line, or a byte offset of a
/// binary input).
public struct InputNote: Sendable, Equatable {
    public enum Severity: String, Sendable { case info, warning, error }
    public var severity: Severity
    public var position: InputPosition?
    public var message: String
    static let maximumPerInput = 50

    public init(_ severity: Severity, at position: InputPosition?, _ message: String) {
        self.severity = severity
        self.position = position
        self.message = message
    }

    /// A note about a line of a text input (nil: about the whole input).
    public init(_ severity: Severity, line: Int?, _ message: String) {
        self.init(severity, at: line.map(InputPosition.line), message)
    }
}
