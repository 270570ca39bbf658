import Foundation

// Crash report parsing for Apple platform crash logs.
//
// Two families of input are understood:
//
// * `.ips` files (iOS 15+ / macOS 12+): line 1 is a JSON metadata object carrying `bug_type`.
//   With bug_type "309" the rest of the file is one JSON body (`exception`, `termination`, `asi`,
//   `threads`, `usedImages`, `lastExceptionBacktrace`, ...). With bug_type "109" (older systems) the
//   rest is a legacy text report.
// * Text reports (`.crash`, Xcode/Console exports, PLCrashReporter): `Key: value` header lines,
//   `Application Specific Information:`, `Last Exception Backtrace:`, per-thread backtraces and
//   `Binary Images:`.
//
// Only Foundation is used (JSONSerialization and String APIs); the parser never prints.

// MARK: - Public model

/// One stack frame of a crash report backtrace.
public struct CrashFrame: Sendable, Equatable {
    /// Position of the frame in its backtrace (the number written in text reports, the array
    /// position in `.ips` files); 0 is the innermost frame.
    public var index: Int
    /// Binary image the frame belongs to (`libsystem_kernel.dylib`, `UIKitCore`, the app's
    /// executable, or a bundle identifier in PLCrashReporter reports). `nil` when unknown,
    /// e.g. an `.ips` frame whose `usedImages` entry has no name.
    public var image: String?
    /// Symbol without the `+ offset` suffix, e.g. `-[UIWindow _mainQueue_makeKeyAndVisible]`.
    /// `nil` for unsymbolicated frames (`0x1017ff000 + 117776`, `MyApp + 27920`, `???`).
    public var symbol: String?
    /// Instruction address as written (`0x00000001b3a2e0dc`); for `.ips` frames the image base
    /// plus `imageOffset` in lower-case hex. `nil` when it cannot be known.
    public var address: String?

    /// Creates a frame.
    /// - Parameters:
    ///   - index: Position in the backtrace (0 = innermost).
    ///   - image: Binary image name, if known.
    ///   - symbol: Symbol without offset, if symbolicated.
    ///   - address: Instruction address in hex, if known.
    public init(index: Int, image: String? = nil, symbol: String? = nil, address: String? = nil) {
        self.index = index
        self.image = image
        self.symbol = symbol
        self.address = address
    }
}

/// The facts the analyzer needs from one crash report, independent of the file format.
public struct CrashReport: Sendable, Equatable {
    /// Which file form the report came from.
    public enum Source: String, Sendable {
        /// An `.ips` file: a JSON header line followed by a JSON body (bug_type 309) or a legacy
        /// text body (bug_type 109).
        case ips
        /// A plain text crash report without a JSON header.
        case text
    }

    /// Which file form the report came from.
    public var source: Source
    /// `bug_type` of the `.ips` header ("309", "109"); `nil` for plain text reports.
    public var bugType: String?
    /// `Incident Identifier` / `incident_id`, when present.
    public var incidentIdentifier: String?
    /// Process name (`procName`, header `name`/`app_name`, or the name in `Process:  Name [pid]`).
    public var process: String?
    /// Process identifier.
    public var pid: Int?
    /// Bundle identifier (`bundleInfo.CFBundleIdentifier`, header `bundleID`, or `Identifier:`).
    public var bundleID: String?
    /// App version as written: `CFBundleShortVersionString`/`app_version` for `.ips`, the raw
    /// `Version:` value (e.g. `1 (1.0)`) for text reports.
    public var appVersion: String?
    /// OS version as written (`iPhone OS 16.0 (20A362)`, `Mac OS X 10.8.5 (12F45)`).
    public var osVersion: String?
    /// Crash time as written: `captureTime`, else the header `timestamp`, or `Date/Time:`.
    public var timestamp: String?
    /// Exception type without the signal: `EXC_CRASH (SIGABRT)` gives `EXC_CRASH`; a bare signal
    /// such as PLCrashReporter's `SIGSEGV` is both type and signal.
    public var exceptionType: String?
    /// Signal (`SIGABRT`, `SIGKILL`, `SIGSEGV`, ...).
    public var signal: String?
    /// `Exception Codes:` / `exception.codes` as written.
    public var exceptionCodes: String?
    /// `Exception Subtype:` / `exception.subtype` as written (e.g. `KERN_INVALID_ADDRESS at 0x8`).
    public var exceptionSubtype: String?
    /// Termination namespace (`SPRINGBOARD`, `FRONTBOARD`, `SIGNAL`, ...).
    public var terminationNamespace: String?
    /// Termination code in lower-case hex without padding, e.g. `0x8badf00d`
    /// (`.ips` code 2343432205 gives `0x8badf00d`; `SIGNAL 5` gives `0x5`).
    public var terminationCode: String?
    /// `.ips` `termination.reasons` (or `[termination.indicator]` when there are no reasons), or the
    /// text after the code in `Termination Reason:` plus the ` | `-separated parts of
    /// `Termination Description:` and of any continuation lines.
    public var terminationReasons: [String]
    /// True for watchdog kills: code `0x8badf00d`, or "watchdog transgression" in the termination
    /// texts or the application specific information.
    public var isWatchdog: Bool
    /// Watchdog event when named (`scene-create`, `scene-update`, `process-exit`, ...), from a
    /// `WatchdogEvent:` part or the word before "watchdog transgression". `nil` unless `isWatchdog`.
    public var watchdogEvent: String?
    /// Lines of `Application Specific Information:` (text) or all strings of `asi` (`.ips`,
    /// ordered by image name).
    public var applicationSpecificInformation: [String]
    /// Name of the uncaught Objective-C exception (`NSInternalInconsistencyException`), from
    /// `exceptionReason.name`, `asi`, `Application Specific Information:` or any
    /// `*** Terminating app due to uncaught exception 'X', reason: 'Y'` line of the report.
    public var exceptionName: String?
    /// Reason of the uncaught Objective-C exception (may span several lines).
    public var exceptionReason: String?
    /// Index of the crashed thread (`faultingThread`, the `triggered` thread, `Triggered by Thread:`,
    /// `Crashed Thread:` or `Thread N Crashed:`).
    public var crashedThread: Int?
    /// Whether the crashed thread is the main thread: its queue is `com.apple.main-thread`, or it is
    /// thread 0 and no other thread carries the main queue. `nil` when the crashed thread is unknown.
    public var crashedThreadIsMain: Bool?
    /// Name of the crashed thread (not a dispatch queue), when given.
    public var crashedThreadName: String?
    /// Dispatch queue of the crashed thread, when given.
    public var crashedThreadQueue: String?
    /// Backtrace of the crashed thread.
    public var crashedThreadFrames: [CrashFrame]
    /// `Last Exception Backtrace` / `lastExceptionBacktrace`; a single parenthesised address list
    /// gives address-only frames (image filled from `Binary Images:` when the address falls inside
    /// a listed image).
    public var lastExceptionBacktrace: [CrashFrame]
    /// Frames of `lastExceptionBacktrace` then of the crashed thread whose symbol the lifecycle
    /// predicate accepts, in order, keeping the first frame of each (image, symbol) pair.
    public var lifecycleFrames: [CrashFrame]
    /// Frames in the app's own executable (image equal to the process name, the bundle identifier,
    /// or the image whose path is the process path), taken from `lastExceptionBacktrace`, or from the
    /// crashed thread when the exception backtrace has none.
    public var appFrames: [CrashFrame]
    /// True when an `.ips` body (or legacy text body) is cut short: the report holds what the header
    /// line and the complete parts of the body say.
    public var truncated: Bool

