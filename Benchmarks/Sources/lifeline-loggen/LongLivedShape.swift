/// Issue 12's shape, the one that made `analyze` superlinear: an Xcode console capture of three
/// processes that are never relaunched, interleaved line by line for the whole file, lines of about
/// 140 bytes, 0.5 ms apart. About 3% of the lines are lifecycle callbacks, and each process repeats
/// a fragment of the cycle in scrambled order instead of the whole of it:
/// - "Field Notes" (a space in its name) connects a new `UIWindowScene` object (new address, new
///   persistent identifier) again and again, with resign/active in between (a quarter with a scene's
///   address, most without) and never a disconnect: a long-lived iPad app that opens many windows
///   and never logs `sceneDidDisconnect:` (thousands of scene objects per 100 MB);
/// - "Ledger" logs didFinishLaunching, willEnterForeground and didEnterBackground over and over in
///   one pid, in random order;
/// - "Pixel" logs Swift `#function` spellings of resign/active/foreground/background in random order.
/// A Main Thread Checker report (the os_log copy: header, PID/TID line, `Backtrace:`, 6-9 frames, as
/// SampleLogs/scenarios/main-thread-checker.log) every ~1,000 lines, an assertion every ~5,000, and
/// noise that mentions UIKit words (scene, application, UIWindowScene, willConnect, window
/// hierarchy, keyboard event deferring) without being a callback (LongLivedNoise.swift).
final class LongLivedShape: CorpusShape {
    static let name = "longlived"
    /// 1: issue 12's first cut. 2: MTC blocks as the sample, Pixel's four callbacks in four
    /// spellings, a third of Field Notes' callbacks connect, UIKit-word noise in prose.
    static let version = "longlived 2"
    static let summary = """
        longlived: issue 12's shape: an Xcode capture of three never-relaunched processes
                   interleaved line by line (~140-byte lines), one connecting new scene objects
                   forever without a disconnect, callbacks in scrambled order, MTC reports and
                   assertions, noise that mentions UIKit words (LongLivedShape.swift)
        """
    static let takesMixedOptions = false

    let out: Sink
    var rng: SplitMix64
    var counts = [Int](repeating: 0, count: Kind.allCases.count)
    /// Microseconds since 2024-05-01 00:00:00 in the header's zone (+0900); 500 µs a line.
    private var micros = 0
    private var sceneNumber = 0
    private var ledgerLaunched = false
    private var lineNumber = 0
    private var callbackLines = 0

    struct Process {
        let name: StaticString
        /// The app's Swift module, as `type(of:)` and the Attempt-to-present noise print it.
        let module: StaticString
        let pid: Int
        let mainTID: Int
        let backgroundTIDs: [Int]
        let queue: StaticString
    }

    static let processes: [Process] = [
        Process(name: "Ledger", module: "Ledger", pid: 5110, mainTID: 120_044, backgroundTIDs: [120_391, 120_517], queue: "com.ledger.sync.queue"),
        Process(name: "Field Notes", module: "Field_Notes", pid: 4821, mainTID: 918_273, backgroundTIDs: [918_640, 918_702, 919_015], queue: "com.fieldnotes.analytics.upload"),
        Process(name: "Pixel", module: "Pixel", pid: 6001, mainTID: 330_517, backgroundTIDs: [330_901], queue: "NSOperationQueue 0x600003d0c1e0 (QOS: UNSPECIFIED)"),
    ]
    /// 2024-05-01 00:00:00 +0900 in seconds since 1970.
    static let start = 1_714_489_200

    init(out: Sink, seed: UInt64, options: ShapeOptions) {
        self.out = out
        rng = SplitMix64(seed: seed)
    }

    var endSeconds: Int { Self.start + (micros + 999_999) / 1_000_000 }

    func expectedFields(seed: UInt64) -> [(String, String)] {
        [
            ("seed", "\(seed)"),
            ("format", "\"xcode\""),
            ("processes", "3"),
            ("sceneObjects", "\(sceneNumber)"),
            ("callbackLines", "\(callbackLines)"),
        ]
    }

