/// Turns the system's steps (`SystemRecognizers.swift`) into the events of `Documentation/SystemEvents.md`,
/// per input, in input order:
///
/// - the lines of one launch become one `system.launch`, at its first line, with the others as its
///   evidence; a tap, notification response or open request shortly before gives its trigger;
/// - RunningBoard's calculated state becomes a `system.processState` when state or role changed, with
///   SpringBoard's task state and visibility of the same change as details;
/// - FrontBoard's scene state becomes a `system.sceneState` when it changed;
/// - the kill lines of one process's end become one ending, the first, with the others as evidence;
/// - every system event and kill line gets the bundle, pid and executable name the input said of its app.
///
/// A story stays open (it may still take lines) for a short window of log time; events behind an open
/// story wait for it, so what comes out is in input order. The wait is bounded in log time and in
/// events, so a live input is never held for long and memory stays small.
struct SystemStories {
    /// Seconds of log time a launch, a state change and an ending take lines for.
    static let launchWindow = 5.0
    static let stateWindow = 1.0
    static let endingWindow = 2.0
    /// Seconds before a launch in which a tap, notification response or open request is its trigger.
    static let causeWindow = 5.0
    /// Events a story stays open for at most, whatever the time (inputs without times, dense logs).
    static let eventWindow = 1_024

    private enum Story { case plain, launch, state, ending }
    private struct Held {
        var event: Event
        var story: Story
        var open: Bool
        var openedAt: Double?
        var openedSeq: Int
        /// Taken into a later event (SpringBoard's word on a change RunningBoard then told): not released.
        var dropped = false
    }

    private var held: [Held] = []
    private var head = 0
    /// Indices (into `held`) of the open stories.
    private var openIndices: [Int] = []
    private var seq = 0
    /// The time of the latest line with one.
    private var clock: Double?

    /// What the input said of each app.
    private var identities: SystemIdentities
    /// Pids whose launch has been told: a late line of that launch is evidence, not a launch.
    private var launched: Set<Int> = []
    private var causes: [String: (at: Double?, time: LogTimestamp?, trigger: String, openedBy: String?)] = [:]
    private var lastState: [String: (state: String?, role: String?)] = [:]
    private var lastTask: [Int: (task: String?, visibility: String?)] = [:]
    private var lastScene: [String: String] = [:]

    /// Executable names by bundle that the caller knows (`--manifest`'s `CFBundleExecutable`).
    init(executables: [String: String] = [:]) {
        identities = SystemIdentities(executables: executables)
    }

    /// These stories as another reader goes on with them: what they hold was handed out already (by
    /// the reader of the lines before), so it never comes out again, but an open story still takes
    /// the later lines that belong to it; what they learnt of each app stays.
    func continued() -> SystemStories {
        var next = self
        for i in next.held.indices { next.held[i].dropped = true }
        return next
    }

    /// A story is open: it may still take lines.
    var hasOpenStories: Bool { !openIndices.isEmpty }

    /// A step of the lines after this reader's last one (another reader's, `Ingester.finishStories`):
    /// it joins the open story it belongs to, as it would have in one read; nothing else of it counts.
    mutating func absorbLater(_ e: Event, into out: inout [Event]) {
        seq += 1
        if let t = e.timestamp?.seconds { clock = t }
        if !openIndices.isEmpty { expire() }
        guard !openIndices.isEmpty, let s = e.subject else {
            release(into: &out)
            return
        }
        switch e.kind {
        case .systemIdentityStep:
            identify(e)
        case .systemLaunchStep, .systemLaunchSuccess:
            if let i = openLaunch(bundle: s.bundleID, pid: s.pid) {
                launchStep(e)
                _ = i
            }
        case .systemProcessState, .systemTaskState:
            var e2 = e
            fillPID(&e2)
            if let i = openState(pid: e2.subject?.pid, bundle: e2.subject?.bundleID) {
                let d = held[i].event.details?.system, sys = e2.details?.system
                if e.kind == .systemProcessState {
                    if d?.state == sys?.state && d?.role == sys?.role { absorb(e2, into: i) }
                } else if (sys?.taskState == nil || d?.taskState == nil || d?.taskState == sys?.taskState)
                            && (sys?.visibility == nil || d?.visibility == nil || d?.visibility == sys?.visibility) {
                    taskState(e2)  // fits the open state: its detail
                }
            }
        default:
            if e.kind.isFailure, let pid = s.pid,
               let i = openIndices.last(where: { held[$0].story == .ending && held[$0].event.subject?.pid == pid }) {
                absorb(e, into: i)
            }
        }
        release(into: &out)
    }