    /// Creates an empty report of the given source; every optional field is `nil`, every list empty.
    /// - Parameter source: The file form.
    public init(source: Source) {
        self.source = source
        self.terminationReasons = []
        self.isWatchdog = false
        self.applicationSpecificInformation = []
        self.crashedThreadFrames = []
        self.lastExceptionBacktrace = []
        self.lifecycleFrames = []
        self.appFrames = []
        self.truncated = false
    }
}

/// Why a text could not be parsed as a crash report.
public struct CrashReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    public enum Kind: String, Sendable {
        /// The text is neither an `.ips` file nor a text crash report.
        case notACrashReport
        /// The `.ips` header line or JSON body is not valid JSON (and not merely cut short).
        case malformedJSON
        /// An `.ips` file whose `bug_type` is not a crash report (e.g. 298 jetsam, 225 usage).
        case unsupportedBugType
    }

    /// The class of failure.
    public var kind: Kind
    /// What is wrong, in words.
    public var message: String
    /// 1-based line of the input where the problem was found, when known.
    public var line: Int?

    /// Creates an error.
    /// - Parameters:
    ///   - kind: The class of failure.
    ///   - message: What is wrong.
    ///   - line: 1-based line, when known.
    public init(kind: Kind, message: String, line: Int? = nil) {
        self.kind = kind
        self.message = message
        self.line = line
    }

    /// `line N: message`, or the message alone when the line is unknown.
    public var description: String {
        if let line { return "line \(line): \(message)" }
        return message
    }
}

/// Parses `.ips` and text crash reports into `CrashReport` values.
public enum CrashReportParser {

    /// Lifecycle predicate used when none is given: symbols of UIKit/CarPlay lifecycle callbacks and
    /// scene machinery. Accepts symbols containing "Scene"/"scene" (scene delegate callbacks,
    /// `UIScene`, `_UISceneLifecycleMultiplexer`, `FBSScene`, ... but not SceneKit/SpriteKit/
    /// RealityKit/GameplayKit scenes), "FinishLaunching", "makeKeyAndVisible", "applicationDid",
    /// "applicationWill", "templateApplication", "configurationForConnecting",
    /// "CarInterfaceController", UIKit's launch drivers `_callInitializationDelegates` and
    /// `_handleDelegateCallbacks`, and the pre-scene `_UICanvas` machinery.
    /// - Parameter symbol: A frame symbol without offset.
    /// - Returns: Whether the frame is part of the app/scene life cycle.
    public static func defaultLifecycleSymbol(_ symbol: String) -> Bool {
        let bytes = Array(symbol.utf8)
        for token in CrashLexicon.lifecycleTokens where CrashText.contains(bytes, token) { return true }
        guard CrashText.contains(bytes, "Scene") || CrashText.contains(bytes, "scene") else { return false }
        for other in CrashLexicon.foreignSceneTokens where CrashText.contains(bytes, other) { return false }
        return true
    }

    /// True when `firstLine` (a file's first non-empty line) starts a crash report: an `.ips` header
    /// (a JSON object with "bug_type") or a text header ("Incident Identifier:", "Hardware Model:",
    /// or "Process:" followed by a name and `[pid]`).
    /// - Parameter firstLine: The first non-empty line; surrounding white space is ignored.
    /// - Returns: Whether a crash report starts here.
    public static func looksLikeStart(_ firstLine: Substring) -> Bool {
        let line = CrashText.trim(firstLine)
        if line.hasPrefix("{") {
            guard CrashText.find("\"bug_type\"", in: line) != nil else { return false }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["bug_type"] != nil
        }
        if line.hasPrefix("Incident Identifier:") || line.hasPrefix("Hardware Model:") { return true }
        if line.hasPrefix("Process:") {
            return CrashText.processAndPID(line.dropFirst("Process:".count)).1 != nil
        }
        return false
    }

    /// Parses a whole report: an `.ips` file's full text or a text crash report.
    ///
    /// An `.ips` body that is cut short does not throw: the result carries what the header line and
    /// the complete parts of the body say, with `truncated == true`.
    /// - Parameters:
    ///   - text: The complete file contents.
    ///   - lifecycleSymbol: Decides which frame symbols are life-cycle frames
    ///     (`CrashReport.lifecycleFrames`); `defaultLifecycleSymbol` when omitted.
    /// - Returns: The parsed report.
    /// - Throws: `CrashReportError` when the text is not a crash report, when the `.ips` header or
    ///   body is malformed JSON (with the 1-based line when known), or when the `.ips` bug_type is
    ///   not a crash report.
    public static func parse(_ text: String, lifecycleSymbol: (String) -> Bool = defaultLifecycleSymbol) throws -> CrashReport {
        let lines = CrashText.lines(text)
        guard let first = lines.firstIndex(where: { !CrashText.trim($0).isEmpty }) else {
            throw CrashReportError(kind: .notACrashReport, message: "input is empty")
        }
        let firstLine = CrashText.trim(lines[first])
        var draft: CrashDraft
        if firstLine.hasPrefix("{") {
            draft = try parseIPS(lines: lines, headerIndex: first)
        } else {
            draft = CrashDraft(report: CrashReport(source: .text))
            CrashTextReportReader.read(lines: lines[first...], into: &draft)
            guard draft.foundCrashContent else {
                throw CrashReportError(
                    kind: .notACrashReport,
                    message: "no crash report header (Incident Identifier, Process [pid], Exception Type) or thread backtrace found; first line is '\(CrashText.abbreviate(firstLine))'",
                    line: first + 1)
            }
        }
        return draft.finish(lifecycleSymbol: lifecycleSymbol)
    }
}

// MARK: - .ips

