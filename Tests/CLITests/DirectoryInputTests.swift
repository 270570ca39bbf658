import Foundation
import Testing

/// A directory of device logs as they arrive: rotated, compressed, without an extension, beside
/// files that are not logs. Every log is read whatever its name; every other file is named on
/// standard error and in the statistics, with the reason it was not read.
@Suite struct DirectoryInputTests {
    /// The directory: four logs under names the extension list never knew, a binary file and notes.
    static func makeDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let samples = CLI.repositoryRoot.appendingPathComponent("SampleLogs")
        for (sample, name) in [("idevicesyslog.log", "syslog"), ("catalyst-reopen.log", "catalyst.log.1"),
                               ("log-stream-default.log", "carplay.out"), ("print-function.log", "device")] {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(sample), to: dir.appendingPathComponent(name))
        }
        let gz = Process()
        gz.executableURL = URL(fileURLWithPath: "/bin/sh")
        gz.arguments = ["-c", "gzip -c \"$0\" > \"$1\"", samples.appendingPathComponent("xcode-console.log").path,
                        dir.appendingPathComponent("system.log.0.gz").path]
        try gz.run()
        gz.waitUntilExit()
        try Data([0x50, 0x4B, 0x03, 0x04, 0, 0, 1, 2]).write(to: dir.appendingPathComponent("bundle.bin"))
        try Data("packing list\nsunscreen, charger\n".utf8).write(to: dir.appendingPathComponent("notes"))
        return dir
    }

    @Test("events --stats reads every log of a directory by content and says what it skipped and why")
    func statsNameSkippedFiles() throws {
        let dir = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["events", "--stats", "--format", "json", dir.path])
        #expect(r.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let inputs = try #require(json["inputs"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: inputs.map { (($0["path"] as! String).split(separator: "/").last.map(String.init)!, $0) })
        #expect(byName.keys.sorted() == ["bundle.bin", "carplay.out", "catalyst.log.1", "device", "notes", "syslog", "system.log.0.gz"])
        // The logs, read as the formats their content shows.
        #expect(byName["syslog"]?["format"] as? String == "idevicesyslog")
        #expect(byName["catalyst.log.1"]?["format"] as? String == "xcode")
        #expect(byName["carplay.out"]?["format"] as? String == "log-default")
        #expect(byName["device"]?["format"] as? String == "print")
        #expect(byName["system.log.0.gz"]?["format"] as? String == "xcode")
        for name in ["syslog", "catalyst.log.1", "carplay.out", "device", "system.log.0.gz"] {
            #expect((byName[name]?["events"] as? Int ?? 0) > 0, "\(name)")
            #expect(byName[name]?["skipped"] == nil, "\(name)")
        }
        // The rest, skipped with the reason, on standard error too.
        #expect((byName["bundle.bin"]?["skipped"] as? String)?.contains("zip archive") == true)
        #expect((byName["notes"]?["skipped"] as? String)?.hasPrefix("not a log") == true)
        #expect(r.stderr.contains("bundle.bin: skipped: binary data (a zip archive)"))
        #expect(r.stderr.contains("notes: skipped: not a log"))
    }

    @Test("the stats table lists skipped files under the counts")
    func statsTable() throws {
        let dir = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["events", "--stats", dir.path])
        #expect(r.stdout.contains("skipped (2, found in a directory and not read):"))
        #expect(r.stdout.range(of: #"bundle\.bin\s+skipped\s+0"#, options: .regularExpression) != nil)
    }

    @Test("triage counts the logs as inputs and lists what it skipped")
    func triageSkipped() throws {
        let dir = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["triage", "--format", "json", dir.path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["inputs"] as? Int == 5)
        #expect(summary["skipped"] as? Int == 2)
        let skipped = try #require(json["skipped"] as? [[String: Any]])
        #expect(skipped.compactMap { ($0["path"] as? String)?.split(separator: "/").last.map(String.init) } == ["bundle.bin", "notes"])
        let text = try CLI.run(["triage", dir.path])
        #expect(text.stdout.contains("5 inputs"))
        #expect(text.stdout.contains("2 skipped"))
    }

    @Test("a file named on the command line is read whatever it holds")
    func namedFilesAreRead() throws {
        let dir = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["events", "--stats", "--format", "json", dir.appendingPathComponent("notes").path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let inputs = try #require(json["inputs"] as? [[String: Any]])
        #expect(inputs.first?["skipped"] == nil)
        #expect(inputs.first?["lines"] as? Int == 2)
    }

    @Test("triage --skip-non-logs takes a listing made elsewhere as a directory walk: the same inputs read, the same files skipped")
    func listingAsWalk() throws {
        let dir = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let walk = try CLI.run(["triage", "--quiet", "--format", "json", dir.path])
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().map { dir.appendingPathComponent($0).path }
        let list = Data((names.joined(separator: "\n") + "\n").utf8)
        let listed = try CLI.run(["triage", "--quiet", "--format", "json", "--skip-non-logs", "--files-from", "-"], stdin: list)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout == walk.stdout)
        // Without it, every listed file is read, the notes and the binary file included.
        let read = try CLI.run(["triage", "--quiet", "--format", "json", "--files-from", "-"], stdin: list)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        #expect((json["summary"] as? [String: Any])?["skipped"] as? Int == 0)
    }
}
