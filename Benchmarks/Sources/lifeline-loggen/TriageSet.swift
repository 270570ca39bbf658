#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib

/// Names the layout of the triage set (file plan, families, crash report shapes). Bump it with every
/// change to what `--files` writes for a given seed: scripts/bench-triage regenerates a saved set
/// whose .expected.json names another version.
let triageSetVersion = "triage-set 3"

/// A directory of many logs, as a batch triage sees them: many small Xcode console and `print()`
/// captures, a middle band of device logs, a few large ones, gzip-compressed logs, crash reports
/// (`.ips`, `.crash`) and `.tar.gz` bundles of several logs, with failure families planted across
/// them at a skewed frequency. Seeded and deterministic; `DIR.expected.json` says what is in it.
final class TriageSet {
    enum Content {
        case capture(LogFormat)
        case printCapture
        case crash(Int)
    }

    struct Input {
        var path: String
        var category: String
        var content: Content
        var target = 0
        var appPerMille = 33
        var seed: UInt64 = 0
        var gzip = false
        var bundle: Int?
        var plants: [Int] = []

        var formatName: String {
            switch content {
            case .capture(let f): return String(describing: f.name)
            case .printCapture: return "print"
            case .crash(let i): return Families.crashes[i].formats.first!
            }
        }
    }

    struct Bundle {
        var path: String
        var root: String
        var members: [Int] = []
        var mtime = 0
    }

    struct Result {
        var lines = 0
        var contentBytes = 0
        var diskBytes = 0
        var events = 0
        var kinds: [String: Int] = [:]
        var planted: [Int: Int] = [:]
    }

    enum Entry { case input(Int), bundle(Int) }

    let dir: String
    let files: Int
    let targetBytes: Int
    let seed: UInt64
    var inputs: [Input] = []
    var bundles: [Bundle] = []
    var entries: [Entry] = []
    let logFamilies: [Family]
    var logCounts: [Int] = []
    var crashCounts = [Int](repeating: 0, count: Families.crashes.count)
    var results: [Result] = []

    static let kindOrder: [String] = Kind.allCases.map { String(describing: $0.id) }
        + ["failure.swiftFatalError", "failure.watchdog", "failure.crashReport"]

    init(dir: String, files: Int, targetBytes: Int, seed: UInt64) {
        self.dir = dir.hasSuffix("/") && dir.count > 1 ? String(dir.dropLast()) : dir
        self.files = files
        self.targetBytes = targetBytes
        self.seed = seed
        logFamilies = Families.recurringLog + Families.tail(count: min(24, max(4, files / 800)))
        plan()
    }

    // MARK: Plan

    private static func uniform(_ r: inout SplitMix64) -> Double { Double(r.next() >> 11) / 9_007_199_254_740_992.0 }

    private static func logUniform(_ r: inout SplitMix64, _ lo: Double, _ hi: Double) -> Double {
        exp(log(lo) + uniform(&r) * (log(hi) - log(lo)))
    }

    private static func scaled(_ base: Int, files: Int) -> Int { max(1, (base * files + 5_000) / 10_000) }

