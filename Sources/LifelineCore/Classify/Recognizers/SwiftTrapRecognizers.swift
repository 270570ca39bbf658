// Swift runtime traps: `Fatal error`, `Precondition failed`, `Assertion failed`, in today's and
// older spellings (lifecycle reference §5.2).

extension RecognizerFamily {
    static let swiftTrap = RecognizerFamily("swiftTrap")
}

extension Recognizer {
    /// `File.swift:42: Fatal error: message`, or the older `Fatal error: message: file File.swift, line 42`.
    static let swiftTrap: Recognizer = {
        let pattern = Pattern.builtIn(#"^\s*(?:(?<file>\S.*?):(?<line>\d+): )?(?<trap>Fatal error|Precondition failed|Assertion failed)(?:: (?<message>.*?))?(?:: file (?<trailingFile>.+), line (?<trailingLine>\d+))?\s*$"#)
        let file = pattern.group("file"), line = pattern.group("line"), trap = pattern.group("trap")
        let message = pattern.group("message"), trailingFile = pattern.group("trailingFile"), trailingLine = pattern.group("trailingLine")
        return Recognizer("Swift trap", family: .swiftTrap, triggers: ["Assertion| fail", "F|atal error", "Precondition| failed"],
                          pattern: pattern) { c, m, r in
            var d = EventDetails()
            d.sourceFile = m[file] ?? m[trailingFile]
            d.sourceLine = (m[line] ?? m[trailingLine]).flatMap { Int($0) }
            d.trap = m[trap]
            d.reason = m[message]
            d.backtrace = c.stack(r.continuation)
            return .event(c.event(.swiftFatalError, r, details: d))
        }
    }()

    /// Swift 4 and older: `fatal error: message`.
    static let oldSwiftTrap: Recognizer = {
        let pattern = Pattern.builtIn(#"^\s*fatal error: (?<message>.*)$"#)
        let message = pattern.group("message")
        return Recognizer("Swift trap, old spelling", family: .swiftTrap, triggers: ["f|atal error"], pattern: pattern) { c, m, r in
            var d = EventDetails()
            d.trap = "Fatal error"
            d.reason = m[message]
            return .event(c.event(.swiftFatalError, r, details: d))
        }
    }()
}