    /// Nothing is held: an event that is no system step passes straight through.
    var isIdle: Bool { head == held.count }

    /// Takes the next event of the input; appends what can be released to `out`.
    mutating func add(_ e: Event, into out: inout [Event]) {
        seq += 1
        // The time of the line at hand, not the latest seen: a file of several captures goes back in
        // time where the next begins, and a story of the last capture is over there.
        if let t = e.timestamp?.seconds { clock = t }
        if !openIndices.isEmpty { expire() }
        if e.subject != nil { learn(e) }
        switch e.kind {
        case .systemLaunchCause: noteCause(e)
        case .systemIdentityStep: identify(e)
        case .systemLaunchStep, .systemLaunchSuccess: launchStep(e)
        case .systemProcessState: processState(e)
        case .systemTaskState: taskState(e)
        case .systemSceneState: sceneState(e)
        default:
            if e.kind.isFailure, let pid = e.subject?.pid {
                ending(e, pid: pid)
            } else if isIdle {
                out.append(e.subject == nil ? e : finished(e))
                return
            } else {
                hold(e, .plain, open: false)
            }
        }
        release(into: &out)
    }

    /// Ends the input: every story closes and everything held comes out.
    mutating func finish(into out: inout [Event]) {
        for i in openIndices { held[i].open = false }
        openIndices = []
        release(into: &out)
    }

    // MARK: Identities

    private mutating func learn(_ e: Event) {
        guard let s = e.subject else { return }
        identities.learn(s)
        if let b = s.bundleID, let p = s.pid {
            // A state of the process names the pid its open launch has not said (iOS 12's SpringBoard
            // says the pid only in its process-state summary).
            if e.kind == .systemTaskState || e.kind == .systemProcessState, let i = openLaunch(bundle: b, pid: nil),
               held[i].event.subject?.pid == nil {
                setPID(p, of: i)
            }
        }
    }

    /// The event with its subject completed from what the input said (at release: a name may be
    /// learnt after the first line of a launch).
    private func finished(_ e: Event) -> Event {
        guard let subject = e.subject else { return e }
        let s = identities.completed(subject)
        guard s != subject else { return e }
        var out = e
        out.subject = s
        return out
    }

    // MARK: Launches

    private mutating func noteCause(_ e: Event) {
        guard let b = e.subject?.bundleID, let trigger = e.details?.system?.trigger else { return }
        causes[b] = (e.timestamp?.seconds, e.timestamp, trigger, e.details?.system?.openedBy)
    }

    /// The kernel's pid and executable, or a job description's bundle and executable: learnt; a pid
    /// the open launch of that executable did not know yet is its pid.
    private mutating func identify(_ e: Event) {
        guard let s = e.subject else { return }
        guard let pid = s.pid else { return }
        // The launch this process belongs to: the open one of the same executable, else the only open
        // launch without a pid.
        let candidates = openIndices.filter { held[$0].story == .launch && held[$0].event.subject?.pid == nil }
        let same = candidates.filter { i in held[i].event.subject?.bundleID.flatMap { identities.name(ofBundle: $0) } == s.process }
        guard let i = same.first ?? (candidates.count == 1 ? candidates.first : nil) else { return }
        absorb(e, into: i)
        setPID(pid, of: i)
    }

    private mutating func launchStep(_ e: Event) {
        guard let s = e.subject else { return }
        let pid = s.pid
        if let i = openLaunch(bundle: s.bundleID, pid: pid) {
            absorb(e, into: i)
            if let pid { setPID(pid, of: i) }
            if let intent = e.details?.system?.intent, held[i].event.details?.system?.intent == nil {
                updateSystem(i) { $0.intent = intent }
            }
            if let trigger = e.details?.system?.trigger, held[i].event.details?.system?.trigger == nil {
                updateSystem(i) { $0.trigger = trigger }
            }
            if e.kind == .systemLaunchSuccess { close(i) }
            return
        }
        // A late line of a launch already told (after its window closed), or a second request for a
        // process that is running (`Asked to bootstrap` again, answered by `Did not create a new process:
        // A pending process … already exists`): no new launch.
        if let pid, launched.contains(pid) { return }
        if pid == nil, let b = s.bundleID, let current = identities.pid(ofBundle: b), launched.contains(current) { return }
        // The launch is its first line's event: that line's place and header, another kind.
        var launch = e
        launch.kind = .systemLaunch
        var d = EventDetails()
        var sys = SystemDetails()
        sys.intent = e.details?.system?.intent
        sys.trigger = e.details?.system?.trigger
        if let b = s.bundleID, let cause = causes[b] {
            let t = e.timestamp?.seconds
            if cause.at == nil || t == nil || (t! - cause.at! >= 0 && t! - cause.at! <= Self.causeWindow) {
                if sys.trigger == nil { sys.trigger = cause.trigger }
                sys.tapTime = cause.time?.iso
                sys.openedBy = cause.openedBy
            }
            causes[b] = nil
        }
        d.system = sys
        launch.details = d
        if let pid { launched.insert(pid) }
        let i = hold(launch, .launch, open: e.kind != .systemLaunchSuccess)
        _ = i
    }

