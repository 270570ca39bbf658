import Foundation

/// Decides an input's format from its first bytes (lifecycle reference, Appendix B), and whether
/// it is text at all.
struct Sniff: Equatable {
    var format: LogFormat
    /// Why the input is not read as text (binary data), or nil.
    var binaryReason: String?
    /// Lines end with a lone carriage return (classic Mac).
    var carriageReturnLines: Bool
    /// Markdown around pasted logs (prose lines are not log lines).
    var markdown: Bool
    /// UTF-16 inputs are transcoded to UTF-8 before their lines are read (`UTF16Source`).
    var encoding: TextEncoding = .utf8
}

enum FormatSniffer {
    static let sampleBytes = 64 * 1024

    /// A line without the `> ` of a Markdown quote.
    static func unquoted(_ l: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var l = l.drop { $0 == 32 }
        guard l.first == 62 else { return l }
        l = l.dropFirst()
        return l.first == 32 ? l.dropFirst() : l
    }

    /// An `.ips` report, however it was pasted: its header line first (possibly cut at its start,
    /// possibly after Markdown prose or a fence), or a pretty-printed body without its header.
    /// (Byte searches, `CrashText.contains`: Foundation's `String.contains` bridges each line to
    /// UTF-16 first, which was a fifth of the cost of reading a small file.)
    static func isIPS(_ nonBlank: [ArraySlice<UInt8>]) -> Bool {
        let lines = nonBlank.prefix(80).map(unquoted).filter { !$0.starts(with: Array("```".utf8)) && !$0.starts(with: Array("~~~".utf8)) }
        guard let head = lines.first else { return false }
        if CrashText.contains(head, "\"bug_type\"") && (head.first == 123 || head.last == 125) { return true }
        if head.drop(while: { $0 == 32 || $0 == 9 }).reversed().drop(while: { $0 == 32 || $0 == 9 }).elementsEqual([123]) {
            let keys = ["\"procName\"", "\"crashReporterKey\"", "\"faultingThread\"", "\"captureTime\""]
            return lines.prefix(60).filter { l in keys.contains { CrashText.contains(l, $0) } }.count >= 2
        }
        // Prose before the report: a header line further down.
        return lines.prefix(40).contains { t in
            t.last == 125 && CrashText.contains(t, "\"bug_type\"") && CrashText.contains(t, "\"incident_id\"")
        }
    }

