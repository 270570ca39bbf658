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
    /// Events a reader hands over at a time; at most `2 × jobs` units of `2 × eventChunk` events
    /// wait for the caller, however dense the input.
    public var eventChunk = 4096
    /// Filled in by the run, for tests and benchmarks (what was held, not how long it took).
    public var counters: IngestCounters?
    /// Set: the readers write each event as a `lifeline events` line and `run` hands out those
    /// lines (`onEncoded`) instead of events, so encoding runs on every reader thread.
    public var encoding: EventLineStyle?
    /// Names to show instead of paths (`--files-from` lines `PATH<TAB>NAME`: an object-store key
    /// rather than the temporary copy read): events, accounting and messages say the name.
    public var displayNames: [String: String] = [:]
    /// Executable names by bundle ID the caller knows (`--manifest`'s `CFBundleExecutable`): the name of
    /// an app the system's lines name only by bundle (`SystemStories`).
    public var executables: [String: String] = [:]

    /// The name `path` is shown as: its display name, or for an archive member
    /// (`ARCHIVE!/member`) the archive's display name with the member; else the path.
    public func shown(_ path: String) -> String {
        if displayNames.isEmpty { return path }
        if let name = displayNames[path] { return name }
        if let bang = path.range(of: "!/"), let name = displayNames[String(path[..<bang.lowerBound])] {
            return name + path[bang.lowerBound...]
        }
        return path
    }

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

/// What an ingest run held at its peak.
public final class IngestCounters: @unchecked Sendable {
    /// Most events read but not yet taken by the caller, at any one time.
    public internal(set) var peakEventsWaiting = 0
    public init() {}
}

/// Reads inputs (files, directories, `-`, gzip files) and turns them into events and per-input
/// line accounting. Results arrive in input order and, within an input, in line order, whatever
/// the number of threads.
public struct Ingester: Sendable {
    public let options: IngestOptions

    public init(options: IngestOptions = IngestOptions()) { self.options = options }

