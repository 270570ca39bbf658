/// What a failure, threading report or configuration message says beyond its kind, in parts: one
/// per family of facts (`DetailParts.swift`), each present only when one of its fields is set.
///
/// The flat properties below (`reason`, `cause`, `appFrames`, …) read and write the field in its part
/// (setting one creates its part; setting nil on a missing part leaves it missing), so a classifier
/// says `d.reason = …` without naming the part.
public struct EventDetails: Sendable, Equatable {
    /// An exception, assertion or Swift trap.
    public var exception: ExceptionDetails?
    /// A threading report's API and thread; a crash's thread name.
    public var thread: ThreadReport?
    /// A crash report's exception, crashed thread and frames.
    public var crash: CrashDetails?
    /// How the process ended.
    public var termination: TerminationDetails?
    /// What a resource, hang, jetsam or MetricKit report measured.
    public var resource: ResourceDetails?
    /// The app and device a report is about.
    public var app: AppDetails?
    /// The record's stack, configuration name and truncation.
    public var record: RecordDetails?
    /// What SpringBoard, FrontBoard, RunningBoard or the kernel say of an app's launch or state.
    public var system: SystemDetails?

    public init() {}

    /// Every part, in spill order: a new part is a stored property above and a slot here.
    static let parts: [DetailSlot] = [
        DetailSlot(\.exception), DetailSlot(\.thread), DetailSlot(\.crash), DetailSlot(\.termination),
        DetailSlot(\.resource), DetailSlot(\.app), DetailSlot(\.record), DetailSlot(\.system),
    ]
}

// MARK: - Fields by name

