// Fuzz target: format detection (FormatSniffer.sniff through FuzzEntry.sniff).
import LifelineCore

@_cdecl("LLVMFuzzerTestOneInput")
public func lifelineFuzzSniff(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = buffer(data, size)
    let a = FuzzEntry.sniff(bytes)
    // Deterministic.
    require(FuzzEntry.sniff(bytes) == a, "sniff is not deterministic")
    // Binary input is never given a structured format.
    if a.binaryReason != nil { require(a.format == .print && !a.markdown, "binary input sniffed as \(a.format)") }
    // A leading UTF-8 byte order mark does not change the decision, unless the input starts with a
    // byte order mark of its own: `FE FF …` is UTF-16 by its mark, but after a UTF-8 mark the same
    // bytes are invalid UTF-8 (found by the campaign: each reading is right for its bytes).
    let ownMark = bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
        || bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF])
    if !ownMark {
        let withBOM = [UInt8]([0xEF, 0xBB, 0xBF]) + Array(bytes)
        let b = withBOM.withUnsafeBytes { FuzzEntry.sniff($0) }
        require(a == b, "a byte order mark changed the sniff: \(a) vs \(b)")
    }
    // A Markdown file name only adds the markdown flag (or keeps a crash report's decision).
    let md = FuzzEntry.sniff(bytes, path: "fuzz.md")
    require(md.binaryReason == a.binaryReason, "the file name changed the binary decision")
    return 0
}
