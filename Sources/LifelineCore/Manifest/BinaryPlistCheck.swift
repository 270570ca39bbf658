import Foundation

/// What Foundation must not be given: a look at a binary property list's object table, before
/// `PropertyListSerialization` reads it.
///
/// swift-corelibs-foundation's reader crashes (a segmentation fault while bridging an `NSSet` to
/// Swift) on a binary plist that holds a set (marker `0xC_`), a type the format allows but no
/// Info.plist has; found by the `manifest` fuzz campaign. One pass over the offset table, bounded
/// by its size; a table that cannot be read is left to Foundation, which refuses it with an error.
enum BinaryPlistCheck {
    /// Why Foundation cannot be given `data`, or nil.
    static func refusal(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist".utf8)) else { return nil }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let count = bigEndian(bytes, at: trailer + 8, size: 8)
        let tableStart = bigEndian(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), let count, let tableStart, tableStart >= 8, tableStart <= trailer,
              count <= UInt64((trailer - Int(tableStart)) / offsetSize) else { return nil }
        for i in 0..<Int(count) {
            guard let offset = bigEndian(bytes, at: Int(tableStart) + i * offsetSize, size: offsetSize),
                  offset >= 8, offset < UInt64(tableStart) else { continue }
            if bytes[Int(offset)] & 0xF0 == 0xC0 {
                return "the binary property list holds a set (object \(i)), which no Info.plist has and Foundation cannot read here"
            }
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], at start: Int, size: Int) -> UInt64? {
        guard start >= 0, start + size <= bytes.count else { return nil }
        var v: UInt64 = 0
        for b in bytes[start..<start + size] { v = v << 8 | UInt64(b) }
        return v
    }
}
