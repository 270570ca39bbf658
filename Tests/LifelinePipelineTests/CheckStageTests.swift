import Foundation
import LifelineCore
import LifelinePipeline
import LifelineRules
import Testing

@Suite struct CheckStageTests {
    static func sessions(_ n: Int) -> [ProcessSession] {
        let log = LiveRunTests.exceptionLog(processes: n)
        var stream = SessionStream()
        var ended: [ProcessSession] = []
        var reader = LiveReader(name: "stage.log", options: IngestOptions(jobs: 1))
        for e in reader.feed(Array(log.utf8)) { ended += stream.add(e) }
        for e in reader.finish().events { ended += stream.add(e) }
        return ended + stream.finish()
    }

    @Test("lanes only change where sessions are checked: one lane keeps their order, several tally the same in all", arguments: [0, 1, 3])
    func lanesTallyTheSame(lanes: Int) {
        let all = Self.sessions(30)
        #expect(all.count == 30)
        let stage = CheckStage(lanes: lanes, tally: [String]()) { s, seen in seen.append(s.id) }
        for batch in stride(from: 0, to: all.count, by: 4).map({ Array(all[$0..<min($0 + 4, all.count)]) }) { stage.submit(batch) }
        let tallies = stage.finish()
        #expect(tallies.count == max(1, lanes))
        if lanes <= 1 { #expect(tallies[0] == all.map(\.id)) }
        #expect(tallies.flatMap { $0 }.sorted() == all.map(\.id).sorted())
    }

    @Test("a stage without lanes checks on the caller's thread: what it tallied is there at once")
    func inlineIsImmediate() {
        let all = Self.sessions(3)
        let stage = CheckStage(lanes: 0, tally: 0) { _, n in n += 1 }
        stage.submit(Array(all.prefix(2)))
        #expect(stage.drain { $0 } == 2)
        stage.submit(Array(all.suffix(1)))
        #expect(stage.drain { $0 } == 3)
    }

    @Test("the feed ends each input's sessions when asked, and counts them")
    func feedEndsInputs() {
        let log = LiveRunTests.exceptionLog(processes: 5)
        var reader = LiveReader(name: "feed.log", options: IngestOptions(jobs: 1))
        let events = reader.feed(Array(log.utf8)) + reader.finish().events
        let stage = CheckStage(lanes: 1, tally: 0) { _, n in n += 1 }
        var feed = SessionFeed(configuration: .defaults, submit: stage.submit)
        for e in events { feed.add(e) }
        #expect(feed.endInput() == 5)
        for e in events { feed.add(e) }
        #expect(feed.endInput() == 5)
        #expect(stage.finish() == [10])
    }
}
