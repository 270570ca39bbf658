import Foundation
import LifelineCore
import Testing

// `lifeline events` and `lifeline formats` through the built binary (see CLI.swift). Paths are given
// relative to the repository root, where CLI.run starts the process.
//
// Tests named "regression (cli-…)" pin a bug found while writing them (now fixed).

enum CLIFixtures {
    static let sample = "SampleLogs/xcode-console.log"
    static let ndjson = "SampleLogs/log-stream.ndjson"

    /// `line kind` rows of `xcode-console.log` in `expected-events.tsv`.
    static func expectedXcodeConsole() throws -> [String] {
        let tsv = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("SampleLogs/expected-events.tsv"), encoding: .utf8)
        var rows: [String] = []
        for line in tsv.split(separator: "\n") {
            let f = line.split(separator: "\t").map(String.init)
            if f.count == 3, f[0] == "xcode-console.log" { rows.append(f[1] + " " + f[2]) }
        }
        return rows
    }

    static func sampleData(_ name: String = sample) throws -> Data {
        try Data(contentsOf: CLI.repositoryRoot.appendingPathComponent(name))
    }

    static func jsonObjects(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON object: \(line)", sourceLocation: sourceLocation)
            return object
        }
    }

    static func lineKinds(_ objects: [[String: Any]]) -> [String] {
        objects.map { "\(($0["line"] as? Int).map(String.init) ?? "?") \($0["kind"] as? String ?? "?")" }
    }

    /// A scratch directory, removed by `remove()`.
    struct Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-cli-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        func write(_ name: String, _ data: Data) throws -> String {
            let u = url.appendingPathComponent(name)
            try data.write(to: u)
            return u.path
        }
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    static func gzipped(_ data: Data) throws -> Data {
        let scratch = try Scratch(); defer { scratch.remove() }
        let input = try scratch.write("in", data)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        p.arguments = ["-c", "-n", input]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let result = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return result
    }

    static let statsKeys: Set<String> = ["path", "format", "lines", "records", "continuationLines", "nonLogLines",
                                         "unrecognizedLines", "events"]
    /// Usage errors (ArgumentParser parse and validation errors) exit with 2, as README.md documents
    /// ("`0` success, `2` usage error, `3` an input could not be read"); Lifeline.main maps
    /// ArgumentParser's default (64, EX_USAGE) to 2.
    static let usageError: Int32 = 2

    static let optionalStatsKeys: Set<String> = ["recordsByFormat", "notes", "error"]

    static func checkStatsObject(_ input: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        let keys = Set(input.keys)
        #expect(statsKeys.subtracting(["format"]).isSubset(of: keys), "missing keys in \(keys)", sourceLocation: sourceLocation)
        #expect(keys.isSubset(of: statsKeys.union(optionalStatsKeys)), "unknown keys in \(keys)", sourceLocation: sourceLocation)
        let n = { (k: String) in input[k] as? Int ?? -1 }
        #expect(n("lines") == n("records") + n("continuationLines") + n("nonLogLines") + n("unrecognizedLines"),
                "accounting of \(input["path"] ?? "?")", sourceLocation: sourceLocation)
    }
}