extension EventDetails {
    // ExceptionDetails
    public var exceptionName: String? {
        get { exception?.name }
        set { if newValue != nil || exception != nil { exception[default: .init()].name = newValue } }
    }
    public var reason: String? {
        get { exception?.reason }
        set { if newValue != nil || exception != nil { exception[default: .init()].reason = newValue } }
    }
    public var method: String? {
        get { exception?.method }
        set { if newValue != nil || exception != nil { exception[default: .init()].method = newValue } }
    }
    public var sourceFile: String? {
        get { exception?.sourceFile }
        set { if newValue != nil || exception != nil { exception[default: .init()].sourceFile = newValue } }
    }
    public var sourceLine: Int? {
        get { exception?.sourceLine }
        set { if newValue != nil || exception != nil { exception[default: .init()].sourceLine = newValue } }
    }
    public var trap: String? {
        get { exception?.trap }
        set { if newValue != nil || exception != nil { exception[default: .init()].trap = newValue } }
    }
    public var ignored: Bool? {
        get { exception?.ignored }
        set { if newValue != nil || exception != nil { exception[default: .init()].ignored = newValue } }
    }
    // ThreadReport
    public var api: String? {
        get { thread?.api }
        set { if newValue != nil || thread != nil { thread[default: .init()].api = newValue } }
    }
    public var reportedPID: Int? {
        get { thread?.reportedPID }
        set { if newValue != nil || thread != nil { thread[default: .init()].reportedPID = newValue } }
    }
    public var reportedTID: UInt64? {
        get { thread?.reportedTID }
        set { if newValue != nil || thread != nil { thread[default: .init()].reportedTID = newValue } }
    }
    public var threadName: String? {
        get { thread?.threadName }
        set { if newValue != nil || thread != nil { thread[default: .init()].threadName = newValue } }
    }
    public var queueName: String? {
        get { thread?.queueName }
        set { if newValue != nil || thread != nil { thread[default: .init()].queueName = newValue } }
    }
    public var qos: Int? {
        get { thread?.qos }
        set { if newValue != nil || thread != nil { thread[default: .init()].qos = newValue } }
    }
    // CrashDetails
    public var exceptionType: String? {
        get { crash?.exceptionType }
        set { if newValue != nil || crash != nil { crash[default: .init()].exceptionType = newValue } }
    }
    public var exceptionCodes: String? {
        get { crash?.exceptionCodes }
        set { if newValue != nil || crash != nil { crash[default: .init()].exceptionCodes = newValue } }
    }
    public var crashedThread: Int? {
        get { crash?.crashedThread }
        set { if newValue != nil || crash != nil { crash[default: .init()].crashedThread = newValue } }
    }
    public var crashedThreadIsMain: Bool? {
        get { crash?.crashedThreadIsMain }
        set { if newValue != nil || crash != nil { crash[default: .init()].crashedThreadIsMain = newValue } }
    }
    public var crashedThreadQueue: String? {
        get { crash?.crashedThreadQueue }
        set { if newValue != nil || crash != nil { crash[default: .init()].crashedThreadQueue = newValue } }
    }
    public var lifecycleFrames: [CrashFrame]? {
        get { crash?.lifecycleFrames }
        set { if newValue != nil || crash != nil { crash[default: .init()].lifecycleFrames = newValue } }
    }
    public var appFrames: [CrashFrame]? {
        get { crash?.appFrames }
        set { if newValue != nil || crash != nil { crash[default: .init()].appFrames = newValue } }
    }
    public var firstAppFrame: CrashFrame? {
        get { crash?.firstAppFrame }
        set { if newValue != nil || crash != nil { crash[default: .init()].firstAppFrame = newValue } }
    }
    // TerminationDetails
    public var cause: FailureCause? {
        get { termination?.cause }
        set { if newValue != nil || termination != nil { termination[default: .init()].cause = newValue } }
    }
    public var signal: String? {
        get { termination?.signal }
        set { if newValue != nil || termination != nil { termination[default: .init()].signal = newValue } }
    }
    public var terminationReason: String? {
        get { termination?.reason }
        set { if newValue != nil || termination != nil { termination[default: .init()].reason = newValue } }
    }
    public var terminationNamespace: String? {
        get { termination?.namespace }
        set { if newValue != nil || termination != nil { termination[default: .init()].namespace = newValue } }
    }
    public var terminationCode: String? {
        get { termination?.code }
        set { if newValue != nil || termination != nil { termination[default: .init()].code = newValue } }
    }
    public var watchdogEvent: String? {
        get { termination?.watchdogEvent }
        set { if newValue != nil || termination != nil { termination[default: .init()].watchdogEvent = newValue } }
    }
    // ResourceDetails
    public var durationMilliseconds: Int? {
        get { resource?.durationMilliseconds }
        set { if newValue != nil || resource != nil { resource[default: .init()].durationMilliseconds = newValue } }
    }
    public var cpuTime: String? {
        get { resource?.cpuTime }
        set { if newValue != nil || resource != nil { resource[default: .init()].cpuTime = newValue } }
    }
    public var resourceLimit: String? {
        get { resource?.limit }
        set { if newValue != nil || resource != nil { resource[default: .init()].limit = newValue } }
    }
    public var residentBytes: Int? {
        get { resource?.residentBytes }
        set { if newValue != nil || resource != nil { resource[default: .init()].residentBytes = newValue } }
    }
    public var processStates: [String]? {
        get { resource?.processStates }
        set { if newValue != nil || resource != nil { resource[default: .init()].processStates = newValue } }
    }
    public var largestProcess: String? {
        get { resource?.largestProcess }
        set { if newValue != nil || resource != nil { resource[default: .init()].largestProcess = newValue } }
    }
    public var timeWindow: String? {
        get { resource?.timeWindow }
        set { if newValue != nil || resource != nil { resource[default: .init()].timeWindow = newValue } }
    }
    // AppDetails
    public var bundleID: String? {
        get { app?.bundleID }
        set { if newValue != nil || app != nil { app[default: .init()].bundleID = newValue } }
    }
    public var appVersion: String? {
        get { app?.appVersion }
        set { if newValue != nil || app != nil { app[default: .init()].appVersion = newValue } }
    }
    public var appBuild: String? {
        get { app?.appBuild }
        set { if newValue != nil || app != nil { app[default: .init()].appBuild = newValue } }
    }
    public var osVersion: String? {
        get { app?.osVersion }
        set { if newValue != nil || app != nil { app[default: .init()].osVersion = newValue } }
    }
    public var deviceModel: String? {
        get { app?.deviceModel }
        set { if newValue != nil || app != nil { app[default: .init()].deviceModel = newValue } }
    }
    public var incidentID: String? {
        get { app?.incidentID }
        set { if newValue != nil || app != nil { app[default: .init()].incidentID = newValue } }
    }
    // RecordDetails
    public var backtrace: Backtrace? {
        get { record?.backtrace }
        set { if newValue != nil || record != nil { record[default: .init()].backtrace = newValue } }
    }
    public var configurationName: String? {
        get { record?.configurationName }
        set { if newValue != nil || record != nil { record[default: .init()].configurationName = newValue } }
    }
    public var truncated: Bool? {
        get { record?.truncated }
        set { if newValue != nil || record != nil { record[default: .init()].truncated = newValue } }
    }
}

extension Optional where Wrapped: DetailPart {
    /// The part, made empty first when missing (`details.crash[default: .init()].appFrames = …`).
    subscript(default empty: @autoclosure () -> Wrapped) -> Wrapped {
        get { self ?? empty() }
        _modify {
            // Moved out and back, so that a part held only here is changed in place, not copied.
            var part = self ?? empty()
            self = nil
            defer { self = part }
            yield &part
        }
    }
}
