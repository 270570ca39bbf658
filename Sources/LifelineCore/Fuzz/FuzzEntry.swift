import Foundation

/// Public entry points for the libFuzzer targets in `Fuzz/` (built by `scripts/fuzz`). Fuzzers link
/// against the module without `@testable`, so the internal stages they exercise are reached here.
/// Not an API for anything else: nothing in the package calls these.
public enum FuzzEntry {
    /// What `FormatSniffer` decided about the first bytes of an input.
    public struct SniffResult: Sendable, Equatable {
        public var format: LogFormat
        public var binaryReason: String?
        public var carriageReturnLines: Bool
        public var markdown: Bool
    }

    /// Sniffs `bytes` as if they were the start of the input `path`.
    public static func sniff(_ bytes: UnsafeRawBufferPointer, path: String = "fuzz.log") -> SniffResult {
        let s = FormatSniffer.sniff(Array(bytes), path: path)
        return SniffResult(format: s.format, binaryReason: s.binaryReason,
                           carriageReturnLines: s.carriageReturnLines, markdown: s.markdown)
    }

    /// The outcome of ingesting one in-memory input.
    public struct IngestResult: Sendable {
        public var events: [Event]
        public var stats: InputStats
        public var sniff: SniffResult
    }

    /// Ingests `bytes` as one input named `path`, read from memory on the calling thread the way
    /// `Ingester` reads a stream it cannot reopen (standard input, an archive member): sniffed
    /// from its first 64 KiB, then read as `format` (or the sniffed format when nil).
    public static func ingest(_ bytes: UnsafeRawBufferPointer, format: LogFormat?, path: String = "fuzz.log",
                              maxLineBytes: Int = 4096) -> IngestResult {
        let data = Array(bytes)
        let sniffed = FormatSniffer.sniff(Array(data.prefix(FormatSniffer.sampleBytes)), path: path)
        let result = SniffResult(format: sniffed.format, binaryReason: sniffed.binaryReason,
                                 carriageReturnLines: sniffed.carriageReturnLines, markdown: sniffed.markdown)
        let mode = format ?? sniffed.format
        if let reason = sniffed.binaryReason {
            var stats = InputStats(path: path)
            stats.error = reason
            do { try LineCounting.countLines(PrefixedSource(prefix: data, rest: EmptySource()), into: &stats) } catch {
                stats.notes.append(InputNote(.error, line: nil, "\(error)"))
            }
            stats.unrecognizedLines = stats.lines
            stats.settleFormat(forced: format, sniffed: sniffed.format)
            return IngestResult(events: [], stats: stats, sniff: result)
        }
        var processor = RecordProcessor(file: path, mode: mode, forced: format != nil,
                                        context: TimeContext(referenceYear: 2024, referenceMonth: 6),
                                        markdown: sniffed.markdown, collectEvents: true, classifier: EventClassifier())
        processor.stripsByteOrderMark = true
        var readError: String?
        do {
            var feeder = LineFeeder(separator: sniffed.carriageReturnLines ? 13 : 10, maxLineBytes: max(4096, maxLineBytes))
            feeder.ndjson = mode == .logNDJSON || mode == .unifiedLog
            var reader = BufferedLineReader(source: PrefixedSource(prefix: data, rest: EmptySource()), feeder: feeder)
            try reader.run(&processor)
        } catch {
            readError = "\(error)"
        }
        processor.finish()
        var stats = processor.stats
        if let readError { stats.error = readError }
        stats.settleFormat(forced: format, sniffed: sniffed.format)
        return IngestResult(events: processor.events, stats: stats, sniff: result)
    }
}

