import CLifelineScan
import Foundation

/// The per-input state machine. Fed one line at a time (in file order), it decides what each line
/// is — record start, continuation, known non-log line or unrecognized — keeps the text of records
/// that can hold an event, and classifies them when they end.
///
/// One processor reads one input, or one range of a large input that starts at a record start.
struct RecordProcessor {
    let file: String
    /// The format the input was sniffed as (or forced to).
    let mode: LogFormat
    let forced: Bool
    /// Completes dates written without a year; moved on when the log shows it is behind (see
    /// `settleInferredYear`).
    private(set) var context: TimeContext
    /// The days the input's times written without a date went past midnight, so far.
    private(set) var daylessClock = DaylessClock()
    /// Called with the second of the day of the input's first time without a date, when it is
    /// read: a range read on its own starts its days at 0, and the reader that puts the ranges
    /// back in order tells from it whether midnight fell between the range and the one before.
    var daylessStart: ((Int) -> Void)?
    /// The last date with an inferred year that an event got (seconds), to catch a year passing.
    private var lastInferredDate: Double?
    let markdown: Bool
    let collectEvents: Bool
    let classifier: EventClassifier
    /// The processor reads the input from its first line (a UTF-8 byte order mark there is dropped).
    var stripsByteOrderMark = true
    let anchors = AnchorSet.events

    /// Set here and by the report reading in `RecordProcessor+Reports.swift`.
    var stats: InputStats
    private(set) var events: [Event] = []
    /// Takes the events in chunks of `chunkSize` as they are made, so a reader holds at most one
    /// chunk (without it, `events` holds every event of the input or range until the end).
    var eventSink: (([Event]) -> Void)?
    var chunkSize = 4096
    /// Shares the storage of repeating fields among the events this processor keeps.
    let interner = StringInterner()
    /// Set: events are written out as `lifeline events` lines here (`encoded`), not kept.
    var encoding: EventLineStyle?
    private(set) var encoded = EncodedEvents()
    /// Takes the encoded events in chunks of `chunkSize`, as `eventSink` takes events.
    var encodedSink: ((EncodedEvents) -> Void)?
    var lineNo = 0
    private var current: LogFormat?
    /// The open record (at most one): its fields live here rather than in an optional struct,
    /// because this state changes on every line.
    private var hasOpen = false
    private var openLine = 0
    private var openLineCount = 0
    private var openFormat: LogFormat = .print
    private var openCandidate = false
    private var openSpans: HeaderSpans?
    private var openContinuation: [String] = []
    private var openContinuationBytes = 0
    private var openTruncated = false
    private var openExpectsBlock = false
    private var openMetadata: String?
    private var openClosed = false
    private var openDay = 0
    var recordsPerFormat = [Int](repeating: 0, count: LogFormat.allCases.count)
    /// Records of one format in a row are counted here and added to `recordsPerFormat` when the
    /// format changes (touching the array on every record costs more than the rest of the count).
    private var runFormat: LogFormat = .print
    private var runLength = 0
    private var inFence = false
    private var sawMetadata: Bool
    private var firstLine: [UInt8] = []
    /// The UTC offset of the last event time written with one.
    private var lastOffset: Int?
    /// Header offsets of the line being read (reused, filled in place).
    private var spans = HeaderSpans(format: .print, messageStart: 0)
    private var json = JSONObjectScanner()
    var crashText: [String] = []
    var crashStart = 0
    var crashBytes = 0
    private var markersGaveUp: Set<String> = []
    /// The system's lines joined into launches, states and endings (`SystemStories`).
    private var stories = SystemStories()
    private var storyOut: [Event] = []

    static let maxRecordLines = 512
    static let maxRecordBytes = 256 * 1024
    static let maxCrashBytes = 64 * 1024 * 1024

    init(file: String, mode: LogFormat, forced: Bool, context: TimeContext, markdown: Bool, collectEvents: Bool,
         classifier: EventClassifier) {
        self.file = file
        self.mode = mode
        self.forced = forced
        self.context = context
        self.markdown = markdown
        self.collectEvents = collectEvents
        self.classifier = classifier
        self.stats = InputStats(path: file)
        self.sawMetadata = mode == .xcodeMetadata
        self.matchesMarkers = classifier.hasMarkers
        firstLine.reserveCapacity(4096)
    }

    /// Markers are configured: every record is matched, not only those the prefilter marks.
    private let matchesMarkers: Bool

