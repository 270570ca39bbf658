import Foundation
import Testing
import TestSupport
@testable import LifelineCore

/// External sorting and the bounded read-ahead of the ingester (issue 12): what is held in memory
/// is counted, and must not grow with the input.
@Suite struct SpillTests {
    struct Item: SpillCodable, Equatable {
        var key: Int
        var seq: Int
        var text: String
        var note: String?

        func encode(to w: inout SpillWriter) {
            w.int(key); w.int(seq); w.string(text); w.optional(note)
        }

        static func decode(from r: inout SpillReader) -> Item {
            Item(key: r.int(), seq: r.int(), text: r.string(), note: r.optionalString())
        }

        static func less(_ a: Item, _ b: Item) -> Bool { (a.key, a.seq) < (b.key, b.seq) }
    }

    static func items(_ n: Int, seed: UInt64) -> [Item] {
        var rng = SeededBytes(state: seed)
        return (0..<n).map { i in
            let key = Int(truncatingIfNeeded: rng.next() % 1_000) - 500
            // Long texts make some records larger than a reader's first read.
            let length = i % 97 == 0 ? 300_000 : Int(rng.next() % 40)
            return Item(key: key, seq: i, text: String(repeating: "é", count: length / 2), note: i % 3 == 0 ? nil : "n\(i)")
        }
    }

    @Test("varints and strings read back as written, at the edges too")
    func codingRoundTrips() {
        var w = SpillWriter()
        let ints = [0, 1, -1, 63, -64, 64, 127, 128, Int.max, Int.min, 1 << 40, -(1 << 40)]
        for v in ints { w.int(v) }
        w.uint(UInt64.max)
        w.string("")
        w.string("Scène « un » 🚗")
        w.optional(nil as String?)
        w.optional(42 as Int?)
        let bytes = w.bytes
        bytes.withUnsafeBufferPointer { b in
            var r = SpillReader(b)
            #expect(ints.map { _ in r.int() } == ints)
            #expect(r.uint() == UInt64.max)
            #expect(r.string() == "")
            #expect(r.string() == "Scène « un » 🚗")
            #expect(r.optionalString() == nil)
            #expect(r.optionalInt() == 42)
            #expect(r.position == bytes.count)
        }
    }

    @Test("a sort that spills gives the order of an in-memory sort, holding no more than its budget", arguments: [0, 1, 5_000])
    func spilledSortMatchesInMemory(count: Int) {
        let input = Self.items(count, seed: UInt64(count) + 3)
        var sort = ExternalSort<Item>(budget: 2_000, size: { 40 + $0.text.utf8.count }, by: Item.less)
        for item in input { sort.append(item) }
        let out = Array(sort.drain())
        #expect(out == input.sorted(by: Item.less))
        if count > 1_000 {
            #expect(sort.spilledRuns > 10)
            // At 40 bytes a value or more, a 2,000-byte budget holds at most 51 values.
            #expect(sort.peakHeld <= 51)
        }
    }

    @Test("below the budget nothing is written")
    func smallSortsStayInMemory() {
        var sort = ExternalSort<Item>(budget: 1 << 30, size: { _ in 64 }, by: Item.less)
        for item in Self.items(2_000, seed: 9) { sort.append(item) }
        #expect(Array(sort.drain()).count == 2_000)
        #expect(sort.spilledRuns == 0)
    }

    @Test("a spill that cannot be written keeps the values in memory and says why")
    func unwritableSpillKeepsValues() {
        let input = Self.items(500, seed: 11)
        var sort = ExternalSort<Item>(budget: 100, size: { _ in 64 }, by: Item.less, directory: "/nonexistent/lifeline-spill-test")
        for item in input { sort.append(item) }
        #expect(sort.spillFailure?.contains("/nonexistent/lifeline-spill-test") == true)
        #expect(Array(sort.drain()) == input.sorted(by: Item.less))
    }

    /// A dense log: every line a lifecycle callback.
    static func denseLog(lines: Int) -> String {
        let kinds = ["sceneWillEnterForeground:", "sceneDidBecomeActive:", "sceneWillResignActive:", "sceneDidEnterBackground:"]
        var text = ""
        for i in 0..<lines {
            let t = String(format: "%02d:%02d.%06d", (i / 60_000) % 60, (i / 1_000) % 60, i % 1_000_000)
            text += "2025-03-01 10:\(t)+0100 Atlas[77:1] -[SceneDelegate \(kinds[i % 4])] <UIWindowScene: 0x104f0a2c0>\n"
        }
        return text
    }

    @Test("ranges of a dense log are read ahead by a bounded number of events, whatever the file's size")
    func readAheadIsBounded() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-readahead-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("dense.log").path
        try Self.denseLog(lines: 40_000).write(toFile: path, atomically: true, encoding: .utf8)

