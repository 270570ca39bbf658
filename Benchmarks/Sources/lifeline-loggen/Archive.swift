import CZlib

/// A ustar archive written through a gzip stream (`.tar.gz`), entries in the order given: what
/// `tar czf` makes of a folder of logs. Fixed owner, mode and times, so the bytes are reproducible.
struct TarGzWriter {
    private let gz: gzFile
    private(set) var contentBytes = 0

    init(gz: gzFile) { self.gz = gz }

    mutating func directory(_ name: String, mtime: Int) {
        header(name.hasSuffix("/") ? name : name + "/", size: 0, mode: "0000755", type: 0x35, mtime: mtime)
    }

    mutating func file(_ name: String, bytes: [UInt8], mtime: Int) {
        header(name, size: bytes.count, mode: "0000644", type: 0x30, mtime: mtime)
        write(bytes)
        let padding = (512 - bytes.count % 512) % 512
        if padding > 0 { write([UInt8](repeating: 0, count: padding)) }
        contentBytes += bytes.count
    }

    /// Two zero blocks end the archive.
    mutating func finish() {
        write([UInt8](repeating: 0, count: 1024))
    }

    private mutating func header(_ name: String, size: Int, mode: String, type: UInt8, mtime: Int) {
        var h = [UInt8](repeating: 0, count: 512)
        func put(_ s: String, at offset: Int, width: Int) {
            let b = Array(s.utf8)
            precondition(b.count <= width, "tar field too long: \(s)")
            for (i, c) in b.enumerated() { h[offset + i] = c }
        }
        func octal(_ v: Int, digits: Int) -> String {
            let s = String(v, radix: 8)
            return String(repeating: "0", count: max(0, digits - s.count)) + s
        }
        put(name, at: 0, width: 100)
        put(mode, at: 100, width: 8)
        put("0000765", at: 108, width: 8)     // uid 501 (mobile)
        put("0000765", at: 116, width: 8)     // gid 501
        put(octal(size, digits: 11), at: 124, width: 12)
        put(octal(mtime, digits: 11), at: 136, width: 12)
        h[156] = type
        put("ustar", at: 257, width: 6)
        put("00", at: 263, width: 2)
        put("mobile", at: 265, width: 32)
        put("mobile", at: 297, width: 32)
        for i in 148..<156 { h[i] = 0x20 }
        let sum = h.reduce(0) { $0 + Int($1) }
        put(octal(sum, digits: 6), at: 148, width: 7)
        h[154] = 0
        h[155] = 0x20
        write(h)
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { p in
            if gzwrite(gz, p.baseAddress, UInt32(p.count)) != Int32(p.count) { fatal("gzwrite failed") }
        }
    }
}
