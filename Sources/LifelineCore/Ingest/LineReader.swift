import Foundation

/// Feeds the lines of a byte region to a `RecordProcessor`, running the SIMD prefilter over the
/// region once. Shared by the two ways of reading: a memory-mapped range of a plain file (no copy),
/// and a reused buffer filled from a stream (gzip files, standard input).
///
/// When reading one range of a larger file, the feeder starts at the first record start at or after
/// the range start and stops at the first one at or after its end, so neighbouring ranges meet
/// exactly at a record boundary and no record is split between two threads.
struct LineFeeder {
    let separator: UInt8
    let maxLineBytes: Int
    /// The range does not start at the beginning of the file: skip to the first record start.
    var skipLeading = false
    /// Stop at the first record start at or after this file offset.
    var stopOffset: Int64?
    /// Lines starting with `{` are record starts (ndjson).
    var ndjson = false
    private(set) var stopped = false
    private var phase: Phase = .lines

    private enum Phase { case partial, toRecordStart, lines }

    init(separator: UInt8, maxLineBytes: Int) {
        self.separator = separator
        self.maxLineBytes = maxLineBytes
    }

    mutating func begin() { phase = skipLeading ? .partial : .lines }

    /// Feeds the lines of `base[0..<count]`, whose first byte is at `regionOffset` in the file. Only
    /// lines ending with the separator are fed, and also an unterminated last line when `final`.
    /// Returns how many bytes were consumed (the rest starts an incomplete line).
    mutating func feed(_ base: UnsafePointer<UInt8>, count: Int, regionOffset: Int64, final: Bool,
                       into processor: inout RecordProcessor) -> Int {
        let anchors = processor.anchors
        var pos = 0
        var nextAnchor = -1
        var anchorsValid = false
        while pos < count, !stopped {
            let end: Int
            if let nl = memchr(base + pos, Int32(separator), count - pos) {
                end = UnsafePointer<UInt8>(nl.assumingMemoryBound(to: UInt8.self)) - base
            } else if final {
                end = count
            } else {
                return pos
            }
            var lineEnd = end
            if separator == 10, lineEnd > pos, base[lineEnd - 1] == 13 { lineEnd -= 1 }
            let s = pos
            pos = end + 1
            var cut = 0
            if lineEnd - s > maxLineBytes {
                cut = lineEnd - s - maxLineBytes
                lineEnd = s + maxLineBytes
            }
            let line = Bytes(start: base + s, count: lineEnd - s)
            switch phase {
            case .partial:
                phase = .toRecordStart
                continue
            case .toRecordStart:
                if !isRecordStart(line) { continue }
                // A range with no record start before its end holds nothing of its own.
                if let stop = stopOffset, regionOffset + Int64(s) >= stop {
                    stopped = true
                    return s
                }
                phase = .lines
            case .lines:
                if let stop = stopOffset, regionOffset + Int64(s) >= stop, isRecordStart(line) {
                    stopped = true
                    return s
                }
            }
            if !anchorsValid || nextAnchor < s {
                nextAnchor = anchors.find(in: Bytes(start: base, count: count), from: s) ?? Int.max
                anchorsValid = true
            }
            processor.feed(line, hasAnchor: nextAnchor < lineEnd)
            processor.countBytes(min(pos, count) - s)
            if cut > 0 { processor.noteCutLine(processor.currentLine, kept: maxLineBytes, skipped: cut) }
        }
        return min(pos, count)
    }

    /// Lines where a record starts, judged without state so that both sides of a range boundary agree.
    private func isRecordStart(_ l: Bytes) -> Bool {
        if ndjson { return l.first == 123 }
        return HeaderParser.isHeader(l)
    }
}

/// Reading through a reused buffer (streams: gzip files, standard input).
struct BufferedLineReader {
    let source: ByteSource
    var feeder: LineFeeder
    /// File offset of the first byte the source returns.
    var readStart: Int64 = 0

