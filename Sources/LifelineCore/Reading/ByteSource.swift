import CLifelineZlib
import Foundation

/// Where an input's bytes come from. Reading goes through zlib, which passes uncompressed data
/// through unchanged, so gzip-compressed logs need no special handling.
protocol ByteSource: AnyObject {
    /// Fills `buffer` from the start; returns the number of bytes read, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// An input that could not be read, with the reason in the user's terms.
public struct InputError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}

/// Sequential reading of a file, a gzip file, or standard input, through zlib.
final class GzipSource: ByteSource {
    private var file: gzFile?
    let path: String

    init(path: String) throws {
        self.path = path
        let fd = path == "-" ? dup(0) : open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError(path: path, reason: String(cString: strerror(errno))) }
        guard let f = gzdopen(fd, "rb") else {
            close(fd)
            throw InputError(path: path, reason: "cannot open for reading")
        }
        gzbuffer(f, 256 * 1024)
        file = f
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let file, buffer.count > 0 else { return 0 }
        let n = gzread(file, buffer.baseAddress, UInt32(min(buffer.count, Int(Int32.max))))
        if n < 0 {
            var code: Int32 = 0
            let message = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
            throw InputError(path: path, reason: code == Z_ERRNO ? String(cString: strerror(errno)) : "corrupt or truncated gzip data (\(message))")
        }
        if n == 0 {
            // zlib reports a stream cut short only through its error state.
            var code: Int32 = 0
            _ = gzerror(file, &code)
            if code == Z_BUF_ERROR { throw InputError(path: path, reason: "gzip data ends before the end of its stream (truncated file)") }
        }
        return Int(n)
    }

    deinit { if let file { gzclose(file) } }
}

/// Positional reads of a byte range of a plain file, for ranges read in parallel.
final class RangeSource: ByteSource {
    private let fd: Int32
    private var offset: Int64
    let path: String

    init(path: String, offset: Int64) throws {
        self.path = path
        self.offset = offset
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError(path: path, reason: String(cString: strerror(errno))) }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(path: path, reason: String(cString: strerror(errno)))
            }
            offset += Int64(n)
            return n
        }
    }

    deinit { close(fd) }
}

/// Bytes already read (while sniffing standard input), then the rest of the source.
final class PrefixedSource: ByteSource {
    private var prefix: [UInt8]
    private var position = 0
    private let rest: ByteSource

    init(prefix: [UInt8], rest: ByteSource) {
        self.prefix = prefix
        self.rest = rest
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if position < prefix.count {
            let n = min(buffer.count, prefix.count - position)
            prefix.withUnsafeBytes { src in
                buffer.baseAddress!.copyMemory(from: src.baseAddress! + position, byteCount: n)
            }
            position += n
            return n
        }
        return try rest.read(into: buffer)
    }
}

/// The text encoding of an input, from its byte order mark.
enum TextEncoding: Sendable, Equatable {
    case utf8, utf16LE, utf16BE

    /// UTF-16 with a byte order mark (`FF FE` little endian, `FE FF` big endian); everything else is
    /// read as UTF-8. (`FF FE 00 00` is the UTF-32 LE mark, which `FormatSniffer` refuses.)
    static func detect(_ data: [UInt8]) -> TextEncoding {
        if data.starts(with: [0xFF, 0xFE]), !data.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return .utf16LE }
        if data.starts(with: [0xFE, 0xFF]) { return .utf16BE }
        return .utf8
    }
}

/// UTF-16 text (little or big endian, byte order mark first) transcoded to UTF-8 on the fly, so
/// everything after it — line splitting, sniffing, parsing — reads UTF-8. Every UTF-16 LF and CR
/// becomes one LF or CR byte, so lines keep their numbers. Unpaired surrogates and an odd last byte
/// become U+FFFD. The byte order mark is dropped.
final class UTF16Source: ByteSource {
    private let rest: ByteSource
    private let bigEndian: Bool
    private var input = [UInt8](repeating: 0, count: 64 * 1024)
    /// Undecoded bytes at the front of `input` (an odd byte, a high surrogate waiting for its pair).
    private var pending = 0
    private var output: [UInt8] = []
    private var outputPosition = 0
    private var skippedMark = false
    private var ended = false

