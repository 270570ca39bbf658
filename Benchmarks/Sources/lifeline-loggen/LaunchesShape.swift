/// Thousands of short launches: hundreds of apps (LaunchApps.swift), each launch 20-200 lines with a
/// complete or partial lifecycle — launch, one or two scenes connected and brought to the
/// foreground, a few background/foreground cycles, then suspended in the background, terminated,
/// crashed (an uncaught exception), cut off by the end of the capture, or picked up mid-session.
/// Captures alternate between Xcode console captures (one app at a time, quick relaunches with a new
/// pid, `print()` output without a header between NSLog lines, `#function` callbacks printed bare)
/// and device logs in the unified-log styles (several launches interleaved, daemon noise). Pids are
/// reused: an app launched again after more than 12 hours of log time sometimes gets the pid of its
/// previous launch, and no pid is given to another launch within 12 hours of its last use. One time
/// zone for the whole file, so the 12-hour gaps are gaps in every format.
final class LaunchesShape: CorpusShape {
    static let name = "launches"
    static let version = "launches 2"
    static let summary = """
        launches: thousands of short launches (20-200 lines) of 300 apps, complete or partial
                  lifecycles, crashes, quick relaunches with a new pid and pid reuse after a gap of
                  more than 12 h, many short lines (print() output without a header), Xcode
                  console and log show captures (LaunchesShape.swift)
        """
    static let takesMixedOptions = false

    /// Writes headers, callbacks, failure blocks and noise as the mixed corpus does.
    let gen: Generator
    let out: Sink
    var rng: SplitMix64
    let apps: [LaunchApp]
    /// When each pid was last used (µs), so no launch takes a pid used within the reuse gap.
    private var pidLastUse: [Int: Int64] = [:]
    static let reuseGap: Int64 = 12 * 3_600 * 1_000_000

    var linesByFormat = [Int](repeating: 0, count: LogFormat.allCases.count)
    var segmentsByFormat = [Int](repeating: 0, count: LogFormat.allCases.count)
    private(set) var stats = LaunchStats()

    init(out: Sink, seed: UInt64, options: ShapeOptions) {
        self.out = out
        gen = Generator(out: out, seed: seed, appPerMille: 0)
        rng = SplitMix64(seed: seed ^ 0x6C61_756E_6368_6573)  // "launches"
        apps = LaunchCatalog.apps()
    }

    var counts: [Int] { gen.counts }
    var endSeconds: Int { gen.endSeconds }

    func expectedFields(seed: UInt64) -> [(String, String)] {
        [
            ("seed", "\(seed)"),
            ("format", "\"mixed\""),
            ("launches", "\(stats.launches)"),
            ("apps", "\(apps.filter { $0.launches > 0 }.count)"),
            ("quickRelaunches", "\(stats.quickRelaunches)"),
            ("pidReuses", "\(stats.pidReuses)"),
            ("endings", "{\"background\": \(stats.background), \"terminated\": \(stats.terminated), \"crashed\": \(stats.crashed), \"cut\": \(stats.cut)}"),
            ("midSession", "\(stats.midSession)"),
            ("printLines", "\(stats.printLines)"),
            ("segments", segmentsJSON(lines: linesByFormat, segments: segmentsByFormat)),
        ]
    }

    // MARK: Captures

    func run(targetBytes: Int) {
        let formats: [LogFormat] = [.xcode, .logDefault, .logCompact, .logSyslog]
        // An Xcode capture is one app's run (~170 lines), a device log several launches: by lines,
        // a bit over half the file is Xcode captures.
        let weights = Weighted([85, 8, 4, 3])
        var first = true
        while out.bytesWritten < targetBytes {
            let format = first ? .xcode : formats[weights.pick(&rng)]
            gen.startSegment(format, first: first, single: false)
            gen.seg.timeZone = "+0000"
            let start = out.lines
            if format == .xcode { xcodeCapture() } else { deviceCapture() }
            gen.endSegment(single: false)
            linesByFormat[format.rawValue] += out.lines - start
            segmentsByFormat[format.rawValue] += 1
            first = false
            // Between captures: a minute to two hours.
            gen.clock += Int64(rng.range(60, 7_200)) * 1_000_000
        }
        out.flush()
    }

    /// An app, skewed towards the first of the catalogue (some apps are launched far more often).
    private func pickApp() -> LaunchApp {
        apps[min(rng.below(apps.count), rng.below(apps.count))]
    }

    /// One app run from Xcode: one launch, sometimes a few quick relaunches (each a new pid).
    private func xcodeCapture() {
        let app = pickApp()
        gen.apps = [app.process]
        let n = rng.chance(350) ? rng.range(2, 4) : 1
        for i in 0..<n {
            if i > 0 {
                gen.clock += Int64(rng.range(2, 30)) * 1_000_000
                stats.quickRelaunches += 1
            }
            let run = startLaunch(app, quick: i > 0)
            while !run.done { advance(run) }
            finish(run)
        }
    }

