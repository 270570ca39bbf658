import Dispatch
import LifelineCore

/// Where every ended session is checked, in `analyze`, `triage` and `watch`: `check` runs on each
/// session with the tally of the lane it went to (`Tally`: what the mode keeps of checked sessions —
/// transitions and findings for a report, signature tallies for triage, the ended sessions of a
/// live step).
///
/// With lanes, the checks run on serial queues of their own, so that the rules overlap with
/// reading the log and building the next sessions: batches go round-robin to the lanes, each with
/// its own tally (sessions are independent, and a mode with several lanes merges their tallies),
/// and at most `inFlight` batches wait, which bounds the events held for checking (8: with 64, a
/// dense log held 27 MB more at 1 GB and ran no faster). With no lanes (`lanes: 0`) each batch is
/// checked at once on the caller's thread: for a triage worker that already has a core of its own,
/// and for `watch`, which reports a session's findings as it ends.
///
/// One lane keeps the order sessions ended in: the order of a report's findings depends on it.
public final class CheckStage<Tally>: @unchecked Sendable {
    public typealias Check = @Sendable (ProcessSession, inout Tally) -> Void

    private final class Lane: @unchecked Sendable {
        let queue: DispatchQueue
        var tally: Tally   // touched only on `queue`
        init(_ i: Int, _ tally: Tally) {
            queue = DispatchQueue(label: "lifeline.checks.\(i)")
            self.tally = tally
        }
    }

    private let check: Check
    private let lanes: [Lane]
    private var next = 0
    private let slots: DispatchSemaphore
    /// The tally of a stage with no lanes (touched only by the caller's thread).
    private var inline: Tally

    /// `lanes` serial queues (0: checks on the caller's thread), each starting from `tally`.
    public init(lanes: Int, inFlight: Int = 8, tally: Tally, check: @escaping Check) {
        self.check = check
        self.lanes = (0..<max(0, lanes)).map { Lane($0, tally) }
        inline = tally
        slots = DispatchSemaphore(value: inFlight)
    }

    /// Checks `ended` (on a lane, or now). Called from one thread: the one building sessions.
    public func submit(_ ended: [ProcessSession]) {
        guard !ended.isEmpty else { return }
        guard !lanes.isEmpty else {
            for s in ended { check(s, &inline) }
            return
        }
        slots.wait()
        let lane = lanes[next]
        next = (next + 1) % lanes.count
        lane.queue.async { [self] in
            for s in ended { check(s, &lane.tally) }
            slots.signal()
        }
    }

    /// Waits for every submitted session; returns the tallies, one per lane (one with no lanes).
    public func finish() -> [Tally] {
        lanes.isEmpty ? [inline] : lanes.map { lane in lane.queue.sync { lane.tally } }
    }

    /// Hands the tally of a stage without lanes to `body` (to take what the last batches left in it).
    public func drain<R>(_ body: (inout Tally) -> R) -> R {
        precondition(lanes.isEmpty, "drain is for a stage that checks on the caller's thread")
        return body(&inline)
    }
}