    private var keepsAllText: Bool { sawMetadata }

    // MARK: Feeding lines

    /// Feeds the next line (without its terminator). `hasAnchor` says whether the SIMD prefilter found
    /// an event literal in it.
    mutating func feed(_ raw: Bytes, hasAnchor: Bool) {
        lineNo += 1
        stats.lines += 1
        switch mode {
        case .ips, .crash, .metricKit: return feedCrash(raw)
        case .logJSON: return feedJSONArray(raw)
        default: break
        }
        var l = raw
        if lineNo == 1, stripsByteOrderMark, l.count >= 3, l[0] == 0xEF, l[1] == 0xBB, l[2] == 0xBF {
            l = Bytes(rebasing: l[3...])
        }
        if isBlank(l) {
            if markdown, !inFence, hasOpen { closeRecord() }  // a blank line ends a Markdown paragraph
            blankOrContinuation()
            return
        }
        // Quoted lines (`> `, `> > `) of pasted reports.
        var quoted = false
        while let f = l.first, f == 62 {
            quoted = true
            l = Bytes(rebasing: l[1...])
            if let s = l.first, s == 32 { l = Bytes(rebasing: l[1...]) }
        }
        if quoted, isBlank(l) { nonLog(); return }
        if isFence(l) {
            if hasOpen { closeRecord() }
            inFence.toggle()
            nonLog()
            return
        }

        if HeaderParser.isMetadataLine(l) { return metadataLine(l) }
        spans.full = hasAnchor
        if HeaderParser.parse(l, preferred: current, into: &spans) {
            current = spans.format
            if spans.format == .console { observeDaylessTime(l) }
            return startRecord(l, format: spans.format, hasSpans: true, candidate: hasAnchor)
        }
        if let f = l.first, f == 123 || (f == 32 && mode == .logNDJSON) {  // `{`
            if isNDJSONFooter(l) { nonLog(); return }
            if mode == .logNDJSON || mode == .unifiedLog || looksLikeJSONObjectLine(l) {
                return startRecord(l, format: mode == .unifiedLog ? .unifiedLog : .logNDJSON, hasSpans: false, candidate: hasAnchor)
            }
        }
        if isKnownNonLog(l) { nonLog(); return }
        if let f = l.first, isDigit(f) || f == 32, let (rest, strong) = stripLineNumber(l) {
            spans.full = true
            if HeaderParser.parseAny(rest, into: &spans) {
                current = spans.format
                if spans.format == .console { observeDaylessTime(rest) }
                return startRecord(rest, format: spans.format, hasSpans: true, candidate: hasAnchor)
            }
            if strong, hasAnchor, classifier.startsEvent(string(rest)) {
                return startRecord(rest, format: .print, hasSpans: false, candidate: true)
            }
        }
        headerless(l, hasAnchor: hasAnchor, quoted: quoted)
    }

    /// Console.app rows are the one line format whose times have no date: each header's time goes
    /// to the day count.
    @inline(__always) private mutating func observeDaylessTime(_ l: Bytes) {
        guard let span = spans.timestamp else { return }
        if daylessClock.observe(l, span), let daylessStart { daylessStart(daylessClock.first) }
    }

    /// A failure's banner at the start of the line: `***` or its Markdown escape `**\*`, or the
    /// words of an exception's or assertion's banner whose `***` a rendered paste dropped.
    private func isBannerLine(_ l: Bytes) -> Bool {
        guard l.count > 4 else { return false }
        if l[0] == 42 { return l[1] == 42 && (l[2] == 42 || l[2] == 92 && l[3] == 42) }
        return hasPrefix(l, "Terminating app due to uncaught exception '") || hasPrefix(l, "Assertion failure in ")
    }

