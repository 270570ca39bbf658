/// Builds sessions from events as they arrive (in time order across inputs, file order within
/// one), and hands each session out once it is over, so an analysis holds only the sessions that
/// are still live — not every event of a long log.
///
/// A session is over when a new launch replaces it, when it has been silent for longer than the
/// pid-reuse gap (any later event with its pid starts a new session anyway), when its process
/// ended (crash, kill, willTerminate) and the log went on for `endedGrace` seconds, when the same app
/// launched again under another pid and the old pid stayed silent for `supersededGrace` events
/// after that launch (an app runs once: its old process is gone), or at the end of the input.
/// A session that reaches `SessionOptions.maxEvents` events is released as a part, and the next
/// event of its process starts a session that continues it (`ProcessSession.continuedFrom`), as if
/// the log had been cut there: so a process that never ends does not hold its whole life.
/// Sessions of one app are handed out in the order they started, each with a summary of the
/// earlier launches of that app. Routing and closing look only at the session concerned or at the
/// live sessions, never at everything seen so far.
public struct SessionStream {
    public let options: SessionOptions
    private var live: [Int: SessionBuilder.Builder] = [:]   // by ordinal
    private var current: [String: Int] = [:]                 // session key -> ordinal
    private var keysOf: [Int: [String]] = [:]                // ordinal -> keys that pointed at it
    /// Live sessions whose app launched again under another pid: ordinal -> sequence number of that launch.
    private var superseded: [Int: Int] = [:]
    private var seq = 0                                      // events added so far
    private var lastByFile: [String: Int] = [:]              // file -> ordinal it logged to last
    private var lastByProcess: [String: Int] = [:]           // process name -> ordinal it logged to last
    private var nextOrdinal = 1
    /// The latest date seen; sessions silent for longer than the gap before it are over.
    public private(set) var clock = -Double.infinity
    /// The latest time of day seen without a date (Console.app rows: seconds on their input's own
    /// days), the clock of the sessions whose last time is one.
    public private(set) var timeOfDayClock = -Double.infinity
    private var sinceSweep = 0
    /// Live sessions whose process ended (a crash, a kill, willTerminate).
    private var endedLive: Set<Int> = []
    /// Finished sessions waiting for an earlier session of the same app to finish.
    private var waiting: [Int: ProcessSession] = [:]
    /// Ordinals of each app's unreleased sessions (live or waiting), in order.
    private var pendingByProcess: [String: [Int]] = [:]
    private var history: [String: EarlierLaunches] = [:]
    /// Keys of sessions cut at the event limit -> the id of the cut part, for the session that
    /// continues it (started by the next event with one of those keys).
    private var continuing: [String: (id: String, cut: SessionBuilder.Builder)] = [:]
    /// The earlier launches of each cut part (by id), for the part that continues it: a part is
    /// not an earlier launch of its own process.
    private var earlierOfCut: [String: EarlierLaunches] = [:]

    public init(options: SessionOptions = SessionOptions()) { self.options = options }

    /// Events a superseded session must stay silent, after its app launched again under another
    /// pid, before it is over. Lines of the old process that arrive late (interleaved logs) stay
    /// in its session; a second instance that keeps logging is never closed this way.
    public static let supersededGrace = 1_000

    /// Seconds of log time a session whose process ended (a crash, a kill, willTerminate) stays
    /// open for the lines that report that end (RunningBoard, FrontBoard, launchd and the crash
    /// report follow within seconds) before it is over: so `watch` reports the session's end while
    /// the log goes on, and memory does not keep dead processes.
    public static let endedGrace = 60.0

    /// Events a cut at the event limit waits after a failure, so that the lines that tell about it
    /// (an assertion's "Ignored Exception" report, LC-F01) stay in its part. The longest lookahead
    /// of an online rule (`RuleDescription.onlineLookahead`). In a storm of failures the cut
    /// comes at twice the limit, settled or not: a part never holds more.
    public static let failureSettling = 3

    /// Live sessions (for memory accounting).
    public var liveCount: Int { live.count + waiting.count }

    /// The ordinals of the live sessions, in order.
    public var liveOrdinals: [Int] { live.keys.sorted() }

    /// The ordinal of the session the latest event went to (0 before the first).
    public private(set) var lastRouted = 0

    /// The live session `ordinal` as it stands, as if it ended now (nil once it ended): what an
    /// online check looks at. Its earlier launches are those of its app handed out so far.
    public func snapshot(_ ordinal: Int) -> ProcessSession? {
        guard let b = live[ordinal] else { return nil }
        var session = b.finish(id: "P\(ordinal)")
        session.ordinal = ordinal
        if let name = session.process { session.earlier = (history[name] ?? EarlierLaunches()).narrowed(to: session) }
        return session
    }

