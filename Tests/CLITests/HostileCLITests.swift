import Foundation
import Testing

// Exit codes and messages of the hostile-input matrix (issue 6 §2, Documentation/Reliability.md):
// 0 when every input was read (problems inside an input are warnings on stderr naming the file and
// line), 3 when an input could not be read at all. Related cases already covered elsewhere:
// CLIEventsTests.binaryFileIsAWarningNotAFailure, missingFileExitsWithThreeAndNamesTheFile,
// emptyStandardInputIsNotAnError; TriageCommandTests.unreadable.
@Suite struct HostileCLITests {
    static let h = "2024-03-01 09:58:12.004311+0100 App[1:2] "

    static func stats(_ r: CLI.Result) throws -> [[String: Any]] {
        let top = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return try #require(top?["inputs"] as? [[String: Any]])
    }

    static func balanced(_ s: [String: Any]) -> Bool {
        let n = ["records", "continuationLines", "nonLogLines", "unrecognizedLines"].map { s[$0] as? Int ?? -1 }.reduce(0, +)
        return s["lines"] as? Int == n
    }

    static func utf16LE(_ text: String) -> Data {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for u in text.utf16 { bytes.append(UInt8(u & 0xFF)); bytes.append(UInt8(u >> 8)) }
        return Data(bytes)
    }

    /// An empty file is no error (exit 0), but it is said (issue 17: "0 sessions, 0 events" with
    /// no word left a user wondering whether the file was read at all).
    @Test func emptyFileExitsZeroAndSaysSo() throws {
        let scratch = try CLIFixtures.Scratch(); defer { scratch.remove() }
        let p = try scratch.write("empty.log", Data())
        for command in ["events", "analyze", "timeline"] {
            let r = try CLI.run([command, p])
            #expect(r.status == 0, "\(command)")
            #expect(r.stderr == "lifeline: \(p): empty (0 bytes): no lines to read\n", "\(command): \(r.stderr)")
        }
        let s = try #require(try Self.stats(try CLI.run(["events", p, "--stats", "--format", "json"])).first)
        #expect(s["lines"] as? Int == 0 && Self.balanced(s))
    }

    @Test func utf16FileAndStandardInputAreDecoded() throws {
        let scratch = try CLIFixtures.Scratch(); defer { scratch.remove() }
        let text = "\(Self.h)-[SceneDelegate sceneWillEnterForeground:] é\r\nnoise\r\n\(Self.h)-[SceneDelegate sceneDidBecomeActive:]\r\n"
        let p = try scratch.write("wide.log", Self.utf16LE(text))
        let r = try CLI.run(["events", p, "--format", "jsonl"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        #expect(CLIFixtures.lineKinds(CLIFixtures.jsonObjects(r.stdout)) == ["1 scene.willEnterForeground", "3 scene.didBecomeActive"])
        let stdin = try CLI.run(["events", "-", "--format", "jsonl"], stdin: Self.utf16LE(text))
        #expect(stdin.status == 0)
        #expect(CLIFixtures.lineKinds(CLIFixtures.jsonObjects(stdin.stdout)) == ["1 scene.willEnterForeground", "3 scene.didBecomeActive"])
        let analyze = try CLI.run(["analyze", p, "--fail-on", "never"])
        #expect(analyze.status == 0)
        #expect(analyze.stdout.contains("2 events"), "\(analyze.stdout)")
    }

    @Test func randomBytesAreAWarningNamingTheFile() throws {
        let scratch = try CLIFixtures.Scratch(); defer { scratch.remove() }
        var x: UInt64 = 0x1234_5678
        let bytes = (0..<5000).map { _ -> UInt8 in x = x &* 6364136223846793005 &+ 1442695040888963407; return UInt8(x >> 56) }
        let p = try scratch.write("noise.log", Data(bytes))
        let r = try CLI.run(["events", p, "--stats", "--format", "json"])
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix("lifeline: \(p): binary data ("), "\(r.stderr)")
        let s = try #require(try Self.stats(r).first)
        #expect(Self.balanced(s) && s["unrecognizedLines"] as? Int == s["lines"] as? Int)
    }

    @Test func overLongLineIsAWarningWithFileAndLine() throws {
        let scratch = try CLIFixtures.Scratch(); defer { scratch.remove() }
        let long = Self.h + String(repeating: "q", count: 2 << 20)
        let p = try scratch.write("long.log", Data("\(Self.h)a\n\(long)\n\(Self.h)-[SceneDelegate sceneDidBecomeActive:]\n".utf8))
        let r = try CLI.run(["events", p, "--stats", "--format", "json"])
        #expect(r.status == 0)
        #expect(r.stderr == "lifeline: \(p):2: line is longer than 1048576 bytes; the first 1048576 bytes were read and \(long.utf8.count - (1 << 20)) more were skipped\n")
        let s = try #require(try Self.stats(r).first)
        #expect(s["lines"] as? Int == 3 && s["events"] as? Int == 1 && Self.balanced(s))
    }

    @Test func truncatedGzipIsReportedWithItsLineAndWhatWasReadCounts() throws {
        let scratch = try CLIFixtures.Scratch(); defer { scratch.remove() }
        let plain = try scratch.write("c.log", try CLIFixtures.sampleData())
        let gz = scratch.url.appendingPathComponent("c.log.gz").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "gzip -c -n '\(plain)' > '\(gz)'"]
        try p.run(); p.waitUntilExit()
        let whole = try Data(contentsOf: URL(fileURLWithPath: gz))
        let cut = try scratch.write("cut.log.gz", whole.prefix(whole.count / 2))
        let r = try CLI.run(["events", cut, "--stats", "--format", "json"])
        #expect(r.status == 0, "lines were read, so the run goes on")
        let s = try #require(try Self.stats(r).first)
        let lines = try #require(s["lines"] as? Int)
        #expect(lines > 0 && lines < 110 && Self.balanced(s))
        #expect(r.stderr.contains("lifeline: \(cut):\(lines + 1): reading stopped: gzip data ends before the end of its stream (truncated file)"), "\(r.stderr)")
    }

