/// The system's stories of apps (Documentation/SystemEvents.md), as a device logs them: apps launched
/// from an icon, a notification, another app or in the background, sent to the background, suspended,
/// woken, brought back, and ended by a crash, a jetsam kill or their own exit — told by SpringBoard,
/// RunningBoard, the kernel and the daemons that echo RunningBoard's states.
///
/// The world lives on the generator's clock. A shape gives it *slots* (`slot()`): each writes the
/// next due step of a story as one burst of lines (a launch, a state change, an ending), or, when no
/// step is due, one line about a live process that is no event (an assertion, a jetsam priority, an
/// echo, a repeated state). Steps of one process are at least 3 s apart and the lines of one step are
/// milliseconds apart, so the contract's windows (1 s for SpringBoard's details, 5 s for an ending's
/// and a launch's lines) never join two steps. Every line that is an event is counted as the
/// contract reads the text (`ReaderModel`), not as the generator knows it.
///
/// Device sessions: a run of captures from one device (one iOS version, persona and set of
/// processes). A new session forgets the processes of the last one (another device, or the same much
/// later) and starts with a few already running; pids are never reused while a process has them.
final class SystemWorld {
    struct Config {
        /// Per mille of captures that start a new device session (the first always does); 0: the
        /// shape calls `newSession` itself.
        var newSessionPerMille = 0
        /// iOS major versions and their weights.
        var iosVersions: [(Int, Int)] = [(14, 5), (15, 12), (16, 23), (17, 35), (18, 25)]
        /// Milliseconds between the user's actions.
        var userDelay: ClosedRange<Int> = 1_000...12_000
        /// Per mille of a story's lines preceded by a line of the rest of the log.
        var interleavePerMille = 80
        /// Per mille of third-party foreground launches that crash within 2 s (RunningBoard logs only).
        var quickCrashPerMille = 80
    }

    unowned let gen: Generator
    var rng: SplitMix64
    let config: Config
    let apps: [SysApp]
    /// The daemons of a new session (pids may change per session).
    let makeDaemons: (inout SplitMix64) -> (springBoard: Daemon, runningBoard: Daemon, kernel: Daemon, echoes: [Daemon])
    var session: DeviceSession
    var reader = ReaderModel()
    var stats = SystemStats()
    /// Lines of the rest of the log, written between a story's lines now and then.
    var interleave: (() -> Void)?

    /// The current capture has system lines (not an Xcode console capture).
    private(set) var active = false
    /// The format of the current capture.
    private(set) var format = LogFormat.logDefault
    /// Writing a story: the rest of the log's writers must not start another.
    var inBurst = false
    var takesSlot: Bool { active && !inBurst }

    var live: [SysProcess] = []
    var foreground: SysProcess?
    private var nextUser: Int64 = 0
    private var nextPid: Int
    private var sessionStarted = false

    init(gen: Generator, seed: UInt64, config: Config, catalog: [(bundle: String, exec: String, apple: Bool, logger: AppProcess?)],
         makeDaemons: @escaping (inout SplitMix64) -> (springBoard: Daemon, runningBoard: Daemon, kernel: Daemon, echoes: [Daemon])) {
        self.gen = gen
        self.config = config
        self.makeDaemons = makeDaemons
        var r = SplitMix64(seed: seed ^ 0x7379_7374_656D_3330)  // "system30"
        var list: [SysApp] = []
        for (i, a) in catalog.enumerated() {
            list.append(SysApp(index: i, bundle: a.bundle, exec: a.exec, apple: a.apple, logger: a.logger, &r))
        }
        apps = list
        nextPid = r.range(300, 4_000)
        let d = makeDaemons(&r)
        session = DeviceSession(iosMajor: 17, personaHi: r.next(), personaLo: r.next(), springBoardOnly: false,
                                springBoard: d.springBoard, runningBoard: d.runningBoard, kernel: d.kernel, echoes: d.echoes,
                                assertionSeq: r.range(100_000, 1_999_999))
        rng = r
    }

    var clock: Int64 { gen.clock }
    var out: Sink { gen.out }