    private func plan() {
        var r = SplitMix64(seed: seed ^ 0x7472_6961_6765_7331)
        let nBundles = files >= 100 ? 2 : 0
        let nLarge = max(1, (files * 6 + 5_000) / 10_000)
        let nCrash = max(1, files * 6 / 100)
        let nMiddle = max(1, files * 20 / 100)
        let nSmall = files - nBundles - nLarge - nCrash - nMiddle
        precondition(nSmall >= 1, "too few files")

        func group(_ i: Int) -> String { pad(i / 500, 3) }

        // Small captures: a few KB each.
        var smallBytes = 0
        for i in 0..<nSmall {
            let isPrint = r.chance(350)
            var input = Input(path: "", category: isPrint ? "small-print" : "small-xcode",
                              content: isPrint ? .printCapture : .capture(.xcode))
            input.target = Int(Self.logUniform(&r, 1_000, 16_000))
            input.appPerMille = isPrint ? 250 : 150
            input.gzip = r.chance(150)
            input.seed = r.next()
            input.path = isPrint ? "print/\(group(i))/stdout-\(pad(i, 5)).log" : "xcode/\(group(i))/capture-\(pad(i, 5)).log"
            if input.gzip { input.path += ".gz" }
            smallBytes += input.target
            entries.append(.input(inputs.count))
            inputs.append(input)
        }
        // The middle band: device logs of 100 KB to 1 MB (sizes in powers of 1000).
        let middleFormats: [LogFormat] = [.idevicesyslog, .logDefault, .logCompact, .logSyslog, .xcode]
        let middleWeights = Weighted([30, 25, 20, 15, 10])
        var middle: [Int] = []
        var rawMiddle = 0.0
        for i in 0..<nMiddle {
            let f = middleFormats[middleWeights.pick(&r)]
            var input = Input(path: "", category: "middle", content: .capture(f))
            input.target = Int(Self.logUniform(&r, 100_000, 1_000_000))
            input.gzip = r.chance(150)
            input.seed = r.next()
            input.path = "device/\(group(i))/\(f.name)-\(pad(i, 5)).log" + (input.gzip ? ".gz" : "")
            rawMiddle += Double(input.target)
            middle.append(inputs.count)
            entries.append(.input(inputs.count))
            inputs.append(input)
        }
        // A few large logs: 10-60 MB.
        let largeFormats: [LogFormat] = [.logDefault, .idevicesyslog, .logSyslog, .logCompact, .xcode, .logDefault]
        var large: [Int] = []
        var rawLarge = 0.0
        for i in 0..<nLarge {
            let f = largeFormats[i % largeFormats.count]
            var input = Input(path: "", category: "large", content: .capture(f))
            input.target = 10_000_000 + Int(Self.uniform(&r) * 50_000_000)
            input.gzip = i == 1
            input.seed = r.next()
            input.path = "large/\(f.name)-\(pad(i, 2)).log" + (input.gzip ? ".gz" : "")
            rawLarge += Double(input.target)
            large.append(inputs.count)
            entries.append(.input(inputs.count))
            inputs.append(input)
        }
        // Crash reports (their family, so their shape and extension, is decided below).
        var crashSlots: [Int] = []
        for _ in 0..<nCrash {
            var input = Input(path: "", category: "crash", content: .crash(0))
            input.seed = r.next()
            crashSlots.append(inputs.count)
            entries.append(.input(inputs.count))
            inputs.append(input)
        }
        // Bundles: what a user attaches to a bug report.
        var bundleBytes = 0
        for k in 0..<nBundles {
            let root = "feedback-\(k + 1)"
            var b = Bundle(path: "bundles/\(root).tar.gz", root: root)
            b.mtime = 1_735_689_600 + Int(r.below(31_536_000))
            var members: [(String, LogFormat)] = [("console.log", .xcode), ("device.log", .idevicesyslog), ("log-show.log", .logDefault)]
            if r.chance(500) { members.append(("log-show-compact.log", .logCompact)) }
            for (name, f) in members {
                var input = Input(path: "\(root)/\(name)", category: "bundle-member", content: .capture(f))
                input.target = Int(Self.logUniform(&r, 64_000, 768_000))
                input.seed = r.next()
                input.bundle = bundles.count
                bundleBytes += input.target
                b.members.append(inputs.count)
                inputs.append(input)
            }
            var crash = Input(path: "", category: "bundle-member", content: .crash(0))
            crash.seed = r.next()
            crash.bundle = bundles.count
            crashSlots.append(inputs.count)
            b.members.append(inputs.count)
            inputs.append(crash)
            bundles.append(b)
            entries.append(.bundle(bundles.count - 1))
        }

        // Scale the middle band and the large logs so the whole set holds about `targetBytes`.
        let rest = Double(targetBytes - smallBytes - bundleBytes - nCrash * 9_000)
        let s = max(0.05, min(20, rest / max(1, rawMiddle + rawLarge)))
        // (The last record is completed past the target: leave room for it below 1 MB.)
        for i in middle { inputs[i].target = min(990_000, max(100_000, Int(Double(inputs[i].target) * s))) }
        for i in large { inputs[i].target = min(60_000_000, max(10_000_000, Int(Double(inputs[i].target) * s))) }

        // Crash families: exact counts, skewed, shuffled over the crash slots.
        let slots = crashSlots.count
        crashCounts[4] = max(1, slots / 100)
        crashCounts[3] = max(1, slots * 5 / 100)
        crashCounts[2] = max(1, slots * 13 / 100)
        crashCounts[1] = max(1, slots * 30 / 100)
        crashCounts[0] = max(0, slots - crashCounts[1...].reduce(0, +))
        var order: [Int] = []
        for (f, n) in crashCounts.enumerated() { order += [Int](repeating: f, count: n) }
        while order.count > slots { order.removeLast() }
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, r.below(i + 1)) }
        crashCounts = [Int](repeating: 0, count: Families.crashes.count)
        var perApp: [Int: Int] = [:]
        for (slot, f) in zip(crashSlots, order) {
            crashCounts[f] += 1
            let fam = Families.crashes[f]
            inputs[slot].content = .crash(f)
            let app = String(describing: appTemplates[fam.app].name).replacingSpaces()
            let n = perApp[fam.app, default: 0]
            perApp[fam.app] = n + 1
            let ext = fam.formats.first!
            if let b = inputs[slot].bundle {
                inputs[slot].path = "\(bundles[b].root)/crashes/\(app)-\(pad(n, 4)).\(ext)"
            } else {
                inputs[slot].path = "crashes/\(app)-\(pad(n, 4)).\(ext)"
            }
        }

        // Log families: exact counts, each occurrence in a file that can hold it, weighted by size.
        logCounts = logFamilies.indices.map { i in
            i < Families.logBase.count ? Self.scaled(Families.logBase[i], files: files) : 1
        }
        for (fi, fam) in logFamilies.enumerated() {
            var eligible: [Int] = []
            var cumulative: [Double] = []
            var sum = 0.0
            for (i, input) in inputs.enumerated() {
                if case .crash = input.content { continue }
                guard fam.formats.contains(input.formatName) else { continue }
                sum += Double(input.target)
                eligible.append(i)
                cumulative.append(sum)
            }
            precondition(!eligible.isEmpty, "no file can hold family \(fam.id)")
            for _ in 0..<logCounts[fi] {
                let x = Self.uniform(&r) * sum
                var lo = 0, hi = cumulative.count - 1
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if cumulative[mid] <= x { lo = mid + 1 } else { hi = mid }
                }
                inputs[eligible[lo]].plants.append(fi)
            }
        }
    }

    // MARK: Writing

    func write() {
        if mkdir(dir, 0o755) != 0 && errno != EEXIST { fatal("cannot create \(dir): \(String(cString: strerror(errno)))") }
        if let d = opendir(dir) {
            var names = 0
            while let e = readdir(d) {
                let n = withUnsafePointer(to: e.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
                if n != "." && n != ".." { names += 1 }
            }
            closedir(d)
            if names > 0 { fatal("\(dir) is not empty; the triage set is written into a new or empty directory") }
        }
        results = [Result](repeating: Result(), count: inputs.count)
        for entry in entries {
            switch entry {
            case .input(let i): writeFile(i)
            case .bundle(let b): writeBundle(b)
            }
        }
    }

    private func writeFile(_ i: Int) {
        let full = dir + "/" + inputs[i].path
        makeParents(full)
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd < 0 { fatal("cannot open \(full): \(String(cString: strerror(errno)))") }
        if inputs[i].gzip {
            guard let gz = gzdopen(fd, "wb6") else { fatal("gzdopen failed for \(full)") }
            let sink = Sink(.gzip(gz))
            let end = generate(i, sink)
            if gzclose(gz) != Z_OK { fatal("gzclose failed for \(full)") }
            setModificationTime(full, end)
        } else {
            let sink = Sink(fd: fd)
            let end = generate(i, sink)
            if close(fd) != 0 { fatal("close failed: \(String(cString: strerror(errno)))") }
            setModificationTime(full, end)
        }
        results[i].diskBytes = fileSize(full)
    }

    private func writeBundle(_ b: Int) {
        let bundle = bundles[b]
        let full = dir + "/" + bundle.path
        makeParents(full)
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd < 0 { fatal("cannot open \(full): \(String(cString: strerror(errno)))") }
        guard let gz = gzdopen(fd, "wb6") else { fatal("gzdopen failed for \(full)") }
        var tar = TarGzWriter(gz: gz)
        tar.directory(bundle.root, mtime: bundle.mtime)
        var madeCrashDir = false
        for m in bundle.members {
            if case .crash = inputs[m].content, !madeCrashDir {
                tar.directory(bundle.root + "/crashes", mtime: bundle.mtime)
                madeCrashDir = true
            }
            let sink = Sink(.memory)
            _ = generate(m, sink)
            tar.file(inputs[m].path, bytes: sink.collected, mtime: bundle.mtime + 60 * (m % 50))
        }
        tar.finish()
        if gzclose(gz) != Z_OK { fatal("gzclose failed for \(full)") }
    }

    /// Writes input `i` into `sink` and records what it holds; returns its clock's end (seconds).
    private func generate(_ i: Int, _ sink: Sink) -> Int {
        let input = inputs[i]
        let gen = Generator(out: sink, seed: input.seed, appPerMille: input.appPerMille)
        gen.backgroundFailures = false
        var extra = 0
        var res = Result()
        switch input.content {
        case .capture(let f):
            gen.writeCapture(targetBytes: input.target, format: f, plants: input.plants.map { logFamilies[$0] })
        case .printCapture:
            gen.bare = true
            gen.writePrintCapture(targetBytes: input.target, plants: input.plants.map { logFamilies[$0] })
        case .crash(let f):
            gen.crashReport(Families.crashes[f])
            res.kinds[Families.crashes[f].kind, default: 0] += 1
            extra = 1
        }
        sink.flush()
        for k in Kind.allCases where gen.counts[k.rawValue] > 0 {
            res.kinds[String(describing: k.id), default: 0] += gen.counts[k.rawValue]
        }
        for p in input.plants {
            res.planted[p, default: 0] += 1
            res.kinds[logFamilies[p].kind, default: 0] += 1
        }
        res.lines = sink.lines
        res.contentBytes = sink.bytesWritten
        res.events = gen.counts.reduce(0, +) + input.plants.count + extra
        results[i] = res
        return gen.endSeconds
    }

    private func makeParents(_ path: String) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/").dropLast() {
            prefix += "/" + part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { fatal("cannot create \(prefix): \(String(cString: strerror(errno)))") }
        }
    }

    private func fileSize(_ path: String) -> Int {
        var st = stat()
        guard stat(path, &st) == 0 else { fatal("cannot stat \(path)") }
        return Int(st.st_size)
    }

    // MARK: Expected

    func expectedJSON(command: String) -> String {
        func q(_ s: String) -> String {
            var o = "\""
            for c in s.unicodeScalars {
                switch c {
                case "\"": o += "\\\""
                case "\\": o += "\\\\"
                case "\n": o += "\\n"
                default: o.unicodeScalars.append(c)
                }
            }
            return o + "\""
        }
        func inputPath(_ i: Int) -> String {
            if let b = inputs[i].bundle { return bundles[b].path + "/" + inputs[i].path }
            return inputs[i].path
        }
        var kinds: [String: Int] = [:]
        var lines = 0, events = 0, content = 0, disk = 0
        var plain = (files: 0, bytes: 0, lines: 0)
        var gz = (files: 0, disk: 0, content: 0, lines: 0)
        var categories: [String: (files: Int, content: Int, disk: Int, lines: Int, events: Int)] = [:]
        var formats: [String: (inputs: Int, content: Int, lines: Int, events: Int)] = [:]
        let sizeEdges = [4_000, 16_000, 100_000, 1_000_000, 10_000_000, Int.max]
        let sizeNames = ["< 4 KB", "4-16 KB", "16-100 KB", "100 KB-1 MB", "1-10 MB", ">= 10 MB"]
        var sizes = [(files: Int, content: Int)](repeating: (0, 0), count: sizeEdges.count)
        var familyCounts = [Int](repeating: 0, count: logFamilies.count)
        var familyFiles = [Int](repeating: 0, count: logFamilies.count)
        var crashFiles = [Int](repeating: 0, count: Families.crashes.count)
        for (i, r) in results.enumerated() {
            let input = inputs[i]
            for (k, v) in r.kinds { kinds[k, default: 0] += v }
            lines += r.lines; events += r.events; content += r.contentBytes
            if input.bundle == nil {
                disk += r.diskBytes
                if input.gzip {
                    gz.files += 1; gz.disk += r.diskBytes; gz.content += r.contentBytes; gz.lines += r.lines
                } else {
                    plain.files += 1; plain.bytes += r.contentBytes; plain.lines += r.lines
                }
            }
            var c = categories[input.category, default: (0, 0, 0, 0, 0)]
            c.files += 1; c.content += r.contentBytes; c.disk += input.bundle == nil ? r.diskBytes : 0; c.lines += r.lines; c.events += r.events
            categories[input.category] = c
            var f = formats[input.formatName, default: (0, 0, 0, 0)]
            f.inputs += 1; f.content += r.contentBytes; f.lines += r.lines; f.events += r.events
            formats[input.formatName] = f
            let s = sizeEdges.firstIndex { r.contentBytes < $0 }!
            sizes[s].files += 1; sizes[s].content += r.contentBytes
            for (p, n) in r.planted { familyCounts[p] += n; familyFiles[p] += 1 }
            if case .crash(let cf) = input.content { crashFiles[cf] += 1 }
        }
        for b in bundles { disk += fileSize(dir + "/" + b.path) }

        var o = "{\n"
        o += "  \"kind\": \"triage-set\",\n"
        o += "  \"generator\": \(q(generatorVersion)),\n"
        o += "  \"set\": \(q(triageSetVersion)),\n"
        o += "  \"command\": \(q(command)),\n"
        o += "  \"seed\": \(seed),\n"
        o += "  \"files\": \(files),\n"
        o += "  \"targetBytes\": \(targetBytes),\n"
        o += "  \"diskBytes\": \(disk),\n"
        o += "  \"contentBytes\": \(content),\n"
        o += "  \"inputs\": \(inputs.count),\n"
        o += "  \"lines\": \(lines),\n"
        o += "  \"events\": \(events),\n"
        o += "  \"kinds\": {\n" + Self.kindOrder.map { "    \(q($0)): \(kinds[$0, default: 0])" }.joined(separator: ",\n") + "\n  },\n"
        o += "  \"plain\": {\"files\": \(plain.files), \"bytes\": \(plain.bytes), \"lines\": \(plain.lines)},\n"
        o += "  \"gzip\": {\"files\": \(gz.files), \"diskBytes\": \(gz.disk), \"contentBytes\": \(gz.content), \"lines\": \(gz.lines)},\n"
        o += "  \"bundles\": [\n" + bundles.map { b in
            "    {\"path\": \(q(b.path)), \"diskBytes\": \(fileSize(dir + "/" + b.path)), \"members\": [" + b.members.map { q(inputs[$0].path) }.joined(separator: ", ") + "]}"
        }.joined(separator: ",\n") + "\n  ],\n"
        let categoryOrder = ["small-xcode", "small-print", "middle", "large", "crash", "bundle-member"]
        o += "  \"categories\": {\n" + categoryOrder.compactMap { name in
            categories[name].map { c in
                "    \(q(name)): {\"inputs\": \(c.files), \"contentBytes\": \(c.content), \"diskBytes\": \(c.disk), \"lines\": \(c.lines), \"events\": \(c.events)}"
            }
        }.joined(separator: ",\n") + "\n  },\n"
        let formatOrder = ["xcode", "print", "log-default", "log-compact", "log-syslog", "idevicesyslog", "ips", "crash"]
        o += "  \"formats\": {\n" + formatOrder.compactMap { name in
            formats[name].map { f in
                "    \(q(name)): {\"inputs\": \(f.inputs), \"contentBytes\": \(f.content), \"lines\": \(f.lines), \"events\": \(f.events)}"
            }
        }.joined(separator: ",\n") + "\n  },\n"
        o += "  \"sizes\": [\n" + sizes.indices.map { i in
            "    {\"range\": \(q(sizeNames[i])), \"inputs\": \(sizes[i].files), \"contentBytes\": \(sizes[i].content)}"
        }.joined(separator: ",\n") + "\n  ],\n"
        var fams: [String] = []
        for (i, f) in logFamilies.enumerated() {
            fams.append("    {\"id\": \(q(f.id)), \"kind\": \(q(f.kind)), \"source\": \"log\", \"count\": \(familyCounts[i]), \"files\": \(familyFiles[i]), "
                        + "\"literal\": \(q(f.literal)), \"keys\": [" + f.keys.map(q).joined(separator: ", ") + "], "
                        + "\"formats\": [" + f.formats.sorted().map(q).joined(separator: ", ") + "]}")
        }
        for (i, f) in Families.crashes.enumerated() {
            fams.append("    {\"id\": \(q(f.id)), \"kind\": \(q(f.kind)), \"source\": \"crash-report\", \"count\": \(crashFiles[i]), \"files\": \(crashFiles[i]), "
                        + "\"literal\": \(q(f.literal)), \"keys\": [" + f.keys.map(q).joined(separator: ", ") + "], "
                        + "\"formats\": [" + f.formats.sorted().map(q).joined(separator: ", ") + "]}")
        }
        o += "  \"families\": [\n" + fams.joined(separator: ",\n") + "\n  ],\n"
        // One line per input, in path order as a directory walk lists them.
        let order = inputs.indices.sorted { inputPath($0) < inputPath($1) }
        o += "  \"inputList\": [\n" + order.map { i in
            let input = inputs[i], r = results[i]
            var s = "    {\"path\": \(q(inputPath(i))), \"format\": \(q(input.formatName)), \"category\": \(q(input.category)), "
            s += "\"contentBytes\": \(r.contentBytes), "
            if input.bundle == nil { s += "\"diskBytes\": \(r.diskBytes), " }
            if let b = input.bundle { s += "\"bundle\": \(q(bundles[b].path)), \"member\": \(q(input.path)), " }
            if input.gzip { s += "\"gzip\": true, " }
            s += "\"lines\": \(r.lines), \"events\": \(r.events)"
            var planted = r.planted.map { (logFamilies[$0.key].id, $0.value) }
            if case .crash(let cf) = input.content { planted.append((Families.crashes[cf].id, 1)) }
            if !planted.isEmpty {
                s += ", \"planted\": {" + planted.sorted { $0.0 < $1.0 }.map { "\(q($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
            }
            return s + "}"
        }.joined(separator: ",\n") + "\n  ]\n}\n"
        return o
    }
}

