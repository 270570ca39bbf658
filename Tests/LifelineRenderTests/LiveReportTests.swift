import Foundation
import LifelineCore
import LifelinePipeline
import LifelineRules
import Testing
@testable import LifelineRender

/// `watch --output`'s folder, written through `ReportFolder` while a run goes on.
@Suite struct LiveReportTests {
    /// Regression (issue 29): the folder held every timeline that was ever in the window at some
    /// write, so which files it held depended on when the once-a-second writes happened.
    @Test("the folder holds the timelines of the last sessions only, however often it was written")
    func timelinesThatLeaveTheWindowAreRemoved() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-live-report-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let report = try LiveReport(path: dir, inputs: ["-"], rules: RuleRegistry.all, failOn: nil, timelineLimit: 2)
        var live = LiveAnalysis()
        var reader = LiveReader(name: "device-kills.log", options: IngestOptions(jobs: 1))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "SampleLogs/device-kills.log")))
        for e in reader.feed(bytes) + reader.finish().events {
            report.record(live.add(e))
            try report.write(live, inputs: [], force: true)
        }
        report.record(live.finish())
        try report.write(live, inputs: [], force: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(names == ["junit.xml", "report.html", "report.json", "report.sarif", "state.svg", "timeline-P3.svg", "timeline-P4.svg"])
    }
}
