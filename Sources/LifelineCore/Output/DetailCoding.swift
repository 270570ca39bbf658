/// The one codec of `EventDetails`: every part lists its fields in a table (`DetailParts.swift`), and
/// the JSON writer and the spill writer and reader below walk those tables, so a field is named once
/// and cannot be forgotten by one of them.

/// A group of detail fields with its table.
public protocol DetailPart: Sendable, Equatable {
    init()
    /// Every stored field of the part, with its JSON key (a test checks that none is missing).
    static var fields: [DetailField<Self>] { get }
}

/// One field of a part: its JSON key (keys are unique across parts: `details` is one flat JSON
/// object) and where its value is.
public struct DetailField<Part>: @unchecked Sendable {
    /// The field's place and type, which decides how it is written: frames and backtraces as their
    /// `text` lines, a cause as its raw value.
    public enum Value {
        case string(WritableKeyPath<Part, String?>)
        case int(WritableKeyPath<Part, Int?>)
        case uint(WritableKeyPath<Part, UInt64?>)
        case bool(WritableKeyPath<Part, Bool?>)
        case strings(WritableKeyPath<Part, [String]?>)
        case frame(WritableKeyPath<Part, CrashFrame?>)
        case frames(WritableKeyPath<Part, [CrashFrame]?>)
        case cause(WritableKeyPath<Part, FailureCause?>)
        case backtrace(WritableKeyPath<Part, Backtrace?>)
        /// Places in the same input: JSON writes a line as its number and a byte offset as `{"offset": N}`.
        case positions(WritableKeyPath<Part, [InputPosition]?>)
    }

    public let key: StaticString
    public let value: Value

    /// Where the field is stored in the part (every field is a stored property), so that the JSON
    /// writer, which runs for every event with details, reads it directly instead of through the
    /// key path's run-time projection (a tenth of `lifeline events`' time on a dense log).
    let offset: Int

    public init(_ key: StaticString, _ value: Value) {
        self.key = key
        self.value = value
        let path: PartialKeyPath<Part>
        switch value {
        case .string(let k): path = k
        case .int(let k): path = k
        case .uint(let k): path = k
        case .bool(let k): path = k
        case .strings(let k): path = k
        case .frame(let k): path = k
        case .frames(let k): path = k
        case .cause(let k): path = k
        case .backtrace(let k): path = k
        case .positions(let k): path = k
        }
        guard let offset = MemoryLayout<Part>.offset(of: path) else { preconditionFailure("\(key) is not a stored property") }
        self.offset = offset
    }

    /// The field's value, read at its offset; `T` is the type of the key path of `value`.
    @inline(__always) private func read<T>(_ p: Part, as _: T.Type) -> T {
        withUnsafeBytes(of: p) { $0.load(fromByteOffset: offset, as: T.self) }
    }

    /// Writes `"key":value` when the field is set.
    func writeJSON(_ p: Part, to w: inout JSONWriter) {
        switch value {
        case .string: w.field(key, read(p, as: String?.self))
        case .int: w.field(key, read(p, as: Int?.self))
        case .uint: w.field(key, read(p, as: UInt64?.self))
        case .bool: w.field(key, read(p, as: Bool?.self))
        case .strings: w.field(key, read(p, as: [String]?.self))
        case .frame: w.field(key, read(p, as: CrashFrame?.self)?.text)
        case .frames: w.field(key, read(p, as: [CrashFrame]?.self)?.map(\.text))
        case .cause: w.field(key, read(p, as: FailureCause?.self)?.rawValue)
        case .backtrace: w.field(key, read(p, as: Backtrace?.self)?.lines)
        case .positions:
            guard let list = read(p, as: [InputPosition]?.self) else { return }
            w.key(key)
            w.beginArray()
            for position in list {
                switch position {
                case .line(let n): w.int(n)
                case .byte(let o): w.beginObject(); w.field("offset", o); w.endObject()
                }
            }
            w.endArray()
        }
    }

    func encode(_ p: Part, to w: inout SpillWriter) {
        switch value {
        case .string(let k): w.optional(p[keyPath: k])
        case .int(let k): w.optional(p[keyPath: k])
        case .uint(let k):
            let v = p[keyPath: k]
            w.bool(v != nil)
            if let v { w.uint(v) }
        case .bool(let k): w.optional(p[keyPath: k])
        case .strings(let k): w.lines(p[keyPath: k])
        case .frame(let k):
            let v = p[keyPath: k]
            w.bool(v != nil)
            if let v { w.frame(v) }
        case .frames(let k): w.frames(p[keyPath: k])
        case .cause(let k): w.optional(p[keyPath: k]?.rawValue)
        case .backtrace(let k): w.backtrace(p[keyPath: k])
        case .positions(let k): w.positions(p[keyPath: k])
        }
    }

