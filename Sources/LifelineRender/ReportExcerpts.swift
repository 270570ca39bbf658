import Foundation
import LifelineCore
import LifelineRules

/// What a crash, termination or diagnostic report says of its failure, as the HTML page shows it
/// in place of the report's first lines: the exception and its reason, the facts a postmortem starts
/// from, and the top of the crashed thread (or of the last exception backtrace) with the app's own
/// frames marked.
public struct ReportExcerpt: Sendable, Equatable {
    /// One frame as the report gives it (`2 Orbit 0x100f1c2a0 ProfileViewController.viewDidLoad()`).
    public struct Frame: Sendable, Equatable {
        public var text: String
        /// The frame belongs to the app's own binary.
        public var isApp: Bool
    }

    /// One named fact: `crashed thread` → `0, the main thread (com.apple.main-thread)`.
    public struct Fact: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public var file: String
    /// The position of the report's event (where findings point).
    public var position: InputPosition
    /// `EXC_CRASH (SIGABRT) · NSInvalidArgumentException`, or the event's message.
    public var headline: String
    public var reason: String?
    public var facts: [Fact]
    /// What `frames` are: `crashed thread 0` or `last exception backtrace`.
    public var framesTitle: String
    public var frames: [Frame]

    /// Frames shown at most.
    public static let frameLimit = 12

    /// The excerpt of a report's event; nil for events that did not come from a report.
    public static func of(_ e: Event) -> ReportExcerpt? {
        guard e.kind.isFailure, e.format.isReport, let d = e.details else { return nil }
        var headline = [d.exceptionType, d.signal.flatMap { $0 == d.exceptionType ? nil : d.exceptionType == nil ? $0 : "(\($0))" }]
            .compactMap { $0 }.joined(separator: " ")
        if let name = d.exceptionName { headline += headline.isEmpty ? name : " · \(name)" }
        if headline.isEmpty { headline = e.message }
        var facts: [Fact] = []
        func add(_ name: String, _ value: String?) { if let value, !value.isEmpty { facts.append(Fact(name: name, value: value)) } }
        add("cause", d.cause.map(Self.phrase))
        add("app frame", d.firstAppFrame?.text)
        if let thread = d.crashedThread {
            var value = "\(thread)"
            if d.crashedThreadIsMain == true { value += ", the main thread" }
            if let name = d.threadName ?? d.crashedThreadQueue { value += " (\(name))" }
            add("crashed thread", value)
        }
        add("termination", [d.terminationNamespace, d.terminationCode].compactMap { $0 }.joined(separator: " "))
        add("termination reason", d.terminationReason)
        add("watchdog event", d.watchdogEvent)
        add("duration", d.durationMilliseconds.map { String(format: "%.2f s", Double($0) / 1000) })
        let app = [e.process ?? d.bundleID, d.appVersion.map { v in d.appBuild.map { "\(v) (\($0))" } ?? v }].compactMap { $0 }
        add("app", app.joined(separator: " "))
        add("OS", d.osVersion)
        add("device", d.deviceModel)
        add("time", e.timestamp?.iso)
        add("incident", d.incidentID)
        let appFrames = Set(d.appFrames ?? [])
        let appImage = d.firstAppFrame.flatMap(Self.image)
        let frames = (d.backtrace?.frames ?? []).prefix(frameLimit).map { f in
            Frame(text: f.text, isApp: appFrames.contains(f) || (appImage != nil && Self.image(f) == appImage))
        }
        let fromException = d.exceptionName != nil && d.crashedThread == nil
        return ReportExcerpt(file: e.file, position: e.position, headline: headline, reason: d.reason, facts: facts,
                             framesTitle: d.crashedThread.map { "crashed thread \($0)" } ?? (fromException ? "exception backtrace" : "backtrace"),
                             frames: frames)
    }

    /// The image of a frame, else what its text shows in the image's place (its address or
    /// symbol), so that frames of unknown images match as they always did.
    static func image(_ frame: CrashFrame) -> String? {
        frame.image ?? frame.address ?? frame.location.map { String($0.prefix { $0 != " " }) }
    }

    static func phrase(_ cause: FailureCause) -> String {
        switch cause {
        case .swiftTrap: "Swift runtime trap"
        case .uncaughtException: "uncaught exception"
        case .watchdog: "killed by the watchdog"
        case .launchFailure: "could not launch"
        case .killed: "killed by the system"
        case .badAccess: "bad memory access"
        case .abort: "abort"
        case .trap: "trap"
        case .jetsam: "killed for memory (jetsam)"
        case .hang: "hang"
        case .cpuResource: "CPU resource limit"
        case .diskWriteResource: "disk write resource limit"
        case .slowLaunch: "slow launch"
        case .other: "other"
        }
    }
}

/// Gathers the report excerpts of sessions as they are checked (from the rules' thread), sorted by
/// place; at most `limit` are kept, the first by place.
public final class ReportExcerptCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [ReportExcerpt] = []
    private let limit: Int

    public init(limit: Int = 2000) { self.limit = limit }

    public func add(_ session: ProcessSession) {
        var found: [ReportExcerpt] = []
        for e in session.events where e.kind.isFailure {
            if let x = ReportExcerpt.of(e) { found.append(x) }
        }
        guard !found.isEmpty else { return }
        lock.lock()
        kept.append(contentsOf: found)
        if kept.count > limit * 2 { trim() }
        lock.unlock()
    }

    public var excerpts: [ReportExcerpt] {
        lock.lock()
        defer { lock.unlock() }
        trim()
        return kept
    }

    private func trim() {
        kept.sort { ($0.file, $0.position) < ($1.file, $1.position) }
        if kept.count > limit { kept.removeLast(kept.count - limit) }
    }
}