extension CrashReportParser {
    /// Parses an `.ips` file whose first non-empty line (index `headerIndex`) starts with `{`.
    fileprivate static func parseIPS(lines: [Substring], headerIndex: Int) throws -> CrashDraft {
        let headerText = CrashText.trim(lines[headerIndex])
        let headerLine = headerIndex + 1
        let bodyLines = lines[(headerIndex + 1)...]
        let body = bodyLines.joined(separator: "\n")

        let headerObject: Any
        do {
            headerObject = try JSONSerialization.jsonObject(with: Data(headerText.utf8))
        } catch {
            // A body-only file (pretty-printed JSON starting with a lone "{").
            let whole = lines[headerIndex...].joined(separator: "\n")
            if let object = try? JSONSerialization.jsonObject(with: Data(whole.utf8)) as? [String: Any],
               object["threads"] != nil || object["exception"] != nil {
                var draft = CrashDraft(report: CrashReport(source: .ips))
                draft.report.bugType = CrashJSONValue.string(object["bug_type"])
                CrashIPSBodyReader.read(body: object, header: [:], into: &draft)
                return draft
            }
            throw CrashReportError(
                kind: .malformedJSON,
                message: "the .ips header line is not valid JSON (\(CrashJSONValue.errorSummary(error)))",
                line: headerLine)
        }
        guard let header = headerObject as? [String: Any] else {
            throw CrashReportError(kind: .notACrashReport, message: "the .ips header line is not a JSON object", line: headerLine)
        }
        guard let bugType = CrashJSONValue.string(header["bug_type"]) else {
            throw CrashReportError(kind: .notACrashReport, message: "the JSON header line has no bug_type", line: headerLine)
        }

        var draft = CrashDraft(report: CrashReport(source: .ips))
        draft.report.bugType = bugType
        switch bugType {
        case "309":
            if CrashText.trim(Substring(body)).isEmpty {
                draft.report.truncated = true
                CrashIPSBodyReader.read(body: [:], header: header, into: &draft)
                return draft
            }
            let bytes = Array(body.utf8)
            if let object = try? JSONSerialization.jsonObject(with: Data(bytes)) {
                guard let dict = object as? [String: Any] else {
                    throw CrashReportError(kind: .malformedJSON, message: "the .ips body is JSON but not an object", line: headerLine + 1)
                }
                CrashIPSBodyReader.read(body: dict, header: header, into: &draft)
                return draft
            }
            let shape = CrashJSONShape.scan(bytes)
            switch shape.status {
            case .truncated:
                draft.report.truncated = true
                CrashIPSBodyReader.read(body: shape.salvage(bytes), header: header, into: &draft)
                return draft
            case .invalid(let offset):
                throw CrashReportError(
                    kind: .malformedJSON,
                    message: "the .ips JSON body is malformed (unexpected character at byte \(offset) of the body)",
                    line: headerLine + 1 + CrashText.newlineCount(bytes, upTo: offset))
            case .complete:
                var line: Int?
                let reason: String
                do {
                    _ = try JSONSerialization.jsonObject(with: Data(bytes))
                    reason = "unknown error"
                } catch {
                    reason = CrashJSONValue.errorSummary(error)
                    if let offset = CrashJSONValue.errorOffset(error) {
                        line = headerLine + 1 + CrashText.newlineCount(bytes, upTo: min(offset, bytes.count))
                    }
                }
                throw CrashReportError(kind: .malformedJSON, message: "the .ips JSON body is malformed (\(reason))", line: line)
            }
        case "109":
            let firstBody = bodyLines.firstIndex(where: { !CrashText.trim($0).isEmpty })
            if let firstBody {
                CrashTextReportReader.read(lines: bodyLines[firstBody...], into: &draft)
            }
            if firstBody == nil || !draft.foundCrashContent { draft.report.truncated = true }
            CrashIPSBodyReader.applyHeader(header, to: &draft.report)
            return draft
        default:
            throw CrashReportError(
                kind: .unsupportedBugType,
                message: "bug_type \(bugType) is not a crash report (expected 309 or 109)",
                line: headerLine)
        }
    }
}

// MARK: - CrashDraft (format-independent intermediate)

/// A thread as read from either format.
private struct CrashRawThread {
    /// Thread number (text) or position in `threads` (`.ips`).
    var index: Int
    /// Thread name that is not a dispatch queue.
    var name: String?
    /// Dispatch queue label.
    var queue: String?
    /// Marked as crashed (`Thread N Crashed:` / `"triggered": true`).
    var crashed = false
    /// Backtrace, innermost first.
    var frames: [CrashFrame] = []
    /// Per frame: known to be in the app's executable (`.ips` image index match). `nil` = decide by name.
    var appFlags: [Bool]?
}

/// A binary image range from `Binary Images:`.
private struct CrashBinaryImage {
    /// First address of the image.
    var start: UInt64
    /// Last address of the image (inclusive).
    var end: UInt64
    /// Image name (leading `+` and architecture/version removed).
    var name: String
    /// Path on the device, when listed.
    var path: String?
}

/// Report under construction plus the raw material `finish` turns into the derived fields.
private struct CrashDraft {
    /// Fields read directly from the input.
    var report: CrashReport
    /// All threads read.
    var threads: [CrashRawThread] = []
    /// The exception backtrace read.
    var lastExceptionBacktrace: [CrashFrame] = []
    /// Per exception-backtrace frame: known to be in the app's image (`.ips`).
    var lastExceptionAppFlags: [Bool]?
    /// Lines of `Binary Images:` of a text report, parsed only when needed.
    var imageLines: [Substring] = []
    /// `Path:` / `procPath`: the app executable's path.
    var processPath: String?
    /// Something crash-specific was seen (header, exception, thread backtrace).
    var foundCrashContent = false
    /// Whole text a `*** Terminating app ...` line may be searched in when nothing better says it.
    var fallbackExceptionText: String?

    /// Starts from a report holding only its source.
    init(report: CrashReport) { self.report = report }

    /// The main dispatch queue's label.
    static let mainQueue = "com.apple.main-thread"

    /// Image names that denote the app's own executable.
    func appImageNames() -> Set<String> {
        var names = Set<String>()
        if let p = report.process { names.insert(p) }
        if let b = report.bundleID { names.insert(b) }
        if let path = processPath {
            if let last = path.split(separator: "/").last { names.insert(String(last)) }
            for line in imageLines where line.hasSuffix(path) {
                if let image = CrashText.binaryImage(line), image.path == path { names.insert(image.name) }
            }
        }
        return names
    }