    /// A device log: several launches of different apps interleaved line by line, daemon noise
    /// between them; a crashed app is sometimes relaunched at once.
    private func deviceCapture() {
        var quota = rng.range(2, 8)
        var active: [LaunchRun] = []
        let concurrency = rng.range(1, 3)
        while quota > 0 || !active.isEmpty {
            if quota > 0 && active.count < concurrency && (active.isEmpty || rng.chance(60)) {
                var app = pickApp()
                while active.contains(where: { $0.app === app }) { app = pickApp() }
                active.append(startLaunch(app, quick: false))
                quota -= 1
            }
            gen.apps = active.map { $0.app.process }
            let i = rng.below(active.count)
            let run = active[i]
            advance(run)
            if run.done {
                finish(run)
                active.remove(at: i)
                if run.crashed && rng.chance(500) {
                    gen.clock += Int64(rng.range(1, 20)) * 1_000_000
                    stats.quickRelaunches += 1
                    active.append(startLaunch(run.app, quick: true))
                }
            }
        }
    }

    // MARK: Launches

    private func startLaunch(_ app: LaunchApp, quick: Bool) -> LaunchRun {
        let p = app.process
        p.spawn(&gen.rng)
        p.pid = choosePid(app, quick: quick)
        pidLastUse[p.pid] = gen.clock
        app.launches += 1
        stats.launches += 1
        return LaunchRun(app: app, pid: p.pid, script: LaunchScript(p, &rng), lines: rng.range(20, 200))
    }

    private func finish(_ run: LaunchRun) {
        run.app.lastPid = run.pid
        run.app.lastEnd = gen.clock
        pidLastUse[run.pid] = gen.clock
        if run.crashed {
            stats.crashed += 1  // the planned exception, or one an assertion raised
        } else {
            switch run.script.ending {
            case .background: stats.background += 1
            case .terminated: stats.terminated += 1
            case .crash, .cut: stats.cut += 1
            }
        }
        if run.script.midSession { stats.midSession += 1 }
    }

    /// The pid of a new launch: after more than the reuse gap, sometimes the app's previous pid;
    /// otherwise a pid nobody used within the gap.
    private func choosePid(_ app: LaunchApp, quick: Bool) -> Int {
        let now = gen.clock
        let margin: Int64 = 60 * 1_000_000
        if !quick, app.lastPid != 0, now - app.lastEnd > Self.reuseGap + margin, rng.chance(350),
           now - (pidLastUse[app.lastPid] ?? .min / 2) > Self.reuseGap + margin {
            stats.pidReuses += 1
            return app.lastPid
        }
        while true {
            let pid = rng.range(200, 99_999)
            if let t = pidLastUse[pid], now - t <= Self.reuseGap + margin { continue }
            return pid
        }
    }

    /// Writes the launch's next line: its next step when the lines left call for it (the steps are
    /// spread over the launch's lines), else a filler line.
    private func advance(_ run: LaunchRun) {
        let p = run.app.process
        let before = out.lines
        gen.clock += Int64(rng.range(200, 60_000))
        let steps = run.stepsLeft
        // A launch's first callback comes first; later ones are spread over its lines.
        let first = run.next == 0 && !run.script.midSession
        if steps > 0 && (first || run.linesLeft <= steps || rng.below(run.linesLeft) < steps) {
            if run.next < run.script.steps.count {
                let step = run.script.steps[run.next]
                run.next += 1
                // Swift apps in Xcode captures print `#function` now and then: no header at all.
                let bare = gen.seg.format == .xcode && p.t.spelling == .swift && rng.chance(400)
                gen.bare = bare
                gen.callback(p, step.callback, step.scene)
                gen.bare = false
                if bare { stats.printLines += 1 }
            } else {
                gen.exception(p, rng.pick(exceptions))
                run.crashed = true
            }
        } else {
            filler(run)
        }
        run.linesLeft -= out.lines - before
        run.done = run.crashed || (run.stepsLeft == 0 && run.linesLeft <= 0)
    }

    /// Print output, a short message, noise; now and then an MTC report or an assertion.
    private func filler(_ run: LaunchRun) {
        let p = run.app.process
        let r = rng.below(1000)
        let xcode = gen.seg.format == .xcode
        if r < 10 {
            gen.mainThreadChecker(p)
        } else if r < 12 {
            let exceptionsBefore = gen.counts[Kind.failureException.rawValue]
            gen.assertion(p)
            // The assertion sometimes raises the exception that ends the process.
            if gen.counts[Kind.failureException.rawValue] != exceptionsBefore { run.crashed = true }
        } else if xcode && r < 520 {
            ShortLines.printLine(out, &rng)
            out.newline()
            stats.printLines += 1
        } else if r < (xcode ? 830 : 600) {
            var o = gen.appOrigin(p)
            if p.t.usesLogger { o.appSubsystem = p.bundleID; o.category = "app" }
            gen.header(o)
            ShortLines.message(out, &rng)
            out.newline()
        } else {
            gen.noiseItem()
        }
    }
}

struct LaunchStats {
    var launches = 0, quickRelaunches = 0, pidReuses = 0
    var background = 0, terminated = 0, crashed = 0, cut = 0, midSession = 0
    var printLines = 0
}

/// One launch being written.
final class LaunchRun {
    let app: LaunchApp
    /// The launch's pid (an exception respawns the process, so the app's own pid moves on).
    let pid: Int
    let script: LaunchScript
    var next = 0
    var linesLeft: Int
    var crashed = false
    var done = false

    /// Callbacks not written yet, and the exception of a launch that ends in a crash.
    var stepsLeft: Int {
        script.steps.count - next + (script.ending == .crash && !crashed ? 1 : 0)
    }

    init(app: LaunchApp, pid: Int, script: LaunchScript, lines: Int) {
        self.app = app
        self.pid = pid
        self.script = script
        linesLeft = lines
    }
}
