import Foundation

/// A value that can be written to a spill file and read back (`ExternalSort`). The encoding is
/// private to one run of the program: no versioning, no portability across machines.
public protocol SpillCodable {
    func encode(to w: inout SpillWriter)
    static func decode(from r: inout SpillReader) -> Self
}

/// Appends values to a byte buffer: integers as LEB128 varints (zig-zag for signed), strings as
/// a length and their UTF-8 bytes.
public struct SpillWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func uint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    public mutating func int(_ v: Int) { uint(UInt64(bitPattern: Int64((v << 1) ^ (v >> 63)))) }

    public mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }

    public mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            uint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    public mutating func optional(_ s: String?) {
        bool(s != nil)
        if let s { string(s) }
    }

    public mutating func optional(_ v: Int?) {
        bool(v != nil)
        if let v { int(v) }
    }

    public mutating func append(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }
}

/// Reads what `SpillWriter` wrote, from a buffer that holds whole records.
public struct SpillReader {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    public private(set) var position: Int

    public init(_ buffer: UnsafeBufferPointer<UInt8>, at position: Int = 0) {
        base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
        end = buffer.count
        self.position = position
    }

    public mutating func uint() -> UInt64 {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while position < end {
            let b = base[position]
            position += 1
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { break }
            shift += 7
        }
        return v
    }

    public mutating func int() -> Int {
        let z = uint()
        return Int(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))))
    }

    public mutating func bool() -> Bool {
        guard position < end else { return false }
        position += 1
        return base[position - 1] != 0
    }

    public mutating func string() -> String {
        let n = min(Int(uint()), end - position)
        let s = String(decoding: UnsafeBufferPointer(start: base + position, count: n), as: UTF8.self)
        position += n
        return s
    }

    public mutating func optionalString() -> String? { bool() ? string() : nil }
    public mutating func optionalInt() -> Int? { bool() ? int() : nil }
}
