import Foundation
import Testing
import TestSupport
@testable import LifelineCore

/// Every field of every details part, set to generated values, survives the spill and reaches the
/// JSON: a field added to a part but not to its table, or coded by one writer and not the other,
/// fails here even when no sample log sets it.
///
/// Values come from the repository's seeded generator (`SeededBytes`) rather than a property-based
/// package: the point is coverage of every field (the tables enumerate them, so nothing is left to
/// chance) with reproducible values, not shrinking, and it keeps the package's dependencies as they are.
@Suite("Event details: every field round-trips")
struct DetailRoundTripTests {
    /// Values for one field, sometimes awkward (empty, non-ASCII, control characters, extremes).
    struct Values {
        var rng: SeededBytes

        mutating func string() -> String {
            let pool = ["", "a", "NSInternalInconsistencyException", "ünïcödé ✓", "line\nbreak\t\"q\"", "</script>", "\u{2028}", "0x1a2b"]
            return rng.below(3) == 0 ? pool[rng.below(pool.count)] : String(rng.next(), radix: 36)
        }
        mutating func int() -> Int { [0, -1, Int.max, Int.min, rng.below(100_000)][rng.below(5)] }
        mutating func uint() -> UInt64 { [0, UInt64.max, rng.next()][rng.below(3)] }
        mutating func bool() -> Bool { rng.below(2) == 0 }
        mutating func strings() -> [String] { (0..<rng.below(4)).map { _ in string() } }
        mutating func frame() -> CrashFrame {
            CrashFrame(index: rng.below(200), image: maybe { $0.string() }, symbol: maybe { $0.string() }, address: maybe { $0.string() },
                       offset: maybe { $0.int() }, imageUUID: maybe { $0.string() }, imageBase: maybe { $0.uint() },
                       arch: maybe { $0.string() }, file: maybe { $0.string() }, line: maybe { $0.int() })
        }
        mutating func frames() -> [CrashFrame] { (0..<rng.below(4)).map { _ in frame() } }
        mutating func maybe<T>(_ make: (inout Values) -> T) -> T? { bool() ? make(&self) : nil }
    }

    /// Sets every field of `part` (or, with `all` false, each with even odds).
    static func fill<P: DetailPart>(_ part: inout P, all: Bool, _ v: inout Values) {
        for f in P.fields where all || v.bool() {
            switch f.value {
            case .string(let k): part[keyPath: k] = v.string()
            case .int(let k): part[keyPath: k] = v.int()
            case .uint(let k): part[keyPath: k] = v.uint()
            case .bool(let k): part[keyPath: k] = v.bool()
            case .strings(let k): part[keyPath: k] = v.strings()
            case .frame(let k): part[keyPath: k] = v.frame()
            case .frames(let k): part[keyPath: k] = v.frames()
            case .cause(let k): part[keyPath: k] = FailureCause.allCases[v.rng.below(FailureCause.allCases.count)]
            case .backtrace(let k): part[keyPath: k] = v.bool() ? .frames(v.frames()) : .lines(v.strings())
            case .positions(let k): part[keyPath: k] = (0..<v.rng.below(4)).map { _ in v.bool() ? .line(v.rng.below(100_000) + 1) : .byte(v.rng.below(1 << 30)) }
            }
        }
    }

    static func details(all: Bool, _ v: inout Values) -> EventDetails {
        var d = EventDetails()
        func part<P: DetailPart>(_ path: WritableKeyPath<EventDetails, P?>) {
            guard all || v.rng.below(3) > 0 else { return }
            var p = P()
            fill(&p, all: all, &v)
            d[keyPath: path] = p
        }
        part(\.exception)
        part(\.thread)
        part(\.crash)
        part(\.termination)
        part(\.resource)
        part(\.app)
        part(\.record)
        part(\.system)
        return d
    }

    static func spilled(_ e: Event) -> Event {
        var w = SpillWriter()
        e.encode(to: &w)
        return w.bytes.withUnsafeBufferPointer { b in
            var r = SpillReader(b)
            let back = Event.decode(from: &r)
            #expect(r.position == b.count, "the reader stops where the writer stopped")
            return back
        }
    }

    static func event(_ d: EventDetails) -> Event {
        var e = Event(file: "a.log", line: 3, format: .print, kind: .crashReport, message: "m")
        e.details = d
        return e
    }

    @Test("every part's table lists every stored field of the part")
    func tablesCoverEveryField() {
        func check<P: DetailPart>(_: P.Type) {
            var v = Values(rng: SeededBytes(state: 1))
            var p = P()
            Self.fill(&p, all: true, &v)
            let children = Mirror(reflecting: p).children
            #expect(children.count == P.fields.count, "\(P.self): \(children.count) fields, \(P.fields.count) in its table")
            for c in children {
                let m = Mirror(reflecting: c.value)
                if m.displayStyle == .optional && m.children.isEmpty { Issue.record("\(P.self).\(c.label ?? "?") is not in its table") }
            }
        }
        check(ExceptionDetails.self)
        check(ThreadReport.self)
        check(CrashDetails.self)
        check(TerminationDetails.self)
        check(ResourceDetails.self)
        check(AppDetails.self)
        check(RecordDetails.self)
        check(SystemDetails.self)
        #expect(Mirror(reflecting: EventDetails()).children.count == EventDetails.parts.count, "every part has a slot")
    }

    @Test("JSON keys are unique across parts and written in sorted order")
    func keys() {
        let keys = EventDetails.jsonKeys
        #expect(Set(keys).count == keys.count)
        #expect(keys == keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(keys.count == 53)
    }

    @Test("spill write then read gives the same event, every field set", arguments: 0..<40)
    func spillAllFields(seed: UInt64) {
        var v = Values(rng: SeededBytes(state: seed))
        let e = Self.event(Self.details(all: true, &v))
        #expect(Self.spilled(e) == e)
    }

    @Test("spill write then read gives the same event, fields and parts set at random", arguments: 0..<200)
    func spillSomeFields(seed: UInt64) {
        var v = Values(rng: SeededBytes(state: 1000 + seed))
        let e = Self.event(Self.details(all: false, &v))
        #expect(Self.spilled(e) == e)
    }

    @Test("the JSON of details with every field set has every key, with the field's value", arguments: 0..<20)
    func json(seed: UInt64) throws {
        var v = Values(rng: SeededBytes(state: 5000 + seed))
        let d = Self.details(all: true, &v)
        var w = JSONWriter()
        d.write(to: &w)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any])
        #expect(Set(object.keys) == Set(EventDetails.jsonKeys))
        #expect(object["reason"] as? String == d.reason)
        #expect(object["cause"] as? String == d.cause?.rawValue)
        #expect(object["appFrames"] as? [String] == d.appFrames?.map(\.text))
        #expect(object["firstAppFrame"] as? String == d.firstAppFrame?.text)
        #expect(object["backtrace"] as? [String] == d.backtrace?.lines)
        #expect(object["processStates"] as? [String] == d.processStates)
    }

    @Test("flat accessors read and write the field in its part, and setting nil makes no part")
    func accessors() {
        var d = EventDetails()
        d.reason = nil
        #expect(d.exception == nil)
        d.reason = "r"
        d.terminationCode = "0x8badf00d"
        #expect(d.exception?.reason == "r" && d.termination?.code == "0x8badf00d")
        d.reason = nil
        #expect(d.exception == ExceptionDetails())
    }
}