extension FuzzEntry.IngestResult {
    /// The invariants every ingest of `bytes` keeps, as messages of those it breaks (none when all
    /// hold): every line accounted for once, every byte counted, every event inside the input's
    /// lines and in line order, the forced format reported. The `ingest-*` fuzz targets fail on the
    /// first; the regression tests replay their findings through the same list.
    public func violations(of bytes: UnsafeRawBufferPointer, forced: LogFormat?) -> [String] {
        var out: [String] = []
        let s = stats
        let counts = "lines \(s.lines) records \(s.records) continuation \(s.continuationLines) non-log \(s.nonLogLines) unrecognized \(s.unrecognizedLines)"
        if !s.isBalanced { out.append("line accounting does not add up: \(counts)") }
        if s.records < 0 || s.continuationLines < 0 || s.nonLogLines < 0 || s.unrecognizedLines < 0 { out.append("negative count: \(counts)") }
        let separator: UInt8 = sniff.carriageReturnLines ? 13 : 10
        var expected = 0
        for b in bytes where b == separator { expected += 1 }
        if let last = bytes.last, last != separator { expected += 1 }
        if s.lines != expected { out.append("\(s.lines) lines counted, the input has \(expected)") }
        if s.bytes != Int64(bytes.count) { out.append("\(s.bytes) bytes counted, the input has \(bytes.count)") }
        if s.events != events.count { out.append("stats say \(s.events) events, \(events.count) delivered") }
        if let f = forced, s.format != f { out.append("forced \(f), reported \(String(describing: s.format))") }
        if sniff.binaryReason != nil, !(events.isEmpty && s.unrecognizedLines == s.lines) { out.append("binary input produced records") }
        var previous = 0
        for e in events {
            guard let line = e.position.line else { out.append("event \(e.kind) of a text input at \(e.position)"); continue }
            if !(line >= 1 && e.extent >= 1 && line + e.extent - 1 <= s.lines) {
                out.append("event \(e.kind) at lines \(line)+\(e.extent) outside 1...\(s.lines)")
            }
            if line < previous { out.append("events out of line order: \(line) after \(previous)") }
            if e.file != s.path { out.append("event names file \(e.file), not \(s.path)") }
            previous = line
        }
        if s.records < Set(events.map(\.position)).count { out.append("more event lines than records") }
        for n in s.notes {
            guard let p = n.position else { continue }
            guard let l = p.line else { out.append("note of a text input at \(p): \(n.message)"); continue }
            if !(l >= 1 && l <= s.lines + 1) { out.append("note at line \(l) of \(s.lines): \(n.message)") }
        }
        return out
    }
}

extension FuzzEntry {
    /// One way of reading a manifest's bytes and what came of it.
    public struct ManifestRead {
        /// True when the bytes were read as an `.ipa` (`ManifestReader.readArchive`), false for a plist.
        public var archive: Bool
        /// The manifest, or what `ManifestReader` threw.
        public var result: Result<SceneManifest, any Error>
        /// The derived views of a manifest read: `roles` and `configurations` (counted),
        /// `line(of:)` of each configuration's path, `summaryLines`, and each delegate class expanded
        /// with the manifest's product module and without one.
        public var roleCount = 0
        public var configurationCount = 0
        public var configurationLines: [Int?] = []
        public var summaryLines: [String] = []
        public var expansions: [BuildSettingExpansion] = []
        public var moduleLessExpansions: [BuildSettingExpansion] = []
    }

    /// The product module the fuzz reads expand `$(PRODUCT_MODULE_NAME)` to.
    public static let manifestProductModule = "Fuzz_App"
    public static let manifestPath = "fuzz/Info.plist"
    /// Archives are read from a file (as `lifeline manifest` reads them): one per fuzzing process.
    public static let archivePath = (NSTemporaryDirectory() as NSString).appendingPathComponent("lifeline-fuzz-\(getpid()).ipa")

    /// Reads `bytes` with `ManifestReader` the ways `lifeline manifest` can: always as a property
    /// list file (`parse`), and as an `.ipa` (`readArchive`) when they start with the zip magic
    /// `PK\3\4`; a manifest read is then walked through its derived views.
    public static func manifest(_ bytes: UnsafeRawBufferPointer) -> [ManifestRead] {
        let data = bytes.isEmpty ? Data() : Data(bytes)
        var reads = [ManifestRead(archive: false, result: Result {
            try ManifestReader.parse(data, file: manifestPath, source: manifestPath, container: .file,
                                     productModule: manifestProductModule)
        })]
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            reads.append(ManifestRead(archive: true, result: Result {
                guard FileManager.default.createFile(atPath: archivePath, contents: data) else {
                    throw ManifestError(path: archivePath, "cannot write the archive to read")
                }
                return try ManifestReader.readArchive(path: archivePath, productModule: nil)
            }))
        }
        for i in reads.indices {
            guard case .success(let m) = reads[i].result else { continue }
            reads[i].roleCount = m.roles.count
            let configurations = m.configurations
            reads[i].configurationCount = configurations.count
            reads[i].configurationLines = configurations.map { m.line(of: $0.path) }
            reads[i].summaryLines = m.summaryLines
            var plain = m
            plain.productModule = nil
            for c in configurations {
                guard let d = c.delegateClass else { continue }
                reads[i].expansions.append(m.expand(d))
                reads[i].moduleLessExpansions.append(plain.expand(d))
            }
        }
        return reads
    }
}
