import Foundation
import Testing
import TestSupport
import LifelineCore
import LifelinePipeline
@testable import LifelineRules

/// Holds the manifest rules to `SampleLogs/manifests/expected-findings.tsv`, written by hand: each
/// sample Info.plist alone, and against its app's scenario log.
@Suite struct ManifestScenarioTests {
    static let root = Repository.sampleLogs
    static let manifests = root.appendingPathComponent("manifests")
    static let scenarios = root.appendingPathComponent("scenarios")

    struct Run: Hashable, CustomTestStringConvertible, Sendable {
        var manifest: String, log: String?, productModule: String?
        var testDescription: String { "\(manifest)\(log.map { " + \($0)" } ?? "")\(productModule.map { " (module \($0))" } ?? "")" }
    }

    static var expected: [Run: Set<String>] {
        guard let text = try? String(contentsOf: manifests.appendingPathComponent("expected-findings.tsv"), encoding: .utf8) else { return [:] }
        var out: [Run: Set<String>] = [:]
        for row in text.split(separator: "\n").dropFirst() {
            let f = row.split(separator: "\t").map(String.init)
            guard f.count == 6 else { Issue.record("bad row: \(row)"); continue }
            let run = Run(manifest: f[0], log: f[1] == "-" ? nil : f[1], productModule: f[2] == "-" ? nil : f[2])
            out[run, default: []].insert("\(f[3]) \(f[4]) \(f[5])")
        }
        return out
    }

    static var runs: [Run] { expected.keys.sorted { $0.testDescription < $1.testDescription } }

    /// `file:line` or `file :key:path`, with the file relative to its sample folder.
    static func place(_ d: Diagnostic) -> String {
        var file = d.file
        for dir in [manifests.path + "/", scenarios.path + "/"] where file.hasPrefix(dir) { file.removeFirst(dir.count) }
        return d.line > 0 ? "\(file):\(d.line)" : "\(file) \(d.keyPath ?? "")"
    }

    @Test("each sample manifest, alone and with its app's log, gives exactly the findings of the table", arguments: runs)
    func run(_ run: Run) throws {
        var configuration = Configuration.defaults
        configuration.settings.manifest = try ManifestReader.read(path: Self.manifests.appendingPathComponent(run.manifest).path,
                                                                  productModule: run.productModule)
        let found: [Diagnostic]
        if let log = run.log {
            found = Analysis.run(paths: [Self.scenarios.appendingPathComponent(log).path], ingest: IngestOptions(jobs: 1),
                                 configuration: configuration).diagnostics
        } else {
            found = Analysis.manifestFindings(rules: RuleRegistry.all, configuration: configuration)
        }
        let got = Set(found.map { "\(Self.place($0)) \($0.ruleId) \($0.severity)" })
        let want = Self.expected[run] ?? []
        #expect(got == want, "missing: \(want.subtracting(got).sorted()), unexpected: \(got.subtracting(want).sorted())")
    }

    @Test("every sample manifest is in the table, alone")
    func everySample() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.manifests.path)
            .filter { $0.hasSuffix(".plist") || $0.hasSuffix(".app") || $0.hasSuffix(".ipa") }
        #expect(files.count >= 5)
        for f in files { #expect(Self.runs.contains(Run(manifest: f, log: nil, productModule: nil)), "\(f)") }
    }
}
