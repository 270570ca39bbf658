import Foundation
import Testing
import TestSupport
import LifelineCore
import LifelinePipeline
@testable import LifelineRules

/// `lifeline watch` reports a rule's findings while a session is still live only when the rule is
/// online: whatever it finds on a session's first events, it also finds on the whole session. This
/// checks that claim on every rule example and sample log, event by event, and that the findings of
/// a live run are exactly those of `analyze`.
@Suite struct OnlineDecidabilityTests {
    struct Input: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let config: String?
        var testDescription: String { name }
    }

    /// Every rule's examples and every sample log.
    static let inputs: [Input] = {
        var out: [Input] = []
        for rule in RuleRegistry.all {
            for (k, e) in (rule.description.triggering + rule.description.nonTriggering).enumerated() {
                out.append(Input(name: "\(rule.description.id) example \(k + 1)", text: e.unmarked.text, config: e.config))
            }
        }
        let root = Repository.sampleLogs
        let names = (FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []).sorted()
        for name in names where !name.hasSuffix(".tsv") && !name.hasSuffix(".yml") && !name.hasSuffix("README.md") {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).path) else { continue }
            out.append(Input(name: "SampleLogs/\(name)", text: String(decoding: data, as: UTF8.self), config: nil))
        }
        return out
    }()

    static func events(_ input: Input) throws -> (events: [Event], configuration: Configuration) {
        let configuration = try input.config.map { try Configuration.parse($0, path: "example.yml") } ?? .defaults
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-online-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(input.name.hasPrefix("SampleLogs/") ? URL(fileURLWithPath: input.name).lastPathComponent : "example.log")
        try Data((input.text + (input.text.hasSuffix("\n") ? "" : "\n")).utf8).write(to: file)
        var options = IngestOptions(jobs: 1)
        options.markers = configuration.markers
        var events: [Event] = []
        Ingester(options: options).run(paths: [file.path], onEvent: { events.append($0) }, onInput: { _ in })
        return (events, configuration)
    }

    /// Findings `LiveAnalysis` reported while a session was live (checked after every event) that
    /// the whole session does not have, by rule id.
    static func prefixOnlyFindings(_ events: [Event], rules: [any Rule.Type], configuration: Configuration) -> [String: [Diagnostic]] {
        var live = LiveAnalysis(rules: rules, configuration: configuration)
        var early: [String: [Diagnostic]] = [:]   // by session id
        var bad: [String: [Diagnostic]] = [:]
        func judge(_ out: LiveAnalysis.Output) {
            for (s, found) in out.ended {
                let whole = Set(found.map(\.identity))
                for d in early.removeValue(forKey: s.id) ?? [] where !whole.contains(d.identity) { bad[d.ruleId, default: []].append(d) }
            }
        }
        for e in events {
            judge(live.add(e))
            for d in live.checkLive().findings { early[d.session, default: []].append(d) }
        }
        judge(live.finish())
        return bad
    }

    @Test("an online rule's findings on a session's first events are findings of the whole session", arguments: inputs)
    func onlineRulesAreMonotone(_ input: Input) throws {
        let (events, configuration) = try Self.events(input)
        let online = RuleRegistry.all.filter { $0.description.online }
        for (rule, found) in Self.prefixOnlyFindings(events, rules: online, configuration: configuration) {
            Issue.record("\(rule) is marked online but reported, on a prefix only: \(found.first!.message) (line \(found.first!.line))")
        }
    }

    @Test("a live run reports exactly the findings of analyze, each once", arguments: inputs)
    func liveEqualsAnalyze(_ input: Input) throws {
        let (events, configuration) = try Self.events(input)
        var live = LiveAnalysis(configuration: configuration)
        var reported: [Diagnostic] = []
        for (i, e) in events.enumerated() {
            reported += live.add(e).findings
            if i % 3 == 0 { reported += live.checkLive().findings }
        }
        reported += live.finish().findings
        var stream = SessionStream(options: configuration.sessionOptions)
        var sessions: [ProcessSession] = []
        for e in events { sessions += stream.add(e) }
        sessions += stream.finish()
        let runner = RuleRunner(rules: RuleRegistry.all, settings: configuration.settings, severities: configuration.severities)
        let expected = sessions.flatMap { runner.check($0) }
        #expect(reported.count == Set(reported.map(\.identity)).count, "a finding was reported twice")
        #expect(Set(reported.map(\.identity)) == Set(expected.map(\.identity)))
    }
}

/// A session that reaches the event limit is checked in parts (`SessionOptions.maxEvents`), as if
/// the log had been cut there, with scene states carried over. On every rule example and sample,
/// cut after every 10th event of a process (the default cuts after 20,000), the parts report no
/// finding that the whole sessions do not, and a live run still reports exactly analyze's.
@Suite struct SessionPartFindingTests {
    static func findings(_ events: [Event], configuration: Configuration) -> [Diagnostic] {
        var stream = SessionStream(options: configuration.sessionOptions)
        var sessions: [ProcessSession] = []
        for e in events { sessions += stream.add(e) }
        sessions += stream.finish()
        let runner = RuleRunner(rules: RuleRegistry.all, settings: configuration.settings, severities: configuration.severities)
        return sessions.flatMap { runner.check($0) }
    }

    struct Place: Hashable, CustomStringConvertible {
        var rule: String
        var file: String
        var line: Int
        var description: String { "\(rule) at line \(line)" }
    }

    @Test("parts of 10 events report nothing the whole sessions do not", arguments: OnlineDecidabilityTests.inputs)
    func partsAddNothing(_ input: OnlineDecidabilityTests.Input) throws {
        let (events, configuration) = try OnlineDecidabilityTests.events(input)
        var cut = configuration
        cut.sessionOptions.maxEvents = 10
        let whole = Set(Self.findings(events, configuration: configuration).map { Place(rule: $0.ruleId, file: $0.file, line: $0.line) })
        let parts = Self.findings(events, configuration: cut)
        let extra = parts.filter { !whole.contains(Place(rule: $0.ruleId, file: $0.file, line: $0.line)) }
        #expect(extra.isEmpty, "\(extra.map { "\($0.ruleId) line \($0.line): \($0.message)" })")
    }

    @Test("a cut waits out every online rule's lookahead after a failure")
    func cutWaitsOutLookahead() {
        let longest = RuleRegistry.all.map { $0.description.onlineLookahead }.max() ?? 0
        #expect(longest <= SessionStream.failureSettling)
    }

    @Test("cut into parts of 10 events, a live run still reports exactly analyze's findings", arguments: OnlineDecidabilityTests.inputs)
    func liveEqualsAnalyzeInParts(_ input: OnlineDecidabilityTests.Input) throws {
        let input = try OnlineDecidabilityTests.events(input)
        let events = input.events
        var configuration = input.configuration
        configuration.sessionOptions.maxEvents = 10
        var live = LiveAnalysis(configuration: configuration)
        var reported: [Diagnostic] = []
        for (i, e) in events.enumerated() {
            reported += live.add(e).findings
            if i % 2 == 0 { reported += live.checkLive().findings }
        }
        reported += live.finish().findings
        let expected = Self.findings(events, configuration: configuration)
        #expect(reported.count == Set(reported.map(\.identity)).count, "a finding was reported twice")
        #expect(Set(reported.map(\.identity)) == Set(expected.map(\.identity)))
    }
}
