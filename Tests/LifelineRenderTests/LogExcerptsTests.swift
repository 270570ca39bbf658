import Foundation
import Testing
@testable import LifelineRender
@testable import LifelineRules

/// A temporary directory for one test, removed when the test ends.
final class ReportScratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try write(name, bytes: Array(text.utf8)) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A finding at `file:line` (the rest does not matter to excerpts).
func diagnosticAt(_ file: String, _ line: Int, rule: String = "LC-S03", severity: Severity = .error,
             message: String = "scene S1 became active while unattached", session: String = "P1") -> Diagnostic {
    Diagnostic(ruleId: rule, rule: "active-without-foreground", severity: severity, message: message, file: file,
               line: line, session: session, scene: "S1", state: "unattached")
}

/// `count` numbered lines, `line 1` … `line N`, each ended by a newline unless `finalNewline` is false.
private func numbered(_ count: Int, finalNewline: Bool = true) -> String {
    (1...count).map { "line \($0)" }.joined(separator: "\n") + (finalNewline ? "\n" : "")
}

@Suite struct LogExcerptsTests {
    @Test func contextWindowAroundALine() throws {
        let dir = try ReportScratch()
        let log = try dir.write("a.log", numbered(20))
        let excerpts = LogExcerpts.read(around: [diagnosticAt(log, 10)])
        #expect(excerpts == [LogExcerpt(file: log, firstLine: 7, lines: (7...13).map { "line \($0)" })])
        let wider = LogExcerpts.read(around: [diagnosticAt(log, 10)], context: 5)
        #expect(wider.first?.firstLine == 5)
        #expect(wider.first?.lines == (5...15).map { "line \($0)" })
        #expect(LogExcerpts.read(around: [diagnosticAt(log, 10)], context: 0).first?.lines == ["line 10"])
    }

    @Test func windowsAreCutAtTheFirstAndLastLines() throws {
        let dir = try ReportScratch()
        let log = try dir.write("a.log", numbered(20))
        let noFinalNewline = try dir.write("b.log", numbered(6, finalNewline: false))
        let excerpts = LogExcerpts.read(around: [diagnosticAt(log, 20), diagnosticAt(log, 1), diagnosticAt(noFinalNewline, 6), diagnosticAt(log, 2)])
        #expect(excerpts == [
            LogExcerpt(file: log, firstLine: 1, lines: (1...4).map { "line \($0)" }),
            LogExcerpt(file: log, firstLine: 1, lines: (1...5).map { "line \($0)" }),
            // The final newline ends line 20; it does not start an empty line 21.
            LogExcerpt(file: log, firstLine: 17, lines: (17...20).map { "line \($0)" }),
            LogExcerpt(file: noFinalNewline, firstLine: 3, lines: (3...6).map { "line \($0)" }),
        ])
    }

    @Test func oneExcerptPerLocationSortedByFileThenLine() throws {
        let dir = try ReportScratch()
        let b = try dir.write("b.log", numbered(30))
        let a = try dir.write("a.log", numbered(30))
        let excerpts = LogExcerpts.read(around: [diagnosticAt(b, 12), diagnosticAt(a, 25), diagnosticAt(b, 5), diagnosticAt(b, 12, rule: "LC-T01"), diagnosticAt(a, 3)])
        #expect(excerpts.map { "\(URL(fileURLWithPath: $0.file).lastPathComponent):\($0.firstLine)" }
                == ["a.log:1", "a.log:22", "b.log:2", "b.log:9"])
        // Overlapping windows come separately, each whole.
        let close = LogExcerpts.read(around: [diagnosticAt(a, 10), diagnosticAt(a, 11)])
        #expect(close.map(\.firstLine) == [7, 8])
        #expect(close.allSatisfy { $0.lines.count == 7 })
    }

    @Test func longLinesAreCutAtACharacterBoundaryAndMarked() throws {
        let dir = try ReportScratch()
        // 2-byte characters: a cut at an odd byte count must not leave half of one.
        let long = String(repeating: "é", count: 5000)
        let huge = String(repeating: "x", count: 3 << 20)
        let log = try dir.write("long.log", "short\n\(long)\nafter\n\(huge)\nend\n")
        let excerpts = LogExcerpts.read(around: [diagnosticAt(log, 2), diagnosticAt(log, 4)], context: 1, maxLineBytes: 101)
        try #require(excerpts.count == 2)
        #expect(excerpts[0].lines == ["short", String(repeating: "é", count: 50) + "…", "after"])
        #expect(excerpts[1].lines == ["after", String(repeating: "x", count: 101) + "…", "end"])
        // Exactly at the limit: not cut.
        let exact = LogExcerpts.read(around: [diagnosticAt(log, 2)], context: 0, maxLineBytes: 10_000)
        #expect(exact.first?.lines == [long])
    }

    @Test func invalidUTF8IsRepairedAndCRLFIsDropped() throws {
        let dir = try ReportScratch()
        let bytes: [UInt8] = Array("ok\r\nbad ".utf8) + [0xFF, 0xC3] + Array(" end\r\nlast".utf8)
        let log = try dir.write("mixed.log", bytes: bytes)
        let excerpts = LogExcerpts.read(around: [diagnosticAt(log, 2)])
        #expect(excerpts.first?.lines == ["ok", "bad \u{FFFD}\u{FFFD} end", "last"])
    }

    @Test func unreadableMissingAndGzipFilesAreSkipped() throws {
        let dir = try ReportScratch()
        let good = try dir.write("good.log", numbered(5))
        let gzip = try dir.write("old.log.gz", bytes: [0x1F, 0x8B, 0x08, 0x00, 0x0A, 0x0A, 0x0A, 0x0A, 0x0A, 0x0A])
        let excerpts = LogExcerpts.read(around: [
            diagnosticAt(dir.path("missing.log"), 3), diagnosticAt(gzip, 2), diagnosticAt(dir.url.path, 1), diagnosticAt("-", 1),
            diagnosticAt(good, 3), diagnosticAt(good, 99), diagnosticAt(good, 0),
        ])
        // Only the location inside the readable plain file: not past its end, not line 0.
        #expect(excerpts == [LogExcerpt(file: good, firstLine: 1, lines: (1...5).map { "line \($0)" })])
        #expect(LogExcerpts.read(around: []).isEmpty)
    }

    @Test func readingStopsAfterTheLastLineWanted() throws {
        let dir = try ReportScratch()
        let path = try dir.write("big.log", numbered(10))
        // Grow the file to 256 MiB (sparse: costs no disk) of NUL bytes after the ten lines.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 256 << 20)
        try handle.close()
        let reader = LineWindowReader(path: path, maxLineBytes: 2000, bufferSize: 4096)
        let result = try reader.read([1...5])
        #expect(result.lines.keys.sorted() == [1, 2, 3, 4, 5])
        #expect(result.bytesRead == 4096, "one buffer holds the first five lines")
        #expect(LogExcerpts.read(around: [diagnosticAt(path, 2)]).first?.lines == (1...5).map { "line \($0)" })
    }

    @Test func mergedWindows() {
        #expect(LogExcerpts.merged([5...8, 1...3, 4...4, 10...12, 11...20]) == [1...8, 10...20])
        #expect(LogExcerpts.merged([]) == [])
    }
}
