// Threading reports: Main Thread Checker, completions that arrived off the main thread, APIs that
// state a main-thread requirement, SwiftUI's background publishing, main-thread I/O warnings
// (lifecycle reference §4).

extension RecognizerFamily {
    /// Main Thread Checker reports (`Main Thread Checker: UI API called on a background thread: …`).
    static let mainThreadChecker = RecognizerFamily("mainThreadChecker")
    /// Other threading messages.
    static let thread = RecognizerFamily("thread")
}

extension Recognizer {
    static let mainThreadChecker: Recognizer = {
        let pattern = Pattern.builtIn(#"Main Thread Checker: (?:UI API called on a background thread|[^:]*): (?<api>.*)$"#)
        let api = pattern.group("api")
        return Recognizer("Main Thread Checker report", family: .mainThreadChecker,
                          triggers: ["Main T|hread Checker", "background t|hread"], pattern: pattern) { c, m, r in
            var d = EventDetails()
            d.api = m[api]?.trimmed
            c.parseCheckerFields(r.continuation, into: &d)
            return .event(c.event(.mainThreadChecker, r, details: d))
        }
    }()

    static let offMainCompletion = Recognizer("completion off the main thread", family: .thread, triggers: ["main t|hread"],
                                              pattern: .builtIn(#"arrived off the main thread"#)) { c, r in
        var d = EventDetails()
        if c.detailed { d.api = c.p.objcMethod.firstMatch(in: r.message, scratch: c.scratch)?[0] }
        d.reason = r.message.trimmed
        return c.event(.offMainCompletion, r, details: d)
    }

    /// `Ignored Exception:` quoting a requirement is put up too (its family finds it first).
    static let mainThreadRequired = Recognizer("main-thread requirement", family: .thread,
                                               triggers: ["main t|hread", "Main t|hread", "background t|hread", "Ignored Ex|ception"],
                                               pattern: Patterns.shared.mainThreadRequired) { c, r in
        var d = EventDetails()
        if c.detailed { d.api = c.p.objcMethod.firstMatch(in: r.message, scratch: c.scratch)?[0] }
        d.reason = r.message.trimmed
        d.backtrace = c.stack(r.continuation)
        return c.event(.mainThreadRequired, r, details: d)
    }

    static let backgroundPublish = Recognizer("SwiftUI background publishing", family: .thread, triggers: ["background t|hread"],
                                              pattern: .builtIn(#"Publishing changes from background threads is not allowed"#)) { c, r in
        c.event(.backgroundPublish, r, details: nil)
    }

    static let mainThreadIO = Recognizer("main-thread I/O", family: .thread, triggers: ["main t|hread"],
                                         pattern: .builtIn(#"should not be called on the main thread as it may lead to UI unresponsiveness"#)) { c, r in
        c.event(.mainThreadIO, r, details: nil)
    }
}