        let whole = Ingester(options: IngestOptions(jobs: 1, rangeBytes: 1 << 40)).ingest(paths: [path]).events
        #expect(whole.count == 40_000)
        var options = IngestOptions(jobs: 2, rangeBytes: 512 << 10)
        options.eventChunk = 64
        let counters = IngestCounters()
        options.counters = counters
        var events: [Event] = []
        var n = 0
        Ingester(options: options).run(paths: [path], onEvent: { e in
            // A consumer slower than the readers, as the rules are on a dense log.
            n += 1
            if n % 1_000 == 0 { usleep(2_000) }
            events.append(e)
        }, onInput: { _ in })
        #expect(events == whole)
        // 4 units may wait, each with at most 2 chunks queued, one being put and a last one.
        #expect(counters.peakEventsWaiting <= 4 * 4 * 64)
        #expect(counters.peakEventsWaiting > 0)
    }
}

/// Repeating fields of the events a reader keeps share their storage (issue 12: a session that
/// never ends holds every event).
@Suite struct InterningTests {
    static func storage(_ s: String) -> UnsafePointer<UInt8>? {
        var s = s
        return s.withUTF8 { $0.baseAddress }
    }

    @Test("equal long strings come back with one storage; short ones and a full table pass through")
    func interns() {
        let intern = StringInterner(limit: 2)
        let a = intern(String(repeating: "x", count: 20) + "-[SceneDelegate sceneDidBecomeActive:]")
        let b = intern(String(repeating: "x", count: 20) + "-[SceneDelegate sceneDidBecomeActive:]")
        #expect(a == b && Self.storage(a) == Self.storage(b))
        #expect(intern("short") == "short")
        let c = intern(String(repeating: "y", count: 30))
        let d = intern(String(repeating: "z", count: 30))  // over the limit: not kept
        let e = intern(String(repeating: "z", count: 30))
        #expect(d == e && Self.storage(d) != Self.storage(e))
        #expect(intern(String(repeating: "y", count: 30)) == c)
        #expect(intern.hits == 2)
    }

    @Test("events read from a log share their selector and scene role strings")
    func eventsShareFields() {
        let events = ScalingTests.manyWindows(50)
        let roles = events.compactMap(\.scene?.role)
        let spellings = events.filter { $0.kind == .sceneDidBecomeActive }.compactMap(\.spelling)
        #expect(roles.count >= 50 && spellings.count >= 100)
        #expect(Set(roles.map(Self.storage)).count == 1)
        #expect(Set(spellings.map(Self.storage)).count == 1)
    }
}

/// Many inputs are merged by time from queues that spill past a budget (issue 12: a directory of
/// 10,000 logs held every event of every file before merging).
@Suite struct SpilledMergeTests {
    static let samples = Repository.sampleLogs.path
    static let corpus = Repository.corpus.path

    @Test("every event of the samples and of the shared corpus reads back from a spill record equal, details included")
    func eventsRoundTrip() {
        let events = Ingester(options: IngestOptions(jobs: 2)).ingest(paths: [Self.samples] + (Repository.hasCorpus ? [Self.corpus] : [])).events
        #expect(events.count > 300)
        #expect(events.contains { $0.details?.backtrace != nil } && events.contains { $0.scene?.persistentIdentifier != nil })
        for e in events {
            var w = SpillWriter()
            e.encode(to: &w)
            let back = w.bytes.withUnsafeBufferPointer { b -> Event in
                var r = SpillReader(b)
                return Event.decode(from: &r)
            }
            #expect(back == e, "\(e.file):\(e.line)")
        }
    }

    static func order(_ merge: inout TimeMerge) -> [String] {
        var out: [String] = []
        while let e = merge.next() { out.append("\(e.file):\(e.line):\(e.message)") }
        return out
    }

    @Test("a merge whose queues spilled every few events gives the order of one held in memory")
    func spilledOrder() {
        let synthetic = ScalingTests.interleaved(files: 64, perFile: 12)
        let real = Ingester(options: IngestOptions(jobs: 2)).ingest(paths: [Self.samples]).events
        for events in [synthetic, real] {
            var held = TimeMerge(budget: 1 << 30)
            var spilled = TimeMerge(budget: 5)
            for e in events { held.append(e); spilled.append(e) }
            #expect(held.spills == 0)
            #expect(spilled.spills > 10)
            #expect(spilled.peakHeld <= 5)
            #expect(Self.order(&spilled) == Self.order(&held))
        }
    }

    @Test("a merge that cannot spill keeps its queues in memory and says why")
    func unwritableSpill() {
        let events = ScalingTests.interleaved(files: 8, perFile: 10)
        var held = TimeMerge(budget: 1 << 30)
        var failing = TimeMerge(budget: 3, directory: "/nonexistent/lifeline-merge-test")
        for e in events { held.append(e); failing.append(e) }
        #expect(failing.spillFailure?.contains("/nonexistent/lifeline-merge-test") == true)
        #expect(Self.order(&failing) == Self.order(&held))
    }
}