    static func sniff(_ data: [UInt8], path: String) -> Sniff {
        let encoding = TextEncoding.detect(data)
        if encoding != .utf8 {
            var s = sniff(UTF16Source.transcode(data, bigEndian: encoding == .utf16BE), path: path)
            s.encoding = encoding
            return s
        }
        let data = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(data.dropFirst(3)) : data
        let lower = path.lowercased()
        let markdownName = lower.hasSuffix(".md") || lower.hasSuffix(".markdown") || lower.hasSuffix(".md.gz")
        if let reason = binaryReason(data) {
            return Sniff(format: .print, binaryReason: reason, carriageReturnLines: false, markdown: false)
        }
        let cr = data.contains(13) && !data.contains(10)
        let separator: UInt8 = cr ? 13 : 10
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for (i, b) in data.enumerated() where b == separator {
            lines.append(trimCR(data[start..<i]))
            start = i + 1
            if lines.count == 400 { break }
        }
        if lines.count < 400, start < data.count { lines.append(trimCR(data[start...])) }

        let nonBlank = lines.filter { !$0.allSatisfy { $0 == 32 || $0 == 9 } }
        var sawFence = false
        for l in nonBlank where l.starts(with: Array("```".utf8)) { sawFence = true; break }
        let markdown = markdownName || sawFence

        if MetricKitReader.looksLikePayload(Array(data.prefix(16384))) {
            return Sniff(format: .metricKit, binaryReason: nil, carriageReturnLines: cr, markdown: false)
        }
        if isIPS(nonBlank) {
            return Sniff(format: .ips, binaryReason: nil, carriageReturnLines: cr, markdown: false)
        }
        let crashKeys = ["Incident Identifier:", "Exception Type:", "Triggered by Thread:", "Crashed Thread:",
                         "Hardware Model:", "Code Type:", "Exception Codes:", "Termination Reason:"]
        let crashHits = nonBlank.prefix(80).map(unquoted).filter { l in crashKeys.contains { l.starts(with: Array($0.utf8)) } }.count
        if crashHits >= 3 {
            return Sniff(format: .crash, binaryReason: nil, carriageReturnLines: cr, markdown: false)
        }
        // A JSON array: first meaningful byte `[` followed by `{` (possibly on the next line).
        let body = nonBlank.drop { $0.starts(with: Array("Filtering the log data".utf8)) }
        let firstBytes = body.prefix(2).flatMap { $0 }.filter { $0 != 32 && $0 != 9 }
        // An empty array (`[]`) is a `log show` export only when nothing else follows: an app that
        // prints an empty array (`print([])`) at the top of a console capture writes the same line.
        if firstBytes.count >= 2, firstBytes[0] == 91, firstBytes[1] == 123 || firstBytes[1] == 93 && body.count == 1 {
            return Sniff(format: .logJSON, binaryReason: nil, carriageReturnLines: cr, markdown: false)
        }
        var counts: [LogFormat: Int] = [:]
        var metadata = 0, ndjson = 0
        for l in nonBlank {
            l.withUnsafeBufferPointer { b in
                var h = HeaderSpans(format: .print, messageStart: 0)
                if HeaderParser.isMetadataLine(b) { metadata += 1 }
                else if HeaderParser.parseAny(b, into: &h) { counts[h.format, default: 0] += 1 }
                else if b.count > 2, b[0] == 123, b[1] == 34 { ndjson += 1 }
            }
        }
        let best = counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }
        let headerCount = best?.value ?? 0
        let format: LogFormat
        if ndjson > headerCount && ndjson >= metadata {
            // `unifiedlog_iterator` JSON Lines carry its own keys, not `log`'s (`eventMessage`).
            let first = nonBlank.first { $0.first == 123 }.map { $0.prefix(4096) } ?? []
            let unified = CrashText.contains(first, "\"thread_id\":") && CrashText.contains(first, "\"log_type\":") && !CrashText.contains(first, "\"eventMessage\"")
            format = unified ? .unifiedLog : .logNDJSON
        } else if metadata > 0 && metadata * 2 >= headerCount {
            format = .xcodeMetadata
        } else if let best, best.value > 0 {
            format = best.key
        } else {
            format = .print
        }
        return Sniff(format: format, binaryReason: nil, carriageReturnLines: cr, markdown: markdown)
    }

    private static func trimCR(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        s.last == 13 ? s.dropLast() : s
    }

    /// A reason when `data` is not text: known binary signatures, UTF-32, or many control bytes.
    static func binaryReason(_ data: [UInt8]) -> String? {
        guard !data.isEmpty else { return nil }
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("GIF8".utf8), "a GIF image"), (Array("%PDF-".utf8), "a PDF document"),
            ([0x50, 0x4B, 0x03, 0x04], "a zip archive"), ([0x7F, 0x45, 0x4C, 0x46], "an ELF binary"),
            ([0xCF, 0xFA, 0xED, 0xFE], "a Mach-O binary"), ([0xCA, 0xFE, 0xBA, 0xBE], "a Mach-O universal binary"),
            (Array("bplist00".utf8), "a binary property list"), (Array("SQLite format 3".utf8), "an SQLite database"),
            (Array("tracev3".utf8), "a tracev3 unified log (export it with `log show --style ndjson`)"),
        ]
        for (magic, name) in signatures where data.starts(with: magic) { return "binary data (\(name))" }
        if TarArchive.looksLikeTar(Array(data.prefix(512))) {
            return "a tar archive (`lifeline triage` reads the logs inside archives; or extract it first)"
        }
        if data.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || data.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            return "UTF-32 text is not read; convert it with `iconv -f UTF-32 -t UTF-8`"
        }
        let sample = data.prefix(8192)
        var control = 0
        for b in sample where b < 32 && b != 9 && b != 10 && b != 13 && b != 12 && b != 27 { control += 1 }
        if control * 10 > sample.count { return "binary data (\(control) control bytes in the first \(sample.count))" }
        return nil
    }
}