    // MARK: Captures and sessions

    /// A capture starts (the generator's `startSegment`): Xcode console captures show one app's
    /// output, no system lines, and the device's stories wait.
    func beginCapture(_ format: LogFormat) {
        self.format = format
        active = format != .xcode
        guard active else { return }
        if !sessionStarted || (config.newSessionPerMille > 0 && rng.chance(config.newSessionPerMille)) {
            newSession(springBoardOnly: false)
        }
    }

    /// A new device: the last session's processes are forgotten (nothing ends them in the log), a few
    /// processes are already running, suspended or in the background.
    func newSession(springBoardOnly: Bool) {
        sessionStarted = true
        for p in live { p.app.process = nil }
        live = []
        foreground = nil
        let total = config.iosVersions.reduce(0) { $0 + $1.1 }
        var r = rng.below(total), ios = config.iosVersions[0].0
        for (v, w) in config.iosVersions {
            if r < w { ios = v; break }
            r -= w
        }
        let d = makeDaemons(&rng)
        session = DeviceSession(iosMajor: ios, personaHi: rng.next(), personaLo: rng.next(), springBoardOnly: springBoardOnly,
                                springBoard: d.springBoard, runningBoard: d.runningBoard, kernel: d.kernel, echoes: d.echoes,
                                assertionSeq: rng.range(100_000, 1_999_999))
        stats.sessions += 1
        stats.sessionsByIOS[ios, default: 0] += 1
        if springBoardOnly { stats.springBoardOnlySessions += 1 }
        // Running before the first capture: one may be in the foreground, the others suspended or
        // finishing in the background.
        let n = rng.range(2, 6)
        let past = clock - 10_000_000
        for i in 0..<n {
            guard let app = pickApp(where: { $0.process == nil }) else { break }
            let rb: RBState = i == 0 && rng.chance(500) ? .active : rng.chance(750) ? .suspended : .background
            let p = SysProcess(app: app, pid: allocatePID(), rb: rb, task: rb == .suspended ? .suspended : .running,
                               visibility: rb == .active ? .foreground : .background, scene: rng.chance(850) ? (rb == .active ? .foreground : .background) : nil,
                               now: past, &rng)
            if rb == .active { p.scene = .foreground; foreground = p }
            if rb == .background { schedule(p, .suspend, after: rng.range(3_000, 15_000)) }
            app.process = p
            live.append(p)
            stats.preexistingProcesses += 1
            stats.processes += 1
            if let l = app.logger {
                l.spawn(&gen.rng)
                l.pid = p.pid
                l.launched = true
                p.sceneConnected = p.scene != nil
            }
        }
        nextUser = clock + Int64(rng.range(200, 3_000)) * 1_000
    }

    /// The next pid: increasing as a device's pids do, wrapping below 100,000; never one a live process has.
    func allocatePID() -> Int {
        while true {
            nextPid += rng.range(1, 12)
            if nextPid > 99_000 { nextPid = rng.range(200, 900) }
            let pid = nextPid
            if !live.contains(where: { $0.pid == pid }) { return pid }
        }
    }

    func pickApp(where ok: (SysApp) -> Bool) -> SysApp? {
        for _ in 0..<12 {
            let a = apps[rng.below(apps.count)]
            if ok(a) { return a }
        }
        let candidates = apps.filter(ok)
        return candidates.isEmpty ? nil : candidates[rng.below(candidates.count)]
    }

    func schedule(_ p: SysProcess, _ t: ProcessTimer, after ms: Int) {
        p.timer = t
        p.timerAt = clock + Int64(ms) * 1_000
    }

    /// At least 3 s since the process's last change.
    func settled(_ p: SysProcess) -> Bool { clock - p.lastChange >= 3_000_000 }

    // MARK: Slots

