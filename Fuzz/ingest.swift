// Fuzz target: every format parser. The format is forced by LIFELINE_FUZZ_FORMAT (a LogFormat raw
// value, or `auto` for detection); scripts/fuzz runs this binary once per format (ingest-<format>).
import LifelineCore
#if canImport(Glibc)
import Glibc
#endif

private let forcedFormat: LogFormat? = {
    guard let raw = getenv("LIFELINE_FUZZ_FORMAT").map({ String(cString: $0) }), raw != "auto", !raw.isEmpty else { return nil }
    guard let f = LogFormat(rawValue: raw) else {
        fputs("unknown LIFELINE_FUZZ_FORMAT \(raw)\n", stderr)
        exit(2)
    }
    return f
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func lifelineFuzzIngest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = buffer(data, size)
    let r = FuzzEntry.ingest(bytes, format: forcedFormat)
    let s = r.stats
    let counts = "lines \(s.lines) records \(s.records) continuation \(s.continuationLines) non-log \(s.nonLogLines) unrecognized \(s.unrecognizedLines)"
    require(s.isBalanced, "line accounting does not add up: \(counts)")
    require(s.records >= 0 && s.continuationLines >= 0 && s.nonLogLines >= 0 && s.unrecognizedLines >= 0,
            "negative count: \(counts)")
    let expected = lineCount(bytes, separator: r.sniff.carriageReturnLines ? 13 : 10)
    require(s.lines == expected, "\(s.lines) lines counted, the input has \(expected)")
    require(s.bytes == Int64(size), "\(s.bytes) bytes counted, the input has \(size)")
    require(s.events == r.events.count, "stats say \(s.events) events, \(r.events.count) delivered")
    if let f = forcedFormat { require(s.format == f, "forced \(f), reported \(String(describing: s.format))") }
    if r.sniff.binaryReason != nil { require(r.events.isEmpty && s.unrecognizedLines == s.lines, "binary input produced records") }
    var previous = 0
    for e in r.events {
        require(e.line >= 1 && e.lineCount >= 1 && e.line + e.lineCount - 1 <= s.lines,
                "event \(e.kind) at lines \(e.line)+\(e.lineCount) outside 1...\(s.lines)")
        require(e.line >= previous, "events out of line order: \(e.line) after \(previous)")
        require(e.file == "fuzz.log", "event names file \(e.file)")
        previous = e.line
    }
    require(s.records >= Set(r.events.map(\.line)).count, "more event lines than records")
    for n in s.notes { if let l = n.line { require(l >= 1 && l <= s.lines + 1, "note at line \(l) of \(s.lines): \(n.message)") } }
    return 0
}
