import Foundation
import LifelineCore

// Failure signatures: a normalized description of one problem, the same across files, devices,
// processes and input formats, so that a batch run can count how often each problem happens.
//
// A signature is a pure function of one event (or of one rule finding). What varies between two
// occurrences of the same problem is removed: numbers, addresses, UUIDs, paths and quoted values in
// messages (`Signatures.mask`), addresses, offsets and frame numbers in stacks, source paths (only the
// file name is kept). What identifies the problem is kept: the method an assertion fired in, an
// exception's name and message template, a crash's exception type, signal and app frames, a watchdog's
// event and termination code.

// MARK: - Public model

/// The family of problem a signature describes. Ordered as declared (assertions first, rule findings
/// last), which is the order tables list kinds in.
public enum SignatureKind: String, Sendable, Codable, CaseIterable, Comparable {
    /// `*** Assertion failure in …` (NSAssertionHandler).
    case assertion
    /// An uncaught (or ignored) Objective-C / C++ exception logged by the process.
    case exception
    /// A Swift runtime trap: `Fatal error`, `Precondition failed`, `Assertion failed`.
    case fatalError = "fatal-error"
    /// A signal named by the shell or the debugger (`Abort trap: 6`, `Terminated due to signal 9`).
    case signal
    /// A Main Thread Checker report.
    case mainThreadChecker = "main-thread-checker"
    /// A framework's refusal of a call made off the main thread (`must be called on the main
    /// thread`), on its own line; when it is the reason of an exception, the exception's signature
    /// holds it.
    case mainThreadRequired = "main-thread-required"
    /// An `.ips` or text crash report that is not a watchdog kill.
    case crash
    /// A watchdog termination (`0x8badf00d`), from a crash report or a log line.
    case watchdog
    /// Killed by the system without a crash: jetsam (memory) or another stated reason.
    case killed
    /// A hang report or MetricKit hang diagnostic.
    case hang
    /// A CPU or disk-write resource report.
    case resource
    /// A slow launch (MetricKit app launch diagnostic).
    case slowLaunch = "slow-launch"
    /// A finding of a lifecycle rule.
    case rule

    /// Declaration order.
    public static func < (a: SignatureKind, b: SignatureKind) -> Bool { a.order < b.order }

    private var order: Int {
        switch self {
        case .assertion: 0
        case .exception: 1
        case .fatalError: 2
        case .signal: 3
        case .mainThreadChecker: 4
        case .mainThreadRequired: 5
        case .crash: 6
        case .watchdog: 7
        case .killed: 8
        case .hang: 9
        case .resource: 10
        case .slowLaunch: 11
        case .rule: 12
        }
    }
}

/// A normalized description of one problem, the same across files, devices, processes and formats.
///
/// Two signatures are equal (and hash alike) when their kind and key are equal: the title is for
/// display only. Titles are built from the same normalized parts as keys, so two equal signatures
/// made by `Signatures` normally have the same title too (rule titles carry the rule's name).
public struct Signature: Sendable, Hashable {
    public let kind: SignatureKind
    /// The normalized text that identifies the problem (what grouping compares).
    public let key: String
    /// One readable line for tables (may contain log text; renderers escape it).
    public let title: String
    /// What this occurrence had that the key leaves out on purpose: the line number inside a
    /// system framework's source (`UINSApplicationDelegate.m:912`), which moves with every UIKit
    /// build. Not compared; counted per signature as its variants.
    public let variant: String?
    /// Computed once: ids are compared and used as dictionary keys for every occurrence.
    private let storedID: String

    /// Stable id: "\(kind.rawValue)-" + 12 lower-case hex digits of FNV-1a 64 over
    /// "\(kind.rawValue)\n\(key)" (UTF-8). The 12 digits are the first 12 of the hash written as 16
    /// zero-padded hex digits (its upper 48 bits).
    public var id: String { storedID }

    /// Creates a signature; `id` is derived from `kind` and `key`.
    /// - Parameters:
    ///   - kind: The family of problem.
    ///   - key: The normalized identifying text.
    ///   - title: One readable line for tables.
    public init(kind: SignatureKind, key: String, title: String, variant: String? = nil) {
        self.kind = kind
        self.key = key
        self.title = title
        self.variant = variant
        self.storedID = kind.rawValue + "-" + SignatureHash.fnv1a64Prefix("\(kind.rawValue)\n\(key)")
    }

    /// Equal kind and key (the title is not compared).
    public static func == (a: Signature, b: Signature) -> Bool { a.kind == b.kind && a.key == b.key }

