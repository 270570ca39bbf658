import Foundation

/// How to ingest.
public struct IngestOptions: Sendable {
    /// Read every input as this format instead of detecting it.
    public var inputFormat: LogFormat?
    /// Threads to use (inputs and ranges of large inputs are read in parallel).
    public var jobs: Int
    /// Keep events for the caller (otherwise they are only counted).
    public var collectEvents: Bool
    /// Large plain files in line formats are read in ranges of about this size.
    public var rangeBytes: Int64
    /// Longest line kept whole; longer lines are cut and the cut is reported.
    public var maxLineBytes: Int
    /// App-specific marker patterns (from the configuration) matched on every record.
    public var markers: MarkerSet

    public init(inputFormat: LogFormat? = nil, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                collectEvents: Bool = true, rangeBytes: Int64 = 16 << 20, maxLineBytes: Int = 1 << 20,
                markers: MarkerSet = .none) {
        self.markers = markers
        self.inputFormat = inputFormat
        self.jobs = max(1, jobs)
        self.collectEvents = collectEvents
        self.rangeBytes = max(64 << 10, rangeBytes)
        self.maxLineBytes = max(4096, maxLineBytes)
    }
}

/// Reads inputs (files, directories, `-`, gzip files) and turns them into events and per-input
/// line accounting. Results arrive in input order and, within an input, in line order, whatever
/// the number of threads.
public struct Ingester: Sendable {
    public let options: IngestOptions

    public init(options: IngestOptions = IngestOptions()) { self.options = options }

    /// Ingests `paths`. `onEvent` gets every event (when `collectEvents`), `onInput` each input's
    /// accounting after its events; both are called on the calling thread.
    public func run(paths: [String], onEvent: (Event) -> Void, onInput: (InputStats) -> Void) {
        let inputs = InputExpansion.expand(paths)
        var units: [WorkUnit] = []
        var plans: [InputPlan] = []
        for (index, input) in inputs.enumerated() {
            let plan = plan(input, index: index)
            plans.append(plan)
            units.append(contentsOf: plan.units)
        }
        var lineOffsets = [Int](repeating: 0, count: plans.count)
        var totals = plans.map { plan -> InputStats in
            var s = InputStats(path: plan.path)
            s.error = plan.error
            return s
        }
        var remaining = plans.map { $0.units.count }
        // Inputs are reported in the order given: one that produced no work (it could not be
        // read) is reported when every input before it has been.
        var nextToReport = 0
        func reportReadyInputs() {
            while nextToReport < plans.count, remaining[nextToReport] == 0 {
                totals[nextToReport].settleFormat(forced: options.inputFormat, sniffed: plans[nextToReport].sniff?.format)
                onInput(totals[nextToReport])
                nextToReport += 1
            }
        }
        reportReadyInputs()
        let waveSize = options.jobs
        var waves: [[WorkUnit]] = []
        var start = 0
        while start < units.count {
            waves.append(Array(units[start..<min(start + waveSize, units.count)]))
            start += waves.last!.count
        }
        forEachWaveResult(waves) { results in
            for result in results {
                let i = result.input
                let offset = lineOffsets[i]
                // Renumbering copies each event of a later range into the consumer's heap. Left so
                // on purpose: done in place, events a session keeps stayed in the reader threads'
                // malloc arenas among their freed buffers, and 1 GB of a long-lived log peaked at
                // 316 MB instead of 250 MB (issue 12).
                for var e in result.events {
                    e.line += offset
                    onEvent(e)
                }
                totals[i].absorb(result.stats, lineOffset: offset)
                if totals[i].error == nil { totals[i].error = result.stats.error }
                lineOffsets[i] += result.stats.lines
                remaining[i] -= 1
                reportReadyInputs()
            }
        }
    }