    /// One system slot: the next due step of a story, else one line that is no event.
    func slot() {
        inBurst = true
        defer { inBurst = false }
        if let (p, at) = quickCrash, clock >= at {
            quickCrash = nil
            if p.app.process === p {
                crash(p, signal: 6)
                return
            }
        }
        if let p = live.filter({ $0.timer != .idle && $0.timerAt <= clock }).min(by: { $0.timerAt < $1.timerAt }) {
            let t = p.timer
            p.timer = .idle
            p.timerAt = .max
            switch t {
            case .suspend:
                if p.rb == .background && settled(p) { suspend(p) } else if p.rb == .background { schedule(p, .suspend, after: 3_000) }
                else { filler() }
            case .idle:
                filler()
            }
            return
        }
        if clock >= nextUser {
            let acted = userAction()
            nextUser = clock + Int64(acted ? rng.range(config.userDelay.lowerBound, config.userDelay.upperBound) : rng.range(200, 1_500)) * 1_000
            if acted { return }
        }
        filler()
    }

    /// A crash shortly after launch (the real log's story): a timer of its own, exempt from the 3 s
    /// rule (its lines are details of their own RunningBoard states).
    private var quickCrash: (SysProcess, Int64)?

    // MARK: The user's actions

    private enum Action {
        case open, home, crash, foregroundJetsam, refresh, backgroundLaunch, prewarm, backgroundJetsam, exit
    }

    /// Picks one action the world allows now and does it; false when none could be done.
    private func userAction() -> Bool {
        let f = foreground
        let suspended = live.filter { $0.rb == .suspended && settled($0) }
        let background = live.filter { $0.rb == .background && settled($0) }
        let sbOnly = session.springBoardOnly
        var choices: [(Action, Int)] = []
        if let f {
            if settled(f) {
                choices.append((.open, 30))
                choices.append((.home, 20))
                choices.append((.crash, f.app.apple ? 1 : 5))
                choices.append((.foregroundJetsam, 1))
            }
        } else {
            choices.append((.open, 45))
        }
        if !suspended.isEmpty {
            choices.append((.refresh, 8))
            choices.append((.backgroundJetsam, 3 + 3 * max(0, live.count - 6)))
        }
        if !background.isEmpty { choices.append((.exit, 2)) }
        choices.append((.backgroundLaunch, 6))
        // A prewarm has no `Bootstrap success!`: only where a reader has times to close it by.
        if !sbOnly && session.iosMajor >= 15 && format != .console { choices.append((.prewarm, 4)) }
        let w = Weighted(choices.map { $0.1 })
        switch choices[w.pick(&rng)].0 {
        case .open: return openApp()
        case .home:
            guard let f else { return false }
            toBackground(f)
            foreground = nil
            return true
        case .crash:
            guard let f else { return false }
            crash(f, signal: rng.chance(750) ? 6 : 11)
            return true
        case .foregroundJetsam:
            guard let f else { return false }
            jetsam(f, foreground: true)
            return true
        case .refresh:
            let p = suspended[rng.below(suspended.count)]
            refresh(p)
            return true
        case .backgroundJetsam:
            jetsam(suspended[rng.below(suspended.count)], foreground: false)
            return true
        case .exit:
            voluntaryExit(background[rng.below(background.count)])
            return true
        case .backgroundLaunch:
            guard let app = pickApp(where: { $0.process == nil && clock - $0.lastLaunch >= 6_000_000 }) else { return false }
            launch(app, foreground: false, trigger: nil, opener: nil)
            return true
        case .prewarm:
            guard let app = pickApp(where: { $0.process == nil && !$0.apple && clock - $0.lastLaunch >= 6_000_000 }) else { return false }
            prewarm(app)
            return true
        }
    }

    /// The user brings an app to the foreground: the one there goes to the background first; the app
    /// is launched (from its icon, a notification, another app's open request, the app switcher) or
    /// brought back.
    private func openApp() -> Bool {
        let f = foreground
        guard let app = pickApp(where: { a in
            if let p = a.process { return p !== f && settled(p) && p.rb != .none }
            return clock - a.lastLaunch >= 6_000_000
        }) else { return false }
        if let f {
            toBackground(f)
            foreground = nil
            gen.clock += Int64(rng.range(20, 400)) * 1_000
        }
        if let p = app.process {
            resume(p, tapped: rng.chance(400))
        } else {
            let r = rng.below(100)
            let trigger: String? = r < 60 ? "icon" : r < 70 ? "notification" : (r < 82 && f != nil) ? "open-request" : nil
            let p = launch(app, foreground: true, trigger: trigger, opener: trigger == "open-request" ? f : nil)
            if !app.apple && !session.springBoardOnly && rng.chance(config.quickCrashPerMille) {
                quickCrash = (p, clock + Int64(rng.range(400, 2_000)) * 1_000)
            }
        }
        return true
    }

