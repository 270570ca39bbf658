import CLifelineZlib
import Foundation

/// Reads a tar archive (ustar, GNU and pax variants; plain or gzip-compressed) member by member,
/// streaming: one pass over the archive, a member's bytes handed out as a `ByteSource` while the
/// archive is read, nothing extracted to disk and nothing held but one buffer.
///
/// Archives of device logs are how logs travel (a sysdiagnose bundle, a CI artifact); only the
/// members that look like logs (`InputExpansion.isLogLike`, nested gzip included) are worth reading,
/// and the caller decides which.
public final class TarArchive {
    /// The archive's path as given.
    public let path: String
    private let source: ByteSource
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var start = 0, end = 0
    /// Offset in the (decompressed) archive of the next byte not yet consumed.
    private var offset: Int64 = 0
    /// Bytes of the current member not yet consumed, and the padding after them.
    private var memberLeft: Int64 = 0
    private var paddingLeft: Int64 = 0
    private var finished = false

    /// A member: its path inside the archive, its size, and (for regular files) its bytes.
    public struct Member: Sendable, Equatable {
        public var name: String
        public var size: Int64
        public var isFile: Bool
    }

    /// Opens `path` (gzip is undone transparently).
    public init(path: String) throws {
        self.path = path
        source = try GzipSource(path: path)
    }

    init(path: String, source: ByteSource) {
        self.path = path
        self.source = source
    }

    /// Whether `path` names an archive this reader takes: `.tar`, `.tar.gz`, `.tgz`.
    public static func hasArchiveName(_ path: String) -> Bool {
        let n = path.lowercased()
        return n.hasSuffix(".tar") || n.hasSuffix(".tar.gz") || n.hasSuffix(".tgz")
    }

    /// Whether `header` (the first 512 bytes of a stream, decompressed) is a tar header.
    static func looksLikeTar(_ header: [UInt8]) -> Bool {
        guard header.count >= 512 else { return false }
        let magic = Array(header[257..<262])
        return magic == Array("ustar".utf8) && checksumMatches(header[0..<512])
    }

    /// The next member, or nil at the end of the archive. Whatever the caller did not read of the
    /// member before is skipped. Throws `InputError` for a corrupt or truncated archive.
    public func next() throws -> Member? {
        try skipRestOfMember()
        var longName: String? = nil
        var paxPath: String? = nil
        var paxSize: Int64? = nil
        while !finished {
            guard let header = try readBlock() else {
                // The end of the data without the two zero blocks: accepted (many writers stop here).
                finished = true
                return nil
            }
            if header.allSatisfy({ $0 == 0 }) {
                finished = true
                return nil
            }
            guard Self.checksumMatches(header[...]) else {
                throw InputError(path: path, reason: "not a tar archive, or corrupt at byte \(offset - 512) (header checksum does not match)")
            }
            let type = header[156]
            guard let size = Self.number(header[124..<136]) else {
                throw InputError(path: path, reason: "corrupt tar header at byte \(offset - 512) (size field)")
            }
            let dataSize = paxSize ?? size
            switch type {
            case UInt8(ascii: "L"):  // GNU long name: the data is the next member's name
                let data = try readData(size)
                longName = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
                continue
            case UInt8(ascii: "x"):  // pax extended header for the next member
                let data = try readData(size)
                let (p, s) = Self.paxRecords(data)
                paxPath = p ?? paxPath
                paxSize = s ?? paxSize
                continue
            case UInt8(ascii: "g"), UInt8(ascii: "K"):  // global pax header, GNU long link name: not needed
                _ = try readData(size)
                continue
            default:
                break
            }
            var name = paxPath ?? longName ?? Self.headerName(header)
            if name.hasPrefix("./") { name.removeFirst(2) }
            let isFile = type == 0 || type == UInt8(ascii: "0") || type == UInt8(ascii: "7")
            // Links, directories and devices have no data of their own (their size field says 0).
            memberLeft = isFile ? dataSize : (type == UInt8(ascii: "5") ? 0 : size)
            paddingLeft = (512 - memberLeft % 512) % 512
            return Member(name: name, size: isFile ? dataSize : 0, isFile: isFile)
        }
        return nil
    }