    /// Derives crashed-thread facts, lifecycle and app frames, the Objective-C exception and the
    /// watchdog verdict, and returns the finished report.
    mutating func finish(lifecycleSymbol: (String) -> Bool) -> CrashReport {
        var r = report

        // Address-only frames: find their image in Binary Images.
        let needsImages = (lastExceptionBacktrace + threads.flatMap(\.frames)).contains { $0.image == nil && $0.address != nil }
        if needsImages && !imageLines.isEmpty {
            let images = imageLines.compactMap(CrashText.binaryImage)
            func resolve(_ frames: inout [CrashFrame]) {
                for i in frames.indices where frames[i].image == nil {
                    guard let a = frames[i].address, let value = CrashText.hexValue(a) else { continue }
                    if let image = images.first(where: { $0.start <= value && value <= $0.end }) {
                        frames[i].image = image.name
                    }
                }
            }
            resolve(&lastExceptionBacktrace)
            for t in threads.indices { resolve(&threads[t].frames) }
        }

        // Crashed thread.
        if r.crashedThread == nil { r.crashedThread = threads.first(where: { $0.crashed })?.index }
        var crashed: CrashRawThread?
        if let c = r.crashedThread {
            crashed = threads.first(where: { $0.index == c })
            if let t = crashed {
                r.crashedThreadFrames = t.frames
                if r.crashedThreadName == nil { r.crashedThreadName = t.name }
                if r.crashedThreadQueue == nil { r.crashedThreadQueue = t.queue }
            }
            if r.crashedThreadQueue == CrashDraft.mainQueue {
                r.crashedThreadIsMain = true
            } else if threads.contains(where: { $0.index != c && $0.queue == CrashDraft.mainQueue }) {
                r.crashedThreadIsMain = false
            } else {
                r.crashedThreadIsMain = (c == 0)
            }
        }
        r.lastExceptionBacktrace = lastExceptionBacktrace

        // Lifecycle frames.
        var seen = Set<String>()
        for frame in lastExceptionBacktrace + r.crashedThreadFrames {
            guard let symbol = frame.symbol, lifecycleSymbol(symbol) else { continue }
            if seen.insert((frame.image ?? "") + "\u{0}" + symbol).inserted { r.lifecycleFrames.append(frame) }
        }

        // App frames.
        let names = appImageNames()
        func appFrames(_ frames: [CrashFrame], _ flags: [Bool]?) -> [CrashFrame] {
            frames.enumerated().compactMap { i, f in
                if let flags, i < flags.count, flags[i] { return f }
                if let image = f.image, names.contains(image) { return f }
                return nil
            }
        }
        r.appFrames = appFrames(lastExceptionBacktrace, lastExceptionAppFlags)
        if r.appFrames.isEmpty, let crashed { r.appFrames = appFrames(crashed.frames, crashed.appFlags) }

        // Objective-C exception.
        if r.exceptionName == nil {
            let asi = r.applicationSpecificInformation.joined(separator: "\n")
            if let found = CrashText.uncaughtException(in: asi) ?? fallbackExceptionText.flatMap(CrashText.uncaughtException(in:)) {
                r.exceptionName = found.name
                r.exceptionReason = found.reason
            }
        }

        // Watchdog.
        let texts = r.terminationReasons + r.applicationSpecificInformation
        let joined = texts.joined(separator: "\n")
        let lowered = Substring(joined.lowercased())
        r.isWatchdog = r.terminationCode == "0x8badf00d"
            || CrashText.find("watchdog transgression", in: lowered) != nil
            || CrashText.find("0x8badf00d", in: lowered) != nil
            || CrashText.find("8badf00d", in: Substring(r.exceptionCodes?.lowercased() ?? "")) != nil
        if r.isWatchdog { r.watchdogEvent = CrashText.watchdogEvent(in: joined) }
        return r
    }
}

// MARK: - .ips JSON body

/// Reads the JSON body (and header line) of a bug_type 309 `.ips` file.
private enum CrashIPSBodyReader {
    /// Fills fields from the `.ips` header line (only those still unset).
    static func applyHeader(_ header: [String: Any], to r: inout CrashReport) {
        if r.process == nil { r.process = CrashJSONValue.string(header["name"]) ?? CrashJSONValue.string(header["app_name"]) }
        if r.bundleID == nil { r.bundleID = CrashJSONValue.string(header["bundleID"]) }
        if r.appVersion == nil { r.appVersion = CrashJSONValue.string(header["app_version"]) }
        if r.osVersion == nil { r.osVersion = CrashJSONValue.string(header["os_version"]) }
        if r.timestamp == nil { r.timestamp = CrashJSONValue.string(header["timestamp"]) }
        if r.incidentIdentifier == nil { r.incidentIdentifier = CrashJSONValue.string(header["incident_id"]) }
    }

    /// Reads a body dictionary (complete or salvaged) and the header line into `draft`.
    static func read(body: [String: Any], header: [String: Any], into draft: inout CrashDraft) {
        var r = draft.report
        r.process = CrashJSONValue.string(body["procName"])
        r.pid = CrashJSONValue.int(body["pid"])
        let bundleInfo = body["bundleInfo"] as? [String: Any]
        r.bundleID = CrashJSONValue.string(bundleInfo?["CFBundleIdentifier"])
        r.appVersion = CrashJSONValue.string(bundleInfo?["CFBundleShortVersionString"])
        r.osVersion = CrashJSONValue.string(header["os_version"])
        if r.osVersion == nil {
            if let os = body["osVersion"] as? [String: Any], let train = CrashJSONValue.string(os["train"]) {
                r.osVersion = CrashJSONValue.string(os["build"]).map { "\(train) (\($0))" } ?? train
            } else {
                r.osVersion = CrashJSONValue.string(body["osVersion"])
            }
        }
        r.timestamp = CrashJSONValue.string(body["captureTime"])
        r.incidentIdentifier = CrashJSONValue.string(header["incident_id"]) ?? CrashJSONValue.string(body["incident"])
        applyHeader(header, to: &r)
        draft.processPath = CrashJSONValue.string(body["procPath"])

        if let exception = body["exception"] as? [String: Any] {
            r.exceptionType = CrashJSONValue.string(exception["type"])
            r.signal = CrashJSONValue.string(exception["signal"])
            r.exceptionCodes = CrashJSONValue.string(exception["codes"])
            r.exceptionSubtype = CrashJSONValue.string(exception["subtype"])
        }
        if let termination = body["termination"] as? [String: Any] {
            r.terminationNamespace = CrashJSONValue.string(termination["namespace"])
            if let code = CrashJSONValue.uint64(termination["code"]) {
                r.terminationCode = CrashText.hex(code)
            } else if let code = CrashJSONValue.string(termination["code"]) {
                r.terminationCode = CrashText.normalizedCode(code)
            }
            if let reasons = termination["reasons"] as? [Any] {
                r.terminationReasons = reasons.compactMap { CrashJSONValue.string($0) }
            } else if let indicator = CrashJSONValue.string(termination["indicator"]) {
                r.terminationReasons = [indicator]
            }
        }
        if let asi = body["asi"] as? [String: Any] {
            for key in asi.keys.sorted() {
                if let values = asi[key] as? [Any] {
                    r.applicationSpecificInformation += values.compactMap { CrashJSONValue.string($0) }
                } else if let value = CrashJSONValue.string(asi[key]) {
                    r.applicationSpecificInformation.append(value)
                }
            }
        }
        if let reason = body["exceptionReason"] as? [String: Any] {
            r.exceptionName = CrashJSONValue.string(reason["name"])
            r.exceptionReason = CrashJSONValue.string(reason["composed_message"])
        }

        // Images and the app's own image.
        let usedImages = (body["usedImages"] as? [Any])?.map { $0 as? [String: Any] ?? [:] } ?? []
        let sliceUUID = CrashJSONValue.string(header["slice_uuid"])?.lowercased()
        var appIndex: Int?
        if let path = draft.processPath { appIndex = usedImages.firstIndex(where: { CrashJSONValue.string($0["path"]) == path }) }
        if appIndex == nil, let sliceUUID {
            appIndex = usedImages.firstIndex(where: { CrashJSONValue.string($0["uuid"])?.lowercased() == sliceUUID })
        }
        if appIndex == nil, let name = r.process {
            appIndex = usedImages.firstIndex(where: { CrashJSONValue.string($0["name"]) == name })
        }

        func frames(_ any: Any?) -> ([CrashFrame], [Bool]) {
            guard let list = any as? [Any] else { return ([], []) }
            var out: [CrashFrame] = []
            var flags: [Bool] = []
            for (i, element) in list.enumerated() {
                let f = element as? [String: Any] ?? [:]
                let imageIndex = CrashJSONValue.int(f["imageIndex"])
                var image: [String: Any]?
                if let imageIndex, imageIndex >= 0, imageIndex < usedImages.count { image = usedImages[imageIndex] }
                var address: String?
                if let base = CrashJSONValue.uint64(image?["base"]), let offset = CrashJSONValue.uint64(f["imageOffset"]) {
                    address = CrashText.hex(base &+ offset)
                }
                out.append(CrashFrame(index: i, image: CrashJSONValue.string(image?["name"]), symbol: CrashJSONValue.string(f["symbol"]), address: address))
                flags.append(imageIndex != nil && imageIndex == appIndex)
            }
            return (out, flags)
        }

        let (leb, lebFlags) = frames(body["lastExceptionBacktrace"])
        draft.lastExceptionBacktrace = leb
        draft.lastExceptionAppFlags = lebFlags

        if let threads = body["threads"] as? [Any] {
            for (i, element) in threads.enumerated() {
                let t = element as? [String: Any] ?? [:]
                var thread = CrashRawThread(index: i, name: CrashJSONValue.string(t["name"]), queue: CrashJSONValue.string(t["queue"]))
                thread.crashed = CrashJSONValue.bool(t["triggered"]) ?? false
                let (f, flags) = frames(t["frames"])
                thread.frames = f
                thread.appFlags = flags
                draft.threads.append(thread)
            }
        }
        r.crashedThread = CrashJSONValue.int(body["faultingThread"]) ?? draft.threads.first(where: { $0.crashed })?.index
        if r.crashedThread != nil, draft.threads.first(where: { $0.index == r.crashedThread }) == nil,
           let legacy = body["legacyInfo"] as? [String: Any], let triggered = legacy["threadTriggered"] as? [String: Any] {
            r.crashedThreadQueue = CrashJSONValue.string(triggered["queue"])
        }
        draft.report = r
        draft.foundCrashContent = true
    }
}

