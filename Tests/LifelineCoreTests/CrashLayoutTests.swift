import Foundation
import Testing
import TestSupport
@testable import LifelineCore

/// The wrappings real reports arrive in, made from the real reports of `../shared/corpus/`: each
/// must give exactly one failure event with the incident's facts, and every line accounted for.
@Suite("Crash reports: layouts as pasted and exported")
struct CrashLayoutTests {
    static let ips = (try? CrashFiles.corpus("ios16-launch-crash.ips")) ?? ""
    static let text = (try? CrashFiles.corpus("crash-reports/013-book-planets-ios13-5-assert-sigabrt-main.crash")) ?? ""

    static func failures(_ content: String, name: String = "report.ips") -> ([Event], InputStats) {
        let r = ingest(content, name: name)
        return (r.events.filter { $0.kind == .crashReport || $0.kind == .watchdog }, r.stats)
    }

    static func expectIOS16(_ content: String, name: String = "report.ips", sourceLocation: SourceLocation = #_sourceLocation) {
        let (events, stats) = failures(content, name: name)
        #expect(stats.format == .ips, "sniffed as \(String(describing: stats.format))", sourceLocation: sourceLocation)
        #expect(events.count == 1, sourceLocation: sourceLocation)
        #expect(stats.isBalanced, "\(stats.balanceDescription)", sourceLocation: sourceLocation)
        #expect(stats.notes.filter { $0.severity == .error }.isEmpty, "\(stats.notes.map(\.message))", sourceLocation: sourceLocation)
        guard let e = events.first else { return }
        #expect(e.process == "iOSCrashingTest", sourceLocation: sourceLocation)
        #expect(e.details?.cause == .swiftTrap, sourceLocation: sourceLocation)
        #expect(e.details?.deviceModel == "iPhone14,2", sourceLocation: sourceLocation)
        #expect(e.timestamp?.hasOffset == true, sourceLocation: sourceLocation)
    }

    @Test("a header cut at its start when pasted: the body still gives the event", .tags(.corpus), .needsCorpus)
    func cutHeader() {
        let lines = Self.ips.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = String(lines[0].dropFirst(17))
        #expect(!cut.hasPrefix("{"))
        Self.expectIOS16(([cut] + lines.dropFirst().map(String.init)).joined(separator: "\n"))
    }

    @Test("a body without its header line", .tags(.corpus), .needsCorpus)
    func bodyOnly() {
        let lines = Self.ips.split(separator: "\n", omittingEmptySubsequences: false)
        Self.expectIOS16(lines.dropFirst().joined(separator: "\n"))
    }

    @Test("pasted into Markdown: prose, a fence, the report, a fence, more prose", .tags(.corpus), .needsCorpus)
    func markdownFence() {
        Self.expectIOS16("My app crashes at launch, report below:\n\n```json\n" + Self.ips + "\n```\n\nAny idea what is wrong?\n", name: "issue.md")
    }

    @Test("quoted in Markdown with > on every line", .tags(.corpus), .needsCorpus)
    func markdownQuote() {
        let quoted = Self.ips.split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }.joined(separator: "\n")
        Self.expectIOS16(quoted, name: "reply.md")
    }

    @Test("an .ips header over a text body is read as text, whatever bug_type says", .tags(.corpus), .needsCorpus)
    func headerOverTextBody() {
        let header = Self.ips.split(separator: "\n").first.map(String.init) ?? ""
        let (events, stats) = Self.failures(header + "\n" + Self.text)
        #expect(stats.format == .ips)
        #expect(events.count == 1)
        #expect(stats.notes.filter { $0.severity == .error }.isEmpty, "\(stats.notes.map(\.message))")
        #expect(events.first?.process == "icdab_planets")
        #expect(events.first?.details?.exceptionType == "EXC_CRASH")
        #expect(events.first?.details?.crashedThread == 0)
    }

    @Test("Translated Report (Full Report Below): one event, not two, with the full report's facts", .tags(.corpus), .needsCorpus)
    func translatedReport() {
        let banner = "-------------------------------------\nTranslated Report (Full Report Below)\n-------------------------------------\n\n"
        let full = "\n-----------\nFull Report\n-----------\n\n"
        let (events, stats) = Self.failures(banner + Self.text + full + Self.ips, name: "exported.ips")
        #expect(events.count == 1)
        #expect(stats.isBalanced, "\(stats.balanceDescription)")
        #expect(events.first?.process == "iOSCrashingTest")
    }

    @Test("JSON that is not a report is not read as one", arguments: [
        "{\"name\": \"lifeline-web\", \"version\": \"1.0.0\", \"dependencies\": {\"react\": \"18.2.0\"}}\n",
        "{\n  \"bug_type_note\": \"none\",\n  \"threads\": 4\n}\n",
        "{\n  \"compilerOptions\": {\"strict\": true}\n}\n",
    ])
    func notAReport(_ json: String) {
        let (events, stats) = Self.failures(json, name: "package.json")
        #expect(events.isEmpty)
        #expect(stats.format != .ips)
    }
}