    private mutating func headerless(_ l: Bytes, hasAnchor: Bool, quoted: Bool) {
        if markdown, !inFence, !quoted {
            // Prose around pasted logs, except a failure line pasted into the prose: `*** Assertion
            // failure …`, which Markdown editors escape as `**\* …` and a copy of the rendered page
            // drops (`Assertion failure in -[…]`). The classifier decides: prose that only starts
            // with those words is no event.
            if hasAnchor, isBannerLine(l), classifier.startsEvent(string(l)) {
                return startRecord(l, format: .print, hasSpans: false, candidate: true)
            }
            nonLog()
            return
        }
        if continuationAllowed(l) {
            let blockLine = openExpectsBlock && isBlockLine(l)
            if hasAnchor, !blockLine, classifier.startsEvent(string(l)) {
                return startRecord(l, format: .print, hasSpans: false, candidate: true)
            }
            return continuation(l, hasAnchor: hasAnchor)
        }
        switch mode {
        case .print, .xcode, .xcodeMetadata:
            startRecord(l, format: .print, hasSpans: false, candidate: hasAnchor || keepsAllText)
        default:
            if hasAnchor, classifier.startsEvent(string(l)) {
                return startRecord(l, format: .print, hasSpans: false, candidate: true)
            }
            stats.unrecognizedLines += 1
        }
    }

    private func continuationAllowed(_ l: Bytes) -> Bool {
        guard hasOpen, !openClosed else { return false }
        if keepsAllText { return true }
        switch openFormat {
        case .print: return openExpectsBlock || isBlockLine(l)
        default: return true
        }
    }

    private mutating func blankOrContinuation() {
        if hasOpen, !openClosed, openExpectsBlock, openLineCount < 3 {
            // A blank line right after an exception header belongs to it (stack follows).
            stats.continuationLines += 1
            openLineCount += 1
            return
        }
        nonLog()
    }

    mutating func nonLog() { stats.nonLogLines += 1 }

    // MARK: Records

    private mutating func startRecord(_ l: Bytes, format: LogFormat, hasSpans: Bool, candidate: Bool) {
        if hasOpen { closeRecord() }
        stats.records += 1
        hasOpen = true
        openLine = lineNo
        openLineCount = 1
        openFormat = format
        openCandidate = candidate || keepsAllText || matchesMarkers
        openTruncated = false
        openExpectsBlock = false
        openMetadata = nil
        openClosed = false
        openDay = daylessClock.day
        if openContinuationBytes > 0 || !openContinuation.isEmpty {
            openContinuation.removeAll(keepingCapacity: true)
            openContinuationBytes = 0
        }
        openSpans = nil
        if openCandidate {
            if hasSpans { openSpans = spans }
            firstLine.removeAll(keepingCapacity: true)
            firstLine.append(contentsOf: l)
            if candidate {
                let msg = Bytes(rebasing: l[(hasSpans ? spans.messageStart : 0)...])
                openExpectsBlock = BlockHints.blockStarts.find(in: msg) != nil
            }
        }
    }

    private mutating func continuation(_ l: Bytes, hasAnchor: Bool) {
        stats.continuationLines += 1
        openLineCount += 1
        guard openCandidate else { return }
        if openContinuation.count >= Self.maxRecordLines || openContinuationBytes + l.count > Self.maxRecordBytes {
            openTruncated = true
            return
        }
        openContinuationBytes += l.count
        openContinuation.append(string(l))
    }

    private mutating func metadataLine(_ l: Bytes) {
        sawMetadata = true
        if hasOpen, !openClosed {
            stats.continuationLines += 1
            openLineCount += 1
            openMetadata = string(l)
            openClosed = true
            if openFormat == .print { openFormat = .xcodeMetadata }
            return
        }
        // A metadata line with no message above it: an empty entry.
        startRecord(l, format: .xcodeMetadata, hasSpans: false, candidate: false)
        openCandidate = false
        openClosed = true
    }

