/// Where something is in an input: a line of a text input, or a byte offset of a binary one.
///
/// A record read from text (a console log, a crash report, a `log show` capture) starts at a line; a record
/// read from a binary input (a unified-log `.tracev3` chunk) has no line, only the offset of its bytes. Events,
/// findings, line notes, excerpts and SARIF locations carry a position, so a binary reader's events travel the
/// same way as a text reader's without a made-up line number.
///
/// Positions of one input are ordered: lines by number, offsets by value (an input has one kind or the other).
public enum InputPosition: Sendable, Hashable, Comparable {
    /// A 1-based line number (0 only where a finding has no line, as a key of a binary property list).
    case line(Int)
    /// A 0-based byte offset into the (decompressed) input.
    case byte(Int)

    /// The line number, when the position is a line.
    public var line: Int? {
        if case .line(let n) = self { return n }
        return nil
    }

    /// The byte offset, when the position is one.
    public var byteOffset: Int? {
        if case .byte(let o) = self { return o }
        return nil
    }

    /// One integer in the positions' order, for sorts that compare integer keys: lines first, by number, then
    /// byte offsets.
    public var sortKey: Int {
        switch self {
        case .line(let n): return n
        case .byte(let o): return 1 << 62 + o
        }
    }

    /// A real place to point at: a line from 1, or any byte offset (a line 0 stands for "no line").
    public var isKnown: Bool {
        switch self {
        case .line(let n): return n >= 1
        case .byte: return true
        }
    }

    /// How text output names the place after a file: `12` for a line (`FILE:12`), `@0x1f40` for a byte offset
    /// (`FILE:@0x1f40`), the way `log show` and hex dumps name offsets.
    public var label: String {
        switch self {
        case .line(let n): return String(n)
        case .byte(let o): return "@0x" + String(o, radix: 16)
        }
    }

    /// The place in words, for messages: `line 12`, `offset 0x1f40`.
    public var phrase: String {
        switch self {
        case .line(let n): return "line \(n)"
        case .byte(let o): return "offset 0x" + String(o, radix: 16)
        }
    }

    /// `FILE:LABEL`: the way text reports and diagnostics on standard error point at a place.
    public func label(in file: String) -> String { file + ":" + label }

    /// The same position moved by `lines` lines (a later part of an input read in ranges); byte offsets are
    /// never shifted by lines.
    public func shifted(lines: Int) -> InputPosition {
        if case .line(let n) = self { return .line(n + lines) }
        return self
    }
}

extension InputPosition {
    // By the one integer: cheaper than the synthesized comparison and hash of an enum with payloads, which the
    // sorts and per-position tables of findings run millions of times on a dense log.
    public static func < (a: InputPosition, b: InputPosition) -> Bool { a.sortKey < b.sortKey }
    public func hash(into h: inout Hasher) { h.combine(sortKey) }
}

extension InputPosition: CustomStringConvertible {
    public var description: String { label }
}

extension InputPosition: SpillCodable {
    /// A line as its number times two, a byte offset as its value times two plus one: one varint either way.
    public func encode(to w: inout SpillWriter) {
        switch self {
        case .line(let n): w.int(n << 1)
        case .byte(let o): w.int(o << 1 | 1)
        }
    }

    public static func decode(from r: inout SpillReader) -> InputPosition {
        let v = r.int()
        return v & 1 == 0 ? .line(v >> 1) : .byte(v >> 1)
    }
}
