import Foundation
import Testing
import TestSupport

/// `lifeline triage` end to end: a generated directory of logs in several formats with planted
/// failures of known frequency, read through the built binary.
@Suite struct TriageCommandTests {
    /// Writes `count` logs, cycling through three formats; `failure(i)` is the failing line of log i.
    static func plant(_ dir: URL, prefix: String, count: Int, failure: (Int) -> String) throws {
        let lifecycle = ["-[AppDelegate application:didFinishLaunchingWithOptions:]",
                         "-[SceneDelegate scene:willConnectToSession:options:]",
                         "-[SceneDelegate sceneWillEnterForeground:]", "-[SceneDelegate sceneDidBecomeActive:]"]
        for i in 0..<count {
            let lines = lifecycle + [failure(i)]
            let text: String
            switch i % 3 {
            case 0:
                text = lines.enumerated().map { n, m in "2024-05-0\(1 + i % 9) 09:00:0\(n).000000+0000 Shop[\(500 + i):7] \(m)" }.joined(separator: "\n")
            case 1:
                text = "Timestamp                       Thread     Type        Activity             PID    TTL  \n"
                    + lines.enumerated().map { n, m in "2024-05-02 10:00:0\(n).000000+0000 0x1f0a     Default     0x0                  \(700 + i)    0    Shop: \(m)" }.joined(separator: "\n")
            default:
                text = lines.joined(separator: "\n")
            }
            let file = dir.appendingPathComponent("\(prefix)/device-\(i)/console.log")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((text + "\n").utf8).write(to: file)
        }
    }