    /// Hashes kind and key, consistent with `==`.
    public func hash(into h: inout Hasher) {
        h.combine(kind)
        h.combine(key)
    }
}

/// Builds signatures from events and rule findings, and masks the variable parts of messages.
public enum Signatures {

    /// The signature of a failure or threading-report event: kinds failure.assertion, failure.exception,
    /// failure.swiftFatalError, failure.signal, failure.crashReport, failure.watchdog, thread.mainThreadChecker.
    /// nil for every other event kind.
    ///
    /// Keys are `" | "`-separated fields (see each kind below); a missing field is written `-`.
    /// - assertion: method, and `file:line` with only the file name of the source path.
    /// - exception: exception name (` (ignored)` appended, or `(ignored)` alone without a name, for
    ///   `Ignored Exception:` lines), masked reason.
    /// - fatal-error: trap (`Fatal error`, `Precondition failed`, `Assertion failed`), masked message,
    ///   `file:line` with only the file name.
    /// - signal: the signal name (numbers and shell descriptions become names, Darwin numbering).
    /// - main-thread-checker: the API, then the first frame of the process's own image (or, without one,
    ///   the first frame outside system images), as `image symbol`.
    /// - crash: exception type with the signal in parentheses, the Objective-C exception name and masked
    ///   reason when the report has one, then up to three frames (`image symbol`, `;`-separated). See
    ///   `crashFrames` for which frames.
    /// - watchdog: the watchdog event, then the termination headline (masked, termination codes kept).
    /// - killed: `memory` (jetsam) or `system`, then the masked reason; with `failure(_:systemPhase:)`,
    ///   the system's phase at the kill as well.
    /// - main-thread-required: the API the message names, else the masked message.
    /// - Parameter event: Any event.
    /// - Returns: The signature, or nil when the event is not a failure or Main Thread Checker report.
    public static func failure(_ event: Event) -> Signature? { failure(event, systemPhase: nil) }

    /// The signature of a failure event, with what the system said of the app at it
    /// (`SystemPhases`): a kill (`killed`: jetsam or another kill by the system) names that phase
    /// (`launch`, `foreground`, `background` or `suspended`) as a third key field and in its title,
    /// `Killed for memory while suspended (vm-pageshortage)`: a suspended app reclaimed for memory
    /// is not the problem of one killed in the foreground. Without a phase (the system said nothing
    /// of the app, or another phase), and for every other kind, the signature is
    /// `failure(_:)`'s, key, title and id alike.
    /// - Parameters:
    ///   - event: Any event.
    ///   - systemPhase: The system's phase at the event, if it said one.
    /// - Returns: The signature, or nil when the event is not a failure or Main Thread Checker report.
    public static func failure(_ event: Event, systemPhase: FailurePhase?) -> Signature? {
        switch event.kind {
        case .assertion: return assertion(event)
        case .exception: return exception(event)
        case .swiftFatalError: return swiftTrap(event)
        case .signal: return signal(event)
        case .crashReport: return crash(event)
        case .watchdog: return watchdog(event)
        case .jetsam, .killed: return killed(event, systemPhase: systemPhase)
        case .hang, .resourceLimit, .slowLaunch: return resource(event)
        case .mainThreadChecker: return mainThreadChecker(event)
        case .mainThreadRequired: return mainThreadRequired(event)
        default: return nil
        }
    }

    /// A rule finding: rule id + the callback (event kind raw value such as "scene.didBecomeActive", or nil).
    ///
    /// Key `"\(id) \(callback ?? "-")"`; title `"\(id) \(name) at \(callback)"` (without ` at …` when
    /// there is no callback).
    /// - Parameters:
    ///   - id: Rule id (`LC-S01`).
    ///   - name: Rule name, for the title.
    ///   - callback: Raw kind of the event the finding points at, if any.
    /// - Returns: The signature.
    public static func rule(id: String, name: String, callback: String?) -> Signature {
        let title = callback.map { "\(id) \(name) at \($0)" } ?? "\(id) \(name)"
        return Signature(kind: .rule, key: "\(id) \(callback ?? "-")", title: SignatureText.titleLine(title))
    }

