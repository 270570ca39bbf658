import Testing
@testable import LifelineCore

// Inputs found by the fuzz targets (scripts/fuzz, Documentation/Reliability.md), minimised.

@Suite("fuzz regressions")
struct FuzzRegressionTests {
    // ingest-crash: a last line longer than the read buffer and without a line terminator had the
    // bytes past the buffer left out of `InputStats.bytes` (BufferedLineReader's end-of-input branch
    // noted the cut but did not count what it skipped). Minimised: one 5000-byte line, no newline.
    @Test("regression (fuzz ingest-crash): bytes of a cut last line without terminator are counted",
          arguments: [LogFormat.crash, .print, .xcode, nil])
    func cutLastLineBytes(format: LogFormat?) {
        let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 5000)
        let (_, stats) = ingest(bytes: bytes, options: IngestOptions(inputFormat: format, jobs: 1, maxLineBytes: 4096))
        #expect(stats.bytes == 5000)
        #expect(stats.lines == 1)
        #expect(stats.isBalanced)
    }
}
