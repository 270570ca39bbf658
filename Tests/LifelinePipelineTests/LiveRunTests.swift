import Foundation
import LifelineCore
import LifelinePipeline
import LifelineRules
import Testing
import TestSupport

/// The follow loop of `watch`, as a library type: no binary, no terminal.
@Suite struct LiveRunTests {
    /// A log of `processes` launches, each ending in an uncaught exception whose record runs over
    /// twelve lines (the call stack), so that pieces of 64 KiB cut records in the middle.
    static func exceptionLog(processes: Int) -> String {
        var text = ""
        for i in 0..<processes {
            let (h, m, s) = (10 + i / 3600, i / 60 % 60, i % 60)
            let time = String(format: "2024-03-01 %02d:%02d:%02d", h, m, s)
            let pid = 1000 + i
            text += "\(time).100000+0100 MyApp[\(pid):1] -[AppDelegate application:didFinishLaunchingWithOptions:]\n"
            text += "\(time).200000+0100 MyApp[\(pid):1] *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'invalid update \(i)'\n"
            text += "*** First throw call stack:\n(\n"
            for f in 0..<8 { text += "\t\(f)   UIKitCore                           0x0000000185a0c8a\(f) -[UICollectionView _endItemAnimations] + \(100 + f)\n" }
            text += ")\nlibc++abi: terminating due to uncaught exception of type NSException\n"
        }
        return text
    }

    static func temporaryLog(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-live-\(UUID().uuidString).log").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// What one `--no-follow` run over `path` reported: every finding as printed, sessions ended,
    /// and the accounting of the input.
    struct Outcome: Equatable {
        var findings: [String] = []
        var ended: [String] = []
        var lines = 0, events = 0, unrecognized = 0
    }

    static func watch(_ path: String, clock: @escaping () -> Double, readLimit: Int = 1 << 20) throws -> Outcome {
        let source = try LiveSource(path: path, options: IngestOptions(jobs: 1), clock: clock)
        var options = LiveRun.Options(idle: 0.1, follow: false)
        options.readLimit = readLimit
        let run = LiveRun(sources: [source], analysis: LiveAnalysis(), options: options, clock: clock)
        var outcome = Outcome()
        try run.run(stop: { false }, show: { out in
            outcome.findings += out.findings.map { "\($0.ruleId) \($0.file):\($0.line) \($0.session) \($0.message)" }
            outcome.ended += out.ended.map { "\($0.session.id) \($0.session.eventCount)" }
        })
        let stats = try #require(run.finishedInputs.first)
        outcome.lines = stats.lines
        outcome.events = run.analysis.events
        outcome.unrecognized = stats.unrecognizedLines
        return outcome
    }

    @Test("a file read with follow off ends: every line read, the findings those of Analysis.run")
    func noFollowReadsToTheEnd() throws {
        let path = try Self.temporaryLog(Self.exceptionLog(processes: 40))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try Self.watch(path, clock: LiveAnalysis.monotonic)
        #expect(outcome.lines == 40 * 14)
        #expect(outcome.ended.count == 40)
        let analysis = Analysis.run(paths: [path], ingest: IngestOptions(jobs: 1))
        #expect(Set(outcome.findings.map { $0.split(separator: " ").prefix(3).joined(separator: " ") })
                == Set(analysis.diagnostics.map { "\($0.ruleId) \($0.file):\($0.line) \($0.session)" }))
    }

    /// Regression (issue 29): `watch --no-follow --output` once wrote other files on a loaded
    /// machine. A round that took longer than --idle-ms made a file that was still being read
    /// "idle", which closed the record open at the end of the piece read (an exception's call
    /// stack cut in two). Now only a source that caught up with its input goes idle.
    @Test("with follow off, a loop that stalls for seconds between reads reads the same records")
    func noFollowDoesNotDependOnTiming() throws {
        let path = try Self.temporaryLog(Self.exceptionLog(processes: 600))
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A clock that moves a second at every look: every round seems to take longer than --idle-ms.
        final class Stalling: @unchecked Sendable {
            var t = 0.0
            func now() -> Double { t += 1; return t }
        }
        let stalling = Stalling()
        let slow = try Self.watch(path, clock: stalling.now, readLimit: 1)
        let fast = try Self.watch(path, clock: LiveAnalysis.monotonic, readLimit: 1)
        #expect(slow.lines == 600 * 14)
        #expect(slow == fast)
        #expect(slow.ended.count == 600)
        #expect(slow.unrecognized == fast.unrecognized)
    }
}
