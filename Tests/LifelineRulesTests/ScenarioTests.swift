import Foundation
import Testing
import TestSupport
import LifelineCore
import LifelinePipeline
@testable import LifelineRules

/// Holds `lifeline analyze` to `SampleLogs/scenarios/expected-findings.tsv`, written by hand from the
/// rules' documentation for one scenario per file.
@Suite struct ScenarioTests {
    static let dir = Repository.path("SampleLogs/scenarios")

    struct Finding: Hashable, CustomStringConvertible {
        var line: Int, ruleId: String, severity: String
        var description: String { "\(line) \(ruleId) \(severity)" }
    }

    static var expected: [String: Set<Finding>] {
        guard let text = try? String(contentsOf: dir.appendingPathComponent("expected-findings.tsv"), encoding: .utf8) else { return [:] }
        var out: [String: Set<Finding>] = [:]
        for row in text.split(separator: "\n").dropFirst() {
            let f = row.split(separator: "\t").map(String.init)
            guard f.count >= 4, let line = Int(f[1]) else { continue }
            out[f[0], default: []].insert(Finding(line: line, ruleId: f[2], severity: f[3]))
        }
        return out
    }

    static var scenarios: [String] {
        Repository.fileNames(in: dir, extensions: ["log"])
    }

    @Test("each scenario produces exactly the findings of the table", arguments: scenarios)
    func scenario(file: String) {
        // A scenario that needs markers has its configuration beside it: `name.lifeline.yml`.
        let configPath = Self.dir.appendingPathComponent(file.replacingOccurrences(of: ".log", with: ".lifeline.yml")).path
        var configuration = Configuration.defaults
        if FileManager.default.fileExists(atPath: configPath) {
            do { configuration = try Configuration.load(path: configPath) } catch { Issue.record("\(error)"); return }
        }
        let analysis = Analysis.run(paths: [Self.dir.appendingPathComponent(file).path], ingest: IngestOptions(jobs: 1),
                                    configuration: configuration)
        let found = Set(analysis.diagnostics.map {
            Finding(line: $0.line, ruleId: $0.ruleId, severity: $0.severity.description)
        })
        let want = Self.expected[file] ?? []
        #expect(found == want, "missing: \(want.subtracting(found).sorted { $0.line < $1.line }), unexpected: \(found.subtracting(want).sorted { $0.line < $1.line })")
    }

    @Test("the table names only scenario files that exist")
    func tableFiles() {
        for file in Self.expected.keys { #expect(Self.scenarios.contains(file), "\(file)") }
        #expect(Self.scenarios.count >= 12)
    }
}
