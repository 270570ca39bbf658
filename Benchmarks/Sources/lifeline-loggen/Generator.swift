/// Writes the corpus: segments of one format each, ~95% noise lines, ~5% app lines
/// (lifecycle callbacks, assertions, exceptions with stacks, Main Thread Checker reports).
/// Every event written is counted in `counts`; that is what `.expected.json` reports.
final class Generator {
    let out: Sink
    var rng: SplitMix64
    var tf = TimeFormatter()
    /// Local wall time in microseconds since 1970.
    var clock: Int64
    var seg = SegmentStyle(format: .xcode)
    var counts = [Int](repeating: 0, count: Kind.allCases.count)
    var linesByFormat = [Int](repeating: 0, count: LogFormat.allCases.count)
    var segmentsByFormat = [Int](repeating: 0, count: LogFormat.allCases.count)
    /// The apps whose lines are written (noise picks its writers here too). Other shapes replace
    /// them with their own after `init`.
    var apps: [AppProcess]
    let daemons: [Daemon]
    /// Per mille of items that are app items (callbacks, failures, MTC blocks).
    let appPerMille: Int
    /// Rows per level in the current segment, for the `log show` statistics footer.
    var levelRows = [Int](repeating: 0, count: 5)
    /// Lines written by app items (callbacks, failures, MTC blocks, with their stack lines).
    var appLines = 0
    /// Triage set: no record headers at all (a `print()` capture: stdout/stderr saved to a file).
    var bare = false
    /// Triage set: false writes a callback where an assertion, exception or Main Thread Checker
    /// report would go (the set plants known failure families instead).
    var backgroundFailures = true
    /// Per mille of scene callbacks that print the scene's description (the dense shape raises it).
    var describePerMille = 500
    /// The system's stories of apps (mixed and device shapes): SpringBoard's, RunningBoard's and the
    /// kernel's lines about launches, states and endings. nil: those lines are noise (other shapes).
    var world: SystemWorld?
    /// A `Filtering the log data using …` line every `log` segment starts with (a filtered capture).
    var filterOverride: StaticString?
    /// `log` segments may start with a random app's filter line (false: only `filterOverride`'s).
    var randomFilterLines = true

    /// The clock's time so far, in whole seconds since 1970, rounded up: no line is later.
    var endSeconds: Int { Int((clock + 999_999) / 1_000_000) }

    init(out: Sink, seed: UInt64, appPerMille: Int) {
        self.out = out
        var r = SplitMix64(seed: seed)
        // 2024-01-01 plus up to two years.
        clock = (1_704_067_200 + Int64(r.below(730)) * 86_400 + Int64(r.below(86_400))) * 1_000_000
        apps = appTemplates.map { AppProcess($0) }
        for a in apps { a.spawn(&r) }
        daemons = daemonNames.map { n in
            let pid = String(describing: n) == "kernel" ? 0 : r.range(30, 2_000)
            let base = UInt64(r.range(1_000, 900_000))
            return Daemon(name: Array(String(describing: n).utf8), pid: pid,
                          tids: (0..<4).map { base + UInt64($0 * 37) })
        }
        self.appPerMille = appPerMille
        rng = r
    }

    // MARK: Driving

    func run(targetBytes: Int, single: LogFormat?) {
        var index = 0
        while out.bytesWritten < targetBytes {
            let format = single ?? LogFormat.rotation[index % LogFormat.rotation.count]
            startSegment(format, first: index == 0, single: single != nil)
            let limit = single == nil ? rng.range(5_000, 20_000) : Int.max
            let start = out.lines
            while out.lines - start < limit && out.bytesWritten < targetBytes {
                item()
            }
            endSegment(single: single != nil)
            linesByFormat[format.rawValue] += out.lines - start
            segmentsByFormat[format.rawValue] += 1
            index += 1
            // A gap between captures.
            clock += Int64(rng.range(1, 3_600)) * 1_000_000
        }
        out.flush()
    }

