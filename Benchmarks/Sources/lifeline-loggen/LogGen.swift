#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let usage = """
usage: lifeline-loggen --bytes N --seed S --out FILE [--format mixed|xcode|log-default|log-compact|log-syslog|idevicesyslog]
       lifeline-loggen --shape longlived --bytes N --seed S --out FILE
       lifeline-loggen --files N --seed S --out DIR [--bytes TOTAL]
       lifeline-loggen --version

Writes a deterministic synthetic iOS log of about N bytes (suffixes K, M, G: powers of 1024) to FILE,
and FILE.expected.json with the exact line count and the lifecycle / failure / threading events
written (per kind). The same seed and options always give the same bytes.

  --bytes N        target size; the last record is completed, so the file ends slightly past N
  --seed S         unsigned 64-bit seed
  --out FILE       output path
  --format F       mixed (default): segments of 5,000-20,000 lines rotating through
                   xcode, log-default, log-compact, log-syslog, idevicesyslog; or one format only
  --app-per-mille P  app items per 1000 items (default 33: about 5% of lines); 0 = noise only
  --shape longlived  instead of the mixed corpus, issue 12's shape: three never-relaunched processes
                   interleaved line by line in an Xcode console capture, one connecting new scene
                   objects forever without disconnecting, callbacks in scrambled order, noise that
                   mentions UIKit words (LongLivedShape.swift)

With --files, writes the triage set instead: a new directory DIR of N inputs (about TOTAL bytes
before compression, default 1G per 10,000 files): small Xcode console and print() captures, device
logs of 100 KB-1 MB, a few of 10-60 MB, 15% of them gzip-compressed (.log.gz), .ips and .crash
reports, and .tar.gz bundles of several logs, with failure families (assertions, uncaught exceptions,
Main Thread Checker reports, Swift traps, watchdog kills) planted across them at a skewed frequency.
DIR.expected.json (beside DIR) lists every input with its lines and events, the totals, the events
per kind and each family's occurrences.

"""

/// Names the corpus the generator writes. Bump it with every change to the output for a given
/// seed: scripts/bench regenerates a saved corpus whose .expected.json names another version.
let generatorVersion = "lifeline-loggen 3"

@main
enum LogGen {
    static func main() {
        var bytes: Int?
        var seed: UInt64?
        var outPath: String?
        var formatName = "mixed"
        var appPerMille = 33
        var files: Int?
        var shape = "mixed"
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
            case "--format": formatName = value(a)
            case "--shape":
                shape = value(a)
                guard ["mixed", "longlived"].contains(shape) else { fatal("--shape is mixed or longlived") }
            case "--app-per-mille":
                guard let p = Int(value(a)), (0...1000).contains(p) else { fatal("--app-per-mille must be 0...1000") }
                appPerMille = p
            case "--files":
                guard let n = Int(value(a)), n >= 10 else { fatal("--files must be at least 10") }
                files = n
            case "--version":
                // The first line names the single-file corpus (scripts/bench compares it); the second the triage set.
                print(generatorVersion)
                print(triageSetVersion)
                exit(0)
            case "-h", "--help":
                print(usage, terminator: "")
                exit(0)
            default: fatal("unknown argument '\(a)'\n\(usage)")
            }
        }
        if let files {
            guard let seed, let outPath else { fatal("--seed and --out are required\n\(usage)") }
            if formatName != "mixed" || appPerMille != 33 { fatal("--format and --app-per-mille do not apply to --files (each input has its own)") }
            let total = bytes ?? Int((Double(files) / 10_000 * Double(1 << 30)).rounded())
            let set = TriageSet(dir: outPath, files: files, targetBytes: total, seed: seed)
            set.write()
            let command = "lifeline-loggen --files \(files) --bytes \(total) --seed \(seed)"
            writeWhole(set.dir + ".expected.json", set.expectedJSON(command: command))
            exit(0)
        }
        guard let bytes, let seed, let outPath else { fatal("--bytes, --seed and --out are required\n\(usage)") }
        if shape == "longlived" {
            writeLongLived(bytes: bytes, seed: seed, outPath: outPath)
            exit(0)
        }
        let single: LogFormat?
        if formatName == "mixed" {
            single = nil
        } else if let f = LogFormat.named(formatName) {
            single = f
        } else {
            fatal("unknown format '\(formatName)'")
        }

        let fd = open(outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd < 0 { fatal("cannot open \(outPath): \(String(cString: strerror(errno)))") }
        let sink = Sink(fd: fd)
        let gen = Generator(out: sink, seed: seed, appPerMille: appPerMille)
        gen.run(targetBytes: bytes, single: single)
        if close(fd) != 0 { fatal("close failed: \(String(cString: strerror(errno)))") }
        setModificationTime(outPath, gen.endSeconds)

        var json = countsJSON(sink, gen.counts)
        json += "  \"generator\": \"\(generatorVersion)\",\n"
        json += "  \"seed\": \(seed),\n"
        json += "  \"format\": \"\(formatName)\",\n"
        json += "  \"appPerMille\": \(appPerMille),\n"
        json += "  \"appLines\": \(gen.appLines),\n"
        json += "  \"segments\": {\n"
        json += LogFormat.allCases.map {
            "    \"\($0.name)\": {\"segments\": \(gen.segmentsByFormat[$0.rawValue]), \"lines\": \(gen.linesByFormat[$0.rawValue])}"
        }.joined(separator: ",\n")
        json += "\n  }\n}\n"
        let jfd = open(outPath + ".expected.json", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if jfd < 0 { fatal("cannot open \(outPath).expected.json: \(String(cString: strerror(errno)))") }
        json.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                let n = write(jfd, buf.baseAddress! + off, buf.count - off)
                if n <= 0 { fatal("write failed") }
                off += n
            }
        }
        close(jfd)
    }

    /// The long-lived shape and its `.expected.json` (the same fields as the mixed corpus's where
    /// they apply).
    static func writeLongLived(bytes: Int, seed: UInt64, outPath: String) {
        let fd = open(outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd < 0 { fatal("cannot open \(outPath): \(String(cString: strerror(errno)))") }
        let sink = Sink(fd: fd)
        let shape = LongLivedShape(out: sink, seed: seed)
        shape.run(targetBytes: bytes)
        if close(fd) != 0 { fatal("close failed: \(String(cString: strerror(errno)))") }
        setModificationTime(outPath, shape.endSeconds)
        var json = countsJSON(sink, shape.counts)
        json += "  \"generator\": \"\(generatorVersion)\",\n"
        json += "  \"shape\": \"longlived\",\n"
        json += "  \"seed\": \(seed),\n"
        json += "  \"format\": \"xcode\"\n}\n"
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