    init(_ rest: ByteSource, bigEndian: Bool) {
        self.rest = rest
        self.bigEndian = bigEndian
        output.reserveCapacity(input.count * 3 / 2 + 8)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        while outputPosition == output.count {
            if ended { return 0 }
            try refill()
        }
        let n = min(buffer.count, output.count - outputPosition)
        output.withUnsafeBytes { src in
            buffer.baseAddress!.copyMemory(from: src.baseAddress! + outputPosition, byteCount: n)
        }
        outputPosition += n
        return n
    }

    private func refill() throws {
        output.removeAll(keepingCapacity: true)
        outputPosition = 0
        let n = try input.withUnsafeMutableBytes { try rest.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[pending...])) }
        let count = pending + n
        var i = 0
        if !skippedMark, count >= 2 {
            skippedMark = true
            if unit(at: 0) == 0xFEFF { i = 2 }
        }
        if n == 0 {
            ended = true
            // The end: whatever is left cannot be completed.
            while i + 1 < count {
                let u = unit(at: i)
                append(scalar: (0xD800...0xDFFF).contains(u) ? 0xFFFD : UInt32(u))
                i += 2
            }
            if i < count { append(scalar: 0xFFFD) }
            pending = 0
            return
        }
        while i + 1 < count {
            let u = unit(at: i)
            if (0xD800...0xDBFF).contains(u) {
                guard i + 3 < count else { break }  // wait for the low surrogate
                let v = unit(at: i + 2)
                if (0xDC00...0xDFFF).contains(v) {
                    append(scalar: 0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(v) - 0xDC00))
                    i += 4
                } else {
                    append(scalar: 0xFFFD)
                    i += 2
                }
            } else {
                append(scalar: (0xDC00...0xDFFF).contains(u) ? 0xFFFD : UInt32(u))
                i += 2
            }
        }
        pending = count - i
        if pending > 0 { input.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: $0.baseAddress! + i, byteCount: pending) } }
    }

    @inline(__always) private func unit(at i: Int) -> UInt16 {
        bigEndian ? UInt16(input[i]) << 8 | UInt16(input[i + 1]) : UInt16(input[i + 1]) << 8 | UInt16(input[i])
    }

    @inline(__always) private func append(scalar s: UInt32) {
        switch s {
        case 0..<0x80:
            output.append(UInt8(s))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | (s >> 6))); output.append(UInt8(0x80 | (s & 0x3F)))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | (s >> 12))); output.append(UInt8(0x80 | ((s >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (s & 0x3F)))
        default:
            output.append(UInt8(0xF0 | (s >> 18))); output.append(UInt8(0x80 | ((s >> 12) & 0x3F)))
            output.append(UInt8(0x80 | ((s >> 6) & 0x3F))); output.append(UInt8(0x80 | (s & 0x3F)))
        }
    }

    /// `data` (UTF-16 with its byte order mark) as UTF-8, for sniffing.
    static func transcode(_ data: [UInt8], bigEndian: Bool) -> [UInt8] {
        let source = UTF16Source(PrefixedSource(prefix: data, rest: EmptySource()), bigEndian: bigEndian)
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while let n = try? chunk.withUnsafeMutableBytes({ try source.read(into: $0) }), n > 0 { out += chunk[..<n] }
        return out
    }
}

/// Reading the start of an input.
enum ByteSources {
    /// The first `count` bytes for sniffing. A stream that fails after some bytes (a truncated gzip
    /// file) still gets sniffed; reading it again reports the failure at its line.
    static func prefix(of source: ByteSource, count: Int) throws -> [UInt8] {
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

    /// The first `count` bytes of the file at `path`, decompressed when it is gzip.
    static func prefix(of path: String, count: Int) throws -> [UInt8] {
        try prefix(of: GzipSource(path: path), count: count)
    }
}