    func run(targetBytes: Int) {
        while out.bytesWritten < targetBytes {
            lineNumber += 1
            let p = lineNumber % 3
            if lineNumber % 1_000 == 0 {
                mainThreadChecker(p)
            } else if lineNumber % 5_000 == 2_500 {
                assertion(p)
            } else if rng.chance(30) {
                callback(p)
            } else {
                noise(p)
            }
            micros += 500
        }
        out.flush()
    }

    /// `2024-05-01 10:00:00.123456+0900 Field Notes[4821:918273] `
    func header(_ p: Int, tid: Int? = nil) {
        let secs = micros / 1_000_000
        let day = 1 + secs / 86_400
        let h = (secs / 3_600) % 24, m = (secs / 60) % 60, s = secs % 60
        out.str("2024-05-")
        out.dec(day, width: 2)
        out.byte(0x20)
        out.dec(h, width: 2); out.byte(0x3A); out.dec(m, width: 2); out.byte(0x3A); out.dec(s, width: 2)
        out.byte(0x2E); out.dec(micros % 1_000_000, width: 6)
        out.str("+0900 ")
        let proc = Self.processes[p]
        out.str(proc.name); out.byte(0x5B); out.dec(proc.pid); out.byte(0x3A); out.dec(tid ?? proc.mainTID); out.str("] ")
    }

    private func count(_ k: Kind) {
        counts[k.rawValue] += 1
        callbackLines += 1
    }

    /// Distinct for every scene object: an odd multiplier is a bijection modulo 2^28.
    private func sceneAddress(_ n: Int) -> UInt64 {
        0x1_0000_0000 | ((UInt64(n) &* 0x9E37_79B1) & 0x0FFF_FFFF) << 4
    }

    private func sceneIdentifier(_ n: Int) {
        out.uuid(0x8F2C_71D4_3B9E_4A05 ^ (UInt64(n) << 40), 0x9E6D_0000_0000_0000 | UInt64(n))
    }

    private func callback(_ p: Int) {
        header(p)
        switch p {
        case 1: fieldNotes()
        case 0: ledger()
        default: pixel()
        }
        out.newline()
    }

    /// A new scene object every third callback or so, never disconnected; resign/active between.
    private func fieldNotes() {
        let step = rng.below(3)
        if step == 0 || sceneNumber == 0 {
            sceneNumber += 1
            out.str("-[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x")
            out.hex(sceneAddress(sceneNumber))
            out.str("; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: ")
            sceneIdentifier(sceneNumber)
            out.str("; activationState: UISceneActivationStateUnattached>")
            count(.sceneWillConnect)
            return
        }
        let active = step == 1
        out.str(active ? "-[SceneDelegate sceneDidBecomeActive:]" : "-[SceneDelegate sceneWillResignActive:]")
        if rng.chance(250) {
            // A scene's address: mostly the newest, sometimes one of the few before it.
            let n = sceneNumber - rng.below(min(8, sceneNumber))
            out.str(" <UIWindowScene: 0x"); out.hex(sceneAddress(n))
            out.str(active ? "; role: UIWindowSceneSessionRoleApplication; activationState: UISceneActivationStateForegroundInactive>"
                           : "; role: UIWindowSceneSessionRoleApplication; activationState: UISceneActivationStateForegroundActive>")
        }
        count(active ? .sceneDidBecomeActive : .sceneWillResignActive)
    }

    /// didFinishLaunching, willEnterForeground, didEnterBackground over and over in one pid.
    private func ledger() {
        switch rng.below(ledgerLaunched ? 3 : 1) {
        case 0:
            out.str("-[AppDelegate application:didFinishLaunchingWithOptions:] launchOptions=(null)")
            count(.appDidFinishLaunching)
            ledgerLaunched = true
        case 1:
            out.str("-[SceneDelegate sceneWillEnterForeground:]")
            count(.sceneWillEnterForeground)
        default:
            out.str("-[SceneDelegate sceneDidEnterBackground:]")
            count(.sceneDidEnterBackground)
        }
    }

