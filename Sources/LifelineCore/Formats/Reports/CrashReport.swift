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

/// The facts the analyzer needs from one crash report, independent of the file format.
public struct CrashReport: Sendable, Equatable {
    /// Which file form the report came from.
    public enum Source: String, Sendable {
        /// An `.ips` file: a JSON header line followed by a JSON body (bug_type 309) or a legacy
        /// text body (bug_type 109).
        case ips
        /// A plain text crash report without a JSON header.
        case text
        /// A MetricKit diagnostic (`MXDiagnosticPayload` JSON).
        case metricKit
    }

    /// What ended the process, as a postmortem names it first (a crash report gives one of the
    /// crash causes, `swiftTrap` to `other`).
    public typealias Cause = FailureCause

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
    /// App version (`CFBundleShortVersionString`, header `app_version`, or the version part of a
    /// text report's `Version:`, whose order depends on the OS: `CrashDraft.versionAndBuild`).
    public var appVersion: String?
    /// OS version as written (`iPhone OS 16.0 (20A362)`, `Mac OS X 10.8.5 (12F45)`).
    public var osVersion: String?
    /// App build (`CFBundleVersion`, header `build_version`, or the part in parentheses of a text
    /// report's `Version:`).
    public var appBuild: String?
    /// Device model code (`iPhone12,1`, `iPad14,1`, `MacBookPro18,3`) from `modelCode` or
    /// `Hardware Model:`.
    public var deviceModel: String?
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
    /// The first frame that belongs to the app's own binaries (its executable, or a framework or
    /// dylib inside its bundle), from the exception backtrace when there is one, else from the
    /// crashed thread: the app code a postmortem starts from.
    public var firstAppFrame: CrashFrame?
    /// What ended the process (`Cause`).
    public var cause: Cause
    /// Further layouts the report was read from (a text report followed by the JSON of the same
    /// incident, "Translated Report (Full Report Below)"), for the message.
    public var layouts: [String]
    /// 1-based line of the text after a JSON body that is not part of the report (the prose after
    /// a pasted report), when there is some: said, not dropped in silence.
    public var trailingTextLine: Int?
    /// 1-based line where the report itself starts in the text it was read from, after the prose
    /// and fence of a Markdown paste (1 when it starts the text).
    public var startLine: Int = 1
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
        self.cause = .other
        self.layouts = []
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
