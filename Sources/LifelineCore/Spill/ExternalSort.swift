import Foundation

/// Sorts more values than should be held in memory: values are held until their estimated size
/// reaches `budget` bytes, then sorted and written to an unlinked temporary file as a run; reading
/// back merges the runs with a heap. Below the budget nothing touches the disk.
///
/// The order must be total (break ties with a sequence number) for the output to be the same
/// whatever the budget. If the temporary file cannot be made or written, values stay in memory
/// (the output is the same; only memory is not bounded) and `spillFailure` says why.
public struct ExternalSort<Element: SpillCodable> {
    public let budget: Int
    private let less: (Element, Element) -> Bool
    private let size: (Element) -> Int
    private let sortRun: (inout [Element]) -> Void
    private var held: [Element] = []
    private var heldBytes = 0
    private var file: SpillFile?
    private var runs: [Range<Int64>] = []
    public private(set) var count = 0
    public private(set) var spillFailure: String?
    /// Most values held in memory at once (what the budget bounds).
    public private(set) var peakHeld = 0
    /// Where spill files go (nil: `TMPDIR`, else /tmp).
    private let directory: String?

    /// `size` estimates the bytes one value holds in memory; `less` is the (total) order.
    /// `sortRun`, if given, sorts a run in that order: a caller that passes
    /// `{ $0.sort(by: less) }` from where `Element` is concrete gets a specialised sort, several
    /// times faster than the generic one here.
    public init(budget: Int, size: @escaping (Element) -> Int, by less: @escaping (Element, Element) -> Bool,
                sortRun: ((inout [Element]) -> Void)? = nil, directory: String? = nil) {
        self.directory = directory
        self.budget = max(1, budget)
        self.size = size
        self.less = less
        self.sortRun = sortRun ?? { $0.sort(by: less) }
    }

    /// Runs written to disk so far (also after `drain`).
    public private(set) var spilledRuns = 0

    public mutating func append(_ value: Element) {
        heldBytes += size(value)
        held.append(value)
        count += 1
        peakHeld = max(peakHeld, held.count)
        if heldBytes >= budget && spillFailure == nil { spill() }
    }

    private mutating func spill() {
        sortRun(&held)
        do {
            if file == nil { file = try SpillFile(directory: directory) }
            runs.append(try file!.appendRun(held))
            spilledRuns += 1
            held.removeAll()
            heldBytes = 0
        } catch {
            spillFailure = "\(error)"
        }
    }

    /// Every value appended, in order, read once: the sort is left empty (its disk space is freed
    /// when the returned sequence is).
    public mutating func drain() -> Sorted {
        var values: [Element] = []
        swap(&values, &held)
        sortRun(&values)
        let sorted = Sorted(held: values, file: file, runs: runs, less: less)
        file = nil
        runs = []
        heldBytes = 0
        count = 0
        return sorted
    }

    /// The merge of the runs and of the values still held.
    public final class Sorted: Sequence, IteratorProtocol {
        private var held: [Element]
        private var heldNext = 0
        private var readers: [RunReader]
        private var heads: [Element?]
        /// Sources by their head, smallest first; source `readers.count` is `held`.
        private var heap: [Int] = []
        private let less: (Element, Element) -> Bool
        private let file: SpillFile?

        init(held: [Element], file: SpillFile?, runs: [Range<Int64>], less: @escaping (Element, Element) -> Bool) {
            self.held = held
            self.file = file
            self.less = less
            readers = file.map { f in runs.map { RunReader(file: f, range: $0) } } ?? []
            heads = Array(repeating: nil, count: readers.count + 1)
            guard !readers.isEmpty else { return }
            for source in heads.indices {
                heads[source] = pull(source)
                if heads[source] != nil { push(source) }
            }
        }

        private func pull(_ source: Int) -> Element? {
            if source == readers.count {
                guard heldNext < held.count else { held = []; return nil }
                heldNext += 1
                return held[heldNext - 1]
            }
            return readers[source].next()
        }