    /// The bytes of the member `next()` returned last, as a source that ends at the member's end.
    /// A member compressed on its own (`.gz` inside the archive) is decompressed.
    func memberSource(_ member: Member) -> ByteSource {
        let raw = MemberSource(archive: self, member: member)
        if member.name.lowercased().hasSuffix(".gz") { return InflateSource(source: raw, name: "\(path)!/\(member.name)") }
        return raw
    }

    /// Reads up to `buffer.count` bytes of the current member.
    fileprivate func readMember(into out: UnsafeMutableRawBufferPointer, name: String) throws -> Int {
        guard memberLeft > 0, out.count > 0 else { return 0 }
        if start == end {
            try fill()
            if start == end {
                throw InputError(path: "\(path)!/\(name)", reason: "the archive ends inside this member (\(memberLeft) bytes missing): truncated archive")
            }
        }
        let n = min(out.count, end - start, Int(min(memberLeft, Int64(Int.max))))
        buffer.withUnsafeBytes { out.baseAddress!.copyMemory(from: $0.baseAddress! + start, byteCount: n) }
        start += n
        offset += Int64(n)
        memberLeft -= Int64(n)
        return n
    }

    // MARK: Blocks

    private func skipRestOfMember() throws {
        var left = memberLeft + paddingLeft
        memberLeft = 0
        paddingLeft = 0
        while left > 0 {
            if start == end {
                try fill()
                if start == end { throw InputError(path: path, reason: "the archive ends inside a member (truncated archive)") }
            }
            let n = Int(min(Int64(end - start), left))
            start += n
            offset += Int64(n)
            left -= Int64(n)
        }
    }

    /// The next 512-byte block, or nil at a clean end of data.
    private func readBlock() throws -> [UInt8]? {
        var block = [UInt8]()
        block.reserveCapacity(512)
        while block.count < 512 {
            if start == end {
                try fill()
                if start == end {
                    if block.isEmpty { return nil }
                    throw InputError(path: path, reason: "the archive ends inside a header (truncated archive)")
                }
            }
            let n = min(512 - block.count, end - start)
            block.append(contentsOf: buffer[start..<(start + n)])
            start += n
            offset += Int64(n)
        }
        return block
    }

    /// A member's data and padding, read whole (for the small metadata members only).
    private func readData(_ size: Int64) throws -> [UInt8] {
        guard size <= 1 << 20 else { throw InputError(path: path, reason: "tar metadata member of \(size) bytes at byte \(offset) (corrupt archive)") }
        var data = [UInt8]()
        let padded = (size + 511) / 512 * 512
        while Int64(data.count) < padded {
            guard let block = try readBlock() else { throw InputError(path: path, reason: "the archive ends inside a header (truncated archive)") }
            data.append(contentsOf: block)
        }
        return Array(data.prefix(Int(size)))
    }

    private func fill() throws {
        start = 0
        end = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
    }

    // MARK: Header fields

    static func checksumMatches(_ header: ArraySlice<UInt8>) -> Bool {
        let h = Array(header)
        guard h.count >= 512, let stored = number(h[148..<156]) else { return false }
        var sum: Int64 = 0
        for (i, b) in h.prefix(512).enumerated() { sum += (148..<156).contains(i) ? 32 : Int64(b) }
        return sum == stored
    }

    /// An octal field (NUL- or space-terminated), or a base-256 one (high bit set, GNU).
    static func number(_ field: ArraySlice<UInt8>) -> Int64? {
        guard let first = field.first else { return nil }
        if first & 0x80 != 0 {
            var v: Int64 = Int64(first & 0x7F)
            for b in field.dropFirst() {
                guard v < Int64.max >> 8 else { return nil }
                v = v << 8 | Int64(b)
            }
            return v
        }
        var v: Int64 = 0
        var digits = 0
        for b in field {
            if b == 0 || b == 32 { if digits > 0 { break } else { continue } }
            guard b >= 48, b <= 55 else { return nil }
            v = v * 8 + Int64(b - 48)
            digits += 1
        }
        return v
    }

    static func headerName(_ h: [UInt8]) -> String {
        func text(_ r: Range<Int>) -> String { String(decoding: h[r].prefix { $0 != 0 }, as: UTF8.self) }
        let name = text(0..<100)
        let prefix = Array(h[257..<263]) == Array("ustar\0".utf8) ? text(345..<500) : ""
        return prefix.isEmpty ? name : prefix + "/" + name
    }

