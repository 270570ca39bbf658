/// The parts of `EventDetails`: each groups the fields one family of events says, and lists them
/// once, in its `fields` table (JSON key and place), which both its JSON and its spill coding walk
/// (`DetailCoding.swift`). A new field is one stored property plus one table row; a new part is one
/// type here plus one slot in `EventDetails.parts`.

/// An exception, assertion or Swift trap: what was thrown or failed, and where.
public struct ExceptionDetails: DetailPart {
    /// Objective-C exception name (`NSInternalInconsistencyException`) or C++ type.
    public var name: String?
    /// Exception reason, Swift fatal error message, or assertion description.
    public var reason: String?
    /// The method an assertion fired in (`-[UIApplication _run…]`).
    public var method: String?
    /// Source file and line named by an assertion or Swift trap.
    public var sourceFile: String?
    public var sourceLine: Int?
    /// Swift trap prefix: `Fatal error`, `Precondition failed`, `Assertion failed`.
    public var trap: String?
    /// True when an exception was caught and ignored by the system (`Ignored Exception:`).
    public var ignored: Bool?

    public init() {}

    public static let fields: [DetailField<Self>] = [
        .init("exceptionName", .string(\.name)),
        .init("reason", .string(\.reason)),
        .init("method", .string(\.method)),
        .init("sourceFile", .string(\.sourceFile)),
        .init("sourceLine", .int(\.sourceLine)),
        .init("trap", .string(\.trap)),
        .init("ignored", .bool(\.ignored)),
    ]
}

/// A threading report (Main Thread Checker, a main-thread-required message): the API it names and
/// the thread it caught; a crash report's crashed thread name.
public struct ThreadReport: DetailPart {
    /// The API a threading report names (`-[UIApplication applicationState]`).
    public var api: String?
    /// Main Thread Checker: the reporting process; a kill line: the killed process.
    public var reportedPID: Int?
    /// Main Thread Checker: the (background) thread it caught, decimal.
    public var reportedTID: UInt64?
    public var threadName: String?
    public var queueName: String?
    public var qos: Int?

    public init() {}

    public static let fields: [DetailField<Self>] = [
        .init("api", .string(\.api)),
        .init("reportedPID", .int(\.reportedPID)),
        .init("reportedTID", .uint(\.reportedTID)),
        .init("threadName", .string(\.threadName)),
        .init("queueName", .string(\.queueName)),
        .init("qos", .int(\.qos)),
    ]
}

/// What a crash report (or a MetricKit crash) says of the crash: its exception, the crashed thread
/// and the frames a postmortem starts from.
public struct CrashDetails: DetailPart {
    public var exceptionType: String?
    public var exceptionCodes: String?
    public var crashedThread: Int?
    public var crashedThreadIsMain: Bool?
    public var crashedThreadQueue: String?
    /// Frames of lifecycle callbacks (`CrashReport.lifecycleFrames`).
    public var lifecycleFrames: [CrashFrame]?
    /// Frames in the app's own executable (`CrashReport.appFrames`).
    public var appFrames: [CrashFrame]?
    /// The first frame in the app's own binaries.
    public var firstAppFrame: CrashFrame?

    public init() {}

    public static let fields: [DetailField<Self>] = [
        .init("exceptionType", .string(\.exceptionType)),
        .init("exceptionCodes", .string(\.exceptionCodes)),
        .init("crashedThread", .int(\.crashedThread)),
        .init("crashedThreadIsMain", .bool(\.crashedThreadIsMain)),
        .init("crashedThreadQueue", .string(\.crashedThreadQueue)),
        .init("lifecycleFrames", .frames(\.lifecycleFrames)),
        .init("appFrames", .frames(\.appFrames)),
        .init("firstAppFrame", .frame(\.firstAppFrame)),
    ]
}

/// How the process ended: the cause, signal and the termination the report or kill line gives.
public struct TerminationDetails: DetailPart {
    /// What ended the process or what a report flagged.
    public var cause: FailureCause?
    /// Signal name or number (`SIGABRT`, `9`).
    public var signal: String?
    public var reason: String?
    /// Termination namespace (`FRONTBOARD`, `SIGNAL`, `DYLD`) and code (`0x8badf00d`).
    public var namespace: String?
    public var code: String?
    public var watchdogEvent: String?

    public init() {}

    public static let fields: [DetailField<Self>] = [
        .init("cause", .cause(\.cause)),
        .init("signal", .string(\.signal)),
        .init("terminationReason", .string(\.reason)),
        .init("terminationNamespace", .string(\.namespace)),
        .init("terminationCode", .string(\.code)),
        .init("watchdogEvent", .string(\.watchdogEvent)),
    ]
}