        /// Source `a`'s head comes before source `b`'s (ties, which a total order never has, by source).
        private func before(_ a: Int, _ b: Int) -> Bool {
            if less(heads[a]!, heads[b]!) { return true }
            if less(heads[b]!, heads[a]!) { return false }
            return a < b
        }

        private func push(_ source: Int) {
            heap.append(source)
            var i = heap.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard before(heap[i], heap[parent]) else { break }
                heap.swapAt(i, parent)
                i = parent
            }
        }

        private func siftDown() {
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count && before(heap[l], heap[m]) { m = l }
                if r < heap.count && before(heap[r], heap[m]) { m = r }
                if m == i { return }
                heap.swapAt(i, m)
                i = m
            }
        }

        public func next() -> Element? {
            guard !readers.isEmpty else {
                guard heldNext < held.count else { held = []; return nil }
                heldNext += 1
                return held[heldNext - 1]
            }
            guard let top = heap.first else { return nil }
            let value = heads[top]!
            heads[top] = pull(top)
            if heads[top] == nil {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown() }
            return value
        }
    }

    /// Reads one run's records back, 256 KB at a time.
    final class RunReader {
        private let file: SpillFile
        private var offset: Int64
        private let end: Int64
        private var buffer: [UInt8] = []
        private var position = 0

        init(file: SpillFile, range: Range<Int64>) {
            self.file = file
            offset = range.lowerBound
            end = range.upperBound
        }

        /// Makes at least `n` unread bytes available (fewer only at the end of the run).
        private func fill(_ n: Int) {
            guard buffer.count - position < n else { return }
            buffer.removeSubrange(0..<position)
            position = 0
            let want = min(Int64(max(n - buffer.count, 1 << 18)), end - offset)
            guard want > 0 else { return }
            let got = file.read(at: offset, count: Int(want))
            buffer.append(contentsOf: got)
            offset += Int64(got.count)
        }

        func next() -> Element? {
            fill(10)
            guard position < buffer.count else { return nil }
            var length = 0
            let header = buffer.withUnsafeBufferPointer { b -> Int in
                var r = SpillReader(b, at: position)
                length = Int(r.uint())
                return r.position
            }
            position = header
            fill(length)
            guard buffer.count - position >= length else { return nil }  // a short read: the file was cut
            let value = buffer.withUnsafeBufferPointer { b -> Element in
                var r = SpillReader(UnsafeBufferPointer(rebasing: b[position..<(position + length)]))
                return Element.decode(from: &r)
            }
            position += length
            return value
        }
    }
}

/// An unlinked temporary file in `TMPDIR` (or /tmp): it disappears when closed, also when the
/// process dies.
final class SpillFile {
    private let fd: Int32
    private(set) var length: Int64 = 0

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(directory: String? = nil) throws {
        let dir = directory ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(dir)/lifeline-spill-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(description: "cannot make a temporary file in \(dir): \(String(cString: strerror(errno)))") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.fd = fd
    }

    deinit { close(fd) }

    func append(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(length) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "cannot write a temporary file: \(String(cString: strerror(errno)))") }
            done += n
        }
        length += Int64(bytes.count)
    }

    /// Appends `values` as one run of records, each prefixed with its length (what `RunReader`
    /// and `TimeMerge` read back), written 256 KB at a time; returns where the run lies.
    func appendRun<S: Sequence>(_ values: S) throws -> Range<Int64> where S.Element: SpillCodable {
        let start = length
        var w = SpillWriter()
        var record = SpillWriter()
        for v in values {
            record.removeAll()
            v.encode(to: &record)
            w.uint(UInt64(record.bytes.count))
            w.append(record.bytes)
            if w.bytes.count >= 1 << 18 { try append(w.bytes); w.removeAll() }
        }
        try append(w.bytes)
        return start..<length
    }

    func read(at offset: Int64, count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        out.removeSubrange(done...)
        return out
    }
}