// MARK: - Text reports

/// Reads text crash reports (also the body of bug_type 109 `.ips` files), line by line.
private enum CrashTextReportReader {
    /// The block the current line belongs to.
    enum Section { case none, asi, lastException, thread(Int), images, terminationReason, terminationDescription }

    /// Reads `lines` (starting at the first non-empty line) into `draft`.
    static func read(lines: ArraySlice<Substring>, into draft: inout CrashDraft) {
        var r = draft.report
        var section = Section.none
        var parenthesised: [Substring]? = nil   // collecting a "( 0x.. 0x.. )" exception backtrace
        var threadSlots: [Int: Int] = [:]        // thread number -> index in draft.threads
        var triggeredThread: Int?

        func thread(_ n: Int) -> Int {
            if let slot = threadSlots[n] { return slot }
            draft.threads.append(CrashRawThread(index: n))
            threadSlots[n] = draft.threads.count - 1
            return draft.threads.count - 1
        }

        func finishParenthesised() {
            guard let parts = parenthesised else { return }
            let joined = parts.joined(separator: " ")
            let addresses = joined.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" || $0 == ")" || $0 == "," })
            for a in addresses where CrashText.isHexAddress(a) {
                draft.lastExceptionBacktrace.append(CrashFrame(index: draft.lastExceptionBacktrace.count, address: String(a)))
            }
            parenthesised = nil
        }

        for raw in lines {
            let line = CrashText.trim(raw)
            if let parts = parenthesised {
                parenthesised = parts + [line]
                if line.contains(")" as Character) || line.isEmpty { finishParenthesised(); section = .none }
                continue
            }
            if line.isEmpty {
                section = .none
                continue
            }

            // Thread headers: "Thread 0 name:  ...", "Thread 0 Crashed:", "Thread 1:", "Thread 0 Crashed::  Dispatch queue: x".
            if line.hasPrefix("Thread "), let header = CrashText.threadHeader(line) {
                let slot = thread(header.number)
                switch header.kind {
                case .name(let value):
                    CrashText.assignNameOrQueue(value, to: &draft.threads[slot])
                    section = .none
                case .start(let crashed, let value):
                    if crashed { draft.threads[slot].crashed = true }
                    if let value { CrashText.assignNameOrQueue(value, to: &draft.threads[slot]) }
                    section = .thread(header.number)
                    draft.foundCrashContent = true
                case .state:
                    section = .none
                }
                continue
            }

            if !(raw.first?.crashIsSpace ?? false), let (key, value) = CrashText.headerField(line) {
                switch key {
                case "Incident Identifier":
                    if r.incidentIdentifier == nil { r.incidentIdentifier = String(value) }
                    draft.foundCrashContent = true
                case "Process":
                    if r.process == nil {
                        let (name, pid) = CrashText.processAndPID(value)
                        r.process = name
                        r.pid = pid
                        if pid != nil { draft.foundCrashContent = true }
                    }
                case "Path":
                    if draft.processPath == nil { draft.processPath = String(value) }
                case "Identifier":
                    if r.bundleID == nil { r.bundleID = String(value) }
                case "Version":
                    if r.appVersion == nil { r.appVersion = String(value) }
                case "OS Version":
                    if r.osVersion == nil { r.osVersion = String(value) }
                case "Date/Time":
                    if r.timestamp == nil { r.timestamp = String(value) }
                case "Exception Type":
                    if r.exceptionType == nil {
                        let (type, signal) = CrashText.exceptionTypeAndSignal(value)
                        r.exceptionType = type
                        r.signal = signal
                        draft.foundCrashContent = true
                    }
                case "Exception Codes":
                    if r.exceptionCodes == nil { r.exceptionCodes = String(value) }
                case "Exception Subtype":
                    if r.exceptionSubtype == nil { r.exceptionSubtype = String(value) }
                case "Termination Reason":
                    CrashText.readTerminationReason(value, into: &r)
                    section = .terminationReason
                case "Termination Description":
                    r.terminationReasons += CrashText.descriptionParts(value)
                    section = .terminationDescription
                case "Triggered by Thread", "Crashed Thread":
                    let digits = value.prefix(while: { $0.crashIsDigit })
                    if triggeredThread == nil, let n = Int(digits) {
                        triggeredThread = n
                        draft.foundCrashContent = true
                        let rest = CrashText.trim(value.dropFirst(digits.count))
                        if !rest.isEmpty {
                            let slot = thread(n)
                            CrashText.assignNameOrQueue(rest, to: &draft.threads[slot])
                        }
                    }
                case "Application Specific Information":
                    if !value.isEmpty { r.applicationSpecificInformation.append(String(value)) }
                    section = .asi
                case "Last Exception Backtrace":
                    section = .lastException
                    if value.hasPrefix("(") {
                        parenthesised = [value]
                        if value.contains(")" as Character) { finishParenthesised(); section = .none }
                    }
                case "Binary Images":
                    section = .images
                default:
                    section = .none
                }
                continue
            }

            switch section {
            case .none:
                break
            case .asi:
                r.applicationSpecificInformation.append(String(line))
            case .lastException:
                if line.hasPrefix("(") {
                    parenthesised = [line]
                    if line.contains(")" as Character) { finishParenthesised(); section = .none }
                } else if let frame = CrashText.frame(line) {
                    draft.lastExceptionBacktrace.append(frame)
                } else {
                    section = .none
                }
            case .thread(let n):
                if let frame = CrashText.frame(line) {
                    draft.threads[thread(n)].frames.append(frame)
                } else {
                    section = .none
                }
            case .images:
                draft.imageLines.append(line)
            case .terminationReason, .terminationDescription:
                r.terminationReasons += CrashText.descriptionParts(line)
            }
        }
        finishParenthesised()