    private func openLaunch(bundle: String?, pid: Int?) -> Int? {
        for i in openIndices.reversed() where held[i].story == .launch {
            let s = held[i].event.subject
            if let pid, s?.pid == pid { return i }
            if let bundle, s?.bundleID == bundle, s?.pid == nil || pid == nil { return i }
        }
        return nil
    }

    private mutating func setPID(_ pid: Int, of i: Int) {
        guard var s = held[i].event.subject, s.pid == nil else { return }
        s.pid = pid
        held[i].event.subject = s
        launched.insert(pid)
        identities.learn(s)
    }

    // MARK: States

    private mutating func processState(_ e: Event) {
        var e = e
        fillPID(&e)
        let s = e.subject
        let key = s?.pid.map { "pid:\($0)" } ?? "bundle:\(s?.bundleID ?? "")"
        let now = (e.details?.system?.state, e.details?.system?.role)
        if let last = lastState[key], last.state == now.0, last.role == now.1 {
            // A repeat: evidence of the open event of the same state, if there is one.
            if let i = openState(pid: s?.pid, bundle: s?.bundleID) { absorb(e, into: i) }
            return
        }
        lastState[key] = now
        if now.0 == "none", let pid = s?.pid { launched.remove(pid) }
        var e2 = e
        if let pid = s?.pid, let i = openState(pid: pid, bundle: nil), held[i].event.details?.system?.state == nil {
            // SpringBoard said this change first (`Application process state changed`): RunningBoard's
            // line is the event, SpringBoard's its detail and evidence.
            let sb = held[i].event
            held[i].dropped = true
            close(i)
            var d = e2.details ?? EventDetails()
            var sys = d.system ?? SystemDetails()
            sys.taskState = sys.taskState ?? sb.details?.system?.taskState
            sys.visibility = sys.visibility ?? sb.details?.system?.visibility
            sys.evidence = [sb.position] + (sb.details?.system?.evidence ?? [])
            d.system = sys
            e2.details = d
        }
        hold(e2, .state, open: true)
    }

    private mutating func taskState(_ e: Event) {
        guard let pid = e.subject?.pid, let sys = e.details?.system else { return }
        if let i = openState(pid: pid, bundle: nil) {
            let d = held[i].event.details?.system
            let fits = (sys.taskState == nil || d?.taskState == nil || d?.taskState == sys.taskState)
                && (sys.visibility == nil || d?.visibility == nil || d?.visibility == sys.visibility)
            if fits {
                absorb(e, into: i)
                updateSystem(i) { d in
                    if let t = sys.taskState { d.taskState = t }
                    if let v = sys.visibility { d.visibility = v }
                }
                var last = lastTask[pid] ?? (nil, nil)
                if let t = sys.taskState { last.task = t }
                if let v = sys.visibility { last.visibility = v }
                lastTask[pid] = last
                return
            }
        }
        // SpringBoard's word alone (no RunningBoard state of this change in the window): its own
        // process-state event when it says something new.
        var last = lastTask[pid] ?? (nil, nil)
        if (sys.taskState == nil || sys.taskState == last.task) && (sys.visibility == nil || sys.visibility == last.visibility) { return }
        if let t = sys.taskState { last.task = t }
        if let v = sys.visibility { last.visibility = v }
        lastTask[pid] = last
        var event = e
        event.kind = .systemProcessState
        hold(event, .state, open: true)
    }

    private func openState(pid: Int?, bundle: String?) -> Int? {
        for i in openIndices.reversed() where held[i].story == .state {
            let s = held[i].event.subject
            if let pid, s?.pid == pid { return i }
            if pid == nil, let bundle, s?.bundleID == bundle { return i }
        }
        return nil
    }

    private mutating func sceneState(_ e: Event) {
        var e = e
        fillPID(&e)
        guard let scene = e.details?.system?.sceneID, let state = e.details?.system?.state else { return }
        if lastScene[scene] == state { return }
        lastScene[scene] = state
        hold(e, .plain, open: false)
    }