    /// Masks what varies between occurrences: UUIDs -> <uuid>, hex addresses 0x… -> <addr>, absolute file paths -> <path>, single/double/curly-quoted values -> '<…>' (keep the quotes' kind irrelevant: all become '…'), remaining decimal numbers -> <n>. Collapses runs of whitespace.
    ///
    /// Details of the rules:
    /// - A quoted value opens with `'`, `"`, `‘` or `“` at the start or after a character that is not a
    ///   letter, digit or `_`, and closes with the matching quote (`'`, `"`, `’`, `”`) followed by the end
    ///   or such a character, on the same line; apostrophes inside words (`can't`, `couldn’t`) are text.
    ///   The whole value, quotes included, becomes `'<…>'`.
    /// - A UUID is `8-4-4-4-12` hex digits (either case) standing alone.
    /// - An address is `0x` followed by hex digits, standing alone.
    /// - A path starts with `/` at the start or after white space or one of `( [ < { = : , ' " \``,
    ///   followed by a path character, and runs to white space or one of `) ] > } , ; : ' " \``.
    /// - A number is a run of ASCII digits with optional `.digits` parts (`19.96`, `2.1.0`) that does not
    ///   touch a letter, digit or `_` on either side; a unit suffix (`s`, `ms`, `MB`, …) stays and
    ///   does not prevent masking (`5.0s` → `<n>s`).
    /// - White space runs (newlines included) become one space; the result is trimmed.
    ///
    /// Masking is idempotent: `mask(mask(x)) == mask(x)`.
    /// - Parameter text: Any message text.
    /// - Returns: The masked text.
    public static func mask(_ text: String) -> String {
        SignatureText.mask(text, keepingCodes: false)
    }
}

// MARK: - Per-kind normalization

extension Signatures {
    /// Method + `file:line`.
    static func assertion(_ e: Event) -> Signature {
        let d = e.details ?? EventDetails()
        let method = d.method.map(SignatureText.collapse).flatMap(SignatureText.nonEmpty)
            ?? SignatureText.nonEmpty(mask(e.message)) ?? "-"
        let location = SignatureText.location(d.sourceFile, d.sourceLine)
        // In a system framework's source the line moves with every build (UIKit's
        // UINSApplicationDelegate.m:886 and :912 are one problem): the file identifies it, the
        // line is a variant. In the app's own source the line is the problem's place.
        if SignatureText.isSystemSource(d.sourceFile, method: method), let file = SignatureText.location(d.sourceFile, nil) {
            let key = [method, file].joined(separator: " | ")
            let title = "Assertion failure in \(method) (\(file), system source)"
            return Signature(kind: .assertion, key: key, title: SignatureText.titleLine(title), variant: location)
        }
        let key = [method, location ?? "-"].joined(separator: " | ")
        let title = "Assertion failure in \(method)" + (location.map { " (\($0))" } ?? "")
        return Signature(kind: .assertion, key: key, title: SignatureText.titleLine(title))
    }

    /// Exception name + masked reason.
    static func exception(_ e: Event) -> Signature {
        let d = e.details ?? EventDetails()
        let ignored = d.ignored == true
        let written = d.exceptionName.map(SignatureText.collapse).flatMap(SignatureText.nonEmpty)
        let name = ignored ? (written.map { "\($0) (ignored)" } ?? "(ignored)") : (written ?? "-")
        let reason = SignatureText.nonEmpty(mask(d.reason ?? (d.exceptionName == nil ? e.message : "")))
        let key = [name, reason ?? "-"].joined(separator: " | ")
        let label = ignored ? "Ignored exception" + (written.map { " \($0)" } ?? "") : (written ?? "Exception")
        let title = label + (reason.map { ": \($0)" } ?? "")
        return Signature(kind: .exception, key: key, title: SignatureText.titleLine(title))
    }

    /// Trap + masked message + `file:line`.
    static func swiftTrap(_ e: Event) -> Signature {
        let d = e.details ?? EventDetails()
        let trap = d.trap.map(SignatureText.collapse).flatMap(SignatureText.nonEmpty) ?? "Fatal error"
        let message = SignatureText.nonEmpty(mask(d.reason ?? (d.trap == nil ? e.message : "")))
        let location = SignatureText.location(d.sourceFile, d.sourceLine)
        let key = [trap, message ?? "-", location ?? "-"].joined(separator: " | ")
        let title = trap + (message.map { ": \($0)" } ?? "") + (location.map { " (\($0))" } ?? "")
        return Signature(kind: .fatalError, key: key, title: SignatureText.titleLine(title))
    }

    /// The signal's name.
    static func signal(_ e: Event) -> Signature {
        let d = e.details ?? EventDetails()
        let name = d.signal.flatMap { SignatureText.signalName($0) }
            ?? SignatureText.signalNameInDescription(d.reason ?? e.message)
            ?? SignatureText.nonEmpty(mask(d.reason ?? e.message)) ?? "-"
        return Signature(kind: .signal, key: name, title: SignatureText.titleLine("Signal \(name)"))
    }

