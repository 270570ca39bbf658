import Foundation
import Testing

/// `triage --partial` and `triage merge`: the partials of any split of the inputs, merged in any
/// order or grouping, give byte for byte the report of one run over all of them.
@Suite struct TriageMergeTests {
    struct Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-merge-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        func write(_ name: String, _ text: String) throws -> String {
            try Data(text.utf8).write(to: url.appendingPathComponent(name))
            return path(name)
        }
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// Every file under SampleLogs/, in path order (relative, so outputs name them the same way).
    static func sampleFiles() -> [String] {
        let root = CLI.repositoryRoot.appendingPathComponent("SampleLogs")
        let names = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return names.filter { name in
            var dir: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &dir) && !dir.boolValue
        }.map { "SampleLogs/\($0)" }.sorted()
    }

    func partial(_ files: [String], in s: Scratch, name: String, extra: [String] = []) throws -> String {
        let list = try s.write("\(name).list", files.joined(separator: "\n") + "\n")
        let r = try CLI.run(["triage", "--partial", "--quiet", "--files-from", list] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return try s.write("\(name).json", r.stdout)
    }

    @Test("merged partials equal one run over every input, in every format, whatever the order and grouping")
    func mergeEqualsSingleRun() throws {
        let s = try Scratch(); defer { s.remove() }
        let files = Self.sampleFiles()
        #expect(files.count > 40)
        // Three shards of different sizes, and a fourth that is empty.
        let a = Array(files[..<7]), b = Array(files[7..<30]), c = Array(files[30...])
        let rows = ["--partial-inputs"]
        let pa = try partial(a, in: s, name: "a", extra: rows), pb = try partial(b, in: s, name: "b", extra: rows)
        let pc = try partial(c, in: s, name: "c", extra: rows)
        let all = try s.write("all.list", files.joined(separator: "\n") + "\n")
        // A tree: (b + c) as a partial, then a + that.
        let bc = try CLI.run(["triage", "merge", pb, pc, "--partial", "--partial-inputs"])
        #expect(bc.status == 0, "\(bc.stderr)")
        let pbc = try s.write("bc.json", bc.stdout)
        for format in ["json", "text", "csv", "markdown", "html"] {
            let single = try CLI.run(["triage", "--quiet", "--files-from", all, "--format", format])
            let orders = [[pa, pb, pc], [pc, pa, pb], [pb, pc, pa], [pa, pbc], [pbc, pa]]
            for order in orders {
                let merged = try CLI.run(["triage", "merge"] + order + ["--format", format])
                #expect(merged.status == 0, "\(merged.stderr)")
                #expect(merged.stdout == single.stdout, "\(format), order \(order.map { URL(fileURLWithPath: $0).lastPathComponent })")
            }
        }
        // A partial of partials is the partial of the union.
        let abc = try CLI.run(["triage", "merge", pa, pbc, "--partial", "--partial-inputs"])
        let acb = try CLI.run(["triage", "merge", pc, pa, pb, "--partial", "--partial-inputs"])
        #expect(abc.stdout == acb.stdout)
        let whole = try CLI.run(["triage", "--partial", "--partial-inputs", "--quiet", "--files-from", all])
        #expect(abc.stdout == whole.stdout)
        // Without rows, a partial holds the inputs' sums: the merged report counts them all alike.
        let sums = try [a, b, c].enumerated().map { try partial($1, in: s, name: "sums-\($0)") }
        let merged = try CLI.run(["triage", "merge"] + sums + ["--format", "json"])
        let single = try CLI.run(["triage", "--quiet", "--files-from", all, "--format", "json"])
        let m = try #require(try JSONSerialization.jsonObject(with: Data(merged.stdout.utf8)) as? [String: Any])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [String: Any])
        #expect((m["summary"] as? [String: Int]) == (o["summary"] as? [String: Int]))
        #expect((m["inputs"] as? [Any])?.isEmpty == true)
        #expect(NSDictionary(dictionary: ["s": m["signatures"] ?? []]).isEqual(to: ["s": o["signatures"] ?? []]))
    }

    @Test("a signature seen in more files than a report lists keeps its count, and a sample of the smallest names")
    func cappedFileSample() throws {
        let s = try Scratch(); defer { s.remove() }
        let line = "2026-05-04 10:15:02.123456+0200 Atlas[2210:83412] *** Assertion failure in -[ATListController reload], ATListController.m:42\n"
        let files = try (0..<240).map { i in try s.write(String(format: "device-%03d.log", i), line) }
        let single = try CLI.run(["triage", "--quiet", "--format", "json"] + files)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [String: Any])
        let top = try #require((doc["signatures"] as? [[String: Any]])?.first)
        #expect(top["fileCount"] as? Int == 240)
        let sample = try #require(top["files"] as? [String])
        #expect(sample.count == 100 && sample == sample.sorted() && sample.first?.hasSuffix("device-000.log") == true)
        // Shards of 80: each partial keeps 80 names; merged, the report is the same bytes.
        let parts = try stride(from: 0, to: 240, by: 80).map { start in
            let r = try CLI.run(["triage", "--partial", "--partial-inputs", "--quiet"] + Array(files[start..<(start + 80)]))
            return try s.write("part-\(start).json", r.stdout)
        }
        let merged = try CLI.run(["triage", "merge"] + parts.reversed() + ["--format", "json"])
        #expect(merged.stdout == single.stdout)
    }

    @Test("unreadable inputs: a report lists the first 100 and counts them all, merged or not")
    func cappedUnreadable() throws {
        let s = try Scratch(); defer { s.remove() }
        let missing = (0..<150).map { s.path(String(format: "gone-%03d.log", $0)) }
        let real = "SampleLogs/idevicesyslog.log"
        let single = try CLI.run(["triage", "--quiet", "--format", "json", real] + missing)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [String: Any])
        #expect((doc["summary"] as? [String: Any])?["unreadable"] as? Int == 150)
        let listed = try #require(doc["unreadable"] as? [[String: Any]])
        #expect(listed.count == 100 && (listed.first?["path"] as? String)?.hasSuffix("gone-000.log") == true)
        let p1 = try CLI.run(["triage", "--partial", "--partial-inputs", "--quiet", real] + missing[..<90])
        let p2 = try CLI.run(["triage", "--partial", "--partial-inputs", "--quiet"] + missing[90...])
        let merged = try CLI.run(["triage", "merge", try s.write("p2.json", p2.stdout), try s.write("p1.json", p1.stdout), "--format", "json"])
        #expect(merged.stdout == single.stdout)
    }

    @Test("partials made with different settings are refused, naming the difference")
    func settingsMismatch() throws {
        let s = try Scratch(); defer { s.remove() }
        let files = Self.sampleFiles()
        let p1 = try partial(Array(files[..<5]), in: s, name: "one")
        let p2 = try partial(Array(files[5..<10]), in: s, name: "two", extra: ["--min-severity", "error"])
        let r = try CLI.run(["triage", "merge", p1, p2])
        #expect(r.status == 2)
        #expect(r.stderr.contains("different settings") && r.stderr.contains("minSeverity"), "\(r.stderr)")
    }

    @Test("a file that is not a partial result is refused with its name")
    func notAPartial() throws {
        let s = try Scratch(); defer { s.remove() }
        let report = try CLI.run(["triage", "--quiet", "SampleLogs/idevicesyslog.log", "--format", "json"])
        let path = try s.write("report.json", report.stdout)
        let r = try CLI.run(["triage", "merge", path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("report.json: not a partial triage result"), "\(r.stderr)")
        let broken = try s.write("broken.json", "{\"lifelinePartial\": 1, \"settings\": {}, \"signatures\": [{\"kind\": \"nope\"}]}")
        let b = try CLI.run(["triage", "merge", broken])
        #expect(b.status == 2)
        #expect(b.stderr.contains("broken.json: malformed partial triage result"), "\(b.stderr)")
    }
}
