/// Which process's session an event joins: one rule for every event, read by `SessionStream.route`
/// and the session `Builder`.
///
/// - An event with a subject (a kill line; SpringBoard's, FrontBoard's and RunningBoard's lines
///   about an app) belongs to its subject, never to the daemon that logged it: its process is the
///   subject's name, it has no header pid, and the pid it names joins the live session of that pid.
///   Being no header pid, the named pid takes no part in the header-pid rules (a relaunch after
///   silence, a pid reused, rows without a pid adopting one): the system speaks of an app after the
///   app's own silence.
/// - Any other event belongs to its logger: the header's process and pid, and, when the header has
///   no pid, the pid its text names for its own process (Main Thread Checker's `PID:` line).
extension Event {
    /// The process name the session goes by.
    var sessionProcess: String? { attributedProcess }
    /// The header pid the session goes by (none for an event about another process).
    var sessionPID: Int? { ownPID }
    /// A pid the text names (the subject's, or a report's own): the event joins the live session
    /// that has it.
    var namedPID: Int? {
        if let subject { return subject.pid }
        return details?.reportedPID
    }
}