    /// The API the message names, else the masked message.
    static func mainThreadRequired(_ e: Event) -> Signature {
        let d = e.details ?? EventDetails()
        let what = d.api.map { mask($0) } ?? mask(SignatureText.collapse(d.reason ?? e.message))
        return Signature(kind: .mainThreadRequired, key: what, title: SignatureText.titleLine("Main thread required: \(what)"))
    }

    /// API + the first frame of the app (or outside system images).
    static func mainThreadChecker(_ e: Event) -> Signature {
        let d = e.details ?? EventDetails()
        let api = d.api.map { mask($0) }.flatMap(SignatureText.nonEmpty) ?? "-"
        // The images of every frame are read; only the chosen frame's symbol is normalized.
        let frames = d.backtrace?.frames ?? []
        let own = e.process.flatMap { process in frames.first { $0.image.map { SignatureText.isImage($0, of: process) } ?? false } }
        let chosen = (own ?? frames.first { $0.image.map { !SignatureText.isSystemImage($0) } ?? false }).flatMap(SignatureFrame.init(frame:))
        let frame = chosen?.text
        let key = [api, frame ?? "-"].joined(separator: " | ")
        let title = "Main Thread Checker: \(api)" + (frame.map { " from \($0)" } ?? "")
        return Signature(kind: .mainThreadChecker, key: key, title: SignatureText.titleLine(title))
    }

    /// Exception type (+ signal), Objective-C exception, top frames.
    static func crash(_ e: Event) -> Signature {
        let d = e.details ?? EventDetails()
        let type = SignatureText.exceptionType(d.exceptionType, d.signal)
        var exception: String?
        if let name = d.exceptionName.map(SignatureText.collapse).flatMap(SignatureText.nonEmpty) {
            exception = name + (d.reason.map { mask($0) }.flatMap(SignatureText.nonEmpty).map { ": \($0)" } ?? "")
        }
        let frames = crashFrames(d, process: e.process)
        var fields = [type ?? "-"]
        if let exception { fields.append(exception) }
        fields.append(frames.isEmpty ? "-" : frames.joined(separator: " ; "))
        let title = [type ?? "Crash", exception].compactMap { $0 }.joined(separator: ": ")
            + (frames.first.map { " at \($0)" } ?? "")
        return Signature(kind: .crash, key: fields.joined(separator: " | "), title: SignatureText.titleLine(title))
    }

    /// Memory or system + the masked reason (`per-process-limit`, a RunningBoard explanation), + the
    /// system's phase at the kill when it said one (`suspended`).
    static func killed(_ e: Event, systemPhase: FailurePhase? = nil) -> Signature {
        let d = e.details ?? EventDetails()
        let memory = e.kind == .jetsam
        let reason = d.terminationReason.map { mask($0) }.flatMap(SignatureText.nonEmpty)
        var fields = [memory ? "memory" : "system", reason ?? "-"]
        var title = memory ? "Killed for memory" : "Killed by the system"
        if let phase = systemPhase, let words = killPhrases[phase] {
            fields.append(phase.rawValue)
            title += " " + words
        }
        title += reason.map { " (\($0))" } ?? ""
        return Signature(kind: .killed, key: fields.joined(separator: " | "), title: SignatureText.titleLine(title))
    }

    /// How a kill's title says the system's phase at it.
    static let killPhrases: [FailurePhase: String] = [
        .launch: "during launch", .foreground: "in the foreground", .background: "in the background", .suspended: "while suspended",
    ]

    /// What was flagged (hang, CPU, disk writes, slow launch) + the top frames, as for a crash.
    static func resource(_ e: Event) -> Signature {
        let d = e.details ?? EventDetails()
        let kind: SignatureKind = e.kind == .hang ? .hang : e.kind == .slowLaunch ? .slowLaunch : .resource
        let what: String
        switch d.cause {
        case .cpuResource: what = "CPU resource limit"
        case .diskWriteResource: what = "Disk write resource limit"
        case .hang: what = "Hang"
        case .slowLaunch: what = "Slow launch"
        default: what = e.kind == .hang ? "Hang" : e.kind == .slowLaunch ? "Slow launch" : "Resource limit"
        }
        let frames = crashFrames(d, process: e.process)
        let key = [what, frames.isEmpty ? "-" : frames.joined(separator: " ; ")].joined(separator: " | ")
        return Signature(kind: kind, key: key, title: SignatureText.titleLine(what + (frames.first.map { " at \($0)" } ?? "")))
    }