    /// Ends the open record: counts it and classifies it when it can hold an event.
    mutating func closeRecord() {
        guard hasOpen else { return }
        hasOpen = false
        if openFormat == runFormat {
            runLength += 1
        } else {
            if runLength > 0 { recordsPerFormat[formatIndex(runFormat)] += runLength }
            runFormat = openFormat
            runLength = 1
        }
        guard openCandidate else { return }
        var text: RecordText
        var spans: HeaderSpans? = nil
        if openFormat == .logNDJSON || openFormat == .unifiedLog {
            guard let t = decodeJSONRecord(firstLine, line: openLine) else { return }
            text = t
        } else if let s = openSpans {
            // Only the message now; the other header fields are decoded once an event is found.
            text = firstLine.withUnsafeBufferPointer { FieldDecoding.message(from: $0, spans: s) }
            spans = s
        } else {
            text = RecordText(format: openFormat, message: String(decoding: firstLine, as: UTF8.self))
        }
        text.continuation = openContinuation
        text.truncated = openTruncated
        let found = classifier.classify(text, file: file, at: .line(openLine), extent: openLineCount, detailed: collectEvents)
        if matchesMarkers { noteMarkerGaveUp(line: openLine) }
        guard var event = found else { return }
        guard collectEvents else {  // counting only: header fields unused
            if event.kind.isSystem || event.kind.isFailure {
                // The system's lines count as the stories make them (a launch of several lines is one
                // event): classified again with their header, as when events are collected.
                guard var full = classifier.classify(text, file: file, at: .line(openLine), extent: openLineCount) else { return }
                if let spans { firstLine.withUnsafeBufferPointer { FieldDecoding.fill(&full, from: $0, spans: spans, context: context) } }
                emit(full)
                emit(classifier.companion(of: full))
                return
            }
            stats.events += classifier.mainThreadRequirement == nil ? 1 : 2
            return
        }
        if let spans {
            firstLine.withUnsafeBufferPointer { FieldDecoding.fill(&event, from: $0, spans: spans, context: context, day: openDay) }
            if event.timestamp?.yearInferred == true { settleInferredYear(&event, spans: spans) }
        }
        if let meta = openMetadata { applyMetadata(meta, to: &event) }
        emit(event)
        emit(classifier.companion(of: event))
    }

    func formatIndex(_ f: LogFormat) -> Int { f.ordinal }

    /// A date written without a year (idevicesyslog's `Jan  2 00:00:01`) takes the latest year that
    /// puts it no later than the reference date (`TimeContext.inferYear`), which keeps a file's
    /// New Year in order. A reader that outlives its reference date (`watch` on a stream running
    /// past New Year) would put `Jan  2` a year before the `Dec 31` above it: a date more than
    /// half a year before the last one is a year later, and the reference date moves past it.
    private mutating func settleInferredYear(_ event: inout Event, spans: HeaderSpans) {
        guard let s = event.timestamp?.seconds else { return }
        if let last = lastInferredDate, s < last - 183 * 86400, let date = event.timestamp?.civilDate {
            context.moveReference(pastNewYearOf: date)
            firstLine.withUnsafeBufferPointer { FieldDecoding.fill(&event, from: $0, spans: spans, context: context, day: openDay) }
        }
        lastInferredDate = event.timestamp?.seconds ?? s
    }

    /// Says (once per marker and input) that a marker pattern hit PCRE2's work limit on a line, so
    /// that line was not matched by it.
    private mutating func noteMarkerGaveUp(line: Int) {
        guard let name = classifier.markerGaveUp, !markersGaveUp.contains(name) else { return }
        markersGaveUp.insert(name)
        stats.notes.append(InputNote(.warning, line: line,
            "marker '\(name)' gave up on this line: its pattern exceeded the match limit (\(MarkerSet.matchLimit) steps); later lines where it gives up are not reported"))
    }

    /// Ends the system's open stories (the input went quiet): what they held comes out.
    mutating func closeStories() {
        stories.finish(into: &storyOut)
        releaseStories()
    }

    /// A range of a larger input: its process and scene states go out as events, even when encoding or
    /// counting, for the ingest to drop repeats of states told before the range.
    var sendsStatesRaw = false

    /// Hands the system's steps out as they are, without the stories (the lines after a range, read
    /// only for the stories the range left open: `Ingester.finishStories`).
    var passesSteps = false

    /// The range left system stories open at its end.
    var hasOpenStories: Bool { stories.hasOpenStories }

    /// A step read after this processor's last line: it joins a story left open, or is dropped.
    mutating func absorbLater(_ e: Event) {
        stories.absorbLater(e, into: &storyOut)
        releaseStories()
    }

    /// Goes on with the system stories `primer` read just before this processor's first line (a range
    /// of a large input): what they still hold was handed out by the range before, so it is not again.
    mutating func continueStories(of primer: RecordProcessor) {
        stories = primer.stories.continued()
    }

    /// Executable names by bundle ID known before reading (`IngestOptions.executables`).
    mutating func know(executables: [String: String]) {
        if !executables.isEmpty { stories = SystemStories(executables: executables) }
    }

