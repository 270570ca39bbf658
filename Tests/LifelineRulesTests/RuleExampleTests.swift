import Foundation
import Testing
import TestSupport
import LifelineCore
import LifelinePipeline
@testable import LifelineRules

/// Every rule's own examples are its tests: each triggering example must report exactly the
/// lines marked `↓`, each non-triggering example nothing.
@Suite struct RuleExampleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let rule: any Rule.Type
        let example: RuleExample
        let triggering: Bool
        var testDescription: String {
            "\(rule.description.id) \(triggering ? "triggering" : "non-triggering") (\(URL(fileURLWithPath: example.file).lastPathComponent):\(example.line))"
        }
    }

    static let cases: [Case] = RuleRegistry.all.flatMap { rule in
        rule.description.triggering.map { Case(rule: rule, example: $0, triggering: true) }
            + rule.description.nonTriggering.map { Case(rule: rule, example: $0, triggering: false) }
    }

    /// The findings of `rule` on the log `text` (none when empty), checked against the Info.plist
    /// `manifest` when there is one (read from a file, as `--manifest` reads it).
    static func run(_ rule: any Rule.Type, on text: String, config: String? = nil, manifest: String? = nil) -> [Diagnostic] {
        var configuration: Configuration
        do {
            configuration = try config.map { try Configuration.parse($0, path: "example.yml") } ?? .defaults
        } catch {
            Issue.record("example configuration: \(error)")
            return []
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-rule-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        if let manifest {
            let plist = dir.appendingPathComponent("Info.plist")
            precondition(FileManager.default.createFile(atPath: plist.path, contents: Data((manifest + "\n").utf8)))
            do { configuration.settings.manifest = try ManifestReader.read(path: plist.path) } catch {
                Issue.record("example Info.plist: \(error)")
                return []
            }
        }
        guard !text.isEmpty else { return Analysis.manifestFindings(rules: [rule], configuration: configuration) }
        let file = dir.appendingPathComponent("example.log")
        precondition(FileManager.default.createFile(atPath: file.path, contents: Data((text + "\n").utf8)))
        return Analysis.run(paths: [file.path], ingest: IngestOptions(jobs: 1), rules: [rule], configuration: configuration).diagnostics
    }

    /// Lower-case and no trailing period; a message may open with a code name (`-[AppDelegate …]`,
    /// `UIApplication.applicationState`, `SwiftUI`), not with a capitalised English word.
    static func isMessageStyle(_ m: String) -> Bool {
        guard !m.isEmpty, !m.hasSuffix(".") else { return false }
        let word = m.prefix { !$0.isWhitespace }
        guard let first = word.first, first.isUppercase else { return true }
        return word.dropFirst().contains { $0.isUppercase || !$0.isLetter }
    }

    @Test("message style check", arguments: [("the scene became active", true), ("-[AppDelegate x] ran", true),
                                            ("UIApplication.applicationState was read", true), ("SwiftUI state", true),
                                            ("The scene became active", false), ("the scene became active.", false)])
    func messageStyle(message: String, ok: Bool) { #expect(Self.isMessageStyle(message) == ok) }

    @Test("rule examples", arguments: cases)
    func example(_ c: Case) {
        let (text, marked) = c.example.unmarked
        let plist = c.example.unmarkedManifest
        let found = Self.run(c.rule, on: text, config: c.example.config, manifest: plist?.text)
        let location = SourceLocation(fileID: "LifelineRules/\(URL(fileURLWithPath: c.example.file).lastPathComponent)",
                                      filePath: c.example.file, line: c.example.line, column: 1)
        if c.triggering {
            let plistMarked = plist?.markedLines ?? []
            #expect(!marked.isEmpty || !plistMarked.isEmpty, "a triggering example needs a ↓ marker", sourceLocation: location)
            // Findings in the log point at its lines; findings in the Info.plist at the plist's.
            let inPlist = found.filter { $0.file.hasSuffix("Info.plist") }, inLog = found.filter { !$0.file.hasSuffix("Info.plist") }
            #expect(inLog.map(\.line) == marked, "\(inLog.map { "\($0.line): \($0.message)" })", sourceLocation: location)
            #expect(inPlist.map(\.line) == plistMarked, "\(inPlist.map { "\($0.line) \($0.keyPath ?? ""): \($0.message)" })", sourceLocation: location)
        } else {
            #expect(found.isEmpty, "\(found.map { "\($0.line): \($0.message)" })", sourceLocation: location)
        }
        for d in found {
            #expect(d.ruleId == c.rule.description.id && d.rule == c.rule.description.name)
            #expect(Self.isMessageStyle(d.message), "messages are lower-case, without a trailing period: \(d.message)")
        }
    }
}

@Suite struct RuleRegistryTests {
    @Test("ids and names are unique, ids follow LC-<letter><digits>, names are kebab-case")
    func identities() {
        let ds = RuleRegistry.all.map { $0.description }
        #expect(Set(ds.map(\.id)).count == ds.count)
        #expect(Set(ds.map(\.name)).count == ds.count)
        for d in ds {
            #expect(d.id.wholeMatch(of: /LC-[SACTMFD]\d{2}/) != nil, "\(d.id)")
            #expect(d.name.wholeMatch(of: /[a-z]+(-[a-z]+)*/) != nil, "\(d.name)")
            #expect(!d.triggering.isEmpty && !d.nonTriggering.isEmpty, "\(d.id) needs examples of both kinds")
            #expect(!d.summary.isEmpty && !d.rationale.isEmpty)
        }
    }

    @Test("every rule file in Sources/LifelineRules/Rules is registered")
    func everyFileRegistered() throws {
        let rulesDir = Repository.path("Sources/LifelineRules/Rules")
        let files = FileManager.default.enumerator(atPath: rulesDir.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix("Rule.swift") }
            .map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } ?? []
        let registered = Set(RuleRegistry.all.map { String(describing: $0) })
        #expect(!files.isEmpty)
        #expect(Set(files) == registered, "not registered: \(Set(files).subtracting(registered)), no file: \(registered.subtracting(files))")
    }
}
