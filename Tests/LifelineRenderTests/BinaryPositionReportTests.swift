import Foundation
import Testing
@testable import LifelineCore
@testable import LifelineRender
@testable import LifelineRules

/// Findings at a byte offset of a binary input (a unified-log record has no line, issue 29): SARIF names a region by
/// `byteOffset`, the text outputs write `FILE:@0xOFFSET`, report order sorts by offset, and no log excerpt is made.
@Suite struct BinaryPositionReportTests {
    static let file = "system_logs.logarchive/Persist/0000000000000030.tracev3"

    static func finding(_ offset: Int, _ severity: LifelineRules.Severity = .error, related: [RelatedLocation] = []) -> Diagnostic {
        let r = ReportWriterFixtures.rule(severity)
        return Diagnostic(ruleId: r.id, rule: r.name, severity: severity, message: "m\(offset)", file: file,
                          position: .byte(offset), session: "P1", related: related)
    }

    static var analysis: Analysis {
        var input = InputStats(path: file)
        input.notes = [InputNote(.warning, at: .byte(0x40), "chunk cut short")]
        let related = [RelatedLocation(file: file, position: .byte(0x100), message: "where the scene connected")]
        let diagnostics = [finding(0x2000, related: related), finding(0x1f40, .fatal)]
        return Analysis(inputs: [input], sessions: [ReportWriterFixtures.session("P1", process: "Weather", pid: 311, files: [file])],
                        diagnostics: diagnostics)
    }

    @Test("SARIF results, related locations and notifications name byte offsets as regions")
    func sarif() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(SARIFReport.render(Self.analysis, version: "1").utf8)) as? [String: Any])
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        func region(_ location: Any?) -> [String: Any]? {
            ((location as? [String: Any])?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
        }
        let offsets = results.compactMap { region(($0["locations"] as? [Any])?.first)?["byteOffset"] as? Int }
        #expect(Set(offsets) == [0x1f40, 0x2000])
        #expect(results.allSatisfy { region(($0["locations"] as? [Any])?.first)?["startLine"] == nil })
        let related = results.compactMap { ($0["relatedLocations"] as? [Any])?.first }.compactMap { region($0)?["byteOffset"] as? Int }
        #expect(related == [0x100])
        let notes = try #require((run["invocations"] as? [[String: Any]])?.first?["toolExecutionNotifications"] as? [[String: Any]])
        #expect(notes.compactMap { region(($0["locations"] as? [Any])?.first)?["byteOffset"] as? Int } == [0x40])
    }

    @Test("report order sorts byte offsets by value; text outputs name them FILE:@0xOFFSET")
    func orderAndText() {
        var found = Self.analysis.diagnostics
        found.sortInReportOrder()
        #expect(found.map(\.position) == [.byte(0x1f40), .byte(0x2000)])
        #expect(found[0].place == "\(Self.file):@0x1f40")
        let junit = JUnitReport.render(Self.analysis, failOn: .error)
        #expect(junit.contains("\(Self.file):@0x1f40"))
        var w = JSONWriter()
        w.beginObject()
        found[0].writeFields(to: &w)
        w.endObject()
        #expect(w.text.contains("\"message\":\"m8000\",\"offset\":8000,\"rule\""))
        #expect(!w.text.contains("\"line\""))
    }

    @Test("no log excerpt is read for a byte offset, and the HTML report still names the place")
    func excerpts() throws {
        #expect(LogExcerpts.read(around: Self.analysis.diagnostics).isEmpty)
        let html = HTMLReport.render(Self.analysis, diagrams: [], excerpts: [])
        #expect(html.contains("0000000000000030.tracev3:@0x1f40"))
    }
}
