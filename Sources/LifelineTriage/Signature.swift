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
    /// - main-thread-required: the API the message names, else the masked message.
    /// - Parameter event: Any event.
    /// - Returns: The signature, or nil when the event is not a failure or Main Thread Checker report.
    public static func failure(_ event: Event) -> Signature? {
        switch event.kind {
        case .assertion: return assertion(event)
        case .exception: return exception(event)
        case .swiftFatalError: return swiftTrap(event)
        case .signal: return signal(event)
        case .crashReport: return crash(event)
        case .watchdog: return watchdog(event)
        case .jetsam, .killed: return killed(event)
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
        let lines = (d.backtrace ?? []).compactMap { line in SignatureFrame.parts(of: line).map { (line, $0.image) } }
        let own = e.process.flatMap { process in lines.first { $0.1.map { SignatureText.isImage($0, of: process) } ?? false } }
        let chosen = (own ?? lines.first { $0.1.map { !SignatureText.isSystemImage($0) } ?? false }).flatMap { SignatureFrame(line: $0.0) }
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

    /// Memory or system + the masked reason (`per-process-limit`, a RunningBoard explanation).
    static func killed(_ e: Event) -> Signature {
        let d = e.details ?? EventDetails()
        let memory = e.kind == .jetsam
        let reason = d.terminationReason.map { mask($0) }.flatMap(SignatureText.nonEmpty)
        let key = [memory ? "memory" : "system", reason ?? "-"].joined(separator: " | ")
        let title = (memory ? "Killed for memory" : "Killed by the system") + (reason.map { " (\($0))" } ?? "")
        return Signature(kind: .killed, key: key, title: SignatureText.titleLine(title))
    }

    /// What was flagged (hang, CPU, disk writes, slow launch) + the top frames, as for a crash.
    static func resource(_ e: Event) -> Signature {
        let d = e.details ?? EventDetails()
        let kind: SignatureKind = e.kind == .hang ? .hang : e.kind == .slowLaunch ? .slowLaunch : .resource
        let what: String
        switch d.cause {
        case "cpuResource": what = "CPU resource limit"
        case "diskWriteResource": what = "Disk write resource limit"
        case "hang": what = "Hang"
        case "slowLaunch": what = "Slow launch"
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
        let app = (d.appFrames ?? []).compactMap(SignatureFrame.init(line:)).map(normalized)
        if app.contains(where: { $0.symbol != nil }) {
            return SignatureText.distinctRuns(app.map(\.text)).prefix(3).map { $0 }
        }
        let stack = (d.backtrace ?? []).compactMap(SignatureFrame.init(line:)).map(normalized)
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

    /// Reads a frame line: `N  image  0xADDRESS  symbol + offset` as crash reports and Main Thread Checker
    /// print it, and as `EventDetails.appFrames`/`backtrace` of crash events hold it (`N image 0xADDR
    /// symbol`, parts absent when unknown). The image may contain spaces; the symbol may end in
    /// ` + offset`, ` (File.swift:12)`, ` (in Image)` or ` [inlined]`. nil for lines that are not frames.
    init?(line: String) {
        guard let (image, symbolText) = Self.parts(of: line) else { return nil }
        self.image = image
        symbol = SignatureText.symbol(symbolText, image: image)
        if image == nil && symbol == nil { return nil }
    }

    /// The image and the raw symbol text of a frame line, without normalizing the symbol (cheap
    /// enough to run on every frame of a backtrace to choose one); nil for lines that are not frames.
    static func parts(of line: String) -> (image: String?, symbol: String)? {
        // Split on the bytes (a Character split costs far more, and every frame of a report is read).
        let tokens = line.utf8.split(whereSeparator: { $0 == 32 || $0 == 9 }).map { Substring($0) }
        guard tokens.count >= 2, tokens[0].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let rest = tokens.dropFirst()
        var imageText: String
        var symbolText: String
        if let k = rest.firstIndex(where: SignatureText.isHexAddress) {
            imageText = rest[..<k].joined(separator: " ")
            symbolText = rest[(k + 1)...].joined(separator: " ")
        } else {
            // No address: the image cannot be told from the symbol (an `.ips` frame whose image has no
            // base address); the whole text is the symbol.
            imageText = ""
            symbolText = rest.joined(separator: " ")
        }
        if imageText == "???" { imageText = "" }
        return (imageText.isEmpty ? nil : imageText, symbolText)
    }

    /// `image symbol`, `image ???`, or `??? symbol`.
    var text: String { "\(image ?? "???") \(symbol ?? "???")" }
}

// MARK: - Text helpers

/// String normalization shared by the signature builders.
enum SignatureText {

    /// Collapsed white space, trimmed.
    static func collapse(_ s: String) -> String {
        // Byte by byte (a signature is built for every failure of a batch); Unicode white space
        // (U+0085, U+00A0, U+1680, U+2000…U+200A, U+2028, U+2029, U+202F, U+205F, U+3000) counts too.
        let bytes = Array(s.utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var space = false
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            var width = 0
            switch b {
            case 32, 9, 10, 11, 12, 13: width = 1
            case 0xC2 where i + 1 < bytes.count && (bytes[i + 1] == 0x85 || bytes[i + 1] == 0xA0): width = 2
            case 0xE1 where i + 2 < bytes.count && bytes[i + 1] == 0x9A && bytes[i + 2] == 0x80: width = 3
            case 0xE2 where i + 2 < bytes.count:
                let (x, y) = (bytes[i + 1], bytes[i + 2])
                if x == 0x80 && (y <= 0x8A || y == 0xA8 || y == 0xA9 || y == 0xAF) || x == 0x81 && y == 0x9F { width = 3 }
            case 0xE3 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && bytes[i + 2] == 0x80: width = 3
            default: break
            }
            if width > 0 {
                space = !out.isEmpty
                i += width
                continue
            }
            if space { out.append(32); space = false }
            out.append(b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// nil for an empty string.
    static func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }

    /// A title: one line, at most 200 characters (longer ones end in `…`).
    static func titleLine(_ s: String) -> String {
        let line = collapse(s)
        return line.utf8.count > 200 && line.count > 200 ? String(line.prefix(199)) + "…" : line
    }

    /// `File.m:12` from a source path and line; the file name alone without a line; nil without a file.
    /// A source file of Apple's, not the app's: a build path of Apple's (`/AppleInternal/`,
    /// `com.apple.xbs`, `/System/Library/`), or, with no path, a file named after a system class
    /// the method belongs to (`-[UITableView …]` in `UITableView.m`).
    static func isSystemSource(_ file: String?, method: String) -> Bool {
        guard let file, !file.isEmpty else { return false }
        if file.contains("/AppleInternal/") || file.contains("com.apple.xbs") || file.hasPrefix("/System/Library/") { return true }
        guard !file.contains("/") else { return false }
        let base = file.split(separator: ".").first.map(String.init) ?? file
        let prefixes = ["UI", "_UI", "NS", "_NS", "CP", "CA", "BS", "FB", "RBS", "UIKit"]
        guard prefixes.contains(where: { base.hasPrefix($0) && base.count > $0.count && base.dropFirst($0.count).first!.isUppercase }) else { return false }
        // The method's class is that file's class (or a category of it).
        let cls = method.drop { $0 == "-" || $0 == "+" || $0 == "[" }.prefix { $0 != " " && $0 != "(" }
        return cls == base || cls.hasPrefix(base)
    }

    static func location(_ file: String?, _ line: Int?) -> String? {
        guard let file = file.map(collapse), !file.isEmpty else { return nil }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return line.map { "\(name):\($0)" } ?? name
    }

    /// Runs of equal neighbours written once.
    static func distinctRuns(_ items: [String]) -> [String] {
        var out: [String] = []
        for item in items where out.last != item { out.append(item) }
        return out
    }

    // MARK: Symbols and images

    /// `0x` followed by at least one hex digit and nothing else.
    static func isHexAddress<S: StringProtocol>(_ s: S) -> Bool {
        s.count > 2 && (s.hasPrefix("0x") || s.hasPrefix("0X")) && s.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    /// The symbol of a frame's text after its address, without ` + offset`, a trailing source location
    /// (`(File.swift:12)`), an atos `(in Image)` part or ` [inlined]`; nil when unsymbolicated (empty,
    /// `???`, an address, or the image name itself as in `0x1000 + 123` / `MyApp + 123`).
    static func symbol(_ text: String, image: String?) -> String? {
        var s = collapse(text)
        var changed = true
        while changed {
            changed = false
            if s.hasSuffix(" [inlined]") { s = String(s.dropLast(" [inlined]".count)); changed = true }
            if s.hasSuffix(")"), let open = s.range(of: " (", options: .backwards) {
                let inner = s[open.upperBound..<s.index(before: s.endIndex)]
                if isSourceLocation(inner) || (inner.hasPrefix("in ") && !inner.dropFirst(3).contains(" ")) {
                    s = String(s[..<open.lowerBound]); changed = true
                }
            }
            if let plus = s.range(of: " + ", options: .backwards) {
                let offset = s[plus.upperBound...]
                if !offset.isEmpty, offset.allSatisfy(\.isASCIIDigit) || isHexAddress(offset) {
                    s = String(s[..<plus.lowerBound]); changed = true
                }
            }
        }
        if s.isEmpty || s == "???" || isHexAddress(s) { return nil }
        if let image, s == image { return nil }
        return s
    }

    /// `File.swift:12` or `File.swift:12:5` (a file name with an extension, then line numbers).
    private static func isSourceLocation(_ s: Substring) -> Bool {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, let file = parts.first, file.contains("."), !file.contains(" "),
              !file.hasPrefix("."), !file.hasSuffix(".") else { return false }
        return parts.dropFirst().allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
    }

    /// The process's own image: its name, or Xcode 16's `Name.debug.dylib` of debug builds.
    static func isImage(_ image: String, of process: String) -> Bool {
        image == process || image == process + ".debug.dylib"
    }

    /// Images of the OS: Apple frameworks and libraries, the dynamic linker, Xcode's diagnostic
    /// libraries, reverse-DNS `com.apple.*` bundles.
    static func isSystemImage(_ image: String) -> Bool {
        if systemImages.contains(image) { return true }
        for prefix in systemImagePrefixes where image.hasPrefix(prefix) { return true }
        return false
    }

    static let systemImages: Set<String> = [
        "UIKitCore", "UIKit", "Foundation", "CoreFoundation", "QuartzCore", "GraphicsServices", "FrontBoardServices",
        "BaseBoard", "BoardServices", "RunningBoardServices", "AppKit", "UIKitMacHelper", "SwiftUI", "SwiftUICore",
        "Combine", "CFNetwork", "CoreGraphics", "CoreText", "CoreData", "CoreServices", "CoreLocation", "CoreMotion",
        "CoreMedia", "CoreVideo", "CoreImage", "CoreAnimation", "Metal", "MetalKit", "AVFoundation", "AVFAudio",
        "AudioToolbox", "MediaToolbox", "WebKit", "JavaScriptCore", "MapKit", "Photos", "PhotosUI", "StoreKit",
        "UserNotifications", "CarPlay", "CloudKit", "Security", "Network", "ImageIO", "IOKit", "Accelerate",
        "AttributeGraph", "AccessibilityUtilities", "AXCoreUtilities", "UIAccessibility", "TextInput",
        "TextInputCore", "DocumentManager", "ContactsUI", "Contacts", "EventKit", "HealthKit", "SafariServices",
        "AuthenticationServices", "LocalAuthentication", "SceneKit", "SpriteKit", "RealityKit", "ARKit",
        "GameKit", "GameplayKit", "CoreML", "Vision", "NaturalLanguage", "Intents", "IntentsUI", "WidgetKit",
        "ActivityKit", "AppIntents", "Observation", "SwiftData", "OSLog", "os", "dyld", "dyld_sim",
    ]

    static let systemImagePrefixes = [
        "libsystem_", "libdispatch", "libMainThreadChecker", "libobjc", "libswift", "libc++", "libxpc",
        "libdyld", "libBacktraceRecording", "libRPAC", "libLogRedirect", "libViewDebuggerSupport",
        "libsqlite3", "libz.", "libicucore", "libnetwork", "liboah", "libclang_rt.", "com.apple.",
    ]

    /// Frames of the abort and throw machinery: in every crash of their kind, they say nothing about
    /// which problem it is.
    static let abortMachinery: Set<String> = [
        "__pthread_kill", "pthread_kill", "raise", "abort", "__abort", "abort_message", "__assert_rtn",
        "demangling_terminate_handler()", "_objc_terminate()", "std::__terminate(void (*)())", "std::terminate()",
        "__cxa_throw", "__cxa_rethrow", "objc_exception_throw", "objc_exception_rethrow", "__exceptionPreprocess",
        "_CFThrowFormattedException", "-[NSException raise]", "+[NSException raise:format:]",
        "+[NSException raise:format:arguments:]",
    ]

    // MARK: Signals and exception types

    /// What shells and the debugger print for a signal (`Abort trap: 6`).
    static let signalDescriptions: [String: String] = [
        "abort trap": "SIGABRT", "segmentation fault": "SIGSEGV", "bus error": "SIGBUS",
        "illegal instruction": "SIGILL", "trace/bpt trap": "SIGTRAP", "killed": "SIGKILL", "terminated": "SIGTERM",
        "floating point exception": "SIGFPE", "hangup": "SIGHUP", "interrupt": "SIGINT", "quit": "SIGQUIT",
        "bad system call": "SIGSYS", "broken pipe": "SIGPIPE", "alarm clock": "SIGALRM", "emt trap": "SIGEMT",
    ]

    /// `SIGABRT` from `SIGABRT`, `sigabrt`, `ABRT`, `6`, `Signal 6` or `Abort trap`; nil when empty.
    /// Unknown numbers become `signal N`; other text is returned upper-cased.
    static func signalName(_ raw: String) -> String? {
        var s = collapse(raw)
        if s.isEmpty { return nil }
        if s.lowercased().hasPrefix("signal ") { s = String(s.dropFirst("signal ".count)) }
        if let n = Int(s) { return DarwinSignal.names[n] ?? "signal \(n)" }
        if let name = signalDescriptions[s.lowercased()] { return name }
        let upper = s.uppercased()
        if upper.hasPrefix("SIG") { return upper }
        if DarwinSignal.names.values.contains("SIG" + upper) { return "SIG" + upper }
        return upper
    }

    /// The signal a shell or debugger line names (`Abort trap: 6`, `Terminated due to signal 9`).
    static func signalNameInDescription(_ text: String) -> String? {
        let t = collapse(text)
        if let r = t.range(of: "signal ", options: [.caseInsensitive, .backwards]) {
            let digits = t[r.upperBound...].prefix(while: \.isASCIIDigit)
            if let n = Int(digits) { return DarwinSignal.names[n] ?? "signal \(n)" }
        }
        if let colon = t.lastIndex(of: ":") {
            let description = t[..<colon].lowercased()
            for (words, name) in signalDescriptions where description.hasSuffix(words) { return name }
        }
        return nil
    }

    /// `EXC_CRASH (SIGABRT)` from the parsed type and signal (the text form writes them as one field, the
    /// `.ips` form as two); a bare signal type (`SIGSEGV`, PLCrashReporter) stays alone.
    static func exceptionType(_ type: String?, _ signal: String?) -> String? {
        var t = type.map(collapse).flatMap(nonEmpty)
        var sig = signal.flatMap { signalName($0) }
        if let whole = t, whole.hasSuffix(")"), let open = whole.lastIndex(of: "(") {
            let inner = String(whole[whole.index(after: open)..<whole.index(before: whole.endIndex)])
            t = nonEmpty(collapse(String(whole[..<open])))
            if sig == nil { sig = signalName(inner) }
        }
        if let tt = t, tt.uppercased().hasPrefix("SIG") || Int(tt) != nil {
            let asSignal = signalName(tt)
            if sig == nil || sig == asSignal { return asSignal }
        }
        switch (t, sig) {
        case let (t?, s?): return "\(t) (\(s))"
        case let (t?, nil): return t
        case let (nil, s?): return s
        case (nil, nil): return nil
        }
    }

    // MARK: Watchdog

    /// The part of a termination reason that names the problem: the first ` | `-separated part that is
    /// not a state or statistics line (`ProcessVisibility: …`, `WatchdogEvent: …`, `WatchdogCPUStatistics`
    /// and its quoted lines, a lone `(` or `)…`). A leading `Termination Description:` label (log lines)
    /// is dropped, an `RBSTerminateContext` is reduced to its code and explanation, and a leading
    /// `SPRINGBOARD, ` / `FRONTBOARD, ` namespace is dropped. Masked, with
    /// termination codes (hex values up to 32 bits, such as `0x8badf00d`) kept in lower case.
    static func watchdogHeadline(_ reason: String) -> String? {
        let parts = reason.components(separatedBy: " | ").map(collapse).filter { !$0.isEmpty }
        let headline = parts.first { !isWatchdogStateLine($0) } ?? parts.first
        guard var h = headline else { return nil }
        for label in ["Termination Description:", "Termination Reason:"] where h.hasPrefix(label) {
            h = collapse(String(h.dropFirst(label.count)))
        }
        if h.hasPrefix("<RBSTerminateContext") {
            var code: String?
            if let r = h.range(of: "code:") {
                let value = h[r.upperBound...].prefix { !$0.isWhitespace }
                if isHexAddress(value) || value.allSatisfy(\.isASCIIDigit) { code = String(value) }
            }
            var explanation = ""
            if let r = h.range(of: "explanation:") {
                explanation = String(h[r.upperBound...])
                if let end = explanation.range(of: " reportType:") { explanation = String(explanation[..<end.lowerBound]) }
                if explanation.hasSuffix(">") { explanation.removeLast() }
            }
            h = [code, nonEmpty(collapse(explanation))].compactMap { $0 }.joined(separator: " ")
        } else if let comma = h.range(of: ", "), h[..<comma.lowerBound].allSatisfy({ $0.isUppercase || $0 == "_" }),
                  !h[..<comma.lowerBound].isEmpty {
            h = String(h[comma.upperBound...])
        }
        return nonEmpty(mask(h, keepingCodes: true))
    }

    /// `Key: value` state lines and CPU statistics of a watchdog termination description.
    private static func isWatchdogStateLine(_ part: String) -> Bool {
        if part.hasPrefix("\"") || part.hasPrefix(")") || part == "(" { return true }
        guard let colon = part.firstIndex(of: ":") else { return false }
        let key = part[..<colon]
        return !key.isEmpty && key.first!.isUppercase && key.allSatisfy { $0.isLetter }
            && ["Process", "Watchdog", "Thermal", "Elapsed"].contains { key.hasPrefix($0) }
    }

    // MARK: Masking

    /// Number unit suffixes that do not prevent masking (`5.0s`, `12ms`, `3MB`).
    static let units: Set<String> = [
        "s", "ms", "us", "µs", "ns", "m", "min", "h", "d", "x", "b", "B", "kb", "KB", "kB", "mb", "MB", "gb", "GB",
        "KiB", "MiB", "GiB", "px", "pt", "Hz", "kHz", "MHz", "GHz",
    ]

    /// See `Signatures.mask`. With `keepingCodes`, hex values that fit in 32 bits are kept (lower case,
    /// without leading zeros): they are termination codes, not addresses.
    static func mask(_ text: String, keepingCodes: Bool) -> String {
        let s = Array(text.unicodeScalars)
        let n = s.count
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var i = 0

        func emit(_ piece: String) {
            if pendingSpace && !out.isEmpty { out.append(" ") }
            pendingSpace = false
            out.append(contentsOf: piece.unicodeScalars)
        }
        func emit(_ c: Unicode.Scalar) {
            if pendingSpace && !out.isEmpty { out.append(" ") }
            pendingSpace = false
            out.append(c)
        }

        while i < n {
            let c = s[i]
            if c.properties.isWhitespace {
                pendingSpace = true
                i += 1
                continue
            }
            let standsAlone = i == 0 || !isWordScalar(s[i - 1])
            if standsAlone, let end = quotedValueEnd(s, at: i) {
                emit("'<…>'")
                i = end
                continue
            }
            if standsAlone, let end = uuidEnd(s, at: i) {
                emit("<uuid>")
                i = end
                continue
            }
            if standsAlone, c == "0", let end = hexEnd(s, at: i) {
                if keepingCodes, let value = UInt64(String(String.UnicodeScalarView(s[(i + 2)..<end])), radix: 16),
                   value <= UInt64(UInt32.max) {
                    emit("0x" + String(value, radix: 16))
                } else {
                    emit("<addr>")
                }
                i = end
                continue
            }
            if c == "/", let end = pathEnd(s, at: i) {
                emit("<path>")
                i = end
                continue
            }
            if standsAlone, isDigit(c) {
                var j = i
                while j < n, isDigit(s[j]) { j += 1 }
                while j + 1 < n, s[j] == ".", isDigit(s[j + 1]) {
                    j += 1
                    while j < n, isDigit(s[j]) { j += 1 }
                }
                var k = j
                while k < n, isWordScalar(s[k]) { k += 1 }
                let suffix = String(String.UnicodeScalarView(s[j..<k]))
                if suffix.isEmpty || units.contains(suffix) {
                    emit("<n>" + suffix)
                    i = k
                } else {
                    // Digits that belong to a word (`64bit`): text.
                    emit(String(String.UnicodeScalarView(s[i..<k])))
                    i = k
                }
                continue
            }
            emit(c)
            i += 1
        }
        return String(out)
    }

    @inline(__always) static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 48 && c.value <= 57 }

    @inline(__always) static func isHexScalar(_ c: Unicode.Scalar) -> Bool {
        isDigit(c) || (c.value >= 65 && c.value <= 70) || (c.value >= 97 && c.value <= 102)
    }

    /// Letters, digits and `_`: what a masked token must not touch.
    @inline(__always) static func isWordScalar(_ c: Unicode.Scalar) -> Bool {
        c == "_" || isDigit(c) || c.properties.isAlphabetic
    }

    /// End (exclusive) of a quoted value opening at `i`, or nil.
    static func quotedValueEnd(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        let close: Unicode.Scalar
        switch s[i] {
        case "'": close = "'"
        case "\"": close = "\""
        case "\u{2018}": close = "\u{2019}"
        case "\u{201C}": close = "\u{201D}"
        default: return nil
        }
        var j = i + 1
        while j < s.count {
            let c = s[j]
            if c == "\n" || c == "\r" { return nil }
            if c == close, j + 1 == s.count || !isWordScalar(s[j + 1]) { return j + 1 }
            j += 1
        }
        return nil
    }

    /// End of an `8-4-4-4-12` UUID starting at `i`, or nil.
    static func uuidEnd(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        var j = i
        for (g, length) in [8, 4, 4, 4, 12].enumerated() {
            if g > 0 {
                guard j < s.count, s[j] == "-" else { return nil }
                j += 1
            }
            for _ in 0..<length {
                guard j < s.count, isHexScalar(s[j]) else { return nil }
                j += 1
            }
        }
        if j < s.count, isWordScalar(s[j]) { return nil }
        return j
    }

    /// End of a `0x…` hex value starting at `i`, or nil.
    static func hexEnd(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        guard i + 2 < s.count, s[i] == "0", s[i + 1] == "x" || s[i + 1] == "X", isHexScalar(s[i + 2]) else { return nil }
        var j = i + 2
        while j < s.count, isHexScalar(s[j]) { j += 1 }
        if j < s.count, isWordScalar(s[j]) { return nil }
        return j
    }

    /// Characters that may precede an absolute path.
    static let pathOpeners: Set<Unicode.Scalar> = ["(", "[", "<", "{", "=", ":", ",", "'", "\"", "`"]
    /// Characters that end a path.
    static let pathClosers: Set<Unicode.Scalar> = [")", "]", ">", "}", ",", ";", ":", "'", "\"", "`"]

    /// End of an absolute path starting at the `/` at `i`, or nil.
    static func pathEnd(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        if i > 0 {
            let p = s[i - 1]
            guard p.properties.isWhitespace || pathOpeners.contains(p) else { return nil }
        }
        guard i + 1 < s.count else { return nil }
        let first = s[i + 1]
        guard isWordScalar(first) || first == "/" || first == "." || first == "~" || first == "-" || first == "@" else { return nil }
        var j = i + 1
        while j < s.count, !s[j].properties.isWhitespace, !pathClosers.contains(s[j]) { j += 1 }
        return j
    }
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

private extension Character {
    /// ASCII 0-9 (Swift's `isNumber` also accepts other scripts' digits and fractions).
    var isASCIIDigit: Bool { asciiValue.map { $0 >= 48 && $0 <= 57 } ?? false }
}
