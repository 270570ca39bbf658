import Foundation

/// Splits a byte source into lines with a reused buffer, runs the SIMD prefilter over the buffer,
/// and feeds each line to a `RecordProcessor`. When reading one range of a larger file, it starts at
/// the first record start at or after the range start and stops at the first one at or after its
/// end, so neighbouring ranges meet exactly at a record boundary.
struct LineReader {
    let source: ByteSource
    let separator: UInt8
    let maxLineBytes: Int
    /// The range does not start at the beginning of the file: skip to the first record start.
    var skipLeading = false
    /// File offset of the first byte this reader sees.
    var readStart: Int64 = 0
    /// Stop at the first record start at or after this file offset.
    var stopOffset: Int64?
    /// Lines starting with `{` are record starts (ndjson).
    var ndjson = false

    init(source: ByteSource, separator: UInt8, maxLineBytes: Int) {
        self.source = source
        self.separator = separator
        self.maxLineBytes = maxLineBytes
    }

    private enum Phase { case partial, toRecordStart, lines, done }

    mutating func run(_ processor: inout RecordProcessor) throws {
        let cap = maxLineBytes
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: cap, alignment: 64)
        defer { raw.deallocate() }
        let buf = raw.bindMemory(to: UInt8.self)
        let base = buf.baseAddress!
        let anchors = processor.anchors
        var filled = 0, pos = 0
        var eof = false
        var bufOffset: Int64 = readStart  // file offset of buf[0]
        var phase: Phase = skipLeading ? .partial : .lines
        var nextAnchor = -1
        var anchorsValid = false
        var skippingRest = false   // discarding the rest of an over-long line
        var skippedBytes = 0
        var cutLine = 0

        @inline(__always) func handle(_ s: Int, _ e: Int) -> Bool {
            var end = e
            if separator == 10, end > s, base[end - 1] == 13 { end -= 1 }
            let line = Bytes(start: base + s, count: end - s)
            switch phase {
            case .partial:
                phase = .toRecordStart
                return true
            case .toRecordStart:
                if !isRecordStart(line) { return true }
                phase = .lines
            case .lines:
                if let stop = stopOffset, bufOffset + Int64(s) >= stop, isRecordStart(line) {
                    phase = .done
                    return false
                }
            case .done:
                return false
            }
            if !anchorsValid || nextAnchor < s {
                nextAnchor = anchors.find(in: Bytes(start: base, count: filled), from: s) ?? Int.max
                anchorsValid = true
            }
            processor.feed(line, hasAnchor: nextAnchor < end)
            return true
        }

        while true {
            if skippingRest {
                if let nl = memchr(base + pos, Int32(separator), filled - pos) {
                    let p = UnsafePointer<UInt8>(nl.assumingMemoryBound(to: UInt8.self)) - UnsafePointer(base)
                    skippedBytes += p - pos
                    pos = p + 1
                    skippingRest = false
                    processor.noteCutLine(cutLine, kept: cap, skipped: skippedBytes)
                    continue
                }
                skippedBytes += filled - pos
                pos = filled
                if eof {
                    processor.noteCutLine(cutLine, kept: cap, skipped: skippedBytes)
                    break
                }
            } else if pos < filled, let nl = memchr(base + pos, Int32(separator), filled - pos) {
                let p = UnsafePointer<UInt8>(nl.assumingMemoryBound(to: UInt8.self)) - UnsafePointer(base)
                if !handle(pos, p) { break }
                pos = p + 1
                continue
            } else if eof {
                if pos < filled { _ = handle(pos, filled) }
                break
            } else if pos == 0, filled == cap {
                // A line longer than the buffer: keep its first `cap` bytes, skip the rest.
                let wasLines = phase == .lines
                if !handle(0, cap) { break }
                if wasLines { cutLine = processor.currentLine }
                skippingRest = true
                skippedBytes = 0
                pos = cap
                if !wasLines { cutLine = 0 }
            }
            // Refill.
            if pos > 0 {
                let keep = filled - pos
                if keep > 0 { memmove(base, base + pos, keep) }
                bufOffset += Int64(pos)
                filled = keep
                pos = 0
                anchorsValid = false
            }
            if eof { continue }
            let n = try source.read(into: UnsafeMutableRawBufferPointer(start: base + filled, count: cap - filled))
            if n == 0 { eof = true }
            filled += n
            anchorsValid = false
        }
    }

    private func isRecordStart(_ l: Bytes) -> Bool {
        if ndjson { return l.first == 123 }
        return HeaderParser.isHeader(l)
    }

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