/// What a resource, hang, jetsam or MetricKit report measured.
public struct ResourceDetails: DetailPart {
    /// How long a hang, launch or CPU/disk episode lasted, in milliseconds (MetricKit, hang reports).
    public var durationMilliseconds: Int?
    /// CPU time as the report states it: a watchdog's `Elapsed total CPU time (seconds): 11.480
    /// (user 11.480, system 0.000), 57% CPU`, a CPU resource report's `90 seconds cpu time over 156
    /// seconds (58% cpu average)`, MetricKit's `totalCPUTime`.
    public var cpuTime: String?
    /// The system limit a resource report says was exceeded (`exceeding limit of 50% cpu over 180
    /// seconds`), and what it did (`Action taken: none`).
    public var limit: String?
    /// Jetsam: the killed process's resident memory in bytes, its states (`frontmost`, `suspended`,
    /// `daemon`, …) and the largest process on the device at the time.
    public var residentBytes: Int?
    public var processStates: [String]?
    public var largestProcess: String?
    /// The window a MetricKit payload covers (`timeStampBegin – timeStampEnd`): a diagnostic has no
    /// time of its own.
    public var timeWindow: String?

    public init() {}

    public static let fields: [DetailField<Self>] = [
        .init("durationMilliseconds", .int(\.durationMilliseconds)),
        .init("cpuTime", .string(\.cpuTime)),
        .init("resourceLimit", .string(\.limit)),
        .init("residentBytes", .int(\.residentBytes)),
        .init("processStates", .strings(\.processStates)),
        .init("largestProcess", .string(\.largestProcess)),
        .init("timeWindow", .string(\.timeWindow)),
    ]
}

/// The app and device a report is about.
public struct AppDetails: DetailPart {
    public var bundleID: String?
    /// App version and build (`CFBundleShortVersionString`, `CFBundleVersion`).
    public var appVersion: String?
    public var appBuild: String?
    public var osVersion: String?
    /// Device model code (`iPhone12,1`).
    public var deviceModel: String?
    /// Crash report incident identifier.
    public var incidentID: String?

    public init() {}

    public static let fields: [DetailField<Self>] = [
        .init("bundleID", .string(\.bundleID)),
        .init("appVersion", .string(\.appVersion)),
        .init("appBuild", .string(\.appBuild)),
        .init("osVersion", .string(\.osVersion)),
        .init("deviceModel", .string(\.deviceModel)),
        .init("incidentID", .string(\.incidentID)),
    ]
}

/// What a record itself carries besides its kind: its stack, the UIKit scene configuration it
/// names, and whether it was cut.
public struct RecordDetails: DetailPart {
    /// The failure's stack: a report's frames, or the stack lines attached to a log record, as
    /// written (trimmed).
    public var backtrace: Backtrace?
    /// UIKit scene configuration name from `(looking for configuration named "…")`.
    public var configurationName: String?
    /// The record was cut at the per-record limit.
    public var truncated: Bool?

    public init() {}

    public static let fields: [DetailField<Self>] = [
        .init("backtrace", .backtrace(\.backtrace)),
        .init("configurationName", .string(\.configurationName)),
        .init("truncated", .bool(\.truncated)),
    ]
}

/// What the system (SpringBoard, FrontBoard, RunningBoard, the kernel) says of an app's launch, its
/// process state or a scene's state (`Documentation/SystemEvents.md`), and the other lines that told the
/// same thing.
public struct SystemDetails: DetailPart {
    /// A launch's intent as SpringBoard wrote it (`foreground-interactive`, `background`).
    public var intent: String?
    /// What started a launch: `icon`, `notification`, `open-request`, `prewarm`.
    public var trigger: String?
    /// When the tap (or notification response) that started the launch came, as the log wrote it.
    public var tapTime: String?
    /// The process that asked FrontBoard to open the app (`SpringBoard:55`).
    public var openedBy: String?
    /// A process state in RunningBoard's words (`running-active`, `running-suspended-NotVisible`, `none`), or a
    /// scene's lifecycle state, lower-case (`foreground`, `background`).
    public var state: String?
    /// RunningBoard's role (`UserInteractiveFocal`, `Background`, `None`).
    public var role: String?
    /// SpringBoard's task state (`Running`, `Suspended`, `Not Running`) and visibility (`Foreground`,
    /// `Background`, `Unknown`).
    public var taskState: String?
    public var visibility: String?
    /// FrontBoard's scene identifier (`sceneID:com.example.comet-default`).
    public var sceneID: String?
    /// The other lines that told the same launch, state or ending, in input order.
    public var evidence: [InputPosition]?

    public init() {}

    public static let fields: [DetailField<Self>] = [
        .init("intent", .string(\.intent)),
        .init("trigger", .string(\.trigger)),
        .init("tapTime", .string(\.tapTime)),
        .init("openedBy", .string(\.openedBy)),
        .init("state", .string(\.state)),
        .init("role", .string(\.role)),
        .init("taskState", .string(\.taskState)),
        .init("visibility", .string(\.visibility)),
        .init("sceneID", .string(\.sceneID)),
        .init("evidence", .positions(\.evidence)),
    ]
}
