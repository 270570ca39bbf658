import Foundation
import Testing
import TestSupport
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

    static let ingestFixtures = Repository.tests("LifelineCoreTests", "Fixtures/ingest")

    /// Inputs the ingest targets' campaigns found (`Fixtures/ingest/`, also seeds), replayed
    /// sniffed and with every format forced, through the targets' own invariants
    /// (`FuzzEntry.IngestResult.violations`). `resource-duration-overflow`: a resource report's
    /// `Duration:` of 98 digits trapped converting its milliseconds to `Int`.
    @Test("regression (fuzz ingest): campaign findings keep every ingest invariant",
          arguments: Repository.fileNames(in: ingestFixtures))
    func ingestFindings(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.ingestFixtures.appendingPathComponent(name)))
        for format in [nil] + LogFormat.allCases.map(Optional.some) {
            let violations = bytes.withUnsafeBytes { FuzzEntry.ingest($0, format: format).violations(of: $0, forced: format) }
            #expect(violations.isEmpty, "\(String(describing: format)): \(violations)")
        }
    }

    @Test("a number too large for Int is no number, never a trap", arguments: [
        (1e300, nil), (-1e300, nil), (Double.infinity, nil), (Double.nan, nil), (0x1p63, nil), (-0x1p63, Int.min),
        (9_223_372_036_854_774_784, 9_223_372_036_854_774_784), (176_400.4, 176_400), (-0.5, -1), (2.5, 3),
    ] as [(Double, Int?)])
    func wholeNumbers(value: Double, expected: Int?) {
        #expect(Int(rounding: value) == expected)
    }

    /// A jetsam report's page count is whatever its JSON says: one times the page size that does
    /// not fit gave an overflow trap. The process is still reported, without a resident size.
    @Test("a jetsam report whose page count overflows in bytes is reported without a size")
    func jetsamPagesOverflow() throws {
        let sample = try String(contentsOf: Repo.sampleLogs.appendingPathComponent("jetsam-per-process-limit.ips"), encoding: .utf8)
        let huge = sample.replacingOccurrences(of: #""rpages" ?: ?[0-9]+"#, with: "\"rpages\":9223372036854775807", options: .regularExpression)
        #expect(huge != sample)
        let (events, stats) = ingest(huge, name: "jetsam.ips")
        #expect(stats.isBalanced && !events.isEmpty)
        #expect(events.allSatisfy { $0.kind == .jetsam && $0.details?.residentBytes == nil })
    }

    /// The `sniff` campaign's finding was the target's own invariant: `FE FF …` is UTF-16 by its
    /// byte order mark, while a UTF-8 mark in front makes the same bytes invalid UTF-8. Both
    /// readings are right for their bytes; the target now exempts input with a mark of its own.
    @Test("a UTF-16 byte order mark after a UTF-8 one is invalid UTF-8, alone it is UTF-16")
    func utf16MarkAfterUTF8Mark() {
        let bytes: [UInt8] = [0xFE, 0xFF, 0x00, 0x41, 0x00, 0x0A, 0xFF, 0xFF, 0x02, 0xFF]
        let alone = bytes.withUnsafeBytes { FuzzEntry.sniff($0) }
        #expect(alone.binaryReason == nil)
        let marked = ([0xEF, 0xBB, 0xBF] + bytes).withUnsafeBytes { FuzzEntry.sniff($0) }
        #expect(marked.binaryReason != nil)
    }
}