    /// Hands `event` on, through the system stories when it is (or waits behind) one of the system's lines.
    mutating func emit(_ event: Event?) {
        guard var event else { return }
        if var ts = event.timestamp {
            // Times written without an offset (milliseconds-only NSLog lines, compact style) take
            // the offset this input uses elsewhere, so durations and merging stay right.
            if ts.hasOffset { lastOffset = ts.offsetMinutes } else if let off = lastOffset { ts.assumeOffset(off); event.timestamp = ts }
        }
        if passesSteps || (stories.isIdle && event.subject == nil && !event.kind.isSystem) {
            deliver(event)
            return
        }
        stories.add(event, into: &storyOut)
        releaseStories()
    }

    private mutating func releaseStories() {
        guard !storyOut.isEmpty else { return }
        let out = storyOut
        storyOut.removeAll(keepingCapacity: true)
        for e in out { deliver(e) }
    }

    /// Counts `event` and keeps, encodes or hands out it.
    private mutating func deliver(_ event: Event) {
        var event = event
        stats.events += 1
        if sendsStatesRaw, collectEvents == false || encoding != nil,
           event.kind == .systemProcessState || event.kind == .systemSceneState, let eventSink {
            // A range cannot know every earlier state of the input: the ingest, in input order, drops
            // the repeats of a state an earlier range told (`Ingester.run`), so it gets these as events.
            if encoding != nil, encoded.count > 0, let encodedSink {
                encodedSink(encoded)
                encoded = EncodedEvents()
            }
            eventSink([event])
            return
        }
        guard collectEvents else { return }
        if let encoding {
            event.encode(encoding, into: &encoded)
            if let encodedSink, encoded.count >= chunkSize {
                encodedSink(encoded)
                encoded = EncodedEvents()
            }
            return
        }
        event.intern(interner)
        events.append(event)
        if let eventSink, events.count >= chunkSize {
            eventSink(events)
            events = []
        }
    }

    /// Finishes the input: closes what is open and settles the reported format.
    mutating func finish() {
        switch mode {
        case .ips, .crash, .metricKit: flushCrash()
        case .logJSON:
            if json.inObject {
                stats.notes.append(InputNote(.warning, line: json.objectLine, "JSON object starting here is not closed at the end of the input"))
            }
        default: closeRecord()
        }
        stories.finish(into: &storyOut)
        releaseStories()
        if runLength > 0 { recordsPerFormat[formatIndex(runFormat)] += runLength; runLength = 0 }
        for (i, n) in recordsPerFormat.enumerated() where n > 0 {
            stats.recordsByFormat[LogFormat.allCases[i], default: 0] += n
        }
        stats.settleFormat(forced: forced ? mode : nil, sniffed: mode)
    }

    // MARK: Xcode metadata

    /// `Type: Error | Timestamp: 2025-10-17 11:01:23.249653-05:00 | Process: X | Library: L | Subsystem: S | Category: C | TID: 0x178d9c`.
    private func applyMetadata(_ line: String, to t: inout Event) {
        t.format = .xcodeMetadata
        for part in line.components(separatedBy: " | ") {
            guard let colon = part.firstIndex(of: ":") else { continue }
            let key = part[..<colon]
            let value = part[part.index(after: colon)...].trimmed
            switch key {
            case "Type": t.level = value
            case "Timestamp": t.timestamp = FieldDecoding.timestamp(value, format: .xcodeMetadata, context: context)
            case "Process": t.process = value
            case "Library": break
            case "Subsystem": t.subsystem = value
            case "Category": t.category = value
            case "TID":
                let hex = value.hasPrefix("0x") ? String(value.dropFirst(2)) : value
                t.tid = UInt64(hex, radix: 16)
            case "PID": t.pid = Int(value)
            default: break
            }
        }
    }

    // MARK: ndjson / json

