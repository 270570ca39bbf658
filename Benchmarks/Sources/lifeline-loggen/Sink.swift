#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib

/// A write buffer with byte-level helpers. Lines are appended in place and the buffer is written
/// out (`write(2)`) whenever a line ends past 1 MiB, so memory stays constant whatever the size.
/// The triage set also writes through zlib (`.log.gz`) and into memory (members of a tar bundle).
final class Sink {
    enum Output {
        case file(Int32)
        case gzip(gzFile)
        case memory
    }
    private let output: Output
    /// What a `.memory` sink has flushed.
    private(set) var collected: [UInt8] = []
    private let flushAt = 1 << 20
    /// Room for one more line after `flushAt`: no line the generator writes comes near 1 MiB.
    private let capacity = 2 << 20
    private let base: UnsafeMutablePointer<UInt8>
    private(set) var pos = 0
    private(set) var flushed = 0
    private(set) var lines = 0

    init(fd: Int32) {
        output = .file(fd)
        base = .allocate(capacity: capacity)
    }

    init(_ output: Output) {
        self.output = output
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    var bytesWritten: Int { flushed + pos }

    @inline(__always) func byte(_ b: UInt8) {
        base[pos] = b
        pos += 1
    }

    @inline(__always) func str(_ s: StaticString) {
        s.withUTF8Buffer { raw($0) }
    }

    @inline(__always) func bytes(_ a: [UInt8]) {
        a.withUnsafeBufferPointer { raw($0) }
    }

    @inline(__always) func raw(_ p: UnsafeBufferPointer<UInt8>) {
        guard let src = p.baseAddress, p.count > 0 else { return }
        (base + pos).update(from: src, count: p.count)
        pos += p.count
    }

    @inline(__always) func spaces(_ n: Int) {
        guard n > 0 else { return }
        (base + pos).update(repeating: 0x20, count: n)
        pos += n
    }

    /// Pads the column that started at `start` with spaces to `width`, then writes one separator space.
    @inline(__always) func column(from start: Int, width: Int) {
        spaces(width - (pos - start))
        byte(0x20)
    }

    /// Decimal, no padding.
    @inline(__always) func dec(_ value: Int) {
        var v = value
        if v < 0 { byte(0x2D); v = -v }
        var digits = 1
        var t = v
        while t >= 10 { t /= 10; digits += 1 }
        var i = pos + digits - 1
        repeat {
            base[i] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
            v /= 10
            i -= 1
        } while v > 0
        pos += digits
    }

    /// Decimal, zero-padded to `width` digits.
    @inline(__always) func dec(_ value: Int, width: Int) {
        var v = value
        var i = pos + width - 1
        while i >= pos {
            base[i] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
            v /= 10
            i -= 1
        }
        pos += width
    }

    /// Lower-case hex, exactly `digits` digits.
    @inline(__always) func hex(_ value: UInt64, digits: Int, upper: Bool = false) {
        let table: StaticString = "0123456789abcdef0123456789ABCDEF"
        let off = upper ? 16 : 0
        var v = value
        var i = pos + digits - 1
        while i >= pos {
            base[i] = table.utf8Start[off + Int(v & 0xF)]
            v >>= 4
            i -= 1
        }
        pos += digits
    }

    /// Lower-case hex without leading zeros.
    @inline(__always) func hex(_ value: UInt64) {
        var digits = 1
        var t = value >> 4
        while t != 0 { t >>= 4; digits += 1 }
        hex(value, digits: digits)
    }

    /// `E1909D86-F6C8-4AFF-A567-65B59EFE0F22`
    func uuid(_ hi: UInt64, _ lo: UInt64) {
        hex(hi >> 32, digits: 8, upper: true); byte(0x2D)
        hex((hi >> 16) & 0xFFFF, digits: 4, upper: true); byte(0x2D)
        hex(0x4000 | (hi & 0x0FFF), digits: 4, upper: true); byte(0x2D)
        hex(0x8000 | ((lo >> 48) & 0x3FFF), digits: 4, upper: true); byte(0x2D)
        hex(lo & 0xFFFF_FFFF_FFFF, digits: 12, upper: true)
    }

    @inline(__always) func newline() {
        base[pos] = 0x0A
        pos += 1
        lines += 1
        if pos >= flushAt { flush() }
    }

    func flush() {
        switch output {
        case .file(let fd):
            var off = 0
            while off < pos {
                let n = write(fd, base + off, pos - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    fatal("write failed: \(String(cString: strerror(errno)))")
                }
                off += n
            }
        case .gzip(let gz):
            if pos > 0, gzwrite(gz, base, UInt32(pos)) != Int32(pos) { fatal("gzwrite failed") }
        case .memory:
            collected.append(contentsOf: UnsafeBufferPointer(start: base, count: pos))
        }
        flushed += pos
        pos = 0
    }
}

func fatal(_ message: String) -> Never {
    var text = "lifeline-loggen: \(message)\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}