    func startSegment(_ format: LogFormat, first: Bool, single: Bool) {
        seg = SegmentStyle(format: format)
        seg.timeZone = rng.pick(timeZones)
        seg.isStream = rng.chance(500)
        if format == .idevicesyslog, rng.chance(500) { seg.deviceName = rng.pick(["iPhone", "iPad", "iPhone-15-Pro"] as [StaticString]) }
        levelRows = [0, 0, 0, 0, 0]
        world?.beginCapture(format)
        if single && !first { return }
        switch format {
        case .xcode:
            break
        case .logDefault:
            filterLine()
            out.str("Timestamp                       Thread     Type        Activity             PID    ")
            if !seg.isStream { out.str("TTL  ") }
            out.newline()
        case .logCompact:
            filterLine()
            out.str("Timestamp               Ty Process[PID:TID]"); out.newline()
        case .logSyslog:
            filterLine()
            out.str("Timestamp                       (process)[PID]    "); out.newline()
        case .idevicesyslog:
            if rng.chance(300) { out.str("[connected]"); out.newline() }
        case .console:
            break
        }
    }

    private func filterLine() {
        if let f = filterOverride {
            out.str("Filtering the log data using \""); out.str(f); out.str("\""); out.newline()
            return
        }
        guard randomFilterLines, rng.chance(400) else { return }
        let app = rng.pick(apps)
        switch rng.below(3) {
        case 0:
            out.str("Filtering the log data using \"subsystem == \""); out.bytes(app.bundleID); out.str("\"\"")
        case 1:
            out.str("Filtering the log data using \"process == \""); out.bytes(app.name); out.str("\" OR subsystem BEGINSWITH \"com.apple.\"\"")
        default:
            out.str("Filtering the log data using \"senderImagePath CONTAINS \""); out.bytes(app.name)
            out.str("\" OR processImagePath CONTAINS \""); out.bytes(app.name); out.str("\"\"")
        }
        out.newline()
    }

    func endSegment(single: Bool) {
        guard seg.format == .logDefault, !seg.isStream, !single else { return }
        // `log show` ends with a rule and statistics (§6.4).
        out.str(" --------------------------------------------------------------------------------------------------------------------"); out.newline()
        out.str("Log      - Default:"); stat(levelRows[0], 11)
        out.str(", Info:"); stat(levelRows[1], 17)
        out.str(", Debug:"); stat(levelRows[2], 14)
        out.str(", Error:"); stat(levelRows[3], 11)
        out.str(", Fault:"); stat(levelRows[4], 11)
        out.newline()
        out.str("Activity - Create:"); stat(0, 12)
        out.str(", Transition:"); stat(0, 10)
        out.str(", Actions:"); stat(0, 12)
        out.newline()
    }

    private func stat(_ n: Int, _ width: Int) {
        var digits = 1, t = n
        while t >= 10 { t /= 10; digits += 1 }
        out.spaces(width - digits)
        out.dec(n)
    }

    func item() {
        clock += Int64(rng.below(9_000) + 1)
        if rng.below(1000) < appPerMille {
            let before = out.lines
            appItem()
            appLines += out.lines - before
        } else {
            noiseItem()
        }
    }

    // MARK: Headers

