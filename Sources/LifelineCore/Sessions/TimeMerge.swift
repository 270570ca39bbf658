/// Merges the events of several files by time, a k-way merge over one queue per file.
///
/// Events without a time take the time of the event before them in their file (or come first, when
/// none before them had one); each file keeps its own order even where its timestamps go backwards;
/// ties go to the file that appeared first. The next event is found with a binary heap of the
/// files' head times, so merging N events from k files costs O(N log k), and each event is
/// released as it is handed out.
public struct TimeMerge {
    /// Per file, in order of first appearance: its events, last first (handed out with `popLast`).
    private var queues: [[Event]] = []
    private var indexOfFile: [String: Int] = [:]
    private var lastFile: (name: String, index: Int)?
    /// Per file: the time of the last event handed out that had one.
    private var clocks: [Double] = []
    /// Min-heap of (head time, file index).
    private var heap: [(time: Double, file: Int)] = []
    private var started = false
    /// Heap comparisons so far (for the scaling tests: they grow as N log k).
    public private(set) var comparisons = 0

    public init() {}

    public init<S: Sequence>(_ events: S) where S.Element == Event {
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
            queues.append([])
        }
        lastFile = (e.file, f)
        queues[f].append(e)
    }

    /// Number of files seen.
    public var fileCount: Int { queues.count }

    /// The next event in time order, or nil when every queue is empty.
    public mutating func next() -> Event? {
        if !started { start() }
        guard let top = heap.first else { return nil }
        let f = top.file
        let e = queues[f].removeLast()
        if let t = e.timestamp?.seconds { clocks[f] = t }
        if let head = queues[f].last {
            heap[0] = (head.timestamp?.seconds ?? clocks[f], f)
            siftDown(0)
        } else {
            queues[f] = []  // frees the queue's buffer
            let last = heap.removeLast()
            if !heap.isEmpty { heap[0] = last; siftDown(0) }
        }
        return e
    }

    private mutating func start() {
        started = true
        indexOfFile = [:]
        lastFile = nil
        clocks = [Double](repeating: -.infinity, count: queues.count)
        for f in queues.indices {
            queues[f].reverse()
            if let head = queues[f].last { heap.append((head.timestamp?.seconds ?? -.infinity, f)) }
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