    func decode(into p: inout Part, from r: inout SpillReader) {
        switch value {
        case .string(let k): p[keyPath: k] = r.optionalString()
        case .int(let k): p[keyPath: k] = r.optionalInt()
        case .uint(let k): p[keyPath: k] = r.bool() ? r.uint() : nil
        case .bool(let k): p[keyPath: k] = r.optionalBool()
        case .strings(let k): p[keyPath: k] = r.lines()
        case .frame(let k): p[keyPath: k] = r.bool() ? r.frame() : nil
        case .frames(let k): p[keyPath: k] = r.frames()
        case .cause(let k): p[keyPath: k] = r.optionalString().flatMap(FailureCause.init(rawValue:))
        case .backtrace(let k): p[keyPath: k] = r.backtrace()
        case .positions(let k): p[keyPath: k] = r.positions()
        }
    }
}

extension DetailPart {
    func encode(to w: inout SpillWriter) {
        for f in Self.fields { f.encode(self, to: &w) }
    }

    static func decode(from r: inout SpillReader) -> Self {
        var p = Self()
        for f in fields { f.decode(into: &p, from: &r) }
        return p
    }
}

/// One part of `EventDetails` (`EventDetails.parts`), with its spill coding bound to where it is
/// stored and its JSON keys.
struct DetailSlot: Sendable {
    let keys: [StaticString]
    let encode: @Sendable (EventDetails, inout SpillWriter) -> Void
    let decode: @Sendable (inout EventDetails, inout SpillReader) -> Void

    init<P: DetailPart>(_ path: WritableKeyPath<EventDetails, P?> & Sendable) {
        keys = P.fields.map(\.key)
        encode = { d, w in
            let p = d[keyPath: path]
            w.bool(p != nil)
            p?.encode(to: &w)
        }
        decode = { d, r in d[keyPath: path] = r.bool() ? P.decode(from: &r) : nil }
    }
}

extension EventDetails {
    /// Every field of every part as (part, field) positions in `parts` and the part's table, in
    /// JSON key order (bytewise, as the writer's callers sort keys).
    static let jsonOrder: [(part: Int, field: Int)] = {
        var all: [(key: StaticString, part: Int, field: Int)] = []
        for (p, slot) in parts.enumerated() {
            for (f, key) in slot.keys.enumerated() { all.append((key, p, f)) }
        }
        func bytes(_ k: StaticString) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount) }
        return all.sorted { bytes($0.key).lexicographicallyPrecedes(bytes($1.key)) }.map { ($0.part, $0.field) }
    }()

    /// The JSON keys of every field, in the order they are written.
    package static var jsonKeys: [String] { jsonOrder.map { parts[$0.part].keys[$0.field].description } }

    /// `{…}` with the set fields of every part, keys sorted. Each part is read once per event, not
    /// once per field (this runs for every event with details).
    func write(to w: inout JSONWriter) {
        w.beginObject()
        for (part, field) in Self.jsonOrder {
            // The cases follow `parts`' order; a part without a case writes nothing, which the
            // round-trip test's JSON check fails on.
            switch part {
            case 0: Self.write(exception, field, &w)
            case 1: Self.write(thread, field, &w)
            case 2: Self.write(crash, field, &w)
            case 3: Self.write(termination, field, &w)
            case 4: Self.write(resource, field, &w)
            case 5: Self.write(app, field, &w)
            case 6: Self.write(record, field, &w)
            case 7: Self.write(system, field, &w)
            default: break
            }
        }
        w.endObject()
    }

    @inline(__always) private static func write<P: DetailPart>(_ part: P?, _ field: Int, _ w: inout JSONWriter) {
        if let part { P.fields[field].writeJSON(part, to: &w) }
    }

    func encode(to w: inout SpillWriter) {
        for slot in Self.parts { slot.encode(self, &w) }
    }

    static func decode(from r: inout SpillReader) -> EventDetails {
        var d = EventDetails()
        for slot in parts { slot.decode(&d, &r) }
        return d
    }
}
