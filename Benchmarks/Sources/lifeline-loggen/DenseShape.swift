/// Dense logs: about 30% of the lines are lifecycle callbacks and findings are many. Multi-window
/// iPad apps (three to six window scenes each, several live at once, most callbacks carrying the
/// scene's description with its address) plus two CarPlay apps walk the lifecycle of the mixed
/// corpus (`Generator.callbackItem`), with one callback in ten out of order (didBecomeActive before
/// willEnterForeground, background without resigning, a second willConnect, callbacks for a scene
/// that never connected); assertions, uncaught exceptions with their `*** First throw call stack:`
/// blocks and Main Thread Checker reports are frequent, and every crash is followed by a relaunch
/// (new pid, launch callbacks again). Segments of 2,000-10,000 lines rotate through the five
/// formats as in the mixed corpus.
final class DenseShape: CorpusShape {
    static let name = "dense"
    static let version = "dense 2"
    static let summary = """
        dense: ~30% lifecycle lines from multi-window iPad apps (several scenes live at once,
               addressed), out-of-order callbacks, frequent assertions, uncaught exceptions and
               MTC reports, relaunches after crashes, in the five formats (DenseShape.swift)
        """
    static let takesMixedOptions = false

    let gen: Generator
    let out: Sink
    var rng: SplitMix64
    var linesByFormat = [Int](repeating: 0, count: LogFormat.allCases.count)
    var segmentsByFormat = [Int](repeating: 0, count: LogFormat.allCases.count)
    private var outOfOrder = 0
    private var crashes = 0

    static let templates: [AppTemplate] = [
        AppTemplate(name: "Sketchbook", module: "Sketchbook", bundleID: "com.example.sketchbook", appDelegate: "SKAppDelegate", sceneDelegate: "SKSceneDelegate", carPlayDelegate: nil, navigation: false, spelling: .objc, usesLogger: false, windowScenes: 4),
        AppTemplate(name: "Mail Drop", module: "Mail_Drop", bundleID: "com.example.maildrop", appDelegate: "AppDelegate", sceneDelegate: "ComposeSceneDelegate", carPlayDelegate: nil, navigation: false, spelling: .swift, usesLogger: true, windowScenes: 5),
        AppTemplate(name: "Canvas Pro", module: "CanvasPro", bundleID: "io.canvas.pro", appDelegate: "AppDelegate", sceneDelegate: "CanvasSceneDelegate", carPlayDelegate: nil, navigation: false, spelling: .mixed, usesLogger: false, windowScenes: 6),
        AppTemplate(name: "Reader", module: "Reader", bundleID: "org.reader.app", appDelegate: "RDAppDelegate", sceneDelegate: "RDSceneDelegate", carPlayDelegate: nil, navigation: false, spelling: .swift, usesLogger: false, windowScenes: 3),
        AppTemplate(name: "Spreadsheet", module: "Spreadsheet", bundleID: "com.example.sheets", appDelegate: "SSAppDelegate", sceneDelegate: "SSWindowSceneDelegate", carPlayDelegate: nil, navigation: false, spelling: .objc, usesLogger: false, windowScenes: 4),
        appTemplates[3],  // NavKit: CarPlay, navigation variants
        appTemplates[5],  // RideShare: two windows and CarPlay
    ]

    init(out: Sink, seed: UInt64, options: ShapeOptions) {
        self.out = out
        gen = Generator(out: out, seed: seed, appPerMille: 0)
        gen.describePerMille = 850
        gen.apps = Self.templates.map { AppProcess($0) }
        for a in gen.apps { a.spawn(&gen.rng) }
        rng = SplitMix64(seed: seed ^ 0x6465_6E73_6500_0000)  // "dense"
    }

    var counts: [Int] { gen.counts }
    var endSeconds: Int { gen.endSeconds }

    private var callbackLines: Int {
        let failures: Set<Kind> = [.failureAssertion, .failureException, .threadMainThreadChecker]
        return Kind.allCases.filter { !failures.contains($0) }.reduce(0) { $0 + gen.counts[$1.rawValue] }
    }

    func expectedFields(seed: UInt64) -> [(String, String)] {
        [
            ("seed", "\(seed)"),
            ("format", "\"mixed\""),
            ("callbackLines", "\(callbackLines)"),
            ("callbackPerMille", "\(out.lines > 0 ? callbackLines * 1000 / out.lines : 0)"),
            ("outOfOrder", "\(outOfOrder)"),
            ("crashes", "\(crashes)"),
            ("segments", segmentsJSON(lines: linesByFormat, segments: segmentsByFormat)),
        ]
    }

    func run(targetBytes: Int) {
        var index = 0
        while out.bytesWritten < targetBytes {
            let format = LogFormat.rotation[index % LogFormat.rotation.count]
            gen.startSegment(format, first: index == 0, single: false)
            let limit = rng.range(2_000, 10_000)
            let start = out.lines
            while out.lines - start < limit && out.bytesWritten < targetBytes {
                gen.clock += Int64(rng.below(4_000) + 1)
                item()
            }
            gen.endSegment(single: false)
            linesByFormat[format.rawValue] += out.lines - start
            segmentsByFormat[format.rawValue] += 1
            index += 1
            gen.clock += Int64(rng.range(1, 1_800)) * 1_000_000
        }
        out.flush()
    }

    private func item() {
        let r = rng.below(1000)
        if r < 440 {
            let app = rng.pick(gen.apps)
            if app.launched && rng.chance(100) { disorder(app) } else { gen.callbackItem() }
        } else if r < 462 {
            let app = rng.pick(gen.apps)
            let before = gen.counts[Kind.failureException.rawValue]
            gen.assertion(app)
            if gen.counts[Kind.failureException.rawValue] != before { crashes += 1 }
        } else if r < 472 {
            gen.exception(rng.pick(gen.apps), rng.pick(exceptions))
            crashes += 1
        } else if r < 492 {
            gen.mainThreadChecker(rng.pick(gen.apps))
        } else {
            gen.noiseItem()
        }
    }

    /// One callback that breaks the legal order for the scene's state (reference §1.6), and the
    /// state the scene is in afterwards.
    private func disorder(_ app: AppProcess) {
        let scene = rng.pick(app.scenes.filter { !$0.carPlay })
        let cb: Callback
        switch scene.state {
        case .detached:
            cb = Callbacks.didBecomeActive; scene.state = .active  // a scene that never connected
        case .connected:
            cb = Callbacks.didBecomeActive; scene.state = .active  // before willEnterForeground
        case .foregroundInactive:
            cb = Callbacks.didEnterBackground; scene.state = .background  // without becoming active
        case .active:
            if rng.chance(500) {
                cb = Callbacks.didEnterBackground; scene.state = .background  // without resigning
            } else {
                cb = Callbacks.willEnterForeground; scene.state = .foregroundInactive  // while active
            }
        case .resigned:
            cb = Callbacks.willConnect; scene.state = .connected  // connected a second time
        case .background, .carPlayGone:
            cb = Callbacks.didBecomeActive; scene.state = .active  // without entering the foreground
        }
        gen.callback(app, cb, scene)
        outOfOrder += 1
    }
}