        r.crashedThread = triggeredThread ?? r.crashedThread
        draft.report = r
        draft.fallbackExceptionText = lines.joined(separator: "\n")
    }
}

// MARK: - Helpers

/// Word lists used by the parser.
private enum CrashLexicon {
    /// Substrings that mark a life-cycle symbol on their own.
    static let lifecycleTokens = [
        "FinishLaunching", "makeKeyAndVisible", "applicationDid", "applicationWill", "templateApplication",
        "configurationForConnecting", "CarInterfaceController", "_callInitializationDelegates",
        "_handleDelegateCallbacks", "_UICanvas", "_UISceneLifecycle",
    ]
    /// Scenes that are not UIKit scenes.
    static let foreignSceneTokens = ["SCNScene", "SKScene", "SceneKit", "RealityKit", "GKScene"]

    /// Keys of text report header lines (anything else that looks like `Key: value` is content).
    static let headerKeys: Set<String> = [
        "Incident Identifier", "CrashReporter Key", "Hardware Model", "Process", "Path", "Identifier",
        "Version", "Code Type", "Role", "Parent Process", "Responsible Process", "Coalition", "User ID",
        "Date/Time", "Launch Time", "OS Version", "Release Type", "Baseband Version", "Report Version",
        "Framework Version", "Anonymous UUID", "Sleep/Wake UUID", "Time Awake Since Boot", "Time Since Wake",
        "System Integrity Protection", "Beta Identifier", "Exception Type", "Exception Codes",
        "Exception Subtype", "Exception Note", "Exception Message", "Exception Reason", "Termination Reason",
        "Termination Description", "Termination Signal", "Terminating Process", "Triggered by Thread",
        "Crashed Thread", "Highlighted by Thread", "Application Specific Information",
        "Last Exception Backtrace", "Kernel Triage", "Binary Images", "VM Region Info",
        "Error Formulating Crash Report", "External Modification Warnings", "Physical Footprint",
        "Physical Footprint (peak)", "Extra Information", "Application Specific Backtrace 1",
        "Application Specific Signatures", "Thread State", "Backtrace not available", "EOF",
    ]
}

private extension Character {
    /// ASCII 0-9.
    var crashIsDigit: Bool { ("0"..."9").contains(self) }
    /// White space, with an ASCII fast path.
    var crashIsSpace: Bool {
        if let a = asciiValue { return a == 0x20 || (0x09...0x0D).contains(a) }
        return isWhitespace
    }
    /// A line break, with an ASCII fast path.
    var crashIsNewline: Bool {
        if let a = asciiValue { return a == 0x0A || a == 0x0D || a == 0x0B || a == 0x0C }
        return isNewline
    }
    /// ASCII hex digit.
    var crashIsHexDigit: Bool { crashIsDigit || ("a"..."f").contains(self) || ("A"..."F").contains(self) }
}

/// Value coercions for JSONSerialization output.
private enum CrashJSONValue {
    /// A string, or a number's decimal text.
    static func string(_ any: Any?) -> String? {
        switch any {
        case let s as String: return s
        case let n as NSNumber: return n.stringValue
        default: return nil
        }
    }

    /// An integer from a number or numeric string.
    static func int(_ any: Any?) -> Int? {
        switch any {
        case let n as NSNumber: return n.intValue
        case let i as Int: return i
        case let s as String: return Int(s)
        default: return nil
        }
    }

    /// An unsigned 64-bit value (negative numbers keep their bit pattern).
    static func uint64(_ any: Any?) -> UInt64? {
        switch any {
        case let n as NSNumber:
            let d = n.doubleValue
            if d < 0 { return UInt64(bitPattern: n.int64Value) }
            return n.uint64Value
        case let i as Int: return UInt64(bitPattern: Int64(i))
        default: return nil
        }
    }

    /// A Boolean from a JSON true/false (or a number).
    static func bool(_ any: Any?) -> Bool? {
        switch any {
        case let b as Bool: return b
        case let n as NSNumber: return n.boolValue
        default: return nil
        }
    }

    /// JSONSerialization's explanation of a failure.
    static func errorSummary(_ error: Error) -> String {
        let ns = error as NSError
        return (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
    }

    /// The character offset JSONSerialization names in its message ("around character 13").
    static func errorOffset(_ error: Error) -> Int? {
        let text = errorSummary(error)
        guard let range = CrashText.find("character ", in: Substring(text)) else { return nil }
        return Int(text[range.upperBound...].prefix(while: { $0.crashIsDigit }))
    }
}

/// String helpers for the text forms.
private enum CrashText {
    /// Without surrounding white space (and a byte order mark).
    static func trim(_ s: Substring) -> Substring {
        var s = s
        while let f = s.first, f.crashIsSpace || f == "\u{FEFF}" { s = s.dropFirst() }
        while let l = s.last, l.crashIsSpace { s = s.dropLast() }
        return s
    }

    /// Lines split at `\n`, `\r\n` or `\r` (byte scan; no line-break characters kept).
    static func lines(_ text: String) -> [Substring] {
        var out: [Substring] = []
        let u = text.utf8
        var start = u.startIndex
        var i = u.startIndex
        while i < u.endIndex {
            let b = u[i]
            if b == 0x0A || b == 0x0D {
                out.append(text[start..<i])
                var next = u.index(after: i)
                if b == 0x0D, next < u.endIndex, u[next] == 0x0A { next = u.index(after: next) }
                start = next
                i = next
            } else {
                i = u.index(after: i)
            }
        }
        out.append(text[start..<u.endIndex])
        return out
    }

    /// Words separated by ASCII white space (at most `limit`); a byte scan.
    static func words(_ s: Substring, limit: Int = .max) -> [Substring] {
        var out: [Substring] = []
        let u = s.utf8
        func space(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }
        var i = u.startIndex
        while i < u.endIndex, out.count < limit {
            while i < u.endIndex, space(u[i]) { i = u.index(after: i) }
            guard i < u.endIndex else { break }
            let start = i
            while i < u.endIndex, !space(u[i]) { i = u.index(after: i) }
            out.append(s[start..<i])
        }
        return out
    }

    /// Byte-level search for an ASCII `needle` in `hay` (first match, or last with `backwards`),
    /// avoiding Foundation's bridged `range(of:)`.
    static func find(_ needle: String, in hay: Substring, backwards: Bool = false) -> Range<String.Index>? {
        let n = Array(needle.utf8)
        let u = hay.utf8
        let offset: Int? = u.withContiguousStorageIfAvailable { search($0, n, backwards) }
            ?? Array(u).withUnsafeBufferPointer { search($0, n, backwards) }
        guard let offset else { return nil }
        let lower = u.index(u.startIndex, offsetBy: offset)
        return lower..<u.index(lower, offsetBy: n.count)
    }

