import Foundation
import Testing

/// `Output/` holds what the README's demo command writes from `SampleLogs/`; it is committed, so a
/// change that alters the output must regenerate it (`scripts/demo`) and show the difference.
@Suite struct OutputGoldenTests {
    @Test("Output/ matches a fresh run on SampleLogs/", arguments: [
        (["events", "SampleLogs", "--format", "jsonl"], "events.jsonl"),
        (["events", "SampleLogs"], "events.txt"),
        (["events", "SampleLogs", "--stats", "--format", "json"], "stats.json"),
        (["events", "SampleLogs", "--stats"], "stats.txt"),
        (["analyze", "SampleLogs", "--fail-on", "never"], "analysis.txt"),
        (["analyze", "SampleLogs", "--fail-on", "never", "--format", "json"], "analysis.json"),
        (["timeline", "SampleLogs"], "timeline.txt"),
        (["analyze", "SampleLogs/scenarios/app-markers.log", "--config", "SampleLogs/scenarios/app-markers.lifeline.yml",
          "--fail-on", "never"], "analysis-markers.txt"),
        (["manifest", "SampleLogs/manifests/Almanac-Info.plist", "SampleLogs/manifests/Compass.app", "SampleLogs/manifests/Folio-Info.plist",
          "SampleLogs/manifests/Roadcast-Info.plist", "SampleLogs/manifests/Weather.ipa", "--fail-on", "never"], "manifest.txt"),
        (["analyze", "SampleLogs/scenarios/ipad-multi-window.log", "--manifest", "SampleLogs/manifests/Folio-Info.plist",
          "--fail-on", "never"], "analysis-manifest.txt"),
    ])
    func matchesFreshRun(arguments: [String], file: String) throws {
        let committed = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("Output/\(file)"), encoding: .utf8)
        let fresh = try CLI.run(arguments)
        #expect(fresh.status == 0)
        #expect(fresh.stdout == committed, "Output/\(file) is stale: run scripts/demo and commit the result")
    }

    @Test("Output/diagrams, Output/report and Output/triage match a fresh run (DOT and JSON)", arguments: [
        (["graph", "SampleLogs", "--aggregate", "--as", "dot"], ["SampleLogs.state.dot"], "diagrams"),
        (["graph", "SampleLogs/scenarios", "--kind", "timeline", "--as", "dot"], [], "diagrams"),
        (["analyze", "SampleLogs", "--fail-on", "never"], ["report.json"], "report"),
        (["triage", "SampleLogs", "--quiet"], ["triage.json"], "triage"),
    ])
    func filesMatchFreshRun(arguments: [String], files: [String], committedDirectory: String) throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-output-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tmp) }
        let fresh = try CLI.run(arguments + ["--output", tmp.path])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasSuffix(".dot") || $0.hasSuffix(".json") }.sorted()
        let wanted = files.isEmpty ? written : files
        #expect(!wanted.isEmpty && Set(wanted).isSubset(of: Set(written)), "\(written)")
        for name in wanted {
            let committed = CLI.repositoryRoot.appendingPathComponent("Output/\(committedDirectory)/\(name)")
            let expected = try String(contentsOf: committed, encoding: .utf8)
            let got = try String(contentsOf: tmp.appendingPathComponent(name), encoding: .utf8)
            #expect(got == expected, "Output/\(committedDirectory)/\(name) is stale: run scripts/demo and commit the result")
        }
    }
}