    @Test func truncatedTarIsReportedByTriage() throws {
        let scratch = try CLIFixtures.Scratch(); defer { scratch.remove() }
        let sample = try CLIFixtures.sampleData()
        _ = try scratch.write("1.log", sample)
        _ = try scratch.write("2.log", sample)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "cd '\(scratch.url.path)' && tar -cf b.tar 1.log 2.log"]
        try p.run(); p.waitUntilExit()
        let whole = try Data(contentsOf: scratch.url.appendingPathComponent("b.tar"))
        let cut = try scratch.write("cut.tar", whole.prefix(512 + sample.count + 512 + 3000))
        let r = try CLI.run(["triage", cut])
        #expect(r.status == 0)
        #expect(r.stdout.contains("\(cut)!/2.log: the archive ends inside this member"), "\(r.stdout)")
        #expect(r.stdout.contains("truncated archive"))
        // `events` does not open archives: it says so and counts the lines as unrecognized.
        let e = try CLI.run(["events", cut])
        #expect(e.status == 0)
        #expect(e.stderr.contains("\(cut): a tar archive"))
    }

    @Test func unreadableInputsExitThree() throws {
        let scratch = try CLIFixtures.Scratch(); defer { scratch.remove() }
        let p = try scratch.write("secret.log", Data("\(Self.h)x\n".utf8))
        chmod(p, 0)
        defer { chmod(p, 0o644) }
        let r = try CLI.run(["events", p])
        if geteuid() == 0 {
            // Recorded reason: running as root, permission bits do not apply; the socket below
            // takes the same exit path.
            #expect(r.status == 0)
        } else {
            #expect(r.status == 3)
            #expect(r.stderr == "lifeline: \(p): permission denied\n")
        }
        // A Unix socket: it exists, but open(2) fails (as root too).
        let sock = scratch.url.appendingPathComponent("s.log").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in sock.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        for command in ["events", "analyze", "timeline"] {
            let s = try CLI.run([command, sock])
            #expect(s.status == 3, "\(command)")
            #expect(s.stderr.contains("lifeline: \(sock): No such device or address"), "\(command): \(s.stderr)")
        }
        // With a readable input beside it, the other input is still read, and the run still exits 3.
        let good = try scratch.write("good.log", Data("\(Self.h)-[SceneDelegate sceneDidBecomeActive:]\n".utf8))
        let mixed = try CLI.run(["events", good, sock])
        #expect(mixed.status == 3)
        #expect(mixed.stdout.contains("scene.didBecomeActive"))
    }

    @Test func interleavedProcessesAreTwoSessionsInAnalyze() throws {
        let scratch = try CLIFixtures.Scratch(); defer { scratch.remove() }
        var lines: [String] = []
        for (i, c) in ["sceneWillEnterForeground:", "sceneDidBecomeActive:"].enumerated() {
            lines.append("2024-03-01 10:00:0\(i).000000+0100 Mail[100:100] -[SceneDelegate \(c)]")
            lines.append("2024-03-01 10:00:0\(i).000000+0100 Maps[200:200] -[SceneDelegate \(c)]")
        }
        let p = try scratch.write("two.log", Data((lines.joined(separator: "\n") + "\n").utf8))
        let r = try CLI.run(["analyze", p, "--fail-on", "never"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("2 sessions"), "\(r.stdout)")
    }
}