    // MARK: Processes come and go

    /// A new process of `app` (its launch lines follow).
    func spawn(_ app: SysApp, rb: RBState, visibility: Visibility) -> SysProcess {
        let p = SysProcess(app: app, pid: allocatePID(), rb: rb, task: .running, visibility: visibility, scene: nil, now: clock, &rng)
        app.process = p
        app.lastLaunch = clock
        live.append(p)
        stats.processes += 1
        if let l = app.logger {
            l.spawn(&gen.rng)
            l.pid = p.pid
        }
        return p
    }

    /// The process is gone: the world forgets it.
    func remove(_ p: SysProcess) {
        p.rb = .none
        p.timer = .idle
        p.timerAt = .max
        live.removeAll { $0 === p }
        if p.app.process === p { p.app.process = nil }
        if foreground === p { foreground = nil }
        if let q = quickCrash, q.0 === p { quickCrash = nil }
    }

    // MARK: Counting

    func count(_ k: Kind) { gen.counts[k.rawValue] += 1 }

    /// The JSON object of what the stories wrote (`.expected.json`'s `system`).
    func statsJSON(indent: String) -> String {
        let s = stats
        func obj(_ pairs: [(String, Int)]) -> String { "{" + pairs.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}" }
        let ios = s.sessionsByIOS.keys.sorted().map { ("\($0)", s.sessionsByIOS[$0]!) }
        let triggers = s.launchesByTrigger.keys.sorted().map { ($0, s.launchesByTrigger[$0]!) }
        let fields: [(String, String)] = [
            ("deviceSessions", "\(s.sessions)"),
            ("springBoardOnlySessions", "\(s.springBoardOnlySessions)"),
            ("sessionsByIOS", obj(ios)),
            ("processes", "\(s.processes)"),
            ("runningAtSessionStart", "\(s.preexistingProcesses)"),
            ("launches", "\(s.launches)"),
            ("launchesByTrigger", obj(triggers)),
            ("backgroundLaunches", "\(s.backgroundLaunches)"),
            ("bootstrapAskedTwice", "\(s.bootstrapRequestedTwice)"),
            ("stateBeforeBootstrapSuccess", "\(s.stateBeforeBootstrapSuccess)"),
            ("tapsOnRunningApps", "\(s.tapsOnRunningApps)"),
            ("endings", obj([("signal", s.endingsSignal), ("jetsam", s.endingsJetsam), ("voluntary", s.voluntaryExits)])),
            ("crashesWithException", "\(s.crashesWithException)"),
            ("stateLines", "\(s.stateLines)"),
            ("stateEvents", "\(s.stateEvents)"),
            ("stateEventsAfterNewPid", "\(s.stateEventsAfterNewPid)"),
            ("stateChangesReadAsRepeats", "\(s.stateChangesReadAsRepeats)"),
            ("taskStateGroups", "\(s.taskGroups)"),
            ("taskStateGroupEvents", "\(s.taskGroupEvents)"),
            ("sceneLines", "\(s.sceneLines)"),
            ("sceneEvents", "\(s.sceneEvents)"),
            ("sceneRepeatsAcrossProcesses", "\(s.sceneRepeatsAcrossProcesses)"),
            ("echoLines", "\(s.echoLines)"),
            ("appCallbackLines", "\(s.appCallbackLines)"),
            ("systemLines", "\(s.systemLines)"),
        ]
        return "{\n" + fields.map { "\(indent)  \"\($0.0)\": \($0.1)" }.joined(separator: ",\n") + "\n\(indent)}"
    }
}