    static func makeCorpus() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-triage-cli-\(UUID().uuidString)")
        try plant(dir, prefix: "range", count: 12) { i in
            "*** Terminating app due to uncaught exception 'NSRangeException', reason: '*** -[__NSArrayM objectAtIndex:]: index \(i + 3) beyond bounds [0 .. \(i)]'"
        }
        try plant(dir, prefix: "assert", count: 6) { _ in "*** Assertion failure in -[CartView reloadRows:], CartView.m:88" }
        try plant(dir, prefix: "trap", count: 2) { i in "Shop/Checkout.swift:120: Fatal error: Unexpectedly found nil while unwrapping an Optional value" }
        return dir
    }

    @Test("the ranked table lists the planted failures most frequent first, with counts, files and the state at failure")
    func rankedTable() throws {
        let dir = try Self.makeCorpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["triage", dir.path, "--jobs", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "no progress display when standard error is not a terminal: \(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("triage: 20 inputs") == true, "\(lines.first ?? "")")
        let rows = lines.filter { $0.range(of: #"^\s*\d+\s+\d+\s+\d+\s+\d+\s"#, options: .regularExpression) != nil }
        #expect(rows.count >= 3, "\(r.stdout)")
        func cells(_ row: String) -> [String] { row.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(Array(cells(rows[0]).prefix(6)) == ["1", "12", "12", "12", "fatal", "exception"], "\(rows[0])")
        #expect(Array(cells(rows[1]).prefix(6)) == ["2", "6", "6", "6", "error", "assertion"], "\(rows[1])")
        #expect(Array(cells(rows[2]).prefix(6)) == ["3", "2", "2", "2", "fatal", "fatal-error"], "\(rows[2])")
        #expect(r.stdout.contains("100% in the foreground, active"))
        #expect(r.stdout.contains("NSRangeException"))
    }

    @Test("--format json keeps the contract's fields; --files-from - reads paths from standard input")
    func jsonContract() throws {
        let dir = try Self.makeCorpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = (0..<6).map { dir.appendingPathComponent("assert/device-\($0)/console.log").path }.joined(separator: "\n")
        let r = try CLI.run(["triage", "--files-from", "-", "--format", "json"], stdin: Data((list + "\n# a comment\n\n").utf8))
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let inputs = try #require(doc["inputs"] as? [[String: Any]])
        #expect(inputs.count == 6)
        for key in ["path", "format", "lines", "events"] { #expect(inputs[0][key] != nil, "inputs[].\(key)") }
        let signatures = try #require(doc["signatures"] as? [[String: Any]])
        let top = try #require(signatures.first)
        for key in ["id", "kind", "title", "severity", "count", "files", "sessions", "firstSeen", "lastSeen", "states", "example"] {
            #expect(top[key] != nil, "signatures[].\(key)")
        }
        #expect(top["kind"] as? String == "assertion" && top["count"] as? Int == 6)
        #expect((top["files"] as? [String])?.count == 6)
        #expect((top["states"] as? [String: Int]) == ["foreground-active": 6])
        let example = try #require(top["example"] as? [String: Any])
        #expect(example["line"] as? Int == 5 && (example["excerpt"] as? String)?.contains("CartView") == true)
        #expect(doc["unreadable"] as? [Any] != nil)
    }

    @Test("--files-from lines PATH<TAB>NAME show the name (an object-store key) everywhere instead of the path read")
    func displayNames() throws {
        let dir = try Self.makeCorpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = (0..<3).map { "\(dir.appendingPathComponent("assert/device-\($0)/console.log").path)\ts3://qa-fleet/run-7/device-\($0)/console.log" }
            + ["\(dir.appendingPathComponent("gone.log").path)\ts3://qa-fleet/run-7/missing.log"]
        let r = try CLI.run(["triage", "--files-from", "-", "--format", "json"], stdin: Data(list.joined(separator: "\n").utf8))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let inputs = try #require(doc["inputs"] as? [[String: Any]])
        #expect(inputs.compactMap { $0["path"] as? String } == (0..<3).map { "s3://qa-fleet/run-7/device-\($0)/console.log" })
        let top = try #require((doc["signatures"] as? [[String: Any]])?.first)
        #expect((top["files"] as? [String])?.allSatisfy { $0.hasPrefix("s3://qa-fleet/run-7/") } == true)
        #expect((top["example"] as? [String: Any])?["file"] as? String == "s3://qa-fleet/run-7/device-0/console.log")
        let unreadable = try #require(doc["unreadable"] as? [[String: Any]])
        #expect(unreadable.compactMap { $0["path"] as? String } == ["s3://qa-fleet/run-7/missing.log"])
        #expect(!r.stdout.contains(dir.path))
    }

    @Test("--baseline marks new and gone signatures; --fail-on-new exits 1 only for new ones at its severity")
    func baselineExitCodes() throws {
        let dir = try Self.makeCorpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = dir.appendingPathComponent("baseline.json").path
        let first = try CLI.run(["triage", dir.appendingPathComponent("range").path, "--format", "json"])
        try Data(first.stdout.utf8).write(to: URL(fileURLWithPath: base))
        let later = [dir.appendingPathComponent("assert").path]
        let strict = try CLI.run(["triage"] + later + ["--baseline", base, "--fail-on-new", "error"])
        #expect(strict.status == 1, "a new error-level assertion fails at --fail-on-new error")
        #expect(strict.stdout.contains("new") && strict.stdout.contains("gone since the baseline"), "\(strict.stdout)")
        #expect(strict.stderr.contains("1 new signature"))
        let lenient = try CLI.run(["triage"] + later + ["--baseline", base, "--fail-on-new", "fatal"])
        #expect(lenient.status == 0, "an error-level signature does not fail at --fail-on-new fatal")
        let same = try CLI.run(["triage", dir.appendingPathComponent("range").path, "--baseline", base, "--fail-on-new", "note"])
        #expect(same.status == 0, "nothing new: \(same.stdout)")
        let bad = try CLI.run(["triage", dir.path, "--baseline", dir.appendingPathComponent("nope.json").path])
        #expect(bad.status == 2 && bad.stderr.contains("nope.json"))
        let usage = try CLI.run(["triage", dir.path, "--fail-on-new", "error"])
        #expect(usage.status == 2, "--fail-on-new needs a baseline")
    }

    /// Issue 17, item 9: "3 new signatures at or above error" named none of them.
    @Test("new signatures are named on standard error and come first in text, JSON, Markdown and HTML; the HTML filters by status")
    func newSignaturesAreNamed() throws {
        let dir = try Self.makeCorpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = dir.appendingPathComponent("baseline.json").path
        try Data(try CLI.run(["triage", dir.appendingPathComponent("range").path, "--format", "json"]).stdout.utf8).write(to: URL(fileURLWithPath: base))
        let later = [dir.appendingPathComponent("assert").path, "--baseline", base]
        let strict = try CLI.run(["triage"] + later + ["--fail-on-new", "error"])
        #expect(strict.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try CLI.run(["triage"] + later + ["--format", "json"]).stdout.utf8)) as? [String: Any])
        let new = try #require(json["new"] as? [[String: Any]])
        #expect(new.count == 1)
        let id = try #require(new.first?["id"] as? String)
        let title = try #require(new.first?["title"] as? String)
        #expect(new.first?["severity"] as? String == "error" && (new.first?["example"] as? [String: Any])?["line"] is Int)
        // Standard error names it: id, severity, title, count, example.
        #expect(strict.stderr.contains("1 new signature at or above error since \(base):"), "\(strict.stderr)")
        #expect(strict.stderr.contains("  \(id)  error  "), "\(strict.stderr)")
        // First in the text and Markdown outputs, before the ranked table.
        let text = strict.stdout
        let newAt = try #require(text.range(of: "new since the baseline (1):\n  \(id)"))
        #expect(newAt.lowerBound < (text.range(of: "#1")?.lowerBound ?? text.endIndex), "\(text)")
        let csv = try CLI.run(["triage"] + later + ["--format", "csv"]).stdout.split(separator: "\r\n")
        #expect(csv.count >= 2 && csv[1].contains(#","new","#), "the new signature is the first row: \(csv.prefix(3))")
        let markdown = try CLI.run(["triage"] + later + ["--format", "markdown"]).stdout
        #expect(markdown.range(of: "## New since the baseline")!.lowerBound < markdown.range(of: "| # |")!.lowerBound)
        #expect(markdown.contains(id) && markdown.contains(title.prefix(20)))
        // HTML: the new ones first, rows marked by status, and a filter that needs no script.
        let html = try CLI.run(["triage"] + later + ["--format", "html"]).stdout
        #expect(html.contains("<h3>New since the baseline (1)</h3>") && html.contains("href=\"#\(id)\""))
        for status in ["all", "new", "recurring", "gone"] { #expect(html.contains("id=\"status-\(status)\""), "\(status)") }
        #expect(html.contains("id=\"\(id)\" class=\"row-new\""))
        #expect(html.contains("#status-new:checked ~ table.signatures tbody tr:not(.row-new)"))
        #expect(html.contains("<div class=\"gone\" id=\"gone\">"))
        #expect(!html.contains("<script"))
    }

    @Test("nothing readable exits 3 and says why; one unreadable input among good ones is listed and the run succeeds")
    func unreadable() throws {
        let dir = try Self.makeCorpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try CLI.run(["triage", dir.appendingPathComponent("missing.log").path])
        #expect(missing.status == 3)
        #expect(missing.stdout.contains("missing.log: no such file or directory"))
        let mixed = try CLI.run(["triage", dir.appendingPathComponent("assert").path, dir.appendingPathComponent("missing.log").path])
        #expect(mixed.status == 0)
        #expect(mixed.stdout.contains("unreadable (1):"))
    }

    @Test("--output writes every format and the aggregated state diagram; csv and markdown escape log text")
    func outputDirectory() throws {
        let dir = try Self.makeCorpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("report")
        let r = try CLI.run(["triage", dir.path, "--output", out.path, "--format", "csv"])
        #expect(r.status == 0, "\(r.stderr)")
        for name in ["triage.txt", "triage.json", "triage.csv", "triage.md", "triage.html", "state.svg"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), "\(name)")
        }
        #expect(r.stdout.hasPrefix("\"rank\",\"id\",\"kind\""))
        let csvRows = r.stdout.split(separator: "\r\n")
        #expect(csvRows.count == 4, "a header and three signatures: \(r.stdout)")
        let html = try String(contentsOf: out.appendingPathComponent("triage.html"), encoding: .utf8)
        #expect(html.contains("<svg") && html.contains("Content-Security-Policy") && !html.contains("<script"))
        #expect(html.contains("-[CartView reloadRows:]"))
        let markdown = try String(contentsOf: out.appendingPathComponent("triage.md"), encoding: .utf8)
        #expect(markdown.contains("\\[CartView reloadRows:\\]"), "brackets are escaped in Markdown")
    }

    @Test("a device log of an app that logs nothing of its life: the system's phase in every format; the HTML legend names suspended only then")
    func systemPhases() throws {
        let sample = "SampleLogs/real-shapes/console-ios17-notification-launch-suspend-jetsam.log"
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-triage-system-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try CLI.run(["triage", sample, "--output", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Killed for memory while suspended (vm-pageshortage)") && r.stdout.contains("100% while suspended"), "\(r.stdout)")
        let json = try Data(contentsOf: out.appendingPathComponent("triage.json"))
        let doc = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let killed = try #require((doc["signatures"] as? [[String: Any]])?.first { $0["kind"] as? String == "killed" })
        #expect(killed["states"] as? [String: Int] == ["suspended": 1])
        #expect(killed["key"] as? String == "memory | vm-pageshortage | suspended")
        #expect(killed["statesSummary"] as? String == "100% while suspended")
        let csv = try String(contentsOf: out.appendingPathComponent("triage.csv"), encoding: .utf8)
        #expect(csv.contains("\"suspended=1\""))
        let markdown = try String(contentsOf: out.appendingPathComponent("triage.md"), encoding: .utf8)
        #expect(markdown.contains("| Killed for memory while suspended (vm-pageshortage) | 100% while suspended |"))
        let html = try String(contentsOf: out.appendingPathComponent("triage.html"), encoding: .utf8)
        #expect(html.contains("</span>suspended<span"), "the legend names the phase an occurrence has")
        #expect(!html.contains("</span>foreground<span"), "and not the system's phases no occurrence has")
        // A report of logs with the app's own callbacks keeps the legend it always had.
        let dir = try Self.makeCorpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = try CLI.run(["triage", dir.path, "--format", "html"])
        #expect(plain.stdout.contains("</span>unknown</p>") && !plain.stdout.contains("</span>suspended<span"))
    }

    @Test("--partial and merge carry the system's phases", .tags(.corpus), .needsCorpus)
    func partialSystemPhases() throws {
        let log = Repository.corpus("device-logs/ios17-icon-launch-foreground-sigabrt.console.log").path
        let sample = "SampleLogs/real-shapes/idevicesyslog-ios16-prewarm-jetsam-then-tap.log"
        let direct = try CLI.run(["triage", log, sample, "--format", "json"])
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(direct.stdout.contains("\"states\":{\"foreground\":1}") && direct.stdout.contains("\"states\":{\"suspended\":1}"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-triage-partials-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var parts: [String] = []
        for (n, input) in [log, sample].enumerated() {
            let p = try CLI.run(["triage", "--partial", "--partial-inputs", input])
            #expect(p.status == 0, "\(p.stderr)")
            let path = dir.appendingPathComponent("part-\(n).json").path
            try Data(p.stdout.utf8).write(to: URL(fileURLWithPath: path))
            parts.append(path)
        }
        let merged = try CLI.run(["triage", "merge"] + parts.reversed() + ["--format", "json"])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == direct.stdout)
    }
}