    /// Adds the next event; returns the sessions that ended with it, if any.
    public mutating func add(_ event: Event) -> [ProcessSession] {
        var released: [ProcessSession] = []
        seq += 1
        let ordinal = route(event, released: &released)
        lastRouted = ordinal
        live[ordinal]!.add(event)
        live[ordinal]!.lastSeq = seq
        superseded.removeValue(forKey: ordinal)  // it logs: still alive
        lastByFile[event.file] = ordinal
        if let name = live[ordinal]!.process, lastByProcess[name] != ordinal {
            // The latest session of a process is also where its pid-less rows go; both change together.
            lastByProcess[name] = ordinal
            register(ordinal, process: name)
            point("name:\(name)", at: ordinal)
        }
        if event.kind == .appWillFinishLaunching || event.kind == .appDidFinishLaunching {
            markSuperseded(by: ordinal)
        }
        if let ts = event.timestamp, let t = ts.seconds {
            if !ts.isTimeOfDay { if t > clock { clock = t } } else if t > timeOfDayClock { timeOfDayClock = t }
        }
        if live[ordinal]?.ended == true { endedLive.insert(ordinal) }
        // Sessions whose process ended are over once the log went on for `endedGrace` (checked
        // on every event: there are few of them at a time).
        if !endedLive.isEmpty {
            let over = endedLive.filter { o in
                guard o != ordinal, let b = live[o], let last = b.lastTime else { return false }
                return (b.lastTimeIsTimeOfDay ? timeOfDayClock : clock) - last > Self.endedGrace
            }
            for o in over.sorted() { close(o, into: &released) }
        }
        sinceSweep += 1
        if sinceSweep >= 256 {
            sinceSweep = 0
            var over: [Int] = []
            for (o, b) in live where o != ordinal {
                if let last = b.lastTime, (b.lastTimeIsTimeOfDay ? timeOfDayClock : clock) - last > options.pidReuseGap { over.append(o) }
                else if let mark = superseded[o], seq - mark >= Self.supersededGrace { over.append(o) }
            }
            for o in over.sorted() { close(o, into: &released) }
        }
        if let b = live[ordinal], b.events.count >= options.maxEvents,
           b.events.count >= 2 * options.maxEvents || !b.events.suffix(Self.failureSettling).contains(where: { $0.kind.isFailure }) {
            // As long as a session gets: it is released as a part, and the next event of its
            // process starts the part that continues it (unless that event is a new launch: the
            // process ended, or a launch marker came after a long silence).
            // Only what a continuation needs is kept until one begins.
            let cut = b.cutRemains()
            for k in (keysOf[ordinal] ?? []) + [b.key] where current[k] == ordinal || k == b.key {
                continuing[k] = ("P\(ordinal)", cut)
            }
            close(ordinal, into: &released, cut: true)
        }
        return released
    }

    /// A launch marker in session `ordinal`: the other live sessions of the same app with another
    /// pid are superseded from now on (closed once silent for `supersededGrace` events).
    private mutating func markSuperseded(by ordinal: Int) {
        guard let b = live[ordinal], let name = b.process, let pid = b.pid else { return }
        for o in pendingByProcess[name] ?? [] where o != ordinal && superseded[o] == nil {
            if let other = live[o], let otherPID = other.pid, otherPID != pid { superseded[o] = seq }
        }
    }

    /// `current[key] = ordinal`, remembering the key so that closing the session finds it.
    private mutating func point(_ key: String, at ordinal: Int) {
        current[key] = ordinal
        if keysOf[ordinal]?.contains(key) != true { keysOf[ordinal, default: []].append(key) }
    }

    /// Ends every live session; returns them (and any still waiting) in order.
    public mutating func finish() -> [ProcessSession] {
        var released: [ProcessSession] = []
        for o in live.keys.sorted() { close(o, into: &released) }
        return released
    }

    /// `pid:NAME|PID`, remembered for the last pair (a process logs many lines in a row).
    private mutating func pidKey(process: String?, pid: Int) -> String {
        if let last = lastPidKey, last.process == process, last.pid == pid { return last.key }
        let key = "pid:\(process ?? "")|\(pid)"
        lastPidKey = (process, pid, key)
        return key
    }
    private var lastPidKey: (process: String?, pid: Int, key: String)?