    /// Whether `hay` (UTF-8 bytes) contains the ASCII `needle`.
    static func contains(_ hay: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        return hay.withUnsafeBufferPointer { search($0, n, false) } != nil
    }

    /// Offset of `n` in `h`, naive scan.
    static func search(_ h: UnsafeBufferPointer<UInt8>, _ n: [UInt8], _ backwards: Bool) -> Int? {
        guard !n.isEmpty, h.count >= n.count else { return nil }
        let first = n[0]
        let last = h.count - n.count
        func matches(_ p: Int) -> Bool {
            guard h[p] == first else { return false }
            for k in 1..<n.count where h[p + k] != n[k] { return false }
            return true
        }
        if backwards {
            var p = last
            while p >= 0 { if matches(p) { return p }; p -= 1 }
        } else {
            for p in 0...last where matches(p) { return p }
        }
        return nil
    }

    /// At most 60 characters, for messages.
    static func abbreviate(_ s: Substring) -> String {
        s.count > 60 ? String(s.prefix(60)) + "…" : String(s)
    }

    /// Number of `\n` bytes before `offset`.
    static func newlineCount(_ bytes: [UInt8], upTo offset: Int) -> Int {
        var n = 0
        for b in bytes[..<min(offset, bytes.count)] where b == UInt8(ascii: "\n") { n += 1 }
        return n
    }

    /// `0x` + lower-case hex without padding.
    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// The value of a `0x…` literal.
    static func hexValue<S: StringProtocol>(_ s: S) -> UInt64? {
        let t = s.lowercased()
        guard t.hasPrefix("0x") else { return nil }
        return UInt64(t.dropFirst(2), radix: 16)
    }

    /// `0x` followed by at least one hex digit and nothing else.
    static func isHexAddress<S: StringProtocol>(_ s: S) -> Bool {
        s.count > 2 && (s.hasPrefix("0x") || s.hasPrefix("0X")) && s.dropFirst(2).allSatisfy(\.crashIsHexDigit)
    }

    /// "0x8BADF00D", "0x000000008badf00d", "2343432205" → "0x8badf00d"; anything else lower-cased.
    static func normalizedCode<S: StringProtocol>(_ s: S) -> String {
        let t = s.trimmingCharacters(in: .whitespaces)
        if let v = hexValue(t) { return hex(v) }
        if let v = UInt64(t) { return hex(v) }
        if let v = Int64(t) { return hex(UInt64(bitPattern: v)) }
        return t.lowercased()
    }

    /// `Key: value` for a known header key.
    static func headerField(_ line: Substring) -> (String, Substring)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let key = String(trim(line[..<colon]))
        guard CrashLexicon.headerKeys.contains(key) else { return nil }
        return (key, trim(line[line.index(after: colon)...]))
    }

    /// "Name [123]" → ("Name", 123); without a pid → (trimmed text, nil).
    static func processAndPID(_ value: Substring) -> (String?, Int?) {
        let v = trim(value)
        guard v.hasSuffix("]"), let open = v.lastIndex(of: "[") else { return (v.isEmpty ? nil : String(v), nil) }
        let digits = v[v.index(after: open)..<v.index(before: v.endIndex)]
        let name = trim(v[..<open])
        guard let pid = Int(trim(digits)), !name.isEmpty else { return (String(v), nil) }
        return (String(name), pid)
    }

    /// "EXC_CRASH (SIGABRT)" → ("EXC_CRASH", "SIGABRT"); "SIGSEGV" → ("SIGSEGV", "SIGSEGV").
    static func exceptionTypeAndSignal(_ value: Substring) -> (String?, String?) {
        let v = trim(value)
        if v.isEmpty { return (nil, nil) }
        if v.hasSuffix(")"), let open = v.lastIndex(of: "(") {
            let type = trim(v[..<open])
            let signal = trim(v[v.index(after: open)..<v.index(before: v.endIndex)])
            return (type.isEmpty ? nil : String(type), signal.isEmpty ? nil : String(signal))
        }
        let type = String(v)
        return (type, type.hasPrefix("SIG") ? type : nil)
    }

    /// Reads `Namespace X, Code Y rest` or `X <code> rest` (`SIGNAL 5 Trace/BPT trap: 5`,
    /// `FRONTBOARD 2343432205`); any other text becomes a reason.
    static func readTerminationReason(_ value: Substring, into r: inout CrashReport) {
        var v = trim(value)
        if v.isEmpty { return }
        var namespace: Substring?
        var rest: Substring
        if v.hasPrefix("Namespace ") {
            v = v.dropFirst("Namespace ".count)
            guard let comma = v.firstIndex(of: ",") else {
                r.terminationNamespace = r.terminationNamespace ?? String(trim(v))
                return
            }
            namespace = trim(v[..<comma])
            rest = trim(v[v.index(after: comma)...])
            if rest.hasPrefix("Code ") { rest = trim(rest.dropFirst("Code ".count)) }
        } else {
            let word = v.prefix(while: { !$0.crashIsSpace })
            let after = trim(v.dropFirst(word.count))
            let code = after.prefix(while: { !$0.crashIsSpace })
            let isUpperWord = !word.isEmpty && word.allSatisfy({ $0.isUppercase || $0 == "_" || $0.crashIsDigit })
            if isUpperWord, !code.isEmpty, isHexAddress(code) || code.allSatisfy(\.crashIsDigit) {
                namespace = word
                rest = after
            } else {
                r.terminationReasons += descriptionParts(v)
                return
            }
        }
        let code = rest.prefix(while: { !$0.crashIsSpace && $0 != "," })
        if r.terminationNamespace == nil, let namespace { r.terminationNamespace = String(namespace) }
        if r.terminationCode == nil, !code.isEmpty { r.terminationCode = normalizedCode(code) }
        let tail = trim(rest.dropFirst(code.count))
        if !tail.isEmpty { r.terminationReasons += descriptionParts(tail) }
    }

    /// Splits `a | b | c` (and continuation lines starting with `|`) into trimmed, non-empty parts.
    static func descriptionParts(_ value: Substring) -> [String] {
        var pieces: [Substring] = []
        var rest = value[...]
        while let sep = find(" | ", in: rest) {
            pieces.append(rest[..<sep.lowerBound])
            rest = rest[sep.upperBound...]
        }
        pieces.append(rest)
        return pieces.compactMap { part in
            var p = trim(part)
            while p.first == "|" { p = trim(p.dropFirst()) }
            while p.last == "|" { p = trim(p.dropLast()) }
            return p.isEmpty ? nil : String(p)
        }
    }

    /// What a `Thread N …` line says.
    enum ThreadHeaderKind { case name(Substring), start(crashed: Bool, rest: Substring?), state }

