import Foundation
import LifelineRules

/// The lines of the logs around the lines findings point at, for reports.
public enum LogExcerpts {
    /// For each distinct (file, line) of `diagnostics`, the lines `line - context ... line + context`
    /// of that file (fewer at the start and end of the file): one excerpt per location, sorted by
    /// file, then line. Overlapping windows are returned separately.
    ///
    /// Each file is opened once and read as a stream through a fixed buffer, only as far as the last
    /// line wanted: a finding near the start of a 1 GB log reads a few kilobytes, and only the lines
    /// of the windows are kept. A line longer than `maxLineBytes` is cut there (at a character
    /// boundary) and ends with `…`, without the rest of it ever being held; invalid UTF-8 is
    /// replaced with U+FFFD and a line's final `\r` is dropped.
    ///
    /// No excerpt is made (the location is skipped) for standard input (`-`), a file that cannot be
    /// opened or read, a gzip-compressed file (detected by its magic bytes: the analysis counted
    /// its decompressed lines, and an excerpt would mean decompressing everything before them), and
    /// a location past the end of its file (the file changed since it was analysed), and a byte offset (a record of
    /// a binary input has no lines to show: its finding shows the event's own message).
    public static func read(around diagnostics: [Diagnostic], context: Int = 3, maxLineBytes: Int = 2000) -> [LogExcerpt] {
        let context = max(0, context)
        let maxLineBytes = max(1, maxLineBytes)
        var locations: [String: Set<Int>] = [:]
        for d in diagnostics where !d.file.isEmpty && d.file != "-" {
            guard let line = d.position.line, line > 0 else { continue }
            locations[d.file, default: []].insert(line)
            // The lines that explain it are shown too (the connect a violation contradicts).
            for r in d.related where r.file == d.file {
                if let l = r.position.line, l > 0 { locations[r.file, default: []].insert(l) }
            }
        }
        var excerpts: [LogExcerpt] = []
        for file in locations.keys.sorted() {
            let lines = locations[file]!.sorted()
            let windows = lines.map { max(1, $0 - context)...($0 + context) }
            guard let kept = try? LineWindowReader(path: file, maxLineBytes: maxLineBytes).read(merged(windows)).lines else { continue }
            for (line, window) in zip(lines, windows) where kept[line] != nil {
                var text: [String] = []
                var n = window.lowerBound
                while n <= window.upperBound, let l = kept[n] {
                    text.append(l)
                    n += 1
                }
                excerpts.append(LogExcerpt(file: file, firstLine: window.lowerBound, lines: text))
            }
        }
        return excerpts
    }

    /// Sorted, overlapping or touching windows joined.
    static func merged(_ windows: [ClosedRange<Int>]) -> [ClosedRange<Int>] {
        var out: [ClosedRange<Int>] = []
        for w in windows.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, w.lowerBound <= last.upperBound + 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, w.upperBound)
            } else {
                out.append(w)
            }
        }
        return out
    }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Musl)
private let systemRead = Musl.read
#elseif canImport(Darwin)
private let systemRead = Darwin.read
#endif

/// Why a file gives no excerpt.
struct ExcerptSkipped: Error {
    let reason: String
}

/// Reads the lines of a file that fall in given windows, streaming.
struct LineWindowReader {
    let path: String
    let maxLineBytes: Int
    var bufferSize = 256 * 1024

    /// The lines in `windows` (sorted, disjoint, 1-based) that the file has, by number, and how
    /// many bytes were read to find them.
    /// - Throws: ``ExcerptSkipped`` when the file cannot be opened or read, or is gzip-compressed.
    func read(_ windows: [ClosedRange<Int>]) throws -> (lines: [Int: String], bytesRead: Int) {
        guard let lastWanted = windows.last?.upperBound else { return ([:], 0) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ExcerptSkipped(reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        var kept: [Int: String] = [:]
        var lineNumber = 1
        var window = 0  // index of the first window that does not end before `lineNumber`
        var current: [UInt8] = []  // the wanted line being read, at most maxLineBytes
        var cut = false
        var wanted = windows[0].contains(1)
        var atStart = true
        var lineHasBytes = false
        var bytesRead = 0

        func finishLine() {
            if wanted { kept[lineNumber] = Self.text(current, cut: cut) }
            lineNumber += 1
            current.removeAll(keepingCapacity: true)
            cut = false
            lineHasBytes = false
            while window < windows.count && windows[window].upperBound < lineNumber { window += 1 }
            wanted = window < windows.count && windows[window].contains(lineNumber)
        }

        reading: while lineNumber <= lastWanted {
            let count = try buffer.withUnsafeMutableBytes { raw -> Int in
                while true {
                    let n = systemRead(fd, raw.baseAddress, raw.count)
                    if n >= 0 { return n }
                    if errno != EINTR { throw ExcerptSkipped(reason: String(cString: strerror(errno))) }
                }
            }
            if count == 0 { break }
            bytesRead += count
            if atStart {
                atStart = false
                if count >= 2 && buffer[0] == 0x1F && buffer[1] == 0x8B { throw ExcerptSkipped(reason: "gzip-compressed") }
            }
            var start = 0
            while start < count {
                let newline = buffer.withUnsafeBytes { raw -> Int? in
                    guard let p = memchr(raw.baseAddress! + start, 0x0A, count - start) else { return nil }
                    return raw.baseAddress!.distance(to: UnsafeRawPointer(p))
                }
                let end = newline ?? count
                if end > start { lineHasBytes = true }
                if wanted && !cut {
                    let room = maxLineBytes - current.count
                    if end - start > room {
                        current.append(contentsOf: buffer[start..<(start + room)])
                        cut = true
                    } else {
                        current.append(contentsOf: buffer[start..<end])
                    }
                }
                guard let newline else { break }
                finishLine()
                if lineNumber > lastWanted { break reading }
                start = newline + 1
            }
        }
        // A last line without a final newline.
        if lineHasBytes && lineNumber <= lastWanted { finishLine() }
        return (kept, bytesRead)
    }

    /// The line as text: a cut line loses any partial character at the cut and gets `…`; a final
    /// `\r` (CRLF files) is dropped; invalid UTF-8 becomes U+FFFD.
    static func text(_ bytes: [UInt8], cut: Bool) -> String {
        var end = bytes.count
        if cut {
            // Back up over continuation bytes to the lead byte of the last character; drop that
            // character when the cut left it incomplete.
            var lead = end - 1
            while lead > 0 && lead > end - 4 && bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
            if lead >= 0 {
                let b = bytes[lead]
                let length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
                if end - lead < length { end = lead }
            }
            return String(decoding: bytes[..<end], as: UTF8.self) + "…"
        }
        if end > 0 && bytes[end - 1] == 0x0D { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