func pad(_ v: Int, _ width: Int) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

extension String {
    func replacingSpaces() -> String { String(map { $0 == " " ? "-" : $0 }) }
}

// MARK: - One capture

extension Generator {
    /// One capture in one format (a file of the triage set), with `plants` written at random places.
    func writeCapture(targetBytes: Int, format: LogFormat, plants: [Family]) {
        startSegment(format, first: true, single: true)
        let at = plants.map { _ in Int(Double(rng.next() >> 11) / 9_007_199_254_740_992.0 * Double(targetBytes)) }.sorted()
        var next = 0
        // An Xcode capture starts at launch (a first line of `[]` printed by the app would pass for
        // `log show --style json`).
        if format == .xcode { appItem() }
        while out.bytesWritten < targetBytes {
            while next < plants.count && out.bytesWritten >= at[next] { plant(plants[next]); next += 1 }
            item()
        }
        while next < plants.count { plant(plants[next]); next += 1 }
        // A `log show` export ends with its statistics; `log stream` and the others just stop.
        endSegment(single: false)
        linesByFormat[format.rawValue] += out.lines
        segmentsByFormat[format.rawValue] += 1
    }

    /// A `print()` capture: no headers, callbacks printed with `#function`, failures on stderr.
    func writePrintCapture(targetBytes: Int, plants: [Family]) {
        seg = SegmentStyle(format: .xcode)
        let at = plants.map { _ in Int(Double(rng.next() >> 11) / 9_007_199_254_740_992.0 * Double(targetBytes)) }.sorted()
        var next = 0
        // Captures start at launch (and a first line of `[]` would pass for `log show --style json`).
        appItem()
        while out.bytesWritten < targetBytes {
            while next < plants.count && out.bytesWritten >= at[next] { plant(plants[next]); next += 1 }
            if rng.below(1000) < appPerMille { appItem() } else { printNoise() }
        }
        while next < plants.count { plant(plants[next]); next += 1 }
    }
}