    /// Writes the header of a record in the segment's format (§6.1-§6.9).
    func header(_ o: Origin, xcodeCategory: Bool = true) {
        if bare { return }
        let s = out
        levelRows[o.level.rawValue] += 1
        switch seg.format {
        case .xcode:
            tf.write(clock, .micro, to: s); s.str(seg.timeZone); s.byte(0x20)
            s.bytes(o.process); s.byte(0x5B); s.dec(o.pid); s.byte(0x3A); s.dec(Int(o.tid)); s.str("] ")
            if xcodeCategory, let c = o.category { s.byte(0x5B); s.str(c); s.str("] ") }
        case .logDefault:
            tf.write(clock, .micro, to: s); s.str(seg.timeZone); s.byte(0x20)
            var start = s.pos
            s.str("0x"); s.hex(o.tid); s.column(from: start, width: 10)
            start = s.pos
            s.str(o.level.typeName); s.column(from: start, width: 11)
            start = s.pos
            s.str("0x"); s.hex(o.activity); s.column(from: start, width: 20)
            start = s.pos
            s.dec(o.pid); s.column(from: start, width: 6)
            if !seg.isStream {
                start = s.pos
                s.dec(o.level.rawValue >= Level.error.rawValue ? 14 : 0); s.column(from: start, width: 4)
            }
            s.bytes(o.process); s.str(": ")
            unifiedTail(o)
        case .logSyslog:
            tf.write(clock, .micro, to: s); s.str(seg.timeZone)
            s.str("  localhost "); s.bytes(o.process); s.byte(0x5B); s.dec(o.pid); s.str("]: ")
            unifiedTail(o)
        case .logCompact:
            tf.write(clock, .milli, to: s); s.byte(0x20); s.str(o.level.compactCode); s.byte(0x20)
            s.bytes(o.process); s.byte(0x5B); s.dec(o.pid); s.byte(0x3A); s.hex(o.tid); s.str("] ")
            if let c = o.category {
                if let sub = o.subsystem { s.byte(0x5B); s.str(sub); s.byte(0x3A); s.str(c); s.str("] ") }
                else if let sub = o.appSubsystem { s.byte(0x5B); s.bytes(sub); s.byte(0x3A); s.str(c); s.str("] ") }
            }
        case .idevicesyslog:
            tf.write(clock, .syslog, to: s); s.byte(0x20)
            if let d = seg.deviceName { s.str(d); s.byte(0x20) }
            s.bytes(o.process)
            if let snd = o.sender { s.byte(0x28); s.str(snd); s.byte(0x29) }
            s.byte(0x5B); s.dec(o.pid); s.str("] <"); s.str(o.level.syslogName); s.str(">: ")
        case .console:
            s.str(o.level.consoleName); s.byte(0x09)
            tf.write(clock, .timeOnly, to: s); s.str(seg.timeZone); s.byte(0x09)
            s.bytes(o.process); s.byte(0x09)
        }
    }

    /// `(sender) [subsystem:category] ` of `log show` and `--style syslog`.
    private func unifiedTail(_ o: Origin) {
        let s = out
        if let snd = o.sender { s.byte(0x28); s.str(snd); s.str(") ") }
        if let c = o.category {
            if let sub = o.subsystem { s.byte(0x5B); s.str(sub); s.byte(0x3A); s.str(c); s.str("] ") }
            else if let sub = o.appSubsystem { s.byte(0x5B); s.bytes(sub); s.byte(0x3A); s.str(c); s.str("] ") }
        }
    }

    // MARK: Origins

    func appOrigin(_ app: AppProcess, main: Bool? = nil) -> Origin {
        let onMain = main ?? rng.chance(450)
        let tid = onMain ? app.mainTID : rng.pick(app.backgroundTIDs)
        return Origin(process: app.name, pid: app.pid, tid: tid)
    }

    /// A noise line's writer: an app in Xcode captures (the console shows one process's output),
    /// else an app or the given daemon.
    func noiseOrigin(daemon: Int? = nil) -> Origin {
        if seg.format != .xcode, let d = daemon, rng.chance(650) {
            let dm = daemons[d]
            return Origin(process: dm.name, pid: dm.pid, tid: rng.pick(dm.tids))
        }
        if seg.format != .xcode, rng.chance(300) {
            let dm = rng.pick(daemons)
            return Origin(process: dm.name, pid: dm.pid, tid: rng.pick(dm.tids))
        }
        return appOrigin(rng.pick(apps))
    }

    func randomLevel() -> Level {
        let r = rng.below(100)
        return r < 70 ? .default : r < 82 ? .info : r < 90 ? .debug : r < 98 ? .error : .fault
    }
}