    /// Watchdog event + termination headline.
    static func watchdog(_ e: Event) -> Signature {
        let d = e.details ?? EventDetails()
        let event = d.watchdogEvent.map(SignatureText.collapse).flatMap(SignatureText.nonEmpty)
        let headline = SignatureText.watchdogHeadline(d.terminationReason ?? e.message)
        let key = [event ?? "-", headline ?? "-"].joined(separator: " | ")
        let title = "Watchdog" + (event.map { " \($0)" } ?? "") + (headline.map { ": \($0)" } ?? "")
        return Signature(kind: .watchdog, key: key, title: SignatureText.titleLine(title))
    }

    /// Up to three frames (`image symbol`, or `image ???` when unsymbolicated), innermost first,
    /// consecutive repeats (inlined frames, recursion) written once:
    /// - the app frames, when at least one of them is symbolicated;
    /// - otherwise the frames of the report's backtrace (the exception backtrace, else the crashed
    ///   thread) that are app frames or symbolicated frames outside the abort and throw machinery
    ///   (`__pthread_kill`, `abort`, `objc_exception_throw`, `__exceptionPreprocess`, …): where the crash
    ///   happened and the unsymbolicated app code around it;
    /// - when that leaves nothing, the top frames of the backtrace as they are, then the app frames.
    static func crashFrames(_ d: EventDetails, process: String?) -> [String] {
        func normalized(_ f: SignatureFrame) -> SignatureFrame {
            // PLCrashReporter names the app's image by its bundle identifier.
            guard let bundle = d.bundleID, f.image == bundle, let process else { return f }
            return SignatureFrame(image: process, symbol: f.symbol)
        }
        let app = (d.appFrames ?? []).compactMap(SignatureFrame.init(frame:)).map(normalized)
        if app.contains(where: { $0.symbol != nil }) {
            return SignatureText.distinctRuns(app.map(\.text)).prefix(3).map { $0 }
        }
        let stack = (d.backtrace?.frames ?? []).compactMap(SignatureFrame.init(frame:)).map(normalized)
        var appImages = Set(app.compactMap(\.image))
        if let process { appImages.insert(process) }
        let significant = stack.filter { f in
            if let image = f.image, appImages.contains(image) { return true }
            guard let symbol = f.symbol else { return false }
            return !SignatureText.abortMachinery.contains(symbol)
        }
        for candidate in [significant, stack, app] {
            let texts = SignatureText.distinctRuns(candidate.map(\.text))
            if !texts.isEmpty { return Array(texts.prefix(3)) }
        }
        return []
    }
}

// MARK: - Frames

/// One stack frame reduced to what identifies it: image and symbol, without frame number, address or
/// offset.
struct SignatureFrame: Equatable {
    var image: String?
    var symbol: String?

    init(image: String?, symbol: String?) {
        self.image = image
        self.symbol = symbol
    }

    /// The image and normalized symbol of a frame (`SignatureText.symbol` of what follows its address);
    /// nil when neither is known. Signature keys are compared across runs and versions, so a frame
    /// reduces as its `text` line always did: without an address the image is not told apart from
    /// the symbol (both are the symbol text), and runs of spaces count as one.
    init?(frame f: CrashFrame) {
        var image = f.address == nil ? nil : f.image.map(SignatureText.words)
        if image == "???" || image == "" { image = nil }
        let rest = f.address == nil ? [f.image, f.location].compactMap { $0 }.joined(separator: " ") : f.location ?? ""
        self.image = image
        symbol = SignatureText.symbol(SignatureText.words(rest), image: image)
        if image == nil && symbol == nil { return nil }
    }

    /// `image symbol`, `image ???`, or `??? symbol`.
    var text: String { "\(image ?? "???") \(symbol ?? "???")" }
}

// MARK: - Hash

/// FNV-1a 64, for signature ids.
enum SignatureHash {
    /// FNV-1a 64 of the UTF-8 bytes of `text`.
    static func fnv1a64(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 {
            h ^= UInt64(b)
            h &*= 0x0000_0100_0000_01b3
        }
        return h
    }

    /// The first 12 of the 16 zero-padded lower-case hex digits of `fnv1a64(text)`.
    static func fnv1a64Prefix(_ text: String) -> String {
        let hex = String(fnv1a64(text), radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(12))
    }
}

extension Character {
    /// ASCII 0-9 (Swift's `isNumber` also accepts other scripts' digits and fractions).
    var isASCIIDigit: Bool { asciiValue.map { $0 >= 48 && $0 <= 57 } ?? false }
}
