/// Merges the events of several files by time, a k-way merge over one queue per file.
///
/// Events without a time take the time of the event before them in their file (or come first, when
/// none before them had one); each file keeps its own order even where its timestamps go backwards;
/// ties go to the file that appeared first. The next event is found with a binary heap of the
/// files' head times, so merging N events from k files costs O(N log k), and each event is
/// released as it is handed out.
///
/// Every event must be appended before the first is taken, so the queues would hold every event of
/// every file (a directory of 10,000 logs: 233,000 events, 230 MB). Past `budget` events held, the
/// queues are written to a spill file (`ExternalSort`'s unlinked temporary file) and read back one
/// event at a time as the merge reaches them: memory holds one head per file.
public struct TimeMerge {
    private struct Queue {
        /// Parts of the spill file holding the queue's first events, in order.
        var spilled: [Range<Int64>] = []
        /// The events after the spilled ones: in order while appending, last first once merging.
        var memory: [Event] = []
        /// The next event, once merging.
        var head: Event?
    }

    private var queues: [Queue] = []
    private var indexOfFile: [String: Int] = [:]
    private var lastFile: (name: String, index: Int)?
    /// Per file: the time of the last event handed out that had one.
    private var clocks: [Double] = []
    /// Min-heap of (head time, file index).
    private var heap: [(time: Double, file: Int)] = []
    private var started = false
    private let budget: Int
    private let directory: String?
    private var held = 0
    private var file: SpillFile?
    /// Heap comparisons so far (for the scaling tests: they grow as N log k).
    public private(set) var comparisons = 0
    /// Most events held in the queues' memory while appending (the budget bounds it; merging then
    /// holds one head per file).
    public private(set) var peakHeld = 0
    /// Times the queues were written to the spill file.
    public private(set) var spills = 0
    /// Why the queues stayed in memory past the budget, if they did.
    public private(set) var spillFailure: String?

    /// `budget`: events held before the queues are spilled; `directory`: where (nil: `TMPDIR`).
    public init(budget: Int = 8_192, directory: String? = nil) {
        self.budget = max(1, budget)
        self.directory = directory
    }

    public init<S: Sequence>(_ events: S) where S.Element == Event {
        self.init()
        for e in events { append(e) }
    }

    /// Adds the next event of its file (before the first `next()`).
    public mutating func append(_ e: Event) {
        precondition(!started, "TimeMerge: append after next()")
        let f: Int
        if let last = lastFile, last.name == e.file {
            f = last.index
        } else if let known = indexOfFile[e.file] {
            f = known
        } else {
            f = queues.count
            indexOfFile[e.file] = f
            queues.append(Queue())
        }
        lastFile = (e.file, f)
        queues[f].memory.append(e)
        held += 1
        peakHeld = max(peakHeld, held)
        if held >= budget && spillFailure == nil { spill() }
    }

    /// Writes every queue's events held in memory to the spill file, after what it wrote before.
    private mutating func spill() {
        do {
            if file == nil { file = try SpillFile(directory: directory) }
            for f in queues.indices where !queues[f].memory.isEmpty {
                queues[f].spilled.append(try file!.appendRun(queues[f].memory))
                held -= queues[f].memory.count
                queues[f].memory = []
            }
            spills += 1
        } catch {
            spillFailure = "\(error)"
        }
    }

    /// Number of files seen.
    public var fileCount: Int { queues.count }

    /// The next event in time order, or nil when every queue is empty.
    public mutating func next() -> Event? {
        if !started { start() }
        guard let top = heap.first else { return nil }
        let f = top.file
        let e = queues[f].head!
        if let t = e.timestamp?.seconds { clocks[f] = t }
        advance(f)
        if let head = queues[f].head {
            heap[0] = (head.timestamp?.seconds ?? clocks[f], f)
            siftDown(0)
        } else {
            queues[f] = Queue()  // frees the queue's buffer
            let last = heap.removeLast()
            if !heap.isEmpty { heap[0] = last; siftDown(0) }
        }
        return e
    }

    /// Makes the queue's next event its head: read from its spilled part, else from memory.
    private mutating func advance(_ f: Int) {
        if let part = queues[f].spilled.first, let file {
            let (event, length) = Self.read(file, at: part.lowerBound)
            let rest = (part.lowerBound + length)..<part.upperBound
            if rest.isEmpty { queues[f].spilled.removeFirst() } else { queues[f].spilled[0] = rest }
            if let event {
                queues[f].head = event
                return
            }
            queues[f].spilled = []
            spillFailure = "a temporary file could not be read back: events of \(f + 1) input(s) are missing from the merge"
        }
        queues[f].head = queues[f].memory.popLast()
    }

    /// The record at `offset` and the bytes it takes (length prefix included).
    private static func read(_ file: SpillFile, at offset: Int64) -> (Event?, Int64) {
        var bytes = file.read(at: offset, count: 512)
        var length = 0, header = 0
        bytes.withUnsafeBufferPointer { b in
            var r = SpillReader(b)
            length = Int(r.uint())
            header = r.position
        }
        guard header > 0, length > 0 else { return (nil, 0) }
        if bytes.count < header + length { bytes = file.read(at: offset, count: header + length) }
        guard bytes.count >= header + length else { return (nil, 0) }
        let event = bytes.withUnsafeBufferPointer { b -> Event in
            var r = SpillReader(UnsafeBufferPointer(rebasing: b[header..<(header + length)]))
            return Event.decode(from: &r)
        }
        return (event, Int64(header + length))
    }

    private mutating func start() {
        started = true
        indexOfFile = [:]
        lastFile = nil
        clocks = [Double](repeating: -.infinity, count: queues.count)
        for f in queues.indices {
            queues[f].memory.reverse()
            advance(f)
            if let head = queues[f].head { heap.append((head.timestamp?.seconds ?? -.infinity, f)) }
        }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }

    @inline(__always) private mutating func less(_ a: Int, _ b: Int) -> Bool {
        comparisons += 1
        let x = heap[a], y = heap[b]
        return x.time < y.time || (x.time == y.time && x.file < y.file)
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < heap.count && less(l, m) { m = l }
            if r < heap.count && less(r, m) { m = r }
            if m == i { return }
            heap.swapAt(i, m)
            i = m
        }
    }
}
