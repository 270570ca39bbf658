#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let usage = """
usage: lifeline-loggen --bytes N --seed S --out FILE [--shape NAME]
       lifeline-loggen --bytes N --seed S --out FILE [--format mixed|xcode|log-default|log-compact|log-syslog|idevicesyslog|console]
       lifeline-loggen --files N --seed S --out DIR [--bytes TOTAL]
       lifeline-loggen --version

Writes a deterministic synthetic iOS log of about N bytes (suffixes K, M, G: powers of 1024) to FILE,
and FILE.expected.json with the exact line count and the lifecycle / failure / threading events
written (per kind; the system's events of Documentation/SystemEvents.md as that contract reads
the text). The same seed and options always give the same bytes.

  --bytes N        target size; the last record is completed, so the file ends slightly past N
  --seed S         unsigned 64-bit seed
  --out FILE       output path
  --shape NAME     the corpus shape (default mixed):
\(shapeHelp)
  --format F       mixed shape only. mixed (default): segments rotating through the five formats;
                   or one format only (also console: Console.app's four tab columns)
  --app-per-mille P  mixed shape only: app items per 1000 items (default 33: about 5% of lines);
                   0 = noise only (no app items, no system stories)

With --files, writes the triage set instead: a new directory DIR of N inputs (about TOTAL bytes
before compression, default 1G per 10,000 files): small Xcode console and print() captures, device
logs of 100 KB-1 MB, a few of 10-60 MB, 15% of them gzip-compressed (.log.gz), .ips and .crash
reports, and .tar.gz bundles of several logs, with failure families (assertions, uncaught exceptions,
Main Thread Checker reports, Swift traps, watchdog kills) planted across them at a skewed frequency.
DIR.expected.json (beside DIR) lists every input with its lines and events, the totals, the events
per kind and each family's occurrences.

--version prints the mixed corpus's version (the generator's), the triage set's, then one line per
other shape (`longlived 2`): scripts/bench regenerates a saved corpus made by another version.