    /// Swift `#function` spellings (bare, qualified, `type(of:)`, tagged) in random order.
    private func pixel() {
        let (swift, kind): (StaticString, Kind)
        switch rng.below(4) {
        case 0: (swift, kind) = ("sceneWillResignActive(_:)", .sceneWillResignActive)
        case 1: (swift, kind) = ("sceneDidBecomeActive(_:)", .sceneDidBecomeActive)
        case 2: (swift, kind) = ("sceneWillEnterForeground(_:)", .sceneWillEnterForeground)
        default: (swift, kind) = ("sceneDidEnterBackground(_:)", .sceneDidEnterBackground)
        }
        switch rng.below(4) {
        case 0: break
        case 1: out.str("SceneDelegate.")
        case 2: out.str("Pixel.SceneDelegate ")
        default: out.str("[Lifecycle] ")
        }
        out.str(swift)
        count(kind)
    }

    private static let assertions: [StaticString] = [
        "*** Assertion failure in -[UITableView _dequeueReusableCellWithIdentifier:forIndexPath:usingPresentationValues:], UITableView.m:8795",
        "*** Assertion failure in -[UICollectionViewData validateLayoutInRect:], UICollectionViewData.m:454",
        "*** Assertion failure in -[FNNotebookStore insertPage:atIndex:], FNNotebookStore.m:212",
    ]

    private func assertion(_ p: Int) {
        header(p)
        out.str(rng.pick(Self.assertions))
        out.newline()
        counts[Kind.failureAssertion.rawValue] += 1
    }

    /// The os_log copy of a Main Thread Checker report, as SampleLogs/scenarios/main-thread-checker.log:
    /// `[reports]` header line on the offending thread, PID/TID line, `Backtrace:`, frames from index 4.
    private func mainThreadChecker(_ p: Int) {
        let proc = Self.processes[p]
        let tid = rng.pick(proc.backgroundTIDs)
        header(p, tid: tid)
        out.str("[reports] Main Thread Checker: UI API called on a background thread: ")
        out.str(rng.pick(mtcAPIs))
        out.newline()
        out.str("PID: "); out.dec(proc.pid); out.str(", TID: "); out.dec(tid)
        out.str(", Thread name: (none), Queue name: "); out.str(proc.queue); out.str(", QoS: "); out.dec(rng.pick(mtcQoS))
        out.newline()
        out.str("Backtrace:"); out.newline()
        let frames = rng.range(6, 9)
        for i in 0..<frames {
            let index = 4 + i
            let start = out.pos
            out.dec(index); out.spaces(4 - (out.pos - start))
            let imageStart = out.pos
            if i < 2 {
                out.str(proc.name)
                out.spaces(36 - (out.pos - imageStart))
                out.str("0x"); out.hex(0x1_00e3_0000 | (rng.next() & 0xF_FFFC), digits: 16); out.byte(0x20)
                out.str(i == 0 ? "-[FNAnalyticsClient currentAppStateString] + 52" : "__36-[FNAnalyticsClient flushQueuedEvents]_block_invoke + 188")
            } else {
                let f = Self.systemFrames[(i - 2) % Self.systemFrames.count]
                out.str(f.image)
                out.spaces(36 - (out.pos - imageStart))
                out.str("0x"); out.hex(0x1_037f_0000 | (rng.next() & 0xF_FFFC), digits: 16); out.byte(0x20)
                out.str(f.symbol)
            }
            out.newline()
        }
        counts[Kind.threadMainThreadChecker.rawValue] += 1
    }

    private static let systemFrames: [Frame] = [
        Frame(image: "libdispatch.dylib", symbol: "_dispatch_call_block_and_release + 32"),
        Frame(image: "libdispatch.dylib", symbol: "_dispatch_client_callout + 20"),
        Frame(image: "libdispatch.dylib", symbol: "_dispatch_lane_serial_drain + 832"),
        Frame(image: "libdispatch.dylib", symbol: "_dispatch_lane_invoke + 472"),
        Frame(image: "libdispatch.dylib", symbol: "_dispatch_workloop_worker_thread + 540"),
        Frame(image: "libsystem_pthread.dylib", symbol: "_pthread_wqthread + 288"),
        Frame(image: "libsystem_pthread.dylib", symbol: "start_wqthread + 8"),
    ]

    private func noise(_ p: Int) {
        let proc = Self.processes[p]
        header(p, tid: rng.chance(400) ? rng.pick(proc.backgroundTIDs) : nil)
        longLivedNoise(proc)
        out.newline()
    }
}