    private mutating func decodeJSONRecord(_ bytes: [UInt8], line: Int) -> RecordText? {
        guard let obj = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            if stats.notes.count < InputNote.maximumPerInput {
                stats.notes.append(InputNote(.warning, line: line, "malformed JSON log entry"))
            }
            return nil
        }
        if obj["eventMessage"] == nil, obj["thread_id"] != nil || obj["log_type"] != nil {
            return UnifiedLogEntry.record(obj, context: context)
        }
        var t = RecordText(format: mode == .logJSON ? .logJSON : .logNDJSON, message: (obj["eventMessage"] as? String) ?? "")
        if let path = obj["processImagePath"] as? String { t.process = path.split(separator: "/").last.map(String.init) }
        if let sender = obj["senderImagePath"] as? String { t.sender = sender.split(separator: "/").last.map(String.init) }
        t.pid = (obj["processID"] as? NSNumber)?.intValue
        t.tid = (obj["threadID"] as? NSNumber)?.uint64Value
        t.level = obj["messageType"] as? String
        t.subsystem = (obj["subsystem"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        t.category = (obj["category"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        t.timestamp = FieldDecoding.timestamp(obj["timestamp"] as? String, format: .logNDJSON, context: context)
        // Multi-line messages keep their other lines as continuation.
        let parts = t.message.split(separator: "\n", omittingEmptySubsequences: false)
        if parts.count > 1 {
            t.message = String(parts[0])
            t.continuation = parts.dropFirst().map(String.init)
        }
        return t
    }

    private mutating func feedJSONArray(_ l: Bytes) {
        let result = json.feed(l, line: lineNo)
        if result.objectStarted {
            stats.records += 1
        } else if result.touchedObject {
            stats.continuationLines += 1
        } else if isBlank(l) || result.onlyStructure {
            stats.nonLogLines += 1
        } else {
            stats.unrecognizedLines += 1
        }
        for object in result.completed {
            recordsPerFormat[formatIndex(.logJSON)] += 1
            let hit = object.bytes.withUnsafeBufferPointer { anchors.find(in: $0) != nil }
            guard hit || matchesMarkers, var t = decodeJSONRecord(object.bytes, line: object.line) else { continue }
            t.format = .logJSON
            t.truncated = object.truncated
            let event = classifier.classify(t, file: file, at: .line(object.line), extent: object.lineCount)
            emit(event)
            if let event { emit(classifier.companion(of: event)) }
            if matchesMarkers { noteMarkerGaveUp(line: object.line) }
        }
    }

    // MARK: Line shapes

    func string(_ l: Bytes) -> String { String(decoding: l, as: UTF8.self) }

    func isBlank(_ l: Bytes) -> Bool {
        for b in l where !(b == 32 || b == 9 || b == 11 || b == 12) { return false }
        return true
    }

    private func isFence(_ l: Bytes) -> Bool {
        var i = 0
        while i < l.count, l[i] == 32, i < 4 { i += 1 }
        return i + 2 < l.count && ((l[i] == 96 && l[i + 1] == 96 && l[i + 2] == 96) || (l[i] == 126 && l[i + 1] == 126 && l[i + 2] == 126))
    }

    /// Stack frames, indented lines and the pieces of exception / checker blocks.
    private func isBlockLine(_ l: Bytes) -> Bool {
        guard let f = l.first else { return false }
        if f == 32 || f == 9 || f == 40 || f == 41 { return true }  // indented, `(`, `)`
        if isDigit(f) {  // `4   UIKitCore   0x… symbol`
            var i = 0
            while i < l.count, isDigit(l[i]) { i += 1 }
            return i < l.count && l[i] == 32
        }
        let blockPrefixes: [StaticString] = ["*** First throw call stack", "libc++abi", "PID: ", "Backtrace:", "Abort trap",
                                             "terminating with", "terminating due to"]
        for p in blockPrefixes where hasPrefix(l, p) {
            return true
        }
        return false
    }

    private func isKnownNonLog(_ l: Bytes) -> Bool {
        guard let f = l.first else { return true }
        switch f {
        case 70: return hasPrefix(l, "Filtering the log data")
        case 84: return hasPrefix(l, "Timestamp ")
        case 83: return hasPrefix(l, "Skipping info and debug messages")
        case 76: return hasPrefix(l, "Log      -") || hasPrefix(l, "Log -")
        case 65: return hasPrefix(l, "Activity - ")
        case 66: return hasPrefix(l, "Boundary - ")
        case 32, 45, 61:
            // Rules: a run of at least ten dashes or equals signs.
            var i = 0
            while i < l.count, l[i] == 32 { i += 1 }
            var run = 0
            while i < l.count, l[i] == 45 || l[i] == 61 { run += 1; i += 1 }
            while i < l.count, l[i] == 32 { i += 1 }
            return run >= 10 && i == l.count
        case 91: return hasPrefix(l, "[connected") || hasPrefix(l, "[disconnected") || hasPrefix(l, "[Process completed]")
        case 40: return hasPrefix(l, "(lldb)")
        case 35: return markdown && !inFence
        default: return false
        }
    }

    private func isNDJSONFooter(_ l: Bytes) -> Bool {
        hasPrefix(l, "{\"count\":") && contains(l, "\"finished\"")
    }

    private func looksLikeJSONObjectLine(_ l: Bytes) -> Bool {
        l.count > 2 && l[0] == 123 && l[1] == 34 && l[l.count - 1] == 125
    }

    /// `  12 | text`, `12: text`, `12\ttext`, `  12  text`: returns the text and whether the
    /// separator was explicit (`|`, `:` or a tab).
    private func stripLineNumber(_ l: Bytes) -> (Bytes, Bool)? {
        var i = 0
        while i < l.count, l[i] == 32 { i += 1 }
        let d = i
        while i < l.count, isDigit(l[i]), i - d < 8 { i += 1 }
        guard i > d, i < l.count else { return nil }
        var strong = false
        if l[i] == 9 { strong = true; i += 1 }
        var spaces = 0
        while i < l.count, l[i] == 32 { i += 1; spaces += 1 }
        if i < l.count, l[i] == 124 || l[i] == 58 {
            strong = true
            i += 1
            while i < l.count, l[i] == 32 { i += 1 }
        } else if !strong && spaces == 0 {
            return nil
        }
        guard i < l.count else { return nil }
        return (Bytes(rebasing: l[i...]), strong)
    }

    private func hasPrefix(_ l: Bytes, _ p: StaticString) -> Bool {
        let n = p.utf8CodeUnitCount
        guard l.count >= n else { return false }
        return memcmp(l.baseAddress!, p.utf8Start, n) == 0
    }


    private func contains(_ l: Bytes, _ needle: String) -> Bool {
        let u = Array(needle.utf8)
        guard u.count <= l.count, let base = l.baseAddress else { return false }
        return u.withUnsafeBufferPointer { n in ll_find_bytes(base, l.count, n.baseAddress, u.count) >= 0 }
    }
}

/// Tracks JSON objects across the lines of a `log show --style json` array (strings and escapes
/// included), collecting the bytes of each top-level object.
struct JSONObjectScanner {
    struct Object { var bytes: [UInt8]; var line: Int; var lineCount: Int; var truncated: Bool }
    struct LineResult {
        var objectStarted = false
        var touchedObject = false
        var onlyStructure = true
        var completed: [Object] = []
    }

    private(set) var inObject = false
    private(set) var objectLine = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var bytes: [UInt8] = []
    private var truncated = false
    static let maxObjectBytes = 1 << 20

    mutating func feed(_ l: Bytes, line: Int) -> LineResult {
        var r = LineResult()
        if inObject { r.touchedObject = true; append(10) }
        for b in l {
            if !inObject {
                if b == 123 {
                    inObject = true
                    depth = 1
                    inString = false
                    escaped = false
                    objectLine = line
                    bytes.removeAll(keepingCapacity: true)
                    truncated = false
                    append(b)
                    r.objectStarted = true
                    r.touchedObject = true
                } else if !(b == 91 || b == 93 || b == 44 || b == 32 || b == 9) {
                    r.onlyStructure = false
                }
                continue
            }
            append(b)
            if inString {
                if escaped { escaped = false } else if b == 92 { escaped = true } else if b == 34 { inString = false }
                continue
            }
            if b == 34 { inString = true } else if b == 123 || b == 91 { depth += 1 } else if b == 125 || b == 93 {
                depth -= 1
                if depth == 0 {
                    inObject = false
                    r.completed.append(Object(bytes: bytes, line: objectLine, lineCount: line - objectLine + 1, truncated: truncated))
                }
            }
        }
        return r
    }

    private mutating func append(_ b: UInt8) {
        if bytes.count < Self.maxObjectBytes { bytes.append(b) } else { truncated = true }
    }
}

extension RecordProcessor {
    /// Adds the bytes of a fed line (terminator included) to the input's byte count.
    @inline(__always) mutating func countBytes(_ n: Int) { stats.bytes += Int64(n) }

    /// Number of the line most recently fed.
    var currentLine: Int { stats.lines }

    /// Reports a line cut at the line limit.
    mutating func noteCutLine(_ line: Int, kept: Int, skipped: Int) {
        guard line > 0, stats.notes.count < InputNote.maximumPerInput else { return }
        stats.notes.append(InputNote(.warning, line: line, "line is longer than \(kept) bytes; the first \(kept) bytes were read and \(skipped) more were skipped"))
    }
}