"""

/// The `--shape` lines of the usage text.
let shapeHelp = corpusShapes.map { t in
    t.summary.split(separator: "\n", omittingEmptySubsequences: false).map { "                   " + $0 }.joined(separator: "\n")
}.joined(separator: "\n")

/// Names the corpus the generator writes. Bump it with every change to the output for a given
/// seed: scripts/bench regenerates a saved corpus whose .expected.json names another version.
let generatorVersion = "lifeline-loggen 4"

@main
enum LogGen {
    static func main() {
        var bytes: Int?
        var seed: UInt64?
        var outPath: String?
        var formatName = "mixed"
        var appPerMille = 33
        var files: Int?
        var shape: any CorpusShape.Type = MixedShape.self
        var mixedOptionGiven = false
        var args = CommandLine.arguments.dropFirst()
        func value(_ flag: String) -> String {
            guard let v = args.popFirst() else { fatal("\(flag) needs a value\n\(usage)") }
            return v
        }
        while let a = args.popFirst() {
            switch a {
            case "--bytes": bytes = parseSize(value(a))
            case "--seed":
                guard let s = UInt64(value(a)) else { fatal("--seed must be an unsigned integer") }
                seed = s
            case "--out": outPath = value(a)
            case "--format": formatName = value(a); mixedOptionGiven = true
            case "--shape":
                let name = value(a)
                guard let t = shapeNamed(name) else {
                    fatal("unknown shape '\(name)' (one of: \(corpusShapes.map { $0.name }.joined(separator: ", ")))")
                }
                shape = t
            case "--app-per-mille":
                guard let p = Int(value(a)), (0...1000).contains(p) else { fatal("--app-per-mille must be 0...1000") }
                appPerMille = p
                mixedOptionGiven = true
            case "--files":
                guard let n = Int(value(a)), n >= 10 else { fatal("--files must be at least 10") }
                files = n
            case "--version":
                // The first line names the mixed corpus (scripts/bench compares it), the second the
                // triage set, then one line per other shape.
                print(generatorVersion)
                print(triageSetVersion)
                for t in corpusShapes where t != MixedShape.self { print(t.version) }
                exit(0)
            case "-h", "--help":
                print(usage, terminator: "")
                exit(0)
            default: fatal("unknown argument '\(a)'\n\(usage)")
            }
        }
        if let files {
            guard let seed, let outPath else { fatal("--seed and --out are required\n\(usage)") }
            if mixedOptionGiven { fatal("--format and --app-per-mille do not apply to --files (each input has its own)") }
            if shape != MixedShape.self { fatal("--shape does not apply to --files") }
            let total = bytes ?? Int((Double(files) / 10_000 * Double(1 << 30)).rounded())
            let set = TriageSet(dir: outPath, files: files, targetBytes: total, seed: seed)
            set.write()
            let command = "lifeline-loggen --files \(files) --bytes \(total) --seed \(seed)"
            writeWhole(set.dir + ".expected.json", set.expectedJSON(command: command))
            exit(0)
        }
        guard let bytes, let seed, let outPath else { fatal("--bytes, --seed and --out are required\n\(usage)") }
        var options = ShapeOptions(formatName: formatName, appPerMille: appPerMille)
        if mixedOptionGiven && !shape.takesMixedOptions {
            fatal("--format and --app-per-mille apply to the mixed shape only")
        }
        if formatName != "mixed" {
            guard let f = LogFormat.named(formatName) else { fatal("unknown format '\(formatName)'") }
            options.single = f
        }
        writeShape(shape, bytes: bytes, seed: seed, options: options, outPath: outPath)
    }

    /// Writes one shape's corpus and its `.expected.json`.
    static func writeShape(_ type: any CorpusShape.Type, bytes: Int, seed: UInt64, options: ShapeOptions, outPath: String) {
        let fd = open(outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd < 0 { fatal("cannot open \(outPath): \(String(cString: strerror(errno)))") }
        let sink = Sink(fd: fd)
        let shape = type.init(out: sink, seed: seed, options: options)
        shape.run(targetBytes: bytes)
        if close(fd) != 0 { fatal("close failed: \(String(cString: strerror(errno)))") }
        setModificationTime(outPath, shape.endSeconds)
        var json = countsJSON(sink, shape.counts)
        var fields = [("generator", "\"\(generatorVersion)\"")]
        if type != MixedShape.self {
            // The mixed corpus's .expected.json keeps the layout it had before shapes existed.
            fields += [("shape", "\"\(type.name)\""), ("shapeVersion", "\"\(type.version)\"")]
        }
        fields += shape.expectedFields(seed: seed)
        json += fields.map { "  \"\($0.0)\": \($0.1)" }.joined(separator: ",\n")
        json += "\n}\n"
        writeWhole(outPath + ".expected.json", json)
    }

    /// The opening of an `.expected.json`: bytes, lines, events and the events per kind.
    static func countsJSON(_ sink: Sink, _ counts: [Int]) -> String {
        var json = "{\n"
        json += "  \"bytes\": \(sink.bytesWritten),\n"
        json += "  \"lines\": \(sink.lines),\n"
        json += "  \"events\": \(counts.reduce(0, +)),\n"
        json += "  \"kinds\": {\n"
        json += Kind.allCases.map { "    \"\($0.id)\": \(counts[$0.rawValue])" }.joined(separator: ",\n")
        json += "\n  },\n"
        return json
    }

    static func writeWhole(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd < 0 { fatal("cannot open \(path): \(String(cString: strerror(errno)))") }
        var text = text
        text.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                let n = write(fd, buf.baseAddress! + off, buf.count - off)
                if n <= 0 { fatal("write failed") }
                off += n
            }
        }
        close(fd)
    }

    static func parseSize(_ s: String) -> Int {
        var digits = s
        var mult = 1
        switch s.last {
        case "K", "k": mult = 1 << 10
        case "M", "m": mult = 1 << 20
        case "G", "g": mult = 1 << 30
        default: break
        }
        if mult != 1 { digits.removeLast() }
        guard let n = Int(digits), n >= 0 else { fatal("bad size '\(s)'") }
        return n * mult
    }
}

/// Dates a log writes without a year (idevicesyslog, syslog) get theirs from the file's modification
/// time, as on a real device log, which is written last when its last line is. A generated file's
/// time is therefore its clock's end, not the moment it was generated: otherwise which year such
/// a date gets, and so how the sessions of a corpus fall, would depend on the day it was made.
func setModificationTime(_ path: String, _ seconds: Int) {
    var times = [timeval(tv_sec: seconds, tv_usec: 0), timeval(tv_sec: seconds, tv_usec: 0)]
    if utimes(path, &times) != 0 { fatal("cannot set the modification time of \(path): \(String(cString: strerror(errno)))") }
}