    mutating func run(_ processor: inout RecordProcessor) throws {
        let cap = feeder.maxLineBytes
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: cap, alignment: 64)
        defer { raw.deallocate() }
        let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var filled = 0
        var offset = readStart
        var eof = false
        var skipping = false      // discarding the rest of a line longer than the buffer
        var skipped = 0, cutLine = 0
        feeder.begin()
        while !feeder.stopped {
            if skipping {
                if let nl = memchr(base, Int32(feeder.separator), filled) {
                    let p = UnsafePointer<UInt8>(nl.assumingMemoryBound(to: UInt8.self)) - UnsafePointer(base)
                    skipped += p
                    shift(base, &filled, by: p + 1, &offset)
                    skipping = false
                    if skipped > 0 { processor.noteCutLine(cutLine, kept: cap, skipped: skipped) }
                } else {
                    skipped += filled
                    shift(base, &filled, by: filled, &offset)
                }
            }
            if !skipping {
                let used = feeder.feed(UnsafePointer(base), count: filled, regionOffset: offset, final: eof, into: &processor)
                shift(base, &filled, by: used, &offset)
                if eof || feeder.stopped { break }
                if filled == cap {
                    // A line longer than the buffer: read its first `cap` bytes, skip the rest.
                    let before = processor.currentLine
                    var truncated = LineFeeder(separator: feeder.separator, maxLineBytes: cap)
                    truncated.stopOffset = nil
                    _ = truncated.feed(UnsafePointer(base), count: cap, regionOffset: offset, final: true, into: &processor)
                    cutLine = processor.currentLine > before ? processor.currentLine : 0
                    shift(base, &filled, by: cap, &offset)
                    skipping = true
                    skipped = 0
                }
            } else if eof {
                if skipped > 0 { processor.noteCutLine(cutLine, kept: cap, skipped: skipped) }
                break
            }
            let n = try source.read(into: UnsafeMutableRawBufferPointer(start: base + filled, count: cap - filled))
            if n == 0 { eof = true }
            filled += n
        }
    }

    private func shift(_ base: UnsafeMutablePointer<UInt8>, _ filled: inout Int, by n: Int, _ offset: inout Int64) {
        guard n > 0 else { return }
        let keep = filled - n
        if keep > 0 { memmove(base, base + n, keep) }
        filled = keep
        offset += Int64(n)
    }
}

/// Reading a range of a plain file through a memory mapping: no copy into a buffer. The mapping is
/// released when the range is done, so resident memory stays at about one range per thread.
struct MappedLineReader {
    let path: String
    var feeder: LineFeeder
    /// File offset where reading starts (one byte before the range, to find the first line start).
    var readStart: Int64
    static let window = 4 << 20
    /// MADV_POPULATE_READ (not in every libc's headers).
    static let populateRead: Int32 = 22

    /// Returns false when the file cannot be mapped (the caller falls back to buffered reading).
    mutating func run(_ processor: inout RecordProcessor) throws -> Bool {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return false }
        let size = Int(st.st_size)
        guard size > 0 else { return true }
        guard let map = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else { return false }
        defer { munmap(map, size) }
        var position = Int(readStart)
        let base = UnsafePointer<UInt8>(map.assumingMemoryBound(to: UInt8.self))
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var released = position / page * page
        var window = Self.window
        feeder.begin()
        // Fed in windows; pages behind the last complete line are handed back, so the range does
        // not stay resident while it is read.
        while position < size, !feeder.stopped {
            let end = min(size, position + window)
            // Map the window's pages in one call (Linux 5.14+) instead of one fault per 64 KiB;
            // where the kernel does not know the advice, the faults simply happen as before.
            let from = position / page * page
            _ = madvise(map + from, end - from, Self.populateRead)
            let used = feeder.feed(base + position, count: end - position, regionOffset: Int64(position),
                                   final: end == size, into: &processor)
            if used == 0, end < size { window *= 2; continue }  // a line longer than the window
            position += used
            window = Self.window
            let upTo = position / page * page
            if upTo > released {
                _ = madvise(map + released, upTo - released, MADV_DONTNEED)
                released = upTo
            }
        }
        return true
    }
}

enum LineCounting {
    /// Counts the lines of a source without interpreting them (binary inputs).
    static func countLines(_ source: ByteSource, into stats: inout InputStats) throws {
        let cap = 1 << 20
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: cap, alignment: 16)
        defer { raw.deallocate() }
        var last: UInt8 = 10
        while true {
            let n = try source.read(into: raw)
            if n == 0 { break }
            stats.bytes += Int64(n)
            for b in raw[0..<n] where b == 10 { stats.lines += 1 }
            last = raw[n - 1]
        }
        if last != 10 { stats.lines += 1 }
    }
}