@Suite struct CLIEventsOutput {
    @Test func jsonlEventsCarryTheContractKeys() throws {
        let r = try CLI.run(["events", CLIFixtures.sample, "--format", "jsonl"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        #expect(r.stdout.hasSuffix("\n"))
        let objects = CLIFixtures.jsonObjects(r.stdout)
        #expect(objects.count == r.stdout.split(separator: "\n").count)
        let formats = Set(LogFormat.allCases.map(\.rawValue))
        for o in objects {
            #expect(o["file"] as? String == CLIFixtures.sample)
            #expect((o["line"] as? Int ?? 0) > 0)
            #expect(formats.contains(o["format"] as? String ?? ""))
            #expect((o["kind"] as? String)?.isEmpty == false)
            #expect(o["message"] is String)
        }
        #expect(CLIFixtures.lineKinds(objects) == (try CLIFixtures.expectedXcodeConsole()))
        // The exception record at line 78 spans the stack and the libc++abi line.
        let exception = try #require(objects.first { $0["kind"] as? String == "failure.exception" })
        #expect(exception["lineCount"] as? Int == 33)
        #expect((exception["details"] as? [String: Any])?["exceptionName"] as? String == "NSInternalInconsistencyException")
    }

    @Test func textEventsAreOneLinePerEvent() throws {
        let r = try CLI.run(["events", CLIFixtures.sample])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 18)
        #expect(lines.first == "SampleLogs/xcode-console.log:2  2024-03-01T09:58:12.019876+01:00  Field Notes[4821:918273]  app.willFinishLaunching  -[AppDelegate application:willFinishLaunchingWithOptions:]")
        #expect(lines.allSatisfy { $0.hasPrefix("SampleLogs/xcode-console.log:") })
    }

    @Test func statsJSONHasTheDocumentedKeysAndBalances() throws {
        let r = try CLI.run(["events", CLIFixtures.sample, CLIFixtures.ndjson, "--stats", "--format", "json"])
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").count == 1)
        let top = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(Array(top.keys) == ["inputs"])
        let inputs = try #require(top["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["path"] as? String } == [CLIFixtures.sample, CLIFixtures.ndjson])
        for input in inputs { CLIFixtures.checkStatsObject(input) }
        let x = inputs[0]
        #expect(x["format"] as? String == "xcode")
        #expect(["lines", "records", "continuationLines", "nonLogLines", "unrecognizedLines", "events"].map { x[$0] as? Int }
                == [110, 30, 77, 3, 0, 18])
        #expect(x["recordsByFormat"] as? [String: Int] == ["xcode": 27, "print": 3])
        #expect(x["error"] == nil && x["notes"] == nil)
        #expect(inputs[1]["format"] as? String == "log-ndjson")
    }

    @Test func statsTextHasATotalRowForSeveralInputs() throws {
        let r = try CLI.run(["events", CLIFixtures.sample, CLIFixtures.ndjson, "SampleLogs/print-function.log", "--stats"])
        #expect(r.status == 0)
        let rows = r.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.count == 5)
        #expect(rows.first == ["path", "format", "lines", "records", "continuation", "non-log", "unrecognized", "events"])
        #expect(rows.dropFirst().dropLast().map { $0.first } == [CLIFixtures.sample, CLIFixtures.ndjson, "SampleLogs/print-function.log"])
        let body = rows.dropFirst().dropLast().map { $0.suffix(6).map { Int($0) ?? -1 } }
        let total = try #require(rows.last)
        #expect(total.first == "total")
        #expect(total.count == 7)
        let sums = (0..<6).map { c in body.reduce(0) { $0 + $1[c] } }
        #expect(total.suffix(6).map { Int($0) ?? -1 } == sums)
        for b in body { #expect(b[0] == b[1] + b[2] + b[3] + b[4]) }
        // Columns are aligned: every row has the same width up to its last number.
        let widths = Set(r.stdout.split(separator: "\n").map(\.count))
        #expect(widths.count == 1)
    }

