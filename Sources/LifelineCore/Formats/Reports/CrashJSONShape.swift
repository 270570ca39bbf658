import Foundation

// MARK: - JSON structure scan (truncation detection and salvage)

/// A structural scan of a JSON object body: is it complete, cut short, or broken, and where are
/// its top-level members, so that the complete members of a cut-short body can still be read.
struct CrashJSONShape {
    /// Outcome of the scan.
    enum Status: Equatable { case complete, truncated, invalid(offset: Int) }

    /// A top-level member: key, value start, value end (exclusive; nil when cut short) and, for array
    /// values, the ranges of the elements that are complete.
    struct Member {
        /// Member name.
        var key: String
        /// Byte offset of the value.
        var start: Int
        /// Byte offset after the value; nil when cut short.
        var end: Int?
        /// Complete elements of an array value.
        var elements: [Range<Int>] = []
        /// The value is an array.
        var isArray = false
    }

    /// Complete, cut short, or broken (with the byte offset).
    var status: Status = .truncated
    /// Top-level members in order.
    var members: [Member] = []

    /// Where the scan is inside the top-level object.
    private enum Phase { case expectKey, expectColon, expectValue, inValue }

    /// Scans `b`, which should hold one JSON object.
    static func scan(_ b: [UInt8]) -> CrashJSONShape {
        var shape = CrashJSONShape()
        var stack: [UInt8] = []
        var inString = false, escape = false
        var stringStart = 0
        var phase = Phase.expectKey
        var closed = false
        var elementStart: Int?
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        let openObject = UInt8(ascii: "{"), closeObject = UInt8(ascii: "}")
        let openArray = UInt8(ascii: "["), closeArray = UInt8(ascii: "]")
        let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":")
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

        func endElement(at i: Int) {
            guard var start = elementStart, !shape.members.isEmpty else { elementStart = nil; return }
            var end = i
            while end > start, isSpace(b[end - 1]) { end -= 1 }
            while start < end, isSpace(b[start]) { start += 1 }
            if start < end { shape.members[shape.members.count - 1].elements.append(start..<end) }
            elementStart = nil
        }
        func endMember(at i: Int) {
            guard !shape.members.isEmpty else { return }
            var end = i
            while end > shape.members[shape.members.count - 1].start, isSpace(b[end - 1]) { end -= 1 }
            shape.members[shape.members.count - 1].end = end
        }

        var i = 0
        while i < b.count {
            let c = b[i]
            defer { i += 1 }
            if inString {
                if escape { escape = false }
                else if c == backslash { escape = true }
                else if c == quote {
                    inString = false
                    if stack.count == 1 && phase == .expectKey {
                        let key = String(decoding: b[(stringStart + 1)..<i], as: UTF8.self)
                        shape.members.append(Member(key: key, start: i + 1))
                        phase = .expectColon
                    }
                }
                continue
            }
            if closed {
                if !isSpace(c) { shape.status = .invalid(offset: i); return shape }
                continue
            }
            if stack.isEmpty {
                if isSpace(c) { continue }
                if c == openObject { stack.append(c); phase = .expectKey; continue }
                shape.status = .invalid(offset: i); return shape
            }
            if stack.count == 1 {
                switch phase {
                case .expectKey:
                    if isSpace(c) || c == comma { continue }
                    if c == quote { inString = true; stringStart = i; continue }
                    if c == closeObject { stack.removeLast(); closed = true; continue }
                    shape.status = .invalid(offset: i); return shape
                case .expectColon:
                    if isSpace(c) { continue }
                    if c == colon { phase = .expectValue; continue }
                    shape.status = .invalid(offset: i); return shape
                case .expectValue:
                    if isSpace(c) { continue }
                    shape.members[shape.members.count - 1].start = i
                    shape.members[shape.members.count - 1].isArray = (c == openArray)
                    phase = .inValue
                case .inValue:
                    if c == comma || c == closeObject {
                        endMember(at: i)
                        phase = .expectKey
                        if c == closeObject { stack.removeLast(); closed = true }
                        continue
                    }
                }
            }
            // Generic value characters (depth >= 1, inside a member value).
            let trackingElements = stack.count == 2 && stack[1] == openArray && (shape.members.last?.isArray ?? false)
            switch c {
            case quote:
                if trackingElements && elementStart == nil { elementStart = i }
                inString = true; stringStart = i
            case openObject, openArray:
                if trackingElements && elementStart == nil { elementStart = i }
                stack.append(c)
            case closeObject, closeArray:
                let expected = c == closeObject ? openObject : openArray
                guard stack.count > 1, stack.last == expected else { shape.status = .invalid(offset: i); return shape }
                if trackingElements && c == closeArray { endElement(at: i) }
                stack.removeLast()
            case comma:
                if trackingElements { endElement(at: i) }
            default:
                if trackingElements && elementStart == nil && !isSpace(c) { elementStart = i }
            }
        }
        if closed {
            shape.status = .complete
        } else {
            shape.status = .truncated
            // A last member whose value finished exactly at the cut (no comma yet).
            if stack.count == 1, phase == .inValue, let last = shape.members.last, last.end == nil,
               let first = b[last.start...].first, first == openObject || first == openArray || first == quote {
                endMember(at: b.count)
            }
        }
        return shape
    }

    /// The top-level members that survived the cut: complete values, and the complete leading
    /// elements of a cut-short array.
    func salvage(_ b: [UInt8]) -> [String: Any] {
        var out: [String: Any] = [:]
        for m in members {
            if let end = m.end, m.start < end,
               let value = try? JSONSerialization.jsonObject(with: Data(b[m.start..<end]), options: .fragmentsAllowed) {
                out[m.key] = value
            } else if m.isArray {
                out[m.key] = m.elements.compactMap {
                    try? JSONSerialization.jsonObject(with: Data(b[$0]), options: .fragmentsAllowed)
                }
            }
        }
        return out
    }
}
