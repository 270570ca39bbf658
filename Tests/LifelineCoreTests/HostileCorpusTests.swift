import Foundation
import Testing
import ZIPFoundation
@testable import LifelineCore

/// Inputs that long fuzz runs found (`../shared/corpus/hostile/`, read in place), and inputs made
/// here with the same cause, so the cause stays covered on a checkout without `../shared`.
@Suite("hostile inputs from fuzz campaigns")
struct HostileCorpusTests {
    static let hostile = Repo.corpus.appendingPathComponent("hostile")
    static let present = FileManager.default.fileExists(atPath: hostile.path)

    static var files: [String] {
        Repo.files(in: hostile).map(\.lastPathComponent)
    }

    // MARK: The corpus's own inputs

    /// Every hostile input gives a result, through the reader its finder used, without a hang:
    /// an `.ipa` is read or refused with a message naming it, anything else is ingested (sniffed,
    /// as `ingest-auto` does) with every invariant of the ingest fuzz targets kept.
    @Test("each hostile input gives a clear result", .enabled(if: present, "../shared/corpus/hostile is not beside this checkout"),
          arguments: files)
    func replay(_ name: String) throws {
        let path = Self.hostile.appendingPathComponent(name).path
        if name.hasSuffix(".ipa") || name.hasSuffix(".plist") {
            let outcome = try #require(Deadline.run(seconds: 60) { () -> String in
                do { return "read: \(try ManifestReader.read(path: path).summaryLines)" } catch { return "\(error)" }
            }, "ManifestReader.read did not return within 60 s")
            #expect(outcome.hasPrefix("\(path)") || outcome.hasPrefix("read: "), "\(outcome)")
            return
        }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let violations = try #require(Deadline.run(seconds: 60) {
            bytes.withUnsafeBytes { FuzzEntry.ingest($0, format: nil).violations(of: $0, forced: nil) }
        }, "ingest did not return within 60 s")
        #expect(violations.isEmpty, "\(violations)")
        // The file read as `lifeline events` reads it (a plain file, 1 MiB lines).
        let r = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [path])
        let lines = r.inputs[0].lines
        for e in r.events { #expect(e.line >= 1 && e.line + e.lineCount - 1 <= lines, "\(e.kind) at \(e.line)+\(e.lineCount) of \(lines) lines") }
        #expect(r.inputs[0].isBalanced)
    }

    @Test("manifest-hang.ipa is refused, naming the archive and the member",
          .enabled(if: present, "../shared/corpus/hostile is not beside this checkout"))
    func hangingArchive() throws {
        let path = Self.hostile.appendingPathComponent("manifest-hang.ipa").path
        let message = try #require(Deadline.run(seconds: 60) { () -> String? in
            do { _ = try ManifestReader.read(path: path); return nil } catch { return "\(error)" }
        } ?? nil)
        #expect(message.hasPrefix(path) && message.contains("Payload/Weather.app/Info.plist cannot be extracted"), "\(message)")
    }

    @Test("ingest-auto-line-outside.log: the crash report's event is at the report's first header line",
          .enabled(if: present, "../shared/corpus/hostile is not beside this checkout"))
    func crashInsideLog() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.hostile.appendingPathComponent("ingest-auto-line-outside.log")))
        let r = bytes.withUnsafeBytes { FuzzEntry.ingest($0, format: nil) }
        let crash = try #require(r.events.first { $0.kind == .crashReport })
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        // The report's text starts mid-file (its "Incident Identifier" was pasted into a line
        // before): the event is at its first header line, "Process: Kiln [2417]".
        #expect(crash.line <= r.stats.lines && CrashReportParser.looksLikeStart(lines[crash.line - 1]), "line \(crash.line): \(lines[crash.line - 1])")
    }

    // MARK: The same causes, made here

    /// A crash report read from a log's lines counted a lone `\r` inside a line as a line break
    /// (the parser split the joined text again), so its event pointed below where it starts,
    /// and past the input's end. Lines are now the reader's, whatever a line holds.
    @Test("a crash report after lines holding carriage returns starts where the reader says",
          arguments: [0, 1, 40, 400])
    func carriageReturnsBeforeReport(returns: Int) throws {
        let report = try String(contentsOf: Repo.sampleLogs.appendingPathComponent("exception-launch.crash"), encoding: .utf8)
        let prose = "Filtering the log data" + String(repeating: "\r", count: returns) + " done\n\n"
        let bytes = Array((prose + report).utf8)
        for format in [LogFormat.crash, nil] {
            let r = bytes.withUnsafeBytes { FuzzEntry.ingest($0, format: format) }
            #expect(bytes.withUnsafeBytes { r.violations(of: $0, forced: format) }.isEmpty)
            let crash = try #require(r.events.first { $0.kind == .crashReport })
            #expect(crash.line == 3, "format \(String(describing: format)), \(returns) carriage returns")
            #expect(crash.line + crash.lineCount - 1 <= r.stats.lines)
        }
        // The report alone, with the same line inside it, parses the same from its text.
        let parsed = try CrashReportParser.parse(report)
        #expect(parsed.startLine == 1)
    }

    /// An `.ipa` whose Info.plist is a deflate stream that never ends (a stored block claiming
    /// 65,535 bytes, then the archive's end): ZIPFoundation's inflate loop read past the member and
    /// then waited forever for more input. It is refused now, naming the member.
    @Test("an .ipa whose Info.plist's deflate stream is cut is refused, naming the member")
    func cutDeflateStream() throws {
        let dir = scratchDirectory("hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ipa = dir.appendingPathComponent("Cut.ipa")
        try Self.writeCutDeflateIPA(to: ipa)
        let message = try #require(Deadline.run(seconds: 60) { () -> String? in
            do { _ = try ManifestReader.read(path: ipa.path); return nil } catch { return "\(error)" }
        } ?? nil)
        #expect(message.hasPrefix(ipa.path) && message.contains("Payload/Cut.app/Info.plist cannot be extracted"), "\(message)")
    }

    /// Writes an `.ipa` (through ZIPFoundation) whose Info.plist member's deflate data is replaced,
    /// in place, by a stored block header that claims more bytes than the member holds.
    static func writeCutDeflateIPA(to url: URL) throws {
        let plist = Data(String(repeating: "<key>UIApplicationSceneManifest</key><dict/>\n", count: 20).utf8)
        let archive = try Archive(url: url, accessMode: .create)
        let name = "Payload/Cut.app/Info.plist"
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(plist.count), compressionMethod: .deflate) { position, size in
            plist.subdata(in: Int(position)..<Int(position) + size)
        }
        var bytes = [UInt8](try Data(contentsOf: url))
        // The first local header: name length at 26, extra length at 28, data after both.
        #expect(bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]))
        let dataStart = 30 + Int(bytes[26]) + Int(bytes[27]) << 8 + Int(bytes[28]) + Int(bytes[29]) << 8
        // BFINAL=1, BTYPE=00 (stored), LEN=0xFFFF, NLEN=0x0000.
        bytes.replaceSubrange(dataStart..<dataStart + 5, with: [0x01, 0xFF, 0xFF, 0x00, 0x00])
        try Data(bytes).write(to: url)
    }
}

/// Runs work on a thread of its own and waits at most `seconds` for it: a hang becomes a failed
/// test (nil) instead of a suite that never ends. Not a timing check: the limit is far above any
/// normal run.
enum Deadline {
    static func run<T: Sendable>(seconds: Double, _ work: @escaping @Sendable () -> T) -> T? {
        let box = DeadlineBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = work()
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return box.value
    }
}

private final class DeadlineBox<T>: @unchecked Sendable {
    var value: T?
}