    /// `path` and `size` from pax records (`LEN key=value\n`).
    static func paxRecords(_ data: [UInt8]) -> (path: String?, size: Int64?) {
        var path: String? = nil, size: Int64? = nil
        var i = 0
        while i < data.count {
            guard let space = data[i...].firstIndex(of: 32) else { break }
            guard let length = Int(String(decoding: data[i..<space], as: UTF8.self)), length > 0, i + length <= data.count else { break }
            let record = data[(space + 1)..<(i + length)]
            if let eq = record.firstIndex(of: UInt8(ascii: "=")) {
                let key = String(decoding: record[record.startIndex..<eq], as: UTF8.self)
                var value = String(decoding: record[(eq + 1)...], as: UTF8.self)
                if value.hasSuffix("\n") { value.removeLast() }
                if key == "path" { path = value } else if key == "size" { size = Int64(value) }
            }
            i += length
        }
        return (path, size)
    }
}

/// The bytes of one archive member, read from the archive's stream.
private final class MemberSource: ByteSource {
    let archive: TarArchive
    let member: TarArchive.Member

    init(archive: TarArchive, member: TarArchive.Member) {
        self.archive = archive
        self.member = member
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try archive.readMember(into: buffer, name: member.name)
    }
}

/// Decompresses a gzip stream read from another source (a compressed member inside an archive);
/// data that is not gzip passes through unchanged.
final class InflateSource: ByteSource {
    private let source: ByteSource
    private let name: String
    private var stream = z_stream()
    private static let inputSize = 64 * 1024
    /// Compressed input; zlib keeps pointers into it between calls, so it is allocated, not an array.
    private let input = UnsafeMutableRawBufferPointer.allocate(byteCount: InflateSource.inputSize, alignment: 16)
    private var inputEnd = false
    private var mode: Mode = .undecided
    private var pending: [UInt8] = []   // bytes read while deciding, when the data is not gzip

    private enum Mode { case undecided, inflate, passThrough, done }

    init(source: ByteSource, name: String) {
        self.source = source
        self.name = name
    }

    deinit {
        if mode == .inflate || mode == .done { inflateEnd(&stream) }
        input.deallocate()
    }

    func read(into out: UnsafeMutableRawBufferPointer) throws -> Int {
        guard out.count > 0 else { return 0 }
        switch mode {
        case .undecided:
            let n = try refill()
            if n >= 2, input[0] == 0x1F, input[1] == 0x8B {
                guard inflateInit2_(&stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                    throw InputError(path: name, reason: "cannot start decompressing")
                }
                mode = .inflate
                stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = UInt32(n)
                return try inflateSome(into: out)
            }
            mode = .passThrough
            pending = Array(input.prefix(n))
            return try read(into: out)
        case .passThrough:
            if !pending.isEmpty {
                let n = min(out.count, pending.count)
                pending.withUnsafeBytes { out.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: n) }
                pending.removeFirst(n)
                return n
            }
            return try source.read(into: out)
        case .inflate:
            return try inflateSome(into: out)
        case .done:
            return 0
        }
    }

    /// Reads the next compressed bytes into `input`; their count (0 at the end).
    private func refill() throws -> Int {
        let n = try source.read(into: input)
        if n == 0 { inputEnd = true }
        stream.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.avail_in = UInt32(n)
        return n
    }

    private func inflateSome(into out: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            if stream.avail_in == 0 && !inputEnd { _ = try refill() }
            stream.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = UInt32(min(out.count, Int(UInt32.max)))
            let status = inflate(&stream, Z_NO_FLUSH)
            let produced = out.count - Int(stream.avail_out)
            if status == Z_STREAM_END {
                // Another gzip member may follow (concatenated files); otherwise this is the end.
                if stream.avail_in == 0 && !inputEnd { _ = try refill() }
                if stream.avail_in > 0 {
                    inflateReset(&stream)
                } else {
                    mode = .done
                }
                if produced > 0 || mode == .done { return produced }
                continue
            }
            if status != Z_OK && status != Z_BUF_ERROR { throw InputError(path: name, reason: "corrupt gzip data") }
            if produced > 0 { return produced }
            if inputEnd && stream.avail_in == 0 {
                throw InputError(path: name, reason: "gzip data ends before the end of its stream (truncated file)")
            }
        }
    }
}
