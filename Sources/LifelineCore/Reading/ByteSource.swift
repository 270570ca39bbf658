import CZlib
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