    @Test func statsTextForOneInputHasNoTotalRow() throws {
        let r = try CLI.run(["events", CLIFixtures.sample, "--stats"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(!r.stdout.contains("total"))
        #expect(lines.last?.split(separator: " ").map(String.init) == [CLIFixtures.sample, "xcode", "110", "30", "77", "3", "0", "18"])
    }

    @Test func standardInputIsReadWithDash() throws {
        let data = try CLIFixtures.sampleData()
        let r = try CLI.run(["events", "-", "--format", "jsonl"], stdin: data)
        #expect(r.status == 0)
        let objects = CLIFixtures.jsonObjects(r.stdout)
        #expect(objects.allSatisfy { $0["file"] as? String == "-" })
        #expect(CLIFixtures.lineKinds(objects) == (try CLIFixtures.expectedXcodeConsole()))

        let s = try CLI.run(["events", "-", "--stats", "--format", "json"], stdin: data)
        let top = try JSONSerialization.jsonObject(with: Data(s.stdout.utf8)) as? [String: Any]
        let input = try #require((top?["inputs"] as? [[String: Any]])?.first)
        CLIFixtures.checkStatsObject(input)
        #expect(input["path"] as? String == "-")
        #expect(input["lines"] as? Int == 110)
        #expect(input["events"] as? Int == 18)
    }

    @Test func gzipOnStandardInputIsDecompressed() throws {
        let gz = try CLIFixtures.gzipped(try CLIFixtures.sampleData())
        #expect(gz.starts(with: [0x1F, 0x8B]))
        let r = try CLI.run(["events", "-", "--format", "jsonl"], stdin: gz)
        #expect(r.status == 0)
        #expect(CLIFixtures.lineKinds(CLIFixtures.jsonObjects(r.stdout)) == (try CLIFixtures.expectedXcodeConsole()))
    }

    @Test func jsonlEscapesHostileText() throws {
        let scratch = try CLIFixtures.Scratch(); defer { scratch.remove() }
        let header = "2024-03-01 09:58:12.004311+0100 App[1:2] "
        let messages = [
            "-[SceneDelegate sceneDidBecomeActive:] \"quoted\" back\\slash\ttab",
            "-[SceneDelegate sceneWillResignActive:] ctl \u{1}\u{7F} esc \u{1B}[31mred\u{1B}[0m nul \u{0}",
            "-[SceneDelegate sceneDidEnterBackground:] </script> ls\u{2028}ps\u{2029} é 😀 中文",
        ]
        let text = messages.map { header + $0 }.joined(separator: "\n") + "\n"
        let p = try scratch.write("we\"ird name ü.log", Data(text.utf8))
        let r = try CLI.run(["events", p, "--format", "jsonl"])
        #expect(r.status == 0)
        let rawLines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(rawLines.count == 3)
        #expect(!r.stdout.contains("</script>"))       // `</` is broken up
        #expect(!r.stdout.contains("\u{2028}") && !r.stdout.contains("\u{2029}"))
        #expect(!r.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let objects = CLIFixtures.jsonObjects(r.stdout)
        #expect(objects.map { $0["message"] as? String } == messages)
        #expect(objects.allSatisfy { $0["file"] as? String == p })

        let s = try CLI.run(["events", p, "--stats", "--format", "json"])
        let top = try JSONSerialization.jsonObject(with: Data(s.stdout.utf8)) as? [String: Any]
        #expect((top?["inputs"] as? [[String: Any]])?.first?["path"] as? String == p)
    }

    @Test func emptyStandardInputIsNotAnError() throws {
        let r = try CLI.run(["events", "-", "--stats", "--format", "json"], stdin: Data())
        #expect(r.status == 0)
        #expect(r.stderr == "lifeline: -: empty (0 bytes): no lines to read\n", "said, not an error")
        let top = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let input = try #require((top?["inputs"] as? [[String: Any]])?.first)
        #expect(input["lines"] as? Int == 0)
        #expect(input["error"] == nil)
    }
}

@Suite struct CLIEventsErrors {
    @Test func missingFileExitsWithThreeAndNamesTheFile() throws {
        let r = try CLI.run(["events", "no/such/file.log"])
        #expect(r.status == 3)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "lifeline: no/such/file.log: no such file or directory\n")
    }

    @Test func missingFileAmongOthersStillPrintsTheOthers() throws {
        let r = try CLI.run(["events", CLIFixtures.sample, "no/such/file.log", "--format", "jsonl"])
        #expect(r.status == 3)
        #expect(CLIFixtures.jsonObjects(r.stdout).count == 18)
        #expect(r.stderr.contains("lifeline: no/such/file.log: no such file or directory"))
    }

    // BUG: in `--stats` output the failed input comes first, not in argument order (Ingester.run
    // reports inputs without work units before all others; see HostileInputPaths.inputsArriveInTheOrderGiven).
    @Test("regression (cli-stats-order): stats rows not in argument order when a path is missing")
    func statsRowsFollowTheArgumentOrder() throws {
        let r = try CLI.run(["events", CLIFixtures.sample, "no/such/file.log", "--stats", "--format", "json"])
        #expect(r.status == 3)
        let top = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let inputs = try #require(top?["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["path"] as? String } == [CLIFixtures.sample, "no/such/file.log"])
        #expect(inputs.last?["error"] as? String == "no such file or directory")
    }

    @Test func binaryFileIsAWarningNotAFailure() throws {
        let scratch = try CLIFixtures.Scratch(); defer { scratch.remove() }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        let p = try scratch.write("shot.log", png)
        let r = try CLI.run(["events", p, "--stats", "--format", "json"])
        // An input that was read (its lines counted) is not a failure: exit 0, a warning on stderr.
        #expect(r.status == 0)
        #expect(r.stderr == "lifeline: \(p): binary data (a PNG image)\n")
        let top = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let input = try #require((top?["inputs"] as? [[String: Any]])?.first)
        CLIFixtures.checkStatsObject(input)
        let lines = png.filter { $0 == 10 }.count + 1
        #expect(input["lines"] as? Int == lines)
        #expect(input["unrecognizedLines"] as? Int == lines)
        #expect(input["error"] as? String == "binary data (a PNG image)")
    }

    // BUG: binary data on standard input is counted as 0 lines (and so exits 3): Ingester.run
    // (Ingest/Ingester.swift, the `binaryReason` branch) reopens the input with `GzipSource(path: "-")`,
    // which dups fd 0 after the sniffing read already consumed it, instead of using the prefix and
    // `standardInputSource` like the text path.
    @Test("regression (cli-binary-stdin): binary standard input counts no lines")
    func binaryStandardInputIsCounted() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        let r = try CLI.run(["events", "-", "--stats", "--format", "json"], stdin: png)
        let lines = png.filter { $0 == 10 }.count + 1
        let top = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let input = try #require((top?["inputs"] as? [[String: Any]])?.first)
        #expect(input["error"] as? String == "binary data (a PNG image)")
        #expect(input["lines"] as? Int == lines)
        #expect(input["unrecognizedLines"] as? Int == lines)
        #expect(r.status == 0)
    }

    @Test func jsonWithoutStatsIsAUsageError() throws {
        let r = try CLI.run(["events", CLIFixtures.sample, "--format", "json"])
        #expect(r.status == CLIFixtures.usageError)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("Error: --format json goes with --stats; events are printed as jsonl"))
        #expect(r.stderr.contains("Usage: lifeline events <paths> ..."))
    }

    @Test func otherUsageErrorsExitWithTheUsageStatus() throws {
        let cases: [([String], String)] = [
            (["events", CLIFixtures.sample, "--stats", "--format", "jsonl"], "--stats prints text or json"),
            (["events", CLIFixtures.sample, "-j", "0"], "--jobs must be at least 1"),
            (["events"], "Missing expected argument '<paths> ...'"),
            (["events", CLIFixtures.sample, "--format", "xml"], "The value 'xml' is invalid for '--format <format>'"),
            (["events", CLIFixtures.sample, "--bogus"], "Unknown option '--bogus'"),
        ]
        for (arguments, message) in cases {
            let r = try CLI.run(arguments)
            #expect(r.status == CLIFixtures.usageError, "\(arguments)")
            #expect(r.stdout.isEmpty, "\(arguments)")
            #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
        }
    }

    @Test func unknownInputFormatIsAUsageErrorListingTheFormats() throws {
        let r = try CLI.run(["events", CLIFixtures.sample, "--input-format", "bogus"])
        #expect(r.status == CLIFixtures.usageError)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("The value 'bogus' is invalid for '--input-format <name>'"))
        #expect(r.stderr.contains("Usage: lifeline events"))
        for f in LogFormat.allCases { #expect(r.stderr.contains("  - \(f.rawValue)\n"), "\(f.rawValue)") }
    }
}

@Suite struct CLIEventsInputFormat {
    @Test func forcedInputFormatIsUsedAndReported() throws {
        let forced = try CLI.run(["events", CLIFixtures.sample, "--input-format", "xcode", "--format", "jsonl"])
        #expect(forced.status == 0)
        #expect(CLIFixtures.lineKinds(CLIFixtures.jsonObjects(forced.stdout)) == (try CLIFixtures.expectedXcodeConsole()))

        let crash = try CLI.run(["events", CLIFixtures.sample, "--input-format", "crash", "--stats", "--format", "json"])
        #expect(crash.status == 0)
        let top = try JSONSerialization.jsonObject(with: Data(crash.stdout.utf8)) as? [String: Any]
        let input = try #require((top?["inputs"] as? [[String: Any]])?.first)
        CLIFixtures.checkStatsObject(input)
        #expect(input["format"] as? String == "crash")
        #expect(input["events"] as? Int == 0)
        #expect(input["records"] as? Int == 1)
        #expect(crash.stderr.hasPrefix("lifeline: \(CLIFixtures.sample):1: not a readable crash report"))
    }

    @Test func forcedCrashFormatReadsAReportTheSnifferMisses() throws {
        let scratch = try CLIFixtures.Scratch(); defer { scratch.remove() }
        var text = Data((1...90).map { "note \($0)\n" }.joined().utf8)
        text.append(try CLIFixtures.sampleData("SampleLogs/exception-launch.crash"))
        let p = try scratch.write("pasted.txt", text)
        let auto = try CLI.run(["events", p, "--format", "jsonl"])
        #expect(!CLIFixtures.jsonObjects(auto.stdout).contains { $0["kind"] as? String == "failure.crashReport" })
        let forced = try CLI.run(["events", p, "--format", "jsonl", "--input-format", "crash"])
        #expect(forced.status == 0)
        let objects = CLIFixtures.jsonObjects(forced.stdout)
        // The report starts after the 90 notes: its event is there, not at the first note.
        #expect(CLIFixtures.lineKinds(objects) == ["91 failure.crashReport"])
        #expect(objects.first?["format"] as? String == "crash")
    }
}

@Suite struct CLIEventsMeta {
    @Test func formatsListsEveryFormatWithASampleLine() throws {
        let r = try CLI.run(["formats"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { !$0.hasPrefix(" ") } == LogFormat.allCases.map(\.rawValue))
        for f in LogFormat.allCases {
            let i = try #require(lines.firstIndex(of: f.rawValue))
            #expect(lines[i + 1] == "    \(f.summary)")
            for (k, sample) in f.sampleLine.split(separator: "\n").enumerated() {
                #expect(lines[i + 2 + k] == "    │ \(sample)", "\(f.rawValue)")
            }
        }
    }

    @Test func rootHelp() throws {
        for args in [["--help"], ["-h"], []] {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args)")
            #expect(r.stdout.contains("USAGE: lifeline <subcommand>"), "\(args)")
            #expect(r.stdout.contains("events") && r.stdout.contains("formats"), "\(args)")
            #expect(r.stdout.contains("--version"), "\(args)")
        }
    }

    @Test func eventsHelp() throws {
        for args in [["events", "--help"], ["help", "events"], ["events", "-h"]] {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args)")
            #expect(r.stdout.contains("USAGE: lifeline events <paths> ... [--format <format>] [--stats] [--input-format <name>] [--jobs <jobs>]"), "\(args)")
            for option in ["--format <format>", "--stats", "--input-format <name>", "-j, --jobs <jobs>", "- for standard input"] {
                #expect(r.stdout.contains(option), "\(args): \(option)")
            }
            #expect(r.stdout.contains("values: text, jsonl, json"))
            for f in LogFormat.allCases { #expect(r.stdout.contains(f.rawValue), "\(args): \(f.rawValue)") }
        }
    }

    @Test("every command's help names severities and other enumerated defaults, never a raw number (`default: 1`)")
    func helpShowsNamedDefaults() throws {
        for command in [["analyze"], ["triage"], ["triage", "merge"], ["watch"], ["graph"], ["timeline"], ["events"]] {
            let r = try CLI.run(command + ["--help"])
            #expect(r.status == 0, "\(command)")
            let flat = r.stdout.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
            for match in flat.matches(of: /\(values: ([^;)]*)(; default: ([^)]*))?\)/) {
                let values = match.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if let d = match.3 { #expect(values.contains(String(d)), "\(command): default '\(d)' is not one of \(values)") }
            }
        }
        let triage = try CLI.run(["triage", "--help"]).stdout.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        #expect(triage.contains("(values: note, warning, error, fatal; default: warning)"))
    }

    @Test func version() throws {
        let root = try CLI.run(["--version"])
        #expect(root.status == 0)
        #expect(root.stdout == LifelineVersion.current + "\n")
        // ArgumentParser also accepts the root's --version after a subcommand.
        let sub = try CLI.run(["events", "--version"])
        #expect(sub.status == 0)
        #expect(sub.stdout == LifelineVersion.current + "\n")
        let formats = try CLI.run(["formats", "--version"])
        #expect(formats.status == 0)
        #expect(formats.stdout == LifelineVersion.current + "\n")
    }
}