    /// A state line names no pid before iOS 17's brackets: the bundle's current pid.
    private func fillPID(_ e: inout Event) {
        guard var s = e.subject, s.pid == nil, let b = s.bundleID, let p = identities.pid(ofBundle: b) else { return }
        s.pid = p
        e.subject = s
    }

    // MARK: Endings

    private mutating func ending(_ e: Event, pid: Int) {
        for i in openIndices.reversed() where held[i].story == .ending && held[i].event.subject?.pid == pid {
            absorb(e, into: i)
            return
        }
        launched.remove(pid)
        hold(e, .ending, open: true)
    }

    // MARK: Holding and releasing

    @discardableResult
    private mutating func hold(_ e: Event, _ story: Story, open: Bool) -> Int {
        held.append(Held(event: e, story: story, open: open, openedAt: e.timestamp?.seconds, openedSeq: seq))
        let i = held.count - 1
        if open { openIndices.append(i) }
        return i
    }

    private mutating func close(_ i: Int) {
        held[i].open = false
        openIndices.removeAll { $0 == i }
    }

    /// Closes the stories whose window has passed.
    private mutating func expire() {
        openIndices.removeAll { i in
            let h = held[i]
            let window: Double
            switch h.story {
            case .launch: window = Self.launchWindow
            case .state: window = Self.stateWindow
            case .ending: window = Self.endingWindow
            case .plain: window = 0
            }
            let timedOut = h.openedAt.flatMap { t in clock.map { abs($0 - t) > window } } ?? false
            guard timedOut || seq - h.openedSeq > Self.eventWindow else { return false }
            held[i].open = false
            return true
        }
    }

    /// The line `e` joins the open story `i` as evidence.
    private mutating func absorb(_ e: Event, into i: Int) {
        updateSystem(i) { d in
            var list = d.evidence ?? []
            list.append(e.position)
            d.evidence = list
        }
    }

    private mutating func updateSystem(_ i: Int, _ change: (inout SystemDetails) -> Void) {
        var d = held[i].event.details ?? EventDetails()
        var sys = d.system ?? SystemDetails()
        change(&sys)
        d.system = sys
        held[i].event.details = d
    }

    private mutating func release(into out: inout [Event]) {
        while head < held.count, !held[head].open {
            if !held[head].dropped { out.append(finished(held[head].event)) }
            head += 1
        }
        if head == held.count {
            held.removeAll(keepingCapacity: true)
            head = 0
            openIndices = []
        } else if head > 4_096 && head * 2 > held.count {
            held.removeFirst(head)
            openIndices = openIndices.map { $0 - head }
            head = 0
        }
    }
}

/// What the system said of each app so far, in input order: its pid and bundle, and its executable by bundle
/// and by pid. `SystemStories` completes the subjects of one reader with it; the ingest completes those of a
/// large input read in ranges with another, so an event of a later range names the app as one read would.
struct SystemIdentities: Sendable {
    private var pidOfBundle: [String: Int] = [:]
    private var bundleOfPID: [Int: String] = [:]
    private var nameOfBundle: [String: String]
    private var nameOfPID: [Int: String] = [:]

    /// `executables`: names by bundle the caller knows (`--manifest`'s `CFBundleExecutable`).
    init(executables: [String: String] = [:]) {
        nameOfBundle = executables
    }

    /// Learns what `s` says: its bundle's pid, its pid's bundle, their executable.
    mutating func learn(_ s: Subject) {
        if let b = s.bundleID, let p = s.pid {
            pidOfBundle[b] = p
            bundleOfPID[p] = b
        }
        if let name = s.process {
            if let b = s.bundleID { nameOfBundle[b] = name }
            if let p = s.pid { nameOfPID[p] = name }
        }
    }

    /// `s` with the bundle of its pid and the executable of its pid or bundle, where it names none.
    func completed(_ s: Subject) -> Subject {
        var s = s
        if s.bundleID == nil, let p = s.pid { s.bundleID = bundleOfPID[p] }
        if s.process == nil { s.process = s.pid.flatMap { nameOfPID[$0] } ?? s.bundleID.flatMap { nameOfBundle[$0] } }
        return s
    }

    func pid(ofBundle b: String) -> Int? { pidOfBundle[b] }
    func name(ofBundle b: String) -> String? { nameOfBundle[b] }

    /// Learns from `e`'s subject and fills in what it lacks.
    mutating func complete(_ e: inout Event) {
        guard let subject = e.subject else { return }
        var s = subject
        if s.bundleID == nil, let p = s.pid { s.bundleID = bundleOfPID[p] }
        learn(s)
        s = completed(s)
        if s != subject { e.subject = s }
    }
}