    /// Recognises `Thread N name: x`, `Thread N:`, `Thread N Crashed:`, `Thread N Crashed:: x`,
    /// `Thread N:: x` and `Thread N crashed with ... Thread State`.
    static func threadHeader(_ line: Substring) -> (number: Int, kind: ThreadHeaderKind)? {
        var s = line.dropFirst("Thread ".count)
        let digits = s.prefix(while: { $0.crashIsDigit })
        guard let n = Int(digits) else { return nil }
        s = s.dropFirst(digits.count)
        if s.hasPrefix(" name:") { return (n, .name(trim(s.dropFirst(" name:".count)))) }
        if s.hasPrefix(" crashed with") || s.hasPrefix(" Crashed with") { return (n, .state) }
        var crashed = false
        if s.hasPrefix(" Crashed") { crashed = true; s = s.dropFirst(" Crashed".count) }
        guard s.hasPrefix(":") else { return nil }
        s = s.dropFirst()
        if s.hasPrefix(":") { s = s.dropFirst() }
        let rest = trim(s)
        return (n, .start(crashed: crashed, rest: rest.isEmpty ? nil : rest))
    }

    /// `Dispatch queue: x` sets the queue, anything else the name.
    static func assignNameOrQueue(_ value: Substring, to thread: inout CrashRawThread) {
        let v = trim(value)
        if v.hasPrefix("Dispatch queue:") {
            thread.queue = String(trim(v.dropFirst("Dispatch queue:".count)))
        } else if !v.isEmpty {
            thread.name = String(v)
        }
    }

    /// A backtrace line: `N  image  0xADDR  symbol + offset` (tabs or spaces; image may contain spaces).
    static func frame(_ line: Substring) -> CrashFrame? {
        let digits = line.prefix(while: { $0.crashIsDigit })
        guard let index = Int(digits) else { return nil }
        let afterIndex = line.dropFirst(digits.count)
        guard let sep = afterIndex.first, sep.crashIsSpace else { return nil }
        let tokens = words(afterIndex)
        guard tokens.count >= 2, let k = tokens.indices.dropFirst().first(where: { isHexAddress(tokens[$0]) }) else { return nil }
        let imageText = trim(afterIndex[tokens[0].startIndex..<tokens[k - 1].endIndex])
        let image: String? = (imageText.isEmpty || imageText == "???") ? nil : String(imageText)
        let address = tokens[k]
        let rest = trim(afterIndex[address.endIndex...])
        return CrashFrame(index: index, image: image, symbol: symbol(rest, image: image), address: String(address))
    }

    /// Strips `+ offset`, a trailing `(file:line)` and `[inlined]`; nil when unsymbolicated.
    static func symbol(_ rest: Substring, image: String?) -> String? {
        var s = trim(rest)
        if s.hasSuffix("[inlined]") { s = trim(s.dropLast("[inlined]".count)) }
        if let plus = find(" + ", in: s, backwards: true) {
            let after = s[plus.upperBound...]
            if let f = after.first, f.crashIsDigit { s = trim(s[..<plus.lowerBound]) }
        }
        if s.isEmpty || s == "???" { return nil }
        if isHexAddress(s) { return nil }
        if let image, s == image { return nil }
        return String(s)
    }

    /// `0xSTART - 0xEND [+]name [arch|(version)] <uuid> path`.
    static func binaryImage(_ line: Substring) -> CrashBinaryImage? {
        let parts = words(line, limit: 4)
        guard parts.count >= 4, let start = hexValue(parts[0]), parts[1] == "-", let end = hexValue(parts[2]) else { return nil }
        var rest = trim(line[parts[2].endIndex...])
        var path: String?
        if let lt = find(" <", in: rest) ?? (rest.hasPrefix("<") ? rest.startIndex..<rest.index(after: rest.startIndex) : nil) {
            if let gt = rest[lt.upperBound...].firstIndex(of: ">") {
                let p = trim(rest[rest.index(after: gt)...])
                path = p.isEmpty ? nil : String(p)
            }
            rest = trim(rest[..<lt.lowerBound])
        }
        if rest.first == "+" { rest = trim(rest.dropFirst()) }
        if rest.hasSuffix(")"), let open = find(" (", in: rest, backwards: true) {
            rest = trim(rest[..<open.lowerBound])
        } else if let space = rest.lastIndex(of: " ") {
            let arch = rest[rest.index(after: space)...]
            if ["arm64", "arm64e", "arm64_32", "armv7", "armv7s", "armv7k", "x86_64", "x86_64h", "i386", "unknown-arch"].contains(String(arch)) {
                rest = trim(rest[..<space])
            }
        }
        guard !rest.isEmpty, rest != "???" else { return nil }
        return CrashBinaryImage(start: start, end: end, name: String(rest), path: path)
    }

    /// Finds `*** Terminating app due to uncaught exception 'NAME', reason: 'REASON'`; the reason
    /// runs to the first `'` that ends a line (it may span lines).
    static func uncaughtException(in text: String) -> (name: String, reason: String?)? {
        let marker = "Terminating app due to uncaught exception '"
        guard let m = find(marker, in: Substring(text)) else { return nil }
        let afterName = text[m.upperBound...]
        guard let nameEnd = afterName.firstIndex(of: "'") else { return nil }
        let name = String(afterName[..<nameEnd])
        let tail = afterName[afterName.index(after: nameEnd)...]
        guard tail.hasPrefix(", reason: '") else { return (name, nil) }
        let reasonStart = tail.index(tail.startIndex, offsetBy: ", reason: '".count)
        let reasonText = tail[reasonStart...]
        var i = reasonText.startIndex
        while let quote = reasonText[i...].firstIndex(of: "'") {
            var j = reasonText.index(after: quote)
            while j < reasonText.endIndex, reasonText[j] == " " || reasonText[j] == "\t" { j = reasonText.index(after: j) }
            if j == reasonText.endIndex || reasonText[j].crashIsNewline {
                return (name, String(reasonText[..<quote]))
            }
            i = reasonText.index(after: quote)
        }
        let lineEnd = reasonText.firstIndex(where: \.crashIsNewline) ?? reasonText.endIndex
        return (name, String(reasonText[..<lineEnd]))
    }

    /// `WatchdogEvent: x`, else the word before "watchdog transgression", else "failed to x".
    static func watchdogEvent(in text: String) -> String? {
        func word(from s: Substring) -> String? {
            let w = s.prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            return w.isEmpty ? nil : String(w)
        }
        let text = Substring(text)
        if let r = find("WatchdogEvent:", in: text) {
            if let w = word(from: trim(text[r.upperBound...])) { return w }
        }
        let lowered = Substring(text.lowercased())
        if let r = find(" watchdog transgression", in: lowered) {
            let before = lowered[..<r.lowerBound]
            let w = before.reversed().prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            if !w.isEmpty { return String(w.reversed()) }
        }
        if let r = find("failed to ", in: text) {
            let w = word(from: text[r.upperBound...])
            if let w, w.hasPrefix("scene-") { return w }
        }
        return nil
    }
}

// MARK: - JSON structure scan (truncation detection and salvage)

/// A structural scan of a JSON object body: is it complete, cut short, or broken, and where are
/// its top-level members, so that the complete members of a cut-short body can still be read.
private struct CrashJSONShape {
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
