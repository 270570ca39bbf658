/// Device logs, as a support engineer gets them from several devices: Console.app copies (four tab
/// columns, no date, no pid), idevicesyslog, `log show`/`log stream` in the default, syslog and compact
/// styles, one time zone. About 95% of the lines are daemons': SpringBoard, RunningBoard and the kernel
/// telling the stories of Apple's and third-party apps (`SystemWorld`: launches from an icon, a
/// notification, another app, in the background or prewarmed; foreground, background, suspended;
/// crashes, jetsam kills, exits), the daemons that echo RunningBoard's states, and the rest of a
/// device's chatter (`DeviceNoise`). The apps' own lines are few: the seven template apps of the
/// mixed corpus log their lifecycle callbacks (and an uncaught exception before a SIGABRT), other apps
/// only network and status lines.
///
/// Captures come in device sessions (iOS 14-18, one persona, processes already running when a
/// session starts); one session in ten or so is filtered to SpringBoard (no RunningBoard or kernel
/// line: SpringBoard's task states are then the process-state events), in a dated format only.
/// Consecutive captures never share a format, so a capture's end can be told from the text.
final class DeviceShape: CorpusShape {
    static let name = "device"
    static let version = "device 1"
    static let summary = """
        device: device logs (Console.app copies, idevicesyslog, log show/stream; one time zone):
                ~95% daemon lines, SpringBoard/RunningBoard/kernel stories of Apple and third-party
                apps (launches, states, scenes, crashes, jetsam), few app lifecycle lines; iOS 14-18
                device sessions, some filtered to SpringBoard (DeviceShape.swift, SystemWorld.swift)
        """
    static let takesMixedOptions = false

    /// Formats in `.expected.json`'s `segments`, and the weights of a capture's format.
    static let formats: [LogFormat] = [.console, .idevicesyslog, .logDefault, .logSyslog, .logCompact]
    private static let formatWeights = Weighted([35, 25, 20, 10, 10])

    let gen: Generator
    let out: Sink
    var rng: SplitMix64
    let world: SystemWorld
    let noise: DeviceNoise
    let timeZone: StaticString
    var linesByFormat = [Int](repeating: 0, count: LogFormat.allCases.count)
    var segmentsByFormat = [Int](repeating: 0, count: LogFormat.allCases.count)
    private var appLines = 0

    init(out: Sink, seed: UInt64, options: ShapeOptions) {
        self.out = out
        gen = Generator(out: out, seed: seed, appPerMille: 0)
        rng = SplitMix64(seed: seed ^ 0x6465_7669_6365_0000)  // "device"
        timeZone = rng.pick(timeZones)
        // The seven template apps log their own lifecycle (one process each at a time).
        let loggers = appTemplates.map { AppProcess($0) }
        gen.apps = loggers
        // A capture of the whole device: no app's filter line (a SpringBoard-only one says so).
        gen.randomFilterLines = false
        var catalog = SystemCatalog.silentApps()
        catalog += loggers.map { (String(decoding: $0.bundleID, as: UTF8.self), String(decoding: $0.name, as: UTF8.self), false, $0) }
        let noise = DeviceNoise(gen: gen)
        self.noise = noise
        var config = SystemWorld.Config()
        config.userDelay = 500...5_000
        config.interleavePerMille = 120
        world = SystemWorld(gen: gen, seed: seed, config: config, catalog: catalog) { noise.newDaemons(&$0) }
        noise.world = world
        world.interleave = { noise.line() }
        gen.world = world
    }

    var counts: [Int] { gen.counts }
    var endSeconds: Int { gen.endSeconds }

    func expectedFields(seed: UInt64) -> [(String, String)] {
        let own = appLines + world.stats.appOwnLines
        return [
            ("seed", "\(seed)"),
            ("format", "\"device\""),
            ("timeZone", "\"\(timeZone)\""),
            ("appLines", "\(own)"),
            ("daemonPerMille", "\(out.lines > 0 ? (out.lines - own) * 1000 / out.lines : 0)"),
            ("system", world.statsJSON(indent: "  ")),
            ("segments", segmentsJSON(lines: linesByFormat, segments: segmentsByFormat, formats: Self.formats)),
        ]
    }

    func run(targetBytes: Int) {
        var previous: LogFormat?
        var first = true
        while out.bytesWritten < targetBytes {
            let newSession = first || rng.chance(250)
            let springBoardOnly = newSession ? (!first && rng.chance(150)) : world.session.springBoardOnly
            var format = Self.formats[Self.formatWeights.pick(&rng)]
            // A new capture in another format; a capture filtered to SpringBoard has dates (a reader
            // needs its times to tell SpringBoard's changes apart).
            while format == previous || (springBoardOnly && format == .console) {
                format = Self.formats[Self.formatWeights.pick(&rng)]
            }
            if newSession { world.newSession(springBoardOnly: springBoardOnly) }
            gen.filterOverride = springBoardOnly ? "process == \"SpringBoard\"" : nil
            gen.startSegment(format, first: first, single: false)
            gen.seg.timeZone = timeZone
            let start = out.lines
            let limit = rng.range(2_000, 9_000)
            while out.lines - start < limit && out.bytesWritten < targetBytes {
                gen.clock += Int64(rng.range(100, 12_000))
                item()
            }
            gen.endSegment(single: false)
            linesByFormat[format.rawValue] += out.lines - start
            segmentsByFormat[format.rawValue] += 1
            previous = format
            first = false
            // Between captures: 20 s to 40 min.
            gen.clock += Int64(rng.range(20, 2_400)) * 1_000_000
        }
        out.flush()
    }

    private func item() {
        let r = rng.below(1000)
        if r < (world.session.springBoardOnly ? 450 : 330) {
            world.slot()
        } else if r < 375, noise.appLine() {
            appLines += 1
        } else {
            noise.line()
        }
    }
}