    /// Executes `waves` in order and hands each wave's results to `deliver` on the calling thread.
    /// With more than one wave, the next wave is read on another thread while the caller works on
    /// the results of the one before (at most one wave waits), so what the caller does with events
    /// (sessions, rules, output) overlaps with reading instead of following it.
    private func forEachWaveResult(_ waves: [[WorkUnit]], _ deliver: ([UnitResult]) -> Void) {
        guard waves.count > 1 else {
            for wave in waves { deliver(execute(wave)) }
            return
        }
        let handoff = WaveHandoff()
        let ingester = self
        DispatchQueue.global().async {
            for wave in waves { handoff.put(ingester.execute(wave)) }
            handoff.finish()
        }
        while let results = handoff.take() { deliver(results) }
    }

    /// Convenience: ingests and returns everything (for tests and small inputs).
    /// How many inputs `paths` expand to (directories walked).
    public static func inputCount(_ paths: [String]) -> Int { InputExpansion.expand(paths).count }

    public func ingest(paths: [String]) -> (events: [Event], inputs: [InputStats]) {
        var events: [Event] = [], inputs: [InputStats] = []
        run(paths: paths, onEvent: { events.append($0) }, onInput: { inputs.append($0) })
        return (events, inputs)
    }

    // MARK: Planning

    struct InputPlan {
        var path: String
        var sniff: Sniff?
        var error: String?
        var units: [WorkUnit]
    }

    struct WorkUnit: Sendable {
        var input: Int
        var path: String
        var format: LogFormat
        var sniff: Sniff
        var context: TimeContext
        /// Byte range for ranged reads of plain files; nil reads the whole input sequentially.
        var range: Range<Int64>?
        var isFirst: Bool
        /// Bytes already read for sniffing from a stream that cannot be reopened (standard input,
        /// an archive member); the rest comes from `stream`.
        var prefix: [UInt8]?
        var stream: StreamBox?
    }

    /// A stream read once by the unit that owns it.
    final class StreamBox: @unchecked Sendable {
        let source: ByteSource
        init(_ source: ByteSource) { self.source = source }
    }

    private func plan(_ input: InputExpansion.Input, index: Int) -> InputPlan {
        if let error = input.error { return InputPlan(path: input.path, sniff: nil, error: error, units: []) }
        let path = input.path
        var prefix: [UInt8] = []
        let source: GzipSource
        do {
            source = try GzipSource(path: path)
            prefix = try readPrefix(source, count: FormatSniffer.sampleBytes)
        } catch let e as InputError {
            return InputPlan(path: path, sniff: nil, error: e.reason, units: [])
        } catch {
            return InputPlan(path: path, sniff: nil, error: "\(error)", units: [])
        }
        let sniff = FormatSniffer.sniff(prefix, path: path)
        let format = options.inputFormat ?? sniff.format
        var context = TimeContext(secondsSince1970: Date().timeIntervalSince1970)
        var size: Int64 = 0
        var compressed = false
        // A pipe (`<(command)`, a FIFO) cannot be read twice: like standard input, it keeps the
        // stream its first bytes came from.
        let stream = path == "-" || !Self.isRegularFile(path)
        if !stream, let attributes = try? FileManager.default.attributesOfItem(atPath: path) {
            if let m = attributes[FileAttributeKey.modificationDate] as? Date { context = TimeContext(secondsSince1970: m.timeIntervalSince1970) }
            size = (attributes[FileAttributeKey.size] as? NSNumber)?.int64Value ?? 0
            compressed = Self.isGzip(path)
        }
        let base = WorkUnit(input: index, path: path, format: format, sniff: sniff, context: context, range: nil,
                            isFirst: true, prefix: stream ? prefix : nil, stream: stream ? StreamBox(source) : nil)
        // UTF-16 is transcoded from the start of the file, so it is read whole (a range boundary
        // could fall inside a code unit, and byte offsets would not match the decoded text).
        let splittable = format.isSplittable && sniff.binaryReason == nil && !sniff.carriageReturnLines
            && sniff.encoding == .utf8
            && !sniff.markdown && !compressed && !stream && size / 2 >= options.rangeBytes
        guard splittable else {
            return InputPlan(path: path, sniff: sniff, error: nil, units: [base])
        }
        var units: [WorkUnit] = []
        var s: Int64 = 0
        while s < size {
            let e = size - s <= options.rangeBytes ? size : s + options.rangeBytes
            var u = base
            u.range = s..<(e >= size ? Int64.max : e)
            u.isFirst = s == 0
            units.append(u)
            s = e
        }
        return InputPlan(path: path, sniff: sniff, error: nil, units: units)
    }

