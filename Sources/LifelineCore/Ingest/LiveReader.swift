import Foundation

/// Reads one input that is still being written (standard input, a pipe, a growing file) from the
/// pieces it arrives in, for `lifeline watch`: each line goes through the same record processor
/// as a file's, and each event comes out as soon as its record is complete.
///
/// A record ends at the next record start, as in a file, or at `idle()`: when nothing arrived for
/// a moment, the open record is complete, so a crash block or an exception at the end of a burst is
/// not held back until the next line. The format is sniffed from the first lines (up to
/// `sniffLines` complete lines or 64 KiB, or whatever arrived by the first `idle()`), and each
/// line is then re-checked as in a file. Every byte is accounted for in `stats`.
public struct LiveReader {
    public let name: String
    private let options: IngestOptions
    private var processor: RecordProcessor?
    private var feeder: LineFeeder
    /// Bytes not yet fed: an incomplete last line, or everything before the format is known.
    private var pending: [UInt8] = []
    private var offset: Int64 = 0
    private let box = Box()
    private var finished = false

    /// Complete lines to sniff the format from (fewer when the input goes idle first).
    public static let sniffLines = 32

    private final class Box { var events: [Event] = [] }

    public init(name: String, options: IngestOptions) {
        self.name = name
        self.options = options
        feeder = LineFeeder(separator: 10, maxLineBytes: options.maxLineBytes)
    }

    /// Why the input is not read (binary data, UTF-16 text), once its first bytes said so: its
    /// lines are then counted as unrecognized, as `analyze` counts a binary input's.
    public private(set) var refusal: String?
    private var refusedStats = InputStats(path: "")
    private var refusedMidLine = false

    /// The format the input is read as (nil until sniffed).
    public var format: LogFormat? { processor?.mode }
    /// The accounting of what was read so far.
    public var stats: InputStats { refusal != nil ? refusedStats : (processor?.stats ?? InputStats(path: options.shown(name))) }
    /// Lines read so far.
    public var lines: Int { stats.lines }
    /// Complete lines waiting for the format to be sniffed (counted as they arrive, not recounted).
    private var linesBeforeSniff = 0

    /// Takes the next piece of the input; returns the events completed by it.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [Event] {
        pending.append(contentsOf: bytes)
        if processor == nil {
            linesBeforeSniff += bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
            guard linesBeforeSniff >= Self.sniffLines || pending.count >= FormatSniffer.sampleBytes else { return [] }
            start()
        }
        return drain(final: false)
    }

    public mutating func feed(_ bytes: [UInt8]) -> [Event] {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Nothing arrived for a while: sniffs with what there is, and closes the open record.
    public mutating func idle() -> [Event] {
        if processor == nil {
            guard !pending.isEmpty else { return [] }
            start()
        }
        var out = drain(final: false)
        if refusal != nil { return out }
        processor!.closeRecord()
        // The system's stories wait for lines that would still belong to them; a quiet log has none.
        processor!.closeStories()
        out += take()
        return out
    }

    /// The input ended: reads the unterminated last line and closes everything.
    public mutating func finish() -> (events: [Event], stats: InputStats) {
        if processor == nil { start() }
        var out = drain(final: true)
        if refusal != nil { return (out, refusedStats) }
        if !finished {
            processor!.finish()
            finished = true
        }
        out += take()
        return (out, processor!.stats)
    }

    private mutating func start() {
        let sniff = FormatSniffer.sniff(Array(pending.prefix(FormatSniffer.sampleBytes)), path: name)
        if let reason = sniff.binaryReason ?? (sniff.encoding == .utf8 ? nil : "UTF-16 text, which watch does not read (lifeline analyze does)") {
            refusal = reason
            refusedStats = InputStats(path: options.shown(name))
            refusedStats.error = reason
        }
        let format = options.inputFormat ?? sniff.format
        var p = RecordProcessor(file: options.shown(name), mode: format, forced: options.inputFormat != nil,
                                context: TimeContext(secondsSince1970: Date().timeIntervalSince1970), markdown: sniff.markdown,
                                collectEvents: true, classifier: EventClassifier(markers: options.markers))
        p.know(executables: options.executables)
        let box = self.box
        p.eventSink = { box.events += $0 }
        p.chunkSize = 1
        processor = p
        feeder = LineFeeder(separator: sniff.carriageReturnLines ? 13 : 10, maxLineBytes: options.maxLineBytes)
        feeder.ndjson = format == .logNDJSON || format == .unifiedLog
        feeder.begin()
    }

    private mutating func drain(final: Bool) -> [Event] {
        if refusal != nil {
            // Counted, not read: lines and bytes, every one unrecognized.
            var n = pending.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
            if let last = pending.last { refusedMidLine = last != 10 }
            if final, refusedMidLine { n += 1; refusedMidLine = false }
            refusedStats.lines += n
            refusedStats.unrecognizedLines += n
            refusedStats.bytes += Int64(pending.count)
            pending.removeAll(keepingCapacity: true)
            return []
        }
        guard processor != nil, !pending.isEmpty || final else { return take() }
        let used = pending.withUnsafeBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
            return feeder.feed(base, count: buffer.count, regionOffset: offset, final: final, into: &processor!)
        }
        if used > 0 {
            pending.removeFirst(used)
            offset += Int64(used)
        }
        if pending.count > options.maxLineBytes {
            // A line longer than the limit: its first part is read as a line, the rest skipped and noted.
            let cut = pending.count - options.maxLineBytes
            pending.withUnsafeBufferPointer { buffer in
                _ = feeder.feed(buffer.baseAddress!, count: options.maxLineBytes, regionOffset: offset, final: true, into: &processor!)
            }
            processor!.noteCutLine(processor!.currentLine, kept: options.maxLineBytes, skipped: cut)
            offset += Int64(pending.count)
            pending.removeAll()
        }
        return take()
    }

    private func take() -> [Event] {
        defer { box.events.removeAll(keepingCapacity: true) }
        return box.events
    }
}
