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
    ])
    func matchesFreshRun(arguments: [String], file: String) throws {
        let committed = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("Output/\(file)"), encoding: .utf8)
        let fresh = try CLI.run(arguments)
        #expect(fresh.status == 0)
        #expect(fresh.stdout == committed, "Output/\(file) is stale: run scripts/demo and commit the result")
    }
}
