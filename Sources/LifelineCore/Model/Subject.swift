/// The app a log line is about when another process logged it: SpringBoard's, RunningBoard's or the
/// kernel's line that an app was killed names the app (`[app<com.example.comet>:812]`,
/// `pid 812 [Comet]`), not the daemon. Every part is optional: a line may name a bundle ID, a pid, a
/// process name, or any of them together.
///
/// An event's `process`, `pid` and `tid` stay the logger's (the record's header); the subject is
/// who the event belongs to: sessions route it by the subject (`SessionIdentity`), and outputs print
/// it where they print the event's process (`Event.attributedProcess`).
public struct Subject: Sendable, Equatable, Hashable {
    public var bundleID: String?
    public var pid: Int?
    public var process: String?

    public init(bundleID: String? = nil, pid: Int? = nil, process: String? = nil) {
        self.bundleID = bundleID
        self.pid = pid
        self.process = process
    }
}

extension Event {
    /// The process name the event is attributed to: its subject's when it has one (nil when the
    /// subject names no process: a bundle ID is not a process name), else the logger's.
    public var attributedProcess: String? { subject.map(\.process) ?? process }
    /// The logger's pid, when the event is about the logger itself. An event about another process
    /// has no pid of its own: the pid it names is its subject's (`subject.pid`).
    public var ownPID: Int? { subject == nil ? pid : nil }
    /// The logger's thread, when the event is about the logger itself.
    public var ownTID: UInt64? { subject == nil ? tid : nil }
}
