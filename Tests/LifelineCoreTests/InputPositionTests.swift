import Foundation
import Testing
@testable import LifelineCore

/// A record of a binary input (a unified-log entry) has a byte offset, not a line (issue 29): its event is written,
/// spilled, sorted and shifted as such, and a text input's events are as before.
@Suite struct InputPositionTests {
    static func binaryEvent() -> Event {
        var e = Event(file: "logdata.tracev3", position: .byte(0x1f40), extent: 312, format: .logNDJSON, kind: .exception,
                      message: "*** Terminating app due to uncaught exception")
        e.process = "Weather"
        e.pid = 311
        return e
    }

    @Test("positions order lines by number and offsets by value, and only lines move with a range's line offset")
    func order() {
        #expect(InputPosition.line(2) < .line(10))
        #expect(InputPosition.byte(7) < .byte(4096))
        #expect(InputPosition.line(9).shifted(lines: 100) == .line(109))
        #expect(InputPosition.byte(9).shifted(lines: 100) == .byte(9))
        let positions: [InputPosition] = [.line(3), .line(1), .byte(10), .byte(2), .line(0)]
        #expect(positions.sorted() == positions.sorted { $0.sortKey < $1.sortKey })
        #expect(InputPosition.line(12).label(in: "a.log") == "a.log:12")
        #expect(InputPosition.byte(0x1f40).label(in: "a.tracev3") == "a.tracev3:@0x1f40")
        #expect(InputPosition.byte(0x1f40).phrase == "offset 0x1f40" && InputPosition.line(3).phrase == "line 3")
        #expect(!InputPosition.line(0).isKnown && InputPosition.line(1).isKnown && InputPosition.byte(0).isKnown)
    }

    @Test("a position reads back from the spill as written, at the edges of both kinds")
    func spill() {
        let positions: [InputPosition] = [.line(0), .line(1), .line(Int(Int32.max)), .byte(0), .byte(1), .byte(1 << 40)]
        var w = SpillWriter()
        for p in positions { p.encode(to: &w) }
        let read = w.bytes.withUnsafeBufferPointer { b in
            var r = SpillReader(b)
            return positions.map { _ in InputPosition.decode(from: &r) }
        }
        #expect(read == positions)
        var e = Self.binaryEvent()
        e.details = EventDetails()
        var we = SpillWriter()
        e.encode(to: &we)
        let back = we.bytes.withUnsafeBufferPointer { b in
            var r = SpillReader(b)
            return Event.decode(from: &r)
        }
        #expect(back == e)
    }

    @Test("a byte-addressed event's JSON has offset and length in key order and no line; its text line names the offset")
    func json() throws {
        let e = Self.binaryEvent()
        let json = e.jsonLine
        #expect(!json.contains("\"line\"") && !json.contains("lineCount"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["offset"] as? Int == 0x1f40 && object["length"] as? Int == 312)
        // Keys stay sorted: kind < length < message < offset < pid.
        let at = ["\"kind\"", "\"length\"", "\"message\"", "\"offset\"", "\"pid\""].map { json.range(of: $0)!.lowerBound }
        #expect(at == at.sorted())
        #expect(e.textLine.hasPrefix("logdata.tracev3:@0x1f40  Weather[311]  failure.exception"))
        // A text record keeps its line and line count.
        let t = Event(file: "a.log", line: 7, lineCount: 3, format: .xcode, kind: .exception, message: "m")
        #expect(t.jsonLine.contains("\"line\":7,\"lineCount\":3,\"message\""))
    }

    @Test("events written by reader threads get their range's line offset; a byte-addressed event keeps its offset")
    func encodedEvents() {
        var out = EncodedEvents()
        Event(file: "a.log", line: 5, format: .xcode, kind: .exception, message: "m").encode(.jsonLines, into: &out)
        Self.binaryEvent().encode(.jsonLines, into: &out)
        Self.binaryEvent().encode(.text, into: &out)
        var bytes: [UInt8] = []
        out.write(lineOffset: 1000) { bytes.append(contentsOf: $0) }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].contains("\"line\":1005,"))
        #expect(lines[1] == Self.binaryEvent().jsonLine)
        #expect(lines[2] == Self.binaryEvent().textLine)
    }

    @Test("a note at a byte offset is written with its offset in --stats JSON")
    func notes() throws {
        var s = InputStats(path: "logdata.tracev3")
        s.notes = [InputNote(.warning, at: .byte(64), "chunk cut short"), InputNote(.info, line: 3, "x")]
        var w = JSONWriter()
        s.write(to: &w)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(w.text.utf8)) as? [String: Any])
        let notes = try #require(object["notes"] as? [[String: Any]])
        #expect(notes[0]["offset"] as? Int == 64 && notes[0]["line"] == nil)
        #expect(notes[1]["line"] as? Int == 3 && notes[1]["offset"] == nil)
        var whole = InputStats(path: "p")
        whole.absorb(s, lineOffset: 10)
        #expect(whole.notes.map(\.position) == [.byte(64), .line(13)])
    }
}
