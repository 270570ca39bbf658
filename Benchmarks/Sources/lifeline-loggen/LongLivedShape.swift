/// Issue 12's shape, the one that made `analyze` superlinear: an Xcode console capture of three
/// processes that are never relaunched, interleaved line by line for the whole file. About 3% of
/// the lines are lifecycle callbacks, and each process repeats a fragment of the cycle instead of
/// the whole of it:
/// - "Field Notes" (a space in its name) connects a new `UIWindowScene` object (new address, new
///   persistent identifier) again and again, with resign/active in between (the first with the
///   scene's address, the others without) and never a disconnect, as a long-lived iPad app that
///   opens many windows and never logs `sceneDidDisconnect:`;
/// - "Ledger" logs didFinishLaunching, willEnterForeground and didEnterBackground over and over in
///   one pid, in scrambled order;
/// - "Pixel" logs Swift `#function` spellings of resign/active/background in random order.
/// A Main Thread Checker report every ~1,000 lines, an assertion every ~5,000, and noise that
/// mentions UIKit words (scene, window hierarchy, keyboard event deferring) without being a
/// callback. Every event written is counted in `counts`.
final class LongLivedShape {
    let out: Sink
    var rng: SplitMix64
    var counts = [Int](repeating: 0, count: Kind.allCases.count)
    /// Microseconds since 2024-05-01 00:00:00 UTC+9 (the header's zone); 500 µs a line.
    private var micros = 0
    private var sceneNumber = 0
    private var ledgerLaunched = false
    private var lineNumber = 0

    private static let processes: [(name: StaticString, pid: Int, tid: Int)] = [
        ("Field Notes", 4821, 918_273), ("Ledger", 5110, 120_044), ("Pixel", 6001, 330_517),
    ]
    /// 2024-05-01 00:00:00 +0900 in seconds since 1970.
    static let start = 1_714_489_200

    init(out: Sink, seed: UInt64) {
        self.out = out
        rng = SplitMix64(seed: seed)
    }

    var endSeconds: Int { Self.start + micros / 1_000_000 }

    func run(targetBytes: Int) {
        while out.bytesWritten < targetBytes {
            lineNumber += 1
            let p = lineNumber % 3
            if lineNumber % 1_000 == 0 {
                mainThreadChecker(p)
            } else if lineNumber % 5_000 == 2_500 {
                header(p)
                out.str("*** Assertion failure in -[UITableView _dequeueReusableCellWithIdentifier:forIndexPath:usingPresentationValues:], UITableView.m:8795")
                out.newline()
                counts[Kind.failureAssertion.rawValue] += 1
            } else if rng.chance(30) {
                callback(p)
            } else {
                noise(p)
            }
            micros += 500
        }
        out.flush()
    }

    private func header(_ p: Int) {
        // 2024-05-01 10:00:00.123456+0900 Name[pid:tid] 
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
        out.str(proc.name); out.byte(0x5B); out.dec(proc.pid); out.byte(0x3A); out.dec(proc.tid); out.str("] ")
    }

    private func count(_ k: Kind) { counts[k.rawValue] += 1 }

    private func sceneAddress(_ n: Int) -> UInt64 { 0x1_0400_0000 &+ UInt64(n) &* 0x1_2340 }

    private func callback(_ p: Int) {
        header(p)
        switch p {
        case 1:  // Field Notes: a new scene object every few callbacks, never disconnected
            let step = rng.below(4)
            if step == 0 || sceneNumber == 0 {
                sceneNumber += 1
                out.str("-[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x")
                out.hex(sceneAddress(sceneNumber))
                out.str("; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: ")
                out.uuid(0x8F2C_71D4_3B9E_4A05, 0x9E6D_0000_0000_0000 | UInt64(sceneNumber))
                out.str("; activationState: UISceneActivationStateUnattached>")
                count(.sceneWillConnect)
            } else if step == 1 {
                out.str("-[SceneDelegate sceneDidBecomeActive:] <UIWindowScene: 0x")
                out.hex(sceneAddress(sceneNumber))
                out.str("; role: UIWindowSceneSessionRoleApplication>")
                count(.sceneDidBecomeActive)
            } else if step == 2 {
                out.str("-[SceneDelegate sceneWillResignActive:]")
                count(.sceneWillResignActive)
            } else {
                out.str("-[SceneDelegate sceneDidBecomeActive:]")
                count(.sceneDidBecomeActive)
            }
        case 2:  // Ledger: launch, foreground, background in one pid, scrambled
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
        default:  // Pixel: Swift spellings in random order
            switch rng.below(3) {
            case 0: out.str("sceneWillResignActive(_:)"); count(.sceneWillResignActive)
            case 1: out.str("sceneDidBecomeActive(_:)"); count(.sceneDidBecomeActive)
            default: out.str("sceneDidEnterBackground(_:)"); count(.sceneDidEnterBackground)
            }
        }
        out.newline()
    }

    private func mainThreadChecker(_ p: Int) {
        header(p)
        let proc = Self.processes[p]
        out.str("[reports] Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]")
        out.newline()
        out.str("PID: "); out.dec(proc.pid); out.str(", TID: "); out.dec(proc.tid + 17)
        out.str(", Thread name: (none), Queue name: com.example.analytics.upload, QoS: 17")
        out.newline()
        out.str("Backtrace:"); out.newline()
        out.str("4   Shape                               0x0000000100e3a5d4 -[WVAnalyticsClient currentAppStateString] + 52"); out.newline()
        out.str("5   libdispatch.dylib                   0x00000001037f05a8 _dispatch_call_block_and_release + 32"); out.newline()
        count(.threadMainThreadChecker)
    }

    private func noise(_ p: Int) {
        header(p)
        switch rng.below(6) {
        case 0:
            out.str("[UIKitCore] Scene target of keyboard event deferring environment did change: 0")
        case 1:
            out.str("Attempt to present <UIAlertController: 0x"); out.hex(0x1_0300_0000 &+ rng.next() % 0xFF_FFFF)
            out.str("> on <ShapeApp.RootViewController: 0x"); out.hex(0x1_0200_0000 &+ rng.next() % 0xFF_FFFF)
            out.str("> whose view is not in the window hierarchy.")
        case 2:
            out.str("Task <"); out.uuid(rng.next(), rng.next())
            out.str(">.<1> finished with error [-1001] Error Domain=NSURLErrorDomain Code=-1001 \"The request timed out.\"")
        case 3:
            out.str("[boringssl] boringssl_metrics_log_metric_block_invoke(153) Failed to log metrics")
        case 4:
            out.str("Restoring scene state for window "); out.dec(rng.below(40))
            out.str(": the application will reconnect the scene when it becomes active")
        default:
            out.str("Sync: pulled "); out.dec(rng.below(99)); out.str(" changes in "); out.dec(rng.below(999))
            out.str(" ms, cursor advanced")
        }
        out.newline()
    }
}
