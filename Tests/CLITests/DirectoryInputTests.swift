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

/// Issue 17, items 6, 7 and 11: documents beside the logs, empty inputs, and diagram file names.
@Suite struct NewcomerSurpriseTests {
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-surprise-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("a README in a walked directory is skipped as a document; a Markdown file with log records in it is read")
    func documentsAreSkippedUnlessTheyHoldRecords() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("# Logs from the field\n\nEach file is one device. `sceneDidBecomeActive(_:)` came late on the iPad;\nsee -[SceneDelegate sceneWillEnterForeground:] in the notes.\n".utf8)
            .write(to: dir.appendingPathComponent("README.md"))
        try FileManager.default.copyItem(at: CLI.repositoryRoot.appendingPathComponent("SampleLogs/real-shapes/issue-thread-paste.md"),
                                         to: dir.appendingPathComponent("issue.md"))
        let r = try CLI.run(["events", "--stats", "--format", "json", dir.path])
        #expect(r.status == 0)
        #expect(r.stderr.contains("README.md: skipped: a document with no log records in it"), "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let inputs = try #require(json["inputs"] as? [[String: Any]])
        let readme = try #require(inputs.first { ($0["path"] as? String)?.hasSuffix("README.md") == true })
        #expect(readme["lines"] as? Int == 0 && readme["skipped"] != nil)
        let issue = try #require(inputs.first { ($0["path"] as? String)?.hasSuffix("issue.md") == true })
        #expect((issue["events"] as? Int ?? 0) >= 8, "the pasted records are read: \(issue)")
        // Named, a document is read whatever it holds.
        let named = try CLI.run(["events", "--stats", "--format", "json", dir.appendingPathComponent("README.md").path])
        #expect(!named.stderr.contains("skipped"))
    }

    @Test("an empty input is said to be empty, by every command that reads logs")
    func emptyInputIsSaid() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = dir.appendingPathComponent("empty.log")
        try Data().write(to: empty)
        for command in [["analyze"], ["events"], ["timeline"], ["triage"], ["graph", "-o", dir.appendingPathComponent("d").path]] {
            let r = try CLI.run(command + [empty.path])
            #expect(r.stderr.contains("\(empty.path): empty (0 bytes): no lines to read"), "\(command): \(r.stderr)")
        }
    }

    @Test("graph writes to diagrams/ by default, names files by input, session and kind, so runs over several logs into one directory keep each other's files")
    func graphNames() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let samples = CLI.repositoryRoot.appendingPathComponent("SampleLogs")
        let r = try CLI.run(["graph", samples.appendingPathComponent("xcode-console.log").path,
                             samples.appendingPathComponent("catalyst-reopen.log").path], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n") == ["diagrams/xcode-console.P1.state.svg", "diagrams/catalyst-reopen.P2.state.svg"])
        // A second run over another log into the same directory adds its files beside them.
        #expect(try CLI.run(["graph", samples.appendingPathComponent("device-kills.log").path, "--kind", "timeline"], in: dir).status == 0)
        #expect(try CLI.run(["graph", samples.appendingPathComponent("scenarios").path, "--per", "scene", "--as", "dot"], in: dir).status == 0)
        #expect(try CLI.run(["graph", samples.path, "--aggregate", "--as", "dot"], in: dir).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("diagrams").path)
        #expect(names.contains("xcode-console.P1.state.svg") && names.contains("catalyst-reopen.P2.state.svg"))
        #expect(names.contains { $0.hasPrefix("device-kills.P") && $0.hasSuffix(".timeline.svg") })
        #expect(names.contains { $0.range(of: #"^[a-z-]+\.P\d+\.S\d+\.state\.dot$"#, options: .regularExpression) != nil }, "\(names)")
        #expect(names.contains("SampleLogs.state.dot"))
        // One name per file: the base names differ, so nothing replaced another.
        #expect(Set(names).count == names.count)
    }
}
