import CPCRE2

/// A compiled PCRE2 pattern (JIT-compiled when the platform supports it). Immutable after
/// creation, so it can be shared between threads; each thread matches with its own `MatchScratch`.
public final class Pattern: @unchecked Sendable {
    public let source: String
    let code: OpaquePointer
    public let captureCount: Int

    /// A pattern that failed to compile, with PCRE2's message and the offset in the pattern.
    public struct CompileError: Error, CustomStringConvertible, Equatable {
        public let pattern: String
        public let message: String
        public let offset: Int
        public var description: String { "invalid pattern at offset \(offset): \(message)" }
    }

    public init(_ source: String, caseless: Bool = false, multiline: Bool = false) throws {
        self.source = source
        var options: UInt32 = 0
        if caseless { options |= UInt32(PCRE2_CASELESS) }
        if multiline { options |= UInt32(PCRE2_MULTILINE) }
        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        let compiled = source.withCString { ptr in
            ptr.withMemoryRebound(to: UInt8.self, capacity: source.utf8.count) {
                pcre2_compile_8($0, source.utf8.count, options, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else {
            throw CompileError(pattern: source, message: Pattern.message(for: errorCode), offset: errorOffset)
        }
        code = compiled
        // JIT is an optimisation; when it is unavailable PCRE2 interprets the pattern.
        _ = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE))
        var count: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &count)
        captureCount = Int(count)
    }

    /// Compiles a pattern known to be valid (built into Lifeline); a failure is a programming error.
    static func builtIn(_ source: String, caseless: Bool = false) -> Pattern {
        do { return try Pattern(source, caseless: caseless) } catch {
            preconditionFailure("built-in pattern does not compile: \(error) — \(source)")
        }
    }

    deinit { pcre2_code_free_8(code) }

    /// The group `(?<name>…)` of the pattern, resolved to its number once (when a recognizer is
    /// built), so a match reads it by name without a lookup; nil when the pattern has no such group.
    public func group(named name: String) -> Group? {
        let n = name.withCString { ptr in
            ptr.withMemoryRebound(to: UInt8.self, capacity: name.utf8.count + 1) {
                pcre2_substring_number_from_name_8(code, $0)
            }
        }
        return n > 0 ? Group(number: Int(n)) : nil
    }

    /// A built-in pattern's group: a missing name is a programming error.
    func group(_ name: String) -> Group {
        guard let g = group(named: name) else { preconditionFailure("pattern has no group named \(name): \(source)") }
        return g
    }

    /// A capture group, by the number its name resolved to.
    public struct Group: Sendable, Hashable {
        public let number: Int
    }

    static func message(for code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = pcre2_get_error_message_8(code, &buffer, buffer.count)
        return n > 0 ? String(decoding: buffer[0..<Int(n)], as: UTF8.self) : "PCRE2 error \(code)"
    }

    /// Matches against `subject` starting at byte `start`. On success the scratch holds the groups.
    @inline(__always)
    public func matches(_ subject: UnsafeBufferPointer<UInt8>, from start: Int = 0, scratch: MatchScratch) -> Bool {
        guard let base = subject.baseAddress else {
            return matchesEmpty(scratch: scratch)
        }
        let rc = pcre2_match_8(code, base, subject.count, start, 0, scratch.data, scratch.context)
        if rc >= 0 { scratch.subject = subject; return true }
        if rc < -2 { scratch.lastError = rc }  // PCRE2_ERROR_NOMATCH = -1, PARTIAL = -2
        return false
    }

    private func matchesEmpty(scratch: MatchScratch) -> Bool {
        var byte: UInt8 = 0
        return withUnsafePointer(to: &byte) { p in
            let rc = pcre2_match_8(code, p, 0, 0, 0, scratch.data, scratch.context)
            if rc >= 0 { scratch.subject = UnsafeBufferPointer(start: p, count: 0) }
            return rc >= 0
        }
    }

    /// Convenience for strings: runs `body` with the scratch filled when the pattern matches.
    public func firstMatch(in text: String, scratch: MatchScratch) -> [String?]? {
        var text = text
        return text.withUTF8 { buf -> [String?]? in
            guard matches(buf, scratch: scratch) else { return nil }
            return (0...captureCount).map { scratch.string($0) }
        }
    }
}

extension Pattern {
    /// Reads the first match in `text` with `read` (its groups by name, `Match`), or nil when none.
    func firstMatch<T>(in text: String, scratch: MatchScratch, _ read: (Match) -> T) -> T? {
        var text = text
        return text.withUTF8 { buf in matches(buf, scratch: scratch) ? read(Match(scratch: scratch)) : nil }
    }
}

/// The groups of the last match, read by name (`Pattern.Group`, resolved when the pattern was
/// compiled). Valid only until another pattern runs on the same scratch, and only while the subject
/// it matched is alive.
struct Match {
    let scratch: MatchScratch
    @inline(__always) subscript(_ group: Pattern.Group) -> String? { scratch.string(group) }
}

/// Per-thread match state (PCRE2 match data). Not thread-safe: one per worker.
public final class MatchScratch {
    let data: OpaquePointer
    var subject = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// The last PCRE2 error other than "no match" (for example a match limit), for diagnostics.
    public var lastError: Int32 = 0

    /// Match context with work limits, or nil for PCRE2's defaults.
    let context: OpaquePointer?

    public init(pairs: Int = 40, matchLimit: UInt32? = nil, depthLimit: UInt32? = nil) {
        data = pcre2_match_data_create_8(UInt32(pairs), nil)!
        if matchLimit != nil || depthLimit != nil, let ctx = pcre2_match_context_create_8(nil) {
            if let matchLimit { pcre2_set_match_limit_8(ctx, matchLimit) }
            if let depthLimit { pcre2_set_depth_limit_8(ctx, depthLimit) }
            context = ctx
        } else {
            context = nil
        }
    }
    deinit {
        pcre2_match_data_free_8(data)
        if let context { pcre2_match_context_free_8(context) }
    }

    /// Byte range of group `i` in the last subject, or nil when the group did not take part.
    @inline(__always)
    public func range(_ i: Int) -> Range<Int>? {
        let count = Int(pcre2_get_ovector_count_8(data))
        guard i < count, let ov = pcre2_get_ovector_pointer_8(data) else { return nil }
        let s = ov[2 * i], e = ov[2 * i + 1]
        if s < 0 || e < 0 || s > e { return nil }  // PCRE2_UNSET is ~0 (size_t), -1 as Int
        return s..<e
    }

    /// Byte range of `group` in the last subject, or nil when the group did not take part.
    @inline(__always)
    public func range(_ group: Pattern.Group) -> Range<Int>? { range(group.number) }

    /// Text of `group` in the last subject (invalid UTF-8 repaired), or nil when it did not take part.
    public func string(_ group: Pattern.Group) -> String? { string(group.number) }

    /// Text of group `i` in the last subject (invalid UTF-8 repaired).
    public func string(_ i: Int) -> String? {
        guard let r = range(i), let base = subject.baseAddress else { return nil }
        return String(decoding: UnsafeBufferPointer(start: base + r.lowerBound, count: r.count), as: UTF8.self)
    }
}
