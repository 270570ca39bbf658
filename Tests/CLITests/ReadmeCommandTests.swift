import Foundation
import Testing

/// Every command in the README's `sh` blocks runs as written (issue 17: `lifeline graph … --as png`
/// failed for want of `--output`): from a scratch directory holding the repository's `SampleLogs/`
/// and `scripts/`, with the built `lifeline` first on `PATH`, line by line and block by block in
/// README order (a later line may read what an earlier one wrote).
@Suite struct ReadmeCommandTests {
    /// What is not run here, and why: each is covered elsewhere or needs what Linux has not.
    static let notRunHere: [(prefix: String, why: String)] = [
        ("scripts/demo", "the quick start; CI runs scripts/test, and OutputGoldenTests check what demo writes"),
        ("scripts/test", "the quick start: this test runs inside it"),
        ("log ", "macOS's log command (a device or the simulator)"),
        ("idevicesyslog", "needs an iOS device over USB"),
        ("xcrun", "macOS's Xcode tools"),
        ("swift build", "a release build and scripts/spark-local: SparkJobTests runs that job"),
    ]

    struct Line: CustomTestStringConvertible, Sendable {
        var number: Int
        var text: String
        var testDescription: String { "README.md:\(number): \(text)" }
    }

    /// The lines of every `sh` block, with their line numbers.
    static func commands() throws -> [Line] {
        let readme = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var out: [Line] = []
        var inBlock = false
        for (i, line) in readme.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                inBlock = !inBlock && line == "```sh"
                continue
            }
            if inBlock && !line.trimmingCharacters(in: .whitespaces).isEmpty { out.append(Line(number: i + 1, text: line)) }
        }
        return out
    }

    static func skipReason(_ line: String) -> String? { notRunHere.first { line.hasPrefix($0.prefix) }?.why }

    @Test("every README command runs as written, in order, with status 0 (analyze and manifest: 0 or 1, their findings)")
    func everyCommandRuns() throws {
        let lines = try Self.commands()
        #expect(lines.count >= 30, "the README's sh blocks were not found")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A copy of the samples (`find SampleLogs` does not descend into a symbolic link), and the
        // scripts where they are (they find the repository through their own path).
        try FileManager.default.copyItem(at: CLI.repositoryRoot.appendingPathComponent("SampleLogs"), to: dir.appendingPathComponent("SampleLogs"))
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("scripts"), withDestinationURL: CLI.repositoryRoot.appendingPathComponent("scripts"))
        var ran = 0
        for line in lines {
            if Self.skipReason(line.text) != nil { continue }
            var command = line.text
            // A followed file is read until Ctrl-C: send it after 3 s, as a user would.
            let follows = command.hasPrefix("lifeline watch") && !command.contains("--no-follow") && !command.contains("|")
            if follows { command = "timeout --preserve-status -s INT 3 " + command }
            let r = try Self.bash(command, in: dir)
            ran += 1
            // `analyze` and `manifest` exit 1 when they find something (at or above --fail-on).
            let allowed: Set<Int32> = command.hasPrefix("lifeline analyze") || command.hasPrefix("lifeline manifest") ? [0, 1] : [0]
            #expect(allowed.contains(r.status), "README.md:\(line.number): `\(line.text)` exited \(r.status): \(r.stderr.prefix(600))")
            #expect(!r.stderr.contains("Error:") && !r.stderr.contains("Usage:"), "README.md:\(line.number): \(r.stderr.prefix(600))")
        }
        #expect(ran >= 25)
        // What the diagram lines say they write is there.
        for file in ["diagrams/xcode-console.P1.state.svg", "diagrams/SampleLogs.state.png", "report/report.html", "live/report.html", "triage/triage.json"] {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(file).path), "\(file) was not written")
        }
        let timelines = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("timelines").path)
        #expect(timelines.contains { $0.hasPrefix("xcode-console.P") && $0.hasSuffix(".timeline.pdf") }, "\(timelines)")
    }

    @Test("the lines not run here are the ones the list names, each for a stated reason")
    func skippedLinesAreKnown() throws {
        let skipped = try Self.commands().filter { Self.skipReason($0.text) != nil }
        #expect(skipped.count <= 9, "more README lines are skipped than expected: \(skipped.map(\.text))")
        for prefix in Self.notRunHere.map(\.prefix) {
            #expect(skipped.contains { $0.text.hasPrefix(prefix) }, "nothing in the README starts with '\(prefix)' any more: drop it from the list")
        }
    }

    /// Runs `command` with bash in `dir`, the built `lifeline` first on `PATH`.
    static func bash(_ command: String, in dir: URL) throws -> CLI.Result {
        let path = CLI.executable.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try CLI.run(program: URL(fileURLWithPath: "/bin/bash"), ["-c", command], in: dir, environment: ["PATH": path])
    }
}