    /// The first `count` bytes for sniffing. A stream that fails after some bytes (a truncated gzip
    /// file) still gets sniffed; reading it again reports the failure at its line.
    private func readPrefix(_ source: ByteSource, count: Int) throws -> [UInt8] {
        var data = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n: Int
            do {
                n = try data.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            } catch where filled > 0 {
                break
            }
            if n == 0 { break }
            filled += n
        }
        data.removeSubrange(filled...)
        return data
    }

    /// `source` as UTF-8: UTF-16 inputs are transcoded (never read in ranges, see `plan`).
    static func decoding(_ source: ByteSource, _ encoding: TextEncoding) -> ByteSource {
        encoding == .utf8 ? source : UTF16Source(source, bigEndian: encoding == .utf16BE)
    }

    static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    static func isGzip(_ path: String) -> Bool {
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        let d = h.readData(ofLength: 2)
        return d.count == 2 && d[d.startIndex] == 0x1F && d[d.startIndex + 1] == 0x8B
    }

    // MARK: Execution

    struct UnitResult {
        var input: Int
        var stats: InputStats
        var events: [Event]
    }

    private func execute(_ wave: [WorkUnit]) -> [UnitResult] {
        if wave.count == 1 { return [run(wave[0])] }
        let slots = UnsafeMutableBufferPointer<UnitResult?>.allocate(capacity: wave.count)
        slots.initialize(repeating: nil)
        defer { slots.deinitialize(); slots.deallocate() }
        let box = SlotBox(slots)
        DispatchQueue.concurrentPerform(iterations: wave.count) { i in
            box.slots[i] = run(wave[i])
        }
        return slots.map { $0! }
    }

    /// One wave's results passed from the reading thread to the caller; the reader waits while a
    /// wave is still waiting to be taken, so at most two waves of events are in memory.
    private final class WaveHandoff: @unchecked Sendable {
        private let condition = NSCondition()
        private var waiting: [UnitResult]?
        private var finished = false

        func put(_ results: [UnitResult]) {
            condition.lock()
            defer { condition.unlock() }
            while waiting != nil { condition.wait() }
            waiting = results
            condition.broadcast()
        }

        func finish() {
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }

        /// The next wave's results, or nil once every wave was taken.
        func take() -> [UnitResult]? {
            condition.lock()
            defer { condition.unlock() }
            while waiting == nil && !finished { condition.wait() }
            let r = waiting
            waiting = nil
            condition.broadcast()
            return r
        }
    }

    private final class SlotBox: @unchecked Sendable {
        let slots: UnsafeMutableBufferPointer<UnitResult?>
        init(_ slots: UnsafeMutableBufferPointer<UnitResult?>) { self.slots = slots }
    }

    private func run(_ unit: WorkUnit) -> UnitResult {
        var processor = RecordProcessor(file: unit.path, mode: unit.format, forced: options.inputFormat != nil,
                                        context: unit.context, markdown: unit.sniff.markdown,
                                        collectEvents: options.collectEvents, classifier: EventClassifier(markers: options.markers))
        processor.stripsByteOrderMark = unit.isFirst
        var readError: String?
        if let reason = unit.sniff.binaryReason {
            // Binary data is not parsed: every line is unrecognized, and the input says why.
            var stats = InputStats(path: unit.path)
            stats.error = reason
            do {
                let source: ByteSource
                if let prefix = unit.prefix {
                    source = PrefixedSource(prefix: prefix, rest: unit.stream?.source ?? EmptySource())
                } else {
                    source = try GzipSource(path: unit.path)
                }
                try LineCounting.countLines(Self.decoding(source, unit.sniff.encoding), into: &stats)
            } catch { stats.notes.append(InputNote(.error, line: nil, "\(error)")) }
            stats.unrecognizedLines = stats.lines
            return UnitResult(input: unit.input, stats: stats, events: [])
        }
        do {
            var feeder = LineFeeder(separator: unit.sniff.carriageReturnLines ? 13 : 10, maxLineBytes: options.maxLineBytes)
            feeder.ndjson = unit.format == .logNDJSON
            if let range = unit.range {
                feeder.skipLeading = range.lowerBound > 0
                feeder.stopOffset = range.upperBound == Int64.max ? nil : range.upperBound
            }
            let source: ByteSource
            if let range = unit.range {
                source = try RangeSource(path: unit.path, offset: max(0, range.lowerBound - 1))
            } else if let prefix = unit.prefix {
                source = PrefixedSource(prefix: prefix, rest: unit.stream?.source ?? EmptySource())
            } else {
                source = try GzipSource(path: unit.path)
            }
            var reader = BufferedLineReader(source: Self.decoding(source, unit.sniff.encoding), feeder: feeder)
            if let range = unit.range { reader.readStart = max(0, range.lowerBound - 1) }
            try reader.run(&processor)
        } catch let e as InputError {
            readError = e.reason
        } catch {
            readError = "\(error)"
        }
        processor.finish()
        var stats = processor.stats
        if let readError {
            stats.error = readError
            stats.notes.append(InputNote(.error, line: stats.lines + 1, "reading stopped: \(readError)"))
        }
        return UnitResult(input: unit.input, stats: stats, events: processor.events)
    }

    // MARK: Archives

    /// Ingests the members of the tar archive at `path` (plain or gzip-compressed) that `accept`
    /// takes (by default the log-like ones), streaming, on the calling thread: each is read like a
    /// file named `ARCHIVE!/MEMBER`, its events passed to `onEvent` and then its accounting to
    /// `onInput`. Returns why the archive itself could not be read to its end (missing, not a tar
    /// archive, truncated), after delivering every member read before that.
    @discardableResult
    public func runArchive(path: String, accept: (TarArchive.Member) -> Bool = { InputExpansion.isLogLike($0.name) },
                           onEvent: (Event) -> Void, onInput: (InputStats) -> Void) -> String? {
        let archive: TarArchive
        do { archive = try TarArchive(path: path) } catch let e as InputError { return e.reason } catch { return "\(error)" }
        var context = TimeContext(secondsSince1970: Date().timeIntervalSince1970)
        if let a = try? FileManager.default.attributesOfItem(atPath: path), let m = a[.modificationDate] as? Date {
            context = TimeContext(secondsSince1970: m.timeIntervalSince1970)
        }
        var index = 0
        while true {
            let member: TarArchive.Member?
            do { member = try archive.next() } catch let e as InputError { return e.reason } catch { return "\(error)" }
            guard let member else { return nil }
            guard member.isFile, accept(member) else { continue }
            let name = "\(path)!/\(member.name)"
            let source = archive.memberSource(member)
            let prefix: [UInt8]
            do {
                prefix = try readPrefix(source, count: FormatSniffer.sampleBytes)
            } catch {
                var stats = InputStats(path: name)
                stats.error = (error as? InputError)?.reason ?? "\(error)"
                onInput(stats)
                continue
            }
            let sniff = FormatSniffer.sniff(prefix, path: member.name)
            let unit = WorkUnit(input: index, path: name, format: options.inputFormat ?? sniff.format, sniff: sniff, context: context,
                                range: nil, isFirst: true, prefix: prefix, stream: StreamBox(source))
            index += 1
            let result = run(unit)
            for e in result.events { onEvent(e) }
            var stats = result.stats
            stats.settleFormat(forced: options.inputFormat, sniffed: sniff.format)
            onInput(stats)
        }
    }
}

final class EmptySource: ByteSource {
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { 0 }
}