    /// The ordinal of the session `event` belongs to, starting a new one when needed.
    private mutating func route(_ event: Event, released: inout [ProcessSession]) -> Int {
        // Who the event is about (`SessionIdentity`): the subject of a line about another process,
        // else the logger.
        let process = event.sessionProcess, pid = event.sessionPID
        var key = pid.map { pidKey(process: process, pid: $0) }
        var inherited: SessionBuilder.Builder? = nil
        if key == nil, let named = event.namedPID {
            // A line that names the process it is about by pid (a kill line's subject, the system's
            // lines about an app, Main Thread Checker's `PID:` line of a headerless report) joins that
            // process's session; else the live session of its name that knows no pid yet (the app's own
            // rows of a Console copy, which has no pid column), unless it is a launch: a new process.
            if let k = liveKey(pid: named) {
                key = k
            } else if event.kind != .systemLaunch, let name = process, let latest = lastByProcess[name], let b = live[latest],
                      b.pid == nil, !b.ended {
                key = b.key
            } else {
                key = "pid:|\(named)"
            }
        }
        if key == nil, process == nil, let bundle = event.subject?.bundleID {
            // The system's line about an app whose pid and executable it has not said: by its bundle.
            key = "bundle:\(bundle)"
        }
        if key == nil, let name = process {
            // A row with a process name and no pid (Console.app copies of some layouts) joins
            // the latest session of that process, with or without a pid.
            if let latest = lastByProcess[name], live[latest] != nil {
                point("name:\(name)", at: latest)
                key = "name:\(name)"
            } else if let last = lastByFile[event.file], let b = live[last], b.process == nil {
                key = b.key  // the file's session so far had no name: this is it
            } else {
                key = "name:\(name)"
            }
        }
        if key == nil {
            if let last = lastByFile[event.file], let b = live[last] {
                key = b.key
                inherited = b
            } else {
                key = "file:\(event.file)"
            }
        }
        let k = key!
        var index = current[k].flatMap { live[$0] != nil ? $0 : nil }
        if index == nil, let pid, let unnamed = current["pid:|\(pid)"], live[unnamed] != nil {
            // The process was first seen through a report that named only its pid.
            index = unnamed
            point(k, at: unnamed)
            if live[unnamed]!.process == nil { live[unnamed]!.process = process }
        }
        var adopted = false
        if index == nil, pid != nil, let name = process, let named = current["name:\(name)"],
           let b = live[named], b.pid == nil {
            // The process was first seen in rows without a pid: this pid is its pid, unless the
            // event is a new launch (with no pid to compare, a second launch marker is a relaunch).
            index = named
            adopted = true
        }
        if let i = index {
            let b = live[i]!
            if b.startsNewLaunch(event, pidKnown: !adopted && b.pid != nil)
                || b.silenceExceeded(before: event, gap: options.pidReuseGap) {
                index = nil
                if current[k] == i { close(i, into: &released) }
            } else if adopted {
                point(k, at: i)
            }
        }
        if let i = index { return i }
        var b = SessionBuilder.Builder(key: k)
        if let inherited, pid == nil { b.process = inherited.process; b.pid = inherited.pid }
        if let (from, cut) = continuing[k] {
            continuing = continuing.filter { $0.value.id != from }
            if !cut.startsNewLaunch(event, pidKnown: pid != nil) && !cut.silenceExceeded(before: event, gap: options.pidReuseGap) {
                b.continuedFrom = from
                // The part goes on with what the launch has shown so far.
                b.markersBefore = (cut.hasWillFinish || cut.markersBefore.will, cut.hasDidFinish || cut.markersBefore.did)
                b.continueFrom(cut)
                b.ended = cut.ended
            }
        }
        let o = nextOrdinal
        nextOrdinal += 1
        live[o] = b
        point(k, at: o)
        return o
    }

    /// The smallest key of a live session with process id `pid` (what a report that names only the
    /// pid joins), looking at the live sessions only.
    private func liveKey(pid: Int) -> String? {
        var best: String?
        for (o, b) in live where b.pid == pid {
            for k in keysOf[o] ?? [] where current[k] == o && (best == nil || k < best!) { best = k }
        }
        return best
    }

    private mutating func register(_ ordinal: Int, process: String) {
        var list = pendingByProcess[process, default: []]
        guard !list.contains(ordinal) else { return }
        let at = list.firstIndex { $0 > ordinal } ?? list.count
        list.insert(ordinal, at: at)
        pendingByProcess[process] = list
    }

    /// Ends session `ordinal`: it takes no more events; it is handed out once every earlier
    /// session of the same app has been.
    private mutating func close(_ ordinal: Int, into released: inout [ProcessSession], cut: Bool = false) {
        guard let b = live.removeValue(forKey: ordinal) else { return }
        endedLive.remove(ordinal)
        superseded.removeValue(forKey: ordinal)
        for k in keysOf.removeValue(forKey: ordinal) ?? [] where current[k] == ordinal { current.removeValue(forKey: k) }
        for f in b.files where lastByFile[f] == ordinal { lastByFile.removeValue(forKey: f) }
        var session = b.finish(id: "P\(ordinal)")
        session.ordinal = ordinal
        if cut {
            // It does not end here: its process goes on in the next part.
            session.continuesLater = true
            session.endsAbruptly = false
        }
        guard let name = session.process else {
            released.append(session)
            return
        }
        if lastByProcess[name] == ordinal { lastByProcess.removeValue(forKey: name) }
        register(ordinal, process: name)
        waiting[ordinal] = session
        var list = pendingByProcess[name] ?? []
        while let first = list.first, var ready = waiting.removeValue(forKey: first) {
            list.removeFirst()
            // A part that continues a cut session has that session's earlier launches; what the
            // parts logged becomes history once the launch's last part is out.
            let earlier = ready.continuedFrom.flatMap { earlierOfCut.removeValue(forKey: $0) } ?? history[name] ?? EarlierLaunches()
            ready.earlier = earlier.narrowed(to: ready)
            if ready.continuesLater {
                earlierOfCut[ready.id] = earlier
                history[name, default: EarlierLaunches()].addParts(ready)
            } else {
                history[name, default: EarlierLaunches()].add(ready)
            }
            released.append(ready)
        }
        pendingByProcess[name] = list.isEmpty ? nil : list
    }
}