    /// Ingests `paths`. `onEvent` gets every event (when `collectEvents`), `onInput` each input's
    /// accounting after its events; both are called on the calling thread. With `encoding` set,
    /// `onEncoded` gets the events as written lines instead, with the offset to add to their line
    /// numbers.
    public func run(paths: [String], onEvent: (Event) -> Void, onEncoded: ((EncodedEvents, Int) -> Void)? = nil,
                    onInput: (InputStats) -> Void) {
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
            var s = InputStats(path: options.shown(plan.path))
            s.error = plan.error
            s.skipped = plan.skipped
            return s
        }
        var remaining = plans.map { $0.units.count }
        // Inputs are reported in the order given: one that produced no work (it could not be
        // read) is reported when every input before it has been.
        var nextToReport = 0
        // Each input's last process and scene states: a range repeats a state told before it when that
        // was longer ago than its priming, and one read drops repeats (`RangeStates`).
        var states = RangeStates(inputs: plans.count)
        func reportReadyInputs() {
            while nextToReport < plans.count, remaining[nextToReport] == 0 {
                totals[nextToReport].settleFormat(forced: options.inputFormat, sniffed: plans[nextToReport].sniff?.format)
                totals[nextToReport].events -= states.dropped[nextToReport]
                onInput(totals[nextToReport])
                nextToReport += 1
            }
        }
        reportReadyInputs()
        // The UTC offset an input last wrote, for its times written without one. A range read on its
        // own cannot know the offset in use before it, so its first such times are settled here,
        // in file order, as one sequential read settles them.
        var carriedOffset = [Int?](repeating: nil, count: plans.count)
        // Likewise the days of times written without a date (Console.app rows): a range counts
        // them from 0, so its events take the days the ranges before it went past midnight, and
        // one more when the range's first time is more than half a day before the last time of
        // the range before it. (Encoded events write the time as the log did: nothing to shift.)
        var carriedDays = [Int](repeating: 0, count: plans.count)
        // And what the system said of each app (its executable, bundle and pid) in the ranges before:
        // a range knows only what its own lines and the priming before it said.
        var identities = [SystemIdentities](repeating: SystemIdentities(), count: plans.count)
        let encoding = options.encoding, collects = options.collectEvents
        let ranged = plans.map { $0.units.count > 1 }
        var lastDaylessTime = [Int](repeating: -1, count: plans.count)
        forEachUnit(units, encoded: { unit, encoded in
            onEncoded?(encoded, lineOffsets[units[unit].input])
        }, daylessStart: { unit, secondOfDay in
            let input = units[unit].input
            if DaylessClock.rolls(from: lastDaylessTime[input], to: secondOfDay) { carriedDays[input] += 1 }
        }, events: { unit, events in
            // Renumbered in place: a chunk's events are referenced only by it. (A copy into the
            // consumer's heap once kept long-lived sessions out of the reader threads' malloc
            // arenas, 250 vs 316 MB; with chunks and the pinned mmap threshold both ways peak at
            // 244 MB on longlived-1G, and the copy cost the consumer 9% of its time.)
            let input = units[unit].input
            let offset = lineOffsets[input]
            let days = carriedDays[input]
            var events = events
            for i in events.indices {
                if offset != 0 {
                    events[i].position = events[i].position.shifted(lines: offset)
                    if let evidence = events[i].details?.system?.evidence {
                        var d = events[i].details!
                        d.system?.evidence = evidence.map { $0.shifted(lines: offset) }
                        events[i].details = d
                    }
                }
                if var ts = events[i].timestamp {
                    if days != 0, ts.isTimeOfDay, let s = ts.seconds {
                        ts.seconds = s + Double(days * 86400)
                        events[i].timestamp = ts
                    }
                    if let minutes = ts.offsetMinutes {
                        carriedOffset[input] = minutes
                    } else if let minutes = carriedOffset[input] {
                        ts.assumeOffset(minutes)
                        events[i].timestamp = ts
                    }
                }
                if ranged[input], events[i].subject != nil { identities[input].complete(&events[i]) }
                if ranged[input] {
                    switch states.take(events[i], input: input, encoding: encoding, collects: collects) {
                    case .drop: continue
                    case .encoded(let one): onEncoded?(one, 0)  // its line is the input's already
                    case .event: onEvent(events[i])
                    }
                    continue
                }
                onEvent(events[i])
            }
        }, finished: { result in
            let i = result.input
            carriedDays[i] += result.daylessClock.day
            if result.daylessClock.last >= 0 { lastDaylessTime[i] = result.daylessClock.last }
            totals[i].absorb(result.stats, lineOffset: lineOffsets[i])
            if totals[i].error == nil { totals[i].error = result.stats.error }
            lineOffsets[i] += result.stats.lines
            remaining[i] -= 1
            reportReadyInputs()
        })
    }

    /// Reads `units` on up to `jobs` threads and hands their events to `events` in unit order, in
    /// chunks as they are made, then each unit's accounting to `finished`; both on the calling
    /// thread. What is read ahead is bounded, whatever the input: a unit starts only while fewer
    /// than `2 × jobs` units wait for the caller, and a unit's reader waits while `chunk × 2` of its
    /// events do (issue 12: whole 16 MB ranges of a dense log held 180 MB of events in flight).
    /// Reading overlaps with what the caller does with the events (sessions, rules, output).
    private func forEachUnit(_ units: [WorkUnit], encoded: (Int, EncodedEvents) -> Void, daylessStart: (Int, Int) -> Void,
                             events: (Int, [Event]) -> Void, finished: (UnitResult) -> Void) {
        let chunk = max(1, options.eventChunk)
        func deliver(_ u: Int, _ piece: Chunk) {
            switch piece {
            case .events(let e): events(u, e)
            case .encoded(let e): encoded(u, e)
            case .daylessStart(let t): daylessStart(u, t)
            }
        }
        func deliverRest(_ u: Int, _ result: UnitResult) {
            if !result.events.isEmpty { events(u, result.events) }
            if result.encoded.count > 0 { encoded(u, result.encoded) }
            finished(result)
        }
        guard units.count > 1 else {
            options.counters?.peakEventsWaiting = chunk
            // One unit streams on the calling thread, chunk by chunk.
            withoutActuallyEscaping(deliver) { deliver in
                for unit in units {
                    let result = run(unit, chunk: chunk) { deliver(0, $0) }
                    deliverRest(0, result)
                }
            }
            return
        }
        let workers = min(options.jobs, units.count)
        let pipeline = UnitPipeline(units: units.count, window: 2 * workers, capacity: 2 * chunk)
        let ingester = self
        for _ in 0..<workers {
            DispatchQueue.global().async {
                while let u = pipeline.claim() {
                    let result = ingester.run(units[u], chunk: chunk) { pipeline.put(u, $0) }
                    pipeline.finish(u, result)
                }
            }
        }
        defer { options.counters?.peakEventsWaiting = pipeline.peakWaiting }
        for u in units.indices {
            while true {
                switch pipeline.take(u) {
                case .chunk(let piece): deliver(u, piece)
                case .done(let result): deliverRest(u, result)
                }
                if pipeline.isConsumed(u) { break }
            }
        }
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
        var skipped: String? = nil
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
        if let reason = input.skipped { return InputPlan(path: input.path, sniff: nil, error: nil, units: [], skipped: reason) }
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

    private func readPrefix(_ source: ByteSource, count: Int) throws -> [UInt8] {
        try ByteSources.prefix(of: source, count: count)
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
        var encoded = EncodedEvents()
        /// The days the unit's times without a date went past midnight, and its first and last.
        var daylessClock = DaylessClock()
    }

    /// What a reader hands over at a time: events, or events written as lines (`encoding`).
    enum Chunk {
        case events([Event])
        case encoded(EncodedEvents)
        /// A range's first time without a date (second of its day), before any event that has one.
        case daylessStart(Int)

        var count: Int {
            switch self {
            case .events(let e): return e.count
            case .encoded(let e): return e.count
            case .daylessStart: return 0
            }
        }
    }

    /// Units read by worker threads and taken by the caller in unit order. A worker claims the next
    /// unit only while fewer than `window` units are claimed and not yet taken; it waits in `put`
    /// while `capacity` events of its unit wait. The caller waits in `take` for the unit it is on.
    /// Units are claimed in order, so the unit the caller waits for is always claimed and read.
    private final class UnitPipeline: @unchecked Sendable {
        enum Piece { case chunk(Chunk), done(UnitResult) }
        private struct Queue {
            var chunks: [Chunk] = []
            var head = 0
            var held = 0
            var result: UnitResult?
        }
        private let condition = NSCondition()
        private let window: Int
        private let capacity: Int
        private let count: Int
        private var queues: [Queue]
        private var claimed = 0
        private var consumed = 0
        /// Events in queues and in finished units' results, now and at most.
        private var waiting = 0
        private(set) var peakWaiting = 0

        init(units: Int, window: Int, capacity: Int) {
            count = units
            self.window = window
            self.capacity = capacity
            queues = Array(repeating: Queue(), count: units)
        }

        /// The next unit to read, once the window has room; nil when every unit was claimed.
        func claim() -> Int? {
            condition.lock()
            defer { condition.unlock() }
            while claimed < count && claimed >= consumed + window { condition.wait() }
            guard claimed < count else { return nil }
            claimed += 1
            return claimed - 1
        }

        func put(_ unit: Int, _ events: Chunk) {
            condition.lock()
            defer { condition.unlock() }
            while queues[unit].held >= capacity { condition.wait() }
            queues[unit].chunks.append(events)
            queues[unit].held += events.count
            waiting += events.count
            peakWaiting = max(peakWaiting, waiting)
            condition.broadcast()
        }

        func finish(_ unit: Int, _ result: UnitResult) {
            condition.lock()
            defer { condition.unlock() }
            queues[unit].result = result
            waiting += result.events.count + result.encoded.count
            peakWaiting = max(peakWaiting, waiting)
            condition.broadcast()
        }

        /// The next chunk of `unit`'s events, or its result once every chunk was taken.
        func take(_ unit: Int) -> Piece {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if queues[unit].head < queues[unit].chunks.count {
                    let events = queues[unit].chunks[queues[unit].head]
                    queues[unit].chunks[queues[unit].head] = .events([])
                    queues[unit].head += 1
                    if queues[unit].head == queues[unit].chunks.count {
                        queues[unit].chunks.removeAll()
                        queues[unit].head = 0
                    }
                    queues[unit].held -= events.count
                    waiting -= events.count
                    condition.broadcast()
                    return .chunk(events)
                }
                if let result = queues[unit].result {
                    waiting -= result.events.count + result.encoded.count
                    queues[unit] = Queue()
                    consumed += 1
                    condition.broadcast()
                    return .done(result)
                }
                condition.wait()
            }
        }

        func isConsumed(_ unit: Int) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            return unit < consumed
        }
    }

    /// Reads one unit. With `sink`, events go to it in chunks of `chunk` as they are made, and the
    /// result holds only the last, partial chunk.
    private func run(_ unit: WorkUnit, chunk: Int = 4096, sink: ((Chunk) -> Void)? = nil) -> UnitResult {
        var processor = RecordProcessor(file: options.shown(unit.path), mode: unit.format, forced: options.inputFormat != nil,
                                        context: unit.context, markdown: unit.sniff.markdown,
                                        collectEvents: options.collectEvents, classifier: EventClassifier(markers: options.markers))
        processor.stripsByteOrderMark = unit.isFirst
        processor.know(executables: options.executables)
        processor.sendsStatesRaw = unit.range != nil
        if let sink {
            processor.eventSink = { sink(.events($0)) }
            processor.encodedSink = { sink(.encoded($0)) }
            if !unit.isFirst { processor.daylessStart = { sink(.daylessStart($0)) } }
        }
        processor.encoding = options.encoding
        processor.chunkSize = chunk
        var readError: String?
        if let reason = unit.sniff.binaryReason {
            // Binary data is not parsed: every line is unrecognized, and the input says why.
            var stats = InputStats(path: options.shown(unit.path))
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
            feeder.ndjson = unit.format == .logNDJSON || unit.format == .unifiedLog
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
            if let range = unit.range, range.lowerBound > 0 { try prime(&processor, unit: unit, before: range.lowerBound) }
            var reader = BufferedLineReader(source: Self.decoding(source, unit.sniff.encoding), feeder: feeder)
            if let range = unit.range { reader.readStart = max(0, range.lowerBound - 1) }
            try reader.run(&processor)
            if let range = unit.range, range.upperBound != Int64.max {
                // The range's last record first: it may open or join a story too.
                processor.closeRecord()
                if processor.hasOpenStories { try finishStories(&processor, unit: unit, from: range.upperBound) }
            }
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
        return UnitResult(input: unit.input, stats: stats, events: processor.events, encoded: processor.encoded,
                          daylessClock: processor.daylessClock)
    }

    /// Each input's last process and scene states, in input order: what a range read on its own repeats.
    struct RangeStates {
        private var last: [[String: String]]
        private(set) var dropped: [Int]
        init(inputs: Int) {
            last = Array(repeating: [:], count: inputs)
            dropped = Array(repeating: 0, count: inputs)
        }
        enum Outcome { case drop, encoded(EncodedEvents), event }

        /// What becomes of `e`, an event of a range: a repeat of the state last told is dropped (and
        /// counted); a state its range sent as an event although the reader encodes or counts is encoded
        /// here or left counted; any other event goes on.
        mutating func take(_ e: Event, input: Int, encoding: EventLineStyle?, collects: Bool) -> Outcome {
            guard let kv = Ingester.stateKey(e) else { return .event }
            if last[input][kv.key] == kv.value {
                dropped[input] += 1
                return .drop
            }
            last[input][kv.key] = kv.value
            guard collects else { return .drop }  // counting: its range counted it
            if let encoding { return .encoded(EncodedEvents(e, style: encoding)) }
            return .event
        }
    }

    /// The key and value a process or scene state event repeats by (`SystemStories`' own rule).
    static func stateKey(_ e: Event) -> (key: String, value: String)? {
        guard let d = e.details?.system else { return nil }
        if e.kind == .systemSceneState, let scene = d.sceneID { return ("scene " + scene, d.state ?? "") }
        guard e.kind == .systemProcessState, let s = e.subject else { return nil }
        let who = s.pid.map { "pid \($0)" } ?? "bundle \(s.bundleID ?? "")"
        // RunningBoard's state and role, or SpringBoard's own word when it alone told the change.
        if let state = d.state { return (who, state + "|" + (d.role ?? "")) }
        return (who + " sb", (d.taskState ?? "") + "|" + (d.visibility ?? ""))
    }

    /// Bytes before a range's start read again to prime its system stories, and after its end to
    /// finish the stories it left open.
    static let primingBytes: Int64 = 64 << 10

    /// The mirror of `prime`: a story this range left open at its end (a launch whose `Bootstrap
    /// success!` the next range reads) takes the lines after the range that belong to it, as one
    /// sequential read gives them; nothing else of those lines is read (the next range reads them).
    private func finishStories(_ processor: inout RecordProcessor, unit: WorkUnit, from start: Int64) throws {
        let lineNo = processor.lineNo
        let tail = try readAside(unit, from: start, to: start + Self.primingBytes) { tail in
            tail.passesSteps = true
            tail.lineNo = lineNo
        }
        for e in tail.events {
            processor.absorbLater(e)
            if !processor.hasOpenStories { break }
        }
    }

    /// A range read on its own does not know the launch, state or ending the range before it left open
    /// at its end, so it would tell a launch whose first lines the range before it read as a second
    /// launch. The records of the `primingBytes` before the range are read again, for the system stories
    /// only: what they left open takes this range's lines as evidence; nothing of them is handed out
    /// (the range before it hands them out), and nothing of them is counted.
    private func prime(_ processor: inout RecordProcessor, unit: WorkUnit, before start: Int64) throws {
        let primer = try readAside(unit, from: max(0, start - Self.primingBytes), to: start) { $0.know(executables: options.executables) }
        processor.continueStories(of: primer)
    }

    /// The records of `unit`'s file from the first record start at or after `from` to the first at or
    /// after `to`, read by a processor of their own (set up by `setUp`) for the system stories of a range.
    private func readAside(_ unit: WorkUnit, from: Int64, to: Int64, setUp: (inout RecordProcessor) -> Void) throws -> RecordProcessor {
        var aside = RecordProcessor(file: options.shown(unit.path), mode: unit.format, forced: options.inputFormat != nil,
                                    context: unit.context, markdown: unit.sniff.markdown, collectEvents: true,
                                    classifier: EventClassifier(markers: options.markers))
        setUp(&aside)
        var feeder = LineFeeder(separator: unit.sniff.carriageReturnLines ? 13 : 10, maxLineBytes: options.maxLineBytes)
        feeder.ndjson = unit.format == .logNDJSON || unit.format == .unifiedLog
        feeder.skipLeading = from > 0
        feeder.stopOffset = to
        let source = try RangeSource(path: unit.path, offset: max(0, from - 1))
        var reader = BufferedLineReader(source: Self.decoding(source, unit.sniff.encoding), feeder: feeder)
        reader.readStart = max(0, from - 1)
        try reader.run(&aside)
        aside.closeRecord()
        return aside
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
                var stats = InputStats(path: options.shown(name))
                stats.error = (error as? InputError)?.reason ?? "\(error)"
                onInput(stats)
                continue
            }
            let sniff = FormatSniffer.sniff(prefix, path: member.name)
            let unit = WorkUnit(input: index, path: name, format: options.inputFormat ?? sniff.format, sniff: sniff, context: context,
                                range: nil, isFirst: true, prefix: prefix, stream: StreamBox(source))
            index += 1
            let result = withoutActuallyEscaping(onEvent) { onEvent in
                let r = run(unit) { if case .events(let events) = $0 { for e in events { onEvent(e) } } }
                for e in r.events { onEvent(e) }
                return r
            }
            var stats = result.stats
            stats.settleFormat(forced: options.inputFormat, sniffed: sniff.format)
            onInput(stats)
        }
    }
}

final class EmptySource: ByteSource {
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { 0 }
}
