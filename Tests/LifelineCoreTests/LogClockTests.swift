import Testing
@testable import LifelineCore

/// The clock the rules compare times by: `LogTimestamp.interval(since:)` over dated times and over
/// the times of day of a Console.app copy, and how late a line must be to be surely later.
@Suite struct LogClockTests {
    static func time(_ iso: String) throws -> LogTimestamp { try #require(LogTimestamp(iso: iso)) }

    @Test("an iso text reads back to the timestamp it came from")
    func readsBack() throws {
        let dated = try Self.time("2026-03-09T08:14:02.118204-05:00")
        #expect(dated.iso == "2026-03-09T08:14:02.118204-05:00")
        #expect(dated.hasDate && dated.seconds != nil)
        let clock = try Self.time("21:08:54.482829-05:00")
        #expect(clock.iso == "21:08:54.482829-05:00" && !clock.hasDate && clock.seconds == nil)
        #expect(LogTimestamp(iso: "21:08") == nil && LogTimestamp(iso: "yesterday") == nil && LogTimestamp(iso: "21:08:54.1+0500") == nil)
    }

    @Test("times of day without a date compare by the clock, across midnight")
    func timeOfDay() throws {
        let a = try Self.time("23:59:58.409552-05:00"), b = try Self.time("00:00:01.204518-05:00")
        let d = try #require(b.interval(since: a))
        #expect(abs(d - 2.794966) < 1e-6)
        #expect(try #require(a.interval(since: b)) < 0)
        // A dated time and a time of day cannot be compared.
        #expect(try Self.time("2026-03-09T08:14:02-05:00").interval(since: a) == nil)
    }

    @Test("whole seconds: a time is surely later only a step later")
    func resolution() throws {
        let a = try Self.time("2026-03-09T08:14:02-05:00"), b = try Self.time("2026-03-09T08:14:03-05:00")
        #expect(a.resolution == 1 && b.isSurelyAfter(a) == true && a.isSurelyAfter(a) == false)
        let c = try Self.time("2026-03-09T08:14:02.000001-05:00")
        #expect(c.isSurelyAfter(try Self.time("2026-03-09T08:14:02.000000-05:00")) == true)
        #expect(c.isSurelyAfter(c) == false)
    }
}
