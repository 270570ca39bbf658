// Objective-C assertions and exceptions, C++ terminations and exceptions the system caught and
// ignored (lifecycle reference §5.1).

extension RecognizerFamily {
    static let assertion = RecognizerFamily("assertion")
    static let exception = RecognizerFamily("exception")
}

extension Recognizer {
    // `***` may arrive Markdown-escaped as `**\*` (pasted into an issue or a chat), or not at all:
    // a rendered Markdown paste or a quote (`> Assertion failure in -[…], File.m:12`) loses it.
    // Without it the line must be only the banner, from the message's start: an Objective-C
    // method and at most its `, file:line` (prose that mentions an assertion failure is no event).
    static let assertion: Recognizer = {
        let pattern = Pattern.builtIn(#"(?:\*\*\\?\* |^\s*(?=Assertion failure in [-+]\[[^\]]+\](?:, .+:\d+)?\s*$))Assertion failure in (?<method>.+?)(?:, (?<file>.+?):(?<line>\d+))?\s*$"#)
        let method = pattern.group("method"), file = pattern.group("file"), line = pattern.group("line")
        return Recognizer("assertion failure", family: .assertion, triggers: ["Assertion| fail"], pattern: pattern) { c, m, r in
            var d = EventDetails()
            d.method = m[method]
            d.sourceFile = m[file]
            d.sourceLine = m[line].flatMap { Int($0) }
            d.backtrace = c.stack(r.continuation)
            return .event(c.event(.assertion, r, details: d))
        }
    }()

    /// With its `***` (or the Markdown escape `**\*`) or without: a rendered paste or a quote loses
    /// it, and some loggers put their own prefix before the banner. The quoted name and `reason: '`
    /// make the line the banner rather than prose about one. One recognizer for both, so a line
    /// is one event whichever way it came.
    static let uncaughtException = exception(
        "uncaught exception", triggers: ["uncaught ex|ception", "|Terminating app"],
        #"Terminating app due to uncaught exception '(?<name>[^']+)', reason: '(?<reason>.*)$"#)

    /// The same exception pasted without its `*** Terminating app due to uncaught exception` prefix.
    static let bareException = exception(
        "exception without its banner", triggers: ["Exception', r|eason: '"],
        #"^\s*'(?<name>[A-Za-z_][A-Za-z0-9_]*Exception)', reason: '(?<reason>.*)$"#)

    /// An uncaught exception: the reason runs to the line that ends with a quote, the stack follows.
    private static func exception(_ name: String, triggers: [String], _ source: String) -> Recognizer {
        let pattern = Pattern.builtIn(source)
        let exceptionName = pattern.group("name"), reasonGroup = pattern.group("reason")
        return Recognizer(name, family: .exception, triggers: triggers, pattern: pattern) { c, m, r in
            var d = EventDetails()
            d.exceptionName = m[exceptionName]
            var reason = m[reasonGroup] ?? ""
            var rest = r.continuation[...]
            if reason.hasSuffix("'") {
                reason.removeLast()
            } else {
                // The reason spans lines; it ends at the line that ends with a quote.
                while let next = rest.first, !next.hasPrefix("*** First throw call stack") {
                    rest = rest.dropFirst()
                    if next.hasSuffix("'") { reason += "\n" + next.dropLast(); break }
                    reason += "\n" + next
                }
            }
            d.reason = reason
            d.backtrace = c.stack(Array(rest))
            return .event(c.event(.exception, r, details: d))
        }
    }

    static let cxxTerminate: Recognizer = {
        let pattern = Pattern.builtIn(#"libc\+\+abi(?:\.dylib)?: terminating (?:with|due to) uncaught exception of type (?<type>(?:[^\s:]|::)+):?\s*(?<reason>.*)$"#)
        let type = pattern.group("type"), reason = pattern.group("reason")
        return Recognizer("C++ termination", family: .exception, triggers: ["uncaught ex|ception"], pattern: pattern) { c, m, r in
            var d = EventDetails()
            d.exceptionName = m[type]
            d.reason = m[reason]
            d.backtrace = c.stack(r.continuation)
            return .event(c.event(.exception, r, details: d))
        }
    }()

    static let ignoredException: Recognizer = {
        let pattern = Pattern.builtIn(#"Ignored Exception: (?<reason>.*)$"#)
        let reason = pattern.group("reason")
        return Recognizer("ignored exception", family: .exception, triggers: ["Ignored Ex|ception"], pattern: pattern) { c, m, r in
            var d = EventDetails()
            d.reason = m[reason]
            d.ignored = true
            if c.detailed { d.api = c.p.objcMethod.firstMatch(in: r.message, scratch: c.scratch)?[0] }
            return .event(c.event(.exception, r, details: d))
        }
    }()
}
