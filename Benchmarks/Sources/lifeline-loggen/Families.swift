/// The triage set's planted failure families: the same bug, recurring across many files, so that a
/// batch triage can group its occurrences into one signature. Every occurrence of a family has the
/// same text except for what really varies between crashes (pids, thread ids, addresses, indexes,
/// counts, timestamps), and no two families share their distinguishing text. With
/// `Generator.backgroundFailures` off, every failure or threading event in the set belongs to
/// exactly one family, so the set's `.expected.json` can say how many each signature must count.

/// Where a family occurs.
enum FamilySource { case log, crashReport }

/// Varying parts of an exception reason.
enum ReasonTemplate {
    case fixed(String)
    /// `-[NSNull length]: unrecognized selector sent to instance 0x…`
    case nsNullLength
    /// `*** -[__NSArrayM objectAtIndex:]: index N beyond bounds [0 .. M]`
    case arrayBounds
    /// `Invalid update: invalid number of rows in section S. …(A)…(B)…`
    case invalidUpdate
    /// `[<NKRouteCell 0x…> setValue:forUndefinedKey:]: …`
    case routeCellKVC
}

/// What an occurrence in a log looks like.
enum LogShape {
    /// Main Thread Checker report (os_log copy with a header, or the stderr copy).
    case checker(api: String, thread: String, queue: String, qos: Int, frames: [FrameText])
    /// `*** Terminating app due to uncaught exception` block with a symbolicated stack.
    case exception(name: String, reason: ReasonTemplate, frames: [FrameText])
    /// `*** Assertion failure in METHOD, FILE:LINE`.
    case assertion(method: String, file: String, line: Int)
    /// A Swift runtime trap, written to stderr: no header.
    case swiftTrap(text: String)
    /// RunningBoard terminating an app for a watchdog transgression.
    case watchdog(event: String)
}

/// What a crash report family looks like.
enum CrashShape {
    case ipsWatchdog(event: String)
    case textException
    case ipsSwiftTrap(message: String)
    case textWatchdog(event: String)
    case ipsBadAccess
}

struct FrameText {
    let image: String
    let symbol: String
    /// The frame is in the app's own executable (its image name is the app module).
    let inApp: Bool
    init(_ image: String, _ symbol: String, inApp: Bool = false) {
        self.image = image
        self.symbol = symbol
        self.inApp = inApp
    }
}

struct Family {
    let id: String
    /// Lifeline's event kind for one occurrence.
    let kind: String
    /// Index into `appTemplates`.
    let app: Int
    /// A literal that occurs exactly once per occurrence and nowhere else in the set (for checking
    /// the set itself with `rg -F -o -z`).
    let literal: String
    /// Distinguishing texts: a signature belongs to this family when its title, example excerpt or
    /// id contains one of them (and its kind agrees).
    let keys: [String]
    let source: FamilySource
    /// Formats a log occurrence may be written in (`print` = headerless capture).
    let formats: Set<String>
    let log: LogShape?
    let crash: CrashShape?
}

enum Families {
    static let headerFormats: Set<String> = ["xcode", "log-default", "log-compact", "log-syslog", "idevicesyslog"]
    static let deviceFormats: Set<String> = ["log-default", "log-compact", "log-syslog", "idevicesyslog"]
    static let stderrFormats: Set<String> = ["xcode", "print"]

    /// Occurrences of each recurring log family in a 10,000-file set (scaled with the file count,
    /// at least 1): one very common, then a long tail.
    static let logBase = [2_400, 800, 320, 160, 90, 50, 25, 12, 6, 3, 2, 1]

    static let recurringLog: [Family] = [
        Family(id: "mtc-tableview-reload", kind: "thread.mainThreadChecker", app: 0,
               literal: "background thread: -[UITableView reloadData]", keys: ["-[UITableView reloadData]"],
               source: .log, formats: headerFormats.union(["print"]),
               log: .checker(api: "-[UITableView reloadData]", thread: "(none)", queue: "com.example.photoclub.feed-sync (QOS: UTILITY)", qos: 17,
                             frames: [FrameText("PhotoClub", "$s9PhotoClub14FeedDataSourceC5applyyySayAA0B4ItemVGF + 212", inApp: true),
                                      FrameText("PhotoClub", "$s9PhotoClub11FeedServiceC6reloadyyFyycfU_ + 72", inApp: true),
                                      FrameText("libdispatch.dylib", "_dispatch_call_block_and_release + 32"),
                                      FrameText("libdispatch.dylib", "_dispatch_client_callout + 20"),
                                      FrameText("libdispatch.dylib", "_dispatch_lane_serial_drain + 668"),
                                      FrameText("libsystem_pthread.dylib", "_pthread_wqthread + 288")]),
               crash: nil),
        Family(id: "exc-nsnull-length", kind: "failure.exception", app: 1,
               literal: "-[NSNull length]: unrecognized selector sent to instance", keys: ["-[NSNull length]"],
               source: .log, formats: headerFormats,
               log: .exception(name: "NSInvalidArgumentException", reason: .nsNullLength,
                               frames: [FrameText("CoreFoundation", "___forwarding___ + 1472"),
                                        FrameText("CoreFoundation", "_CF_forwarding_prep_0 + 96"),
                                        FrameText("Candela", "-[CDLightingProfile displayName] + 64", inApp: true),
                                        FrameText("Candela", "-[CDProfileListViewController tableView:cellForRowAtIndexPath:] + 248", inApp: true),
                                        FrameText("UIKitCore", "-[UITableView _createPreparedCellForGlobalRow:withIndexPath:willDisplay:] + 680")]),
               crash: nil),
        Family(id: "assert-collectionview-items", kind: "failure.assertion", app: 5,
               literal: "_Bug_Detected_In_Client_Of_UICollectionView_Invalid_Number_Of_Items_In_Section:",
               keys: ["_Bug_Detected_In_Client_Of_UICollectionView_Invalid_Number_Of_Items_In_Section"],
               source: .log, formats: headerFormats,
               log: .assertion(method: "-[UICollectionView _Bug_Detected_In_Client_Of_UICollectionView_Invalid_Number_Of_Items_In_Section:]",
                               file: "UICollectionView.m", line: 7_962),
               crash: nil),
        Family(id: "swift-nil-unwrap-episodes", kind: "failure.swiftFatalError", app: 4,
               literal: "EpisodeListViewModel.swift:88: Fatal error", keys: ["EpisodeListViewModel.swift", "Unexpectedly found nil while unwrapping"],
               source: .log, formats: stderrFormats,
               log: .swiftTrap(text: "PodcastsPro/EpisodeListViewModel.swift:88: Fatal error: Unexpectedly found nil while unwrapping an Optional value"),
               crash: nil),
        Family(id: "exc-array-bounds", kind: "failure.exception", app: 5,
               literal: "*** -[__NSArrayM objectAtIndex:]: index", keys: ["-[__NSArrayM objectAtIndex:]"],
               source: .log, formats: headerFormats,
               log: .exception(name: "NSRangeException", reason: .arrayBounds,
                               frames: [FrameText("CoreFoundation", "-[__NSArrayM objectAtIndex:] + 236"),
                                        FrameText("RideShare", "-[RSTripHistoryStore tripAtIndex:] + 52", inApp: true),
                                        FrameText("RideShare", "-[RSTripHistoryViewController collectionView:cellForItemAtIndexPath:] + 120", inApp: true),
                                        FrameText("UIKitCore", "-[UICollectionView _createPreparedCellForItemAtIndexPath:withLayoutAttributes:applyAttributes:isFocused:notify:] + 352")]),
               crash: nil),
        Family(id: "mtc-view-setneedsdisplay", kind: "thread.mainThreadChecker", app: 3,
               literal: "background thread: -[UIView setNeedsDisplay]", keys: ["-[UIView setNeedsDisplay]"],
               source: .log, formats: headerFormats.union(["print"]),
               log: .checker(api: "-[UIView setNeedsDisplay]", thread: "(none)", queue: "org.navkit.tiles.render (QOS: USER_INITIATED)", qos: 25,
                             frames: [FrameText("NavKit", "-[NKMapRenderer renderTileAtPath:] + 228", inApp: true),
                                      FrameText("NavKit", "__38-[NKTileLoader loadTilesForRegion:]_block_invoke + 96", inApp: true),
                                      FrameText("libdispatch.dylib", "_dispatch_call_block_and_release + 32"),
                                      FrameText("libdispatch.dylib", "_dispatch_client_callout + 20"),
                                      FrameText("libdispatch.dylib", "_dispatch_workloop_worker_thread + 648")]),
               crash: nil),
        Family(id: "swift-index-out-of-range", kind: "failure.swiftFatalError", app: 5,
               literal: "RouteCache.swift:214: Fatal error", keys: ["RouteCache.swift", "Index out of range"],
               source: .log, formats: stderrFormats,
               log: .swiftTrap(text: "RideShare/RouteCache.swift:214: Fatal error: Index out of range"),
               crash: nil),
        Family(id: "watchdog-scene-update-log", kind: "failure.watchdog", app: 1,
               literal: "scene-update watchdog transgression", keys: ["scene-update"],
               source: .log, formats: deviceFormats,
               log: .watchdog(event: "scene-update"), crash: nil),
        Family(id: "assert-route-session", kind: "failure.assertion", app: 3,
               literal: "-[NKRouteSession setDestination:]", keys: ["-[NKRouteSession setDestination:]"],
               source: .log, formats: headerFormats,
               log: .assertion(method: "-[NKRouteSession setDestination:]", file: "NKRouteSession.m", line: 148),
               crash: nil),
        Family(id: "exc-invalid-row-update", kind: "failure.exception", app: 6,
               literal: "Invalid update: invalid number of rows in section", keys: ["Invalid update: invalid number of rows"],
               source: .log, formats: headerFormats,
               log: .exception(name: "NSInternalInconsistencyException", reason: .invalidUpdate,
                               frames: [FrameText("Foundation", "-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:] + 188"),
                                        FrameText("UIKitCore", "-[UITableView _endCellAnimationsWithContext:] + 9628"),
                                        FrameText("LifelineDemo", "$s12LifelineDemo15InboxControllerC12applyChangesyySayAA6ChangeOGF + 388", inApp: true)]),
               crash: nil),
        Family(id: "swift-precondition-sync-queue", kind: "failure.swiftFatalError", app: 6,
               literal: "sync engine must run on its serial queue", keys: ["sync engine must run on its serial queue"],
               source: .log, formats: stderrFormats,
               log: .swiftTrap(text: "Precondition failed: sync engine must run on its serial queue: file LifelineDemo/SyncEngine.swift, line 52"),
               crash: nil),
        Family(id: "exc-kvc-route-cell", kind: "failure.exception", app: 3,
               literal: "not key value coding-compliant for the key distanceLabel", keys: ["key distanceLabel"],
               source: .log, formats: headerFormats,
               log: .exception(name: "NSUnknownKeyException", reason: .routeCellKVC,
                               frames: [FrameText("Foundation", "-[NSObject(NSKeyValueCoding) setValue:forKey:] + 300"),
                                        FrameText("UIKitCore", "-[UIRuntimeOutletConnection connect] + 124"),
                                        FrameText("UIKitCore", "-[UINib instantiateWithOwner:options:] + 1116"),
                                        FrameText("NavKit", "-[NKRouteListViewController viewDidLoad] + 88", inApp: true)]),
               crash: nil),
    ]

    /// One-off failures (one occurrence each): distinct texts without digits, so no normalisation
    /// of numbers can merge two of them.
    static func tail(count: Int) -> [Family] {
        let areas = ["Inbox", "Billing", "Onboarding", "Sharing", "Playback", "Checkout", "Gallery", "Profile", "Settings",
                     "Search", "Download", "Widget", "Compose", "Timeline", "Calendar", "Contacts", "Reminder", "Library",
                     "Wallet", "Pairing", "Export", "Import", "Tagging", "Lyrics"]
        let prefixes = ["PC", "CD", "MA", "NK", "PP", "RS", "LD"]
        let apis = ["-[UIProgressView setProgress:]", "-[UIButton setTitle:forState:]", "-[UIScrollView setContentOffset:]",
                    "-[UISwitch setOn:]", "-[UITextField setText:]", "-[UIActivityIndicatorView startAnimating]",
                    "-[UINavigationItem setTitle:]", "-[UIStackView addArrangedSubview:]", "-[UIPageControl setCurrentPage:]",
                    "-[UISegmentedControl setSelectedSegmentIndex:]", "-[UISlider setValue:]", "-[UIStepper setValue:]"]
        var out: [Family] = []
        for i in 0..<count {
            let area = areas[i % areas.count]
            let app = i % appTemplates.count
            let module = String(describing: appTemplates[app].module)
            let cls = prefixes[app] + area + "Controller"
            let line = 40 + (i * 37) % 900
            switch i % 4 {
            case 0:
                let method = "-[\(cls) validate\(area)State:]"
                out.append(Family(id: "tail-assert-\(area.lowercased())", kind: "failure.assertion", app: app,
                                  literal: method, keys: [method], source: .log, formats: headerFormats,
                                  log: .assertion(method: method, file: "\(cls).m", line: line), crash: nil))
            case 1:
                let message = "\(area) coordinator was started twice"
                out.append(Family(id: "tail-swift-\(area.lowercased())", kind: "failure.swiftFatalError", app: app,
                                  literal: message, keys: [message], source: .log, formats: stderrFormats,
                                  log: .swiftTrap(text: "\(module)/\(area)Coordinator.swift:\(line): Fatal error: \(message)"), crash: nil))
            case 2:
                let reason = "\(area) data source returned a nil cell"
                out.append(Family(id: "tail-exc-\(area.lowercased())", kind: "failure.exception", app: app,
                                  literal: reason, keys: [reason], source: .log, formats: headerFormats,
                                  log: .exception(name: "NSInternalInconsistencyException", reason: .fixed(reason),
                                                  frames: [FrameText(module, "-[\(cls) tableView:cellForRowAtIndexPath:] + \(line)", inApp: true),
                                                           FrameText("UIKitCore", "-[UITableView _createPreparedCellForGlobalRow:withIndexPath:willDisplay:] + 680")]),
                                  crash: nil))
            default:
                let api = apis[(i / 4) % apis.count]
                out.append(Family(id: "tail-mtc-\(area.lowercased())", kind: "thread.mainThreadChecker", app: app,
                                  literal: "background thread: \(api)", keys: [api], source: .log, formats: headerFormats,
                                  log: .checker(api: api, thread: "(none)", queue: "com.apple.root.default-qos", qos: 21,
                                                frames: [FrameText(module, "-[\(cls) refresh\(area)] + \(line)", inApp: true),
                                                         FrameText("libdispatch.dylib", "_dispatch_call_block_and_release + 32"),
                                                         FrameText("libdispatch.dylib", "_dispatch_client_callout + 20"),
                                                         FrameText("libsystem_pthread.dylib", "_pthread_wqthread + 288")]),
                                  crash: nil))
            }
        }
        return out
    }

    /// Crash report families; their shares of the crash files are set in `TriageSet`.
    static let crashes: [Family] = [
        Family(id: "ips-watchdog-scene-create", kind: "failure.watchdog", app: 0,
               literal: "scene-create watchdog transgression", keys: ["scene-create"],
               source: .crashReport, formats: ["ips"], log: nil, crash: .ipsWatchdog(event: "scene-create")),
        Family(id: "crash-nil-dictionary-insert", kind: "failure.crashReport", app: 1,
               literal: "attempt to insert nil object from objects[", keys: ["__NSPlaceholderDictionary", "attempt to insert nil object"],
               source: .crashReport, formats: ["crash"], log: nil, crash: .textException),
        Family(id: "ips-swift-trap-player", kind: "failure.crashReport", app: 4,
               literal: "without an active audio session", keys: ["EXC_BREAKPOINT", "without an active audio session", "PlayerViewModel"],
               source: .crashReport, formats: ["ips"], log: nil,
               crash: .ipsSwiftTrap(message: "Attempted to start playback without an active audio session")),
        Family(id: "crash-watchdog-process-launch", kind: "failure.watchdog", app: 5,
               literal: "process-launch watchdog transgression", keys: ["process-launch"],
               source: .crashReport, formats: ["crash"], log: nil, crash: .textWatchdog(event: "process-launch")),
        Family(id: "ips-bad-access-tile-cache", kind: "failure.crashReport", app: 3,
               literal: "-[NKTileCache tileForKey:]", keys: ["EXC_BAD_ACCESS", "SIGSEGV", "NKTileCache"],
               source: .crashReport, formats: ["ips"], log: nil, crash: .ipsBadAccess),
    ]
}

// MARK: - Writing log occurrences

extension Generator {
    /// Writes one occurrence of `f` in the current segment's format (headerless when `bare`).
    func plant(_ f: Family) {
        guard let shape = f.log else { return }
        let app = apps[f.app]
        clock += Int64(rng.below(9_000) + 1)
        switch shape {
        case let .checker(api, thread, queue, qos, frames):
            plantedChecker(app, api: api, thread: thread, queue: queue, qos: qos, frames: frames)
        case let .exception(name, reason, frames):
            plantedException(app, name: name, reason: reason, frames: frames)
        case let .assertion(method, file, line):
            var o = appOrigin(app, main: true)
            o.sender = "Foundation"; o.level = .fault
            header(o)
            out.text("*** Assertion failure in \(method), \(file):\(line)")
            out.newline()
        case let .swiftTrap(text):
            // stderr: no header in any capture.
            out.text(text)
            out.newline()
            app.spawn(&rng)
        case let .watchdog(event):
            plantedWatchdog(app, event: event)
        }
    }

    private func plantedChecker(_ app: AppProcess, api: String, thread: String, queue: String, qos: Int, frames: [FrameText]) {
        let s = out
        var o = appOrigin(app, main: false)
        if bare || (seg.format == .xcode && rng.chance(300)) {
            s.str("================================================================="); s.newline()
        } else {
            o.sender = "libMainThreadChecker.dylib"; o.subsystem = "com.apple.runtime-issues"; o.category = "reports"; o.level = .fault
            header(o)
        }
        s.text("Main Thread Checker: UI API called on a background thread: \(api)"); s.newline()
        s.str("PID: "); s.dec(app.pid); s.str(", TID: "); s.dec(Int(o.tid))
        s.text(", Thread name: \(thread), Queue name: \(queue), QoS: \(qos)"); s.newline()
        s.str("Backtrace:"); s.newline()
        for (i, f) in frames.enumerated() {
            plantedFrame(4 + i, f, app: app, tab: false)
        }
    }

    private func plantedException(_ app: AppProcess, name: String, reason: ReasonTemplate, frames: [FrameText]) {
        let s = out
        var o = appOrigin(app, main: true)
        o.sender = "CoreFoundation"; o.level = .fault
        header(o)
        s.text("*** Terminating app due to uncaught exception '\(name)', reason: '")
        switch reason {
        case .fixed(let text):
            s.text(text)
        case .nsNullLength:
            s.str("-[NSNull length]: unrecognized selector sent to instance 0x"); s.hex(0x1_E000_0000 | (rng.next() & 0x0FFF_FFF0))
        case .arrayBounds:
            let count = rng.range(1, 40)
            s.str("*** -[__NSArrayM objectAtIndex:]: index "); s.dec(count + rng.range(0, 5)); s.str(" beyond bounds [0 .. "); s.dec(count - 1); s.byte(0x5D)
        case .invalidUpdate:
            let before = rng.range(0, 60), added = rng.range(1, 5)
            s.str("Invalid update: invalid number of rows in section "); s.dec(rng.below(3))
            s.str(". The number of rows contained in an existing section after the update ("); s.dec(before + added)
            s.str(") must be equal to the number of rows contained in that section before the update ("); s.dec(before)
            s.str("), plus or minus the number of rows inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out).")
        case .routeCellKVC:
            s.str("[<NKRouteCell 0x"); s.hex(0x1_0A00_0000 | (rng.next() & 0x00FF_FFF0))
            s.str("> setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key distanceLabel.")
        }
        s.byte(0x27); s.newline()
        s.str("*** First throw call stack:"); s.newline()
        s.byte(0x28); s.newline()
        var index = 0
        plantedFrame(index, FrameText("CoreFoundation", "__exceptionPreprocess + 172"), app: app, tab: true); index += 1
        plantedFrame(index, FrameText("libobjc.A.dylib", "objc_exception_throw + 56"), app: app, tab: true); index += 1
        for f in frames { plantedFrame(index, f, app: app, tab: true); index += 1 }
        plantedFrame(index, FrameText("UIKitCore", "UIApplicationMain + 340"), app: app, tab: true); index += 1
        plantedFrame(index, FrameText(String(decoding: app.module, as: UTF8.self), "main + 96", inApp: true), app: app, tab: true); index += 1
        plantedFrame(index, FrameText("dyld", "start + 2840"), app: app, tab: true)
        s.byte(0x29); s.newline()
        if seg.format == .xcode && !bare && rng.chance(500) {
            s.str("libc++abi: terminating due to uncaught exception of type NSException"); s.newline()
        }
        app.spawn(&rng)
    }

    private func plantedWatchdog(_ app: AppProcess, event: String) {
        let s = out
        let dm = daemons[1]  // runningboardd
        var o = Origin(process: dm.name, pid: dm.pid, tid: rng.pick(dm.tids))
        o.sender = "RunningBoard"; o.subsystem = "com.apple.runningboard"; o.category = "process"; o.level = .error
        header(o)
        let uuidHi = rng.next(), uuidLo = rng.next()
        let allowance = event == "scene-update" ? 10 : 20
        let total = rng.range(2_000, 9_999), share = rng.range(200, total)
        s.str("[app<"); s.bytes(app.bundleID); s.byte(0x28); s.uuid(uuidHi, uuidLo); s.str(")>:"); s.dec(app.pid)
        s.str("] Terminating with context: <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:")
        s.text("\(event) watchdog transgression: app<"); s.bytes(app.bundleID); s.byte(0x28); s.uuid(uuidHi, uuidLo); s.str(")>:"); s.dec(app.pid)
        s.text(" exhausted real (wall clock) time allowance of \(allowance).00 seconds | ProcessVisibility: Foreground | ProcessState: Running | WatchdogEvent: \(event) | WatchdogVisibility: Foreground | WatchdogCPUStatistics: ( | \"Elapsed total CPU time (seconds): ")
        s.dec(total / 1000); s.byte(0x2E); s.dec(total % 1000, width: 3); s.str(" (user "); s.dec(total / 1000); s.byte(0x2E); s.dec(total % 1000, width: 3)
        s.str(", system 0.000), "); s.dec(total / (allowance * 10)); s.str("% CPU\", | \"Elapsed application CPU time (seconds): ")
        s.dec(share / 1000); s.byte(0x2E); s.dec(share % 1000, width: 3); s.str(", "); s.dec(share / (allowance * 10)); s.str("% CPU\" | ) reportType:CrashLog maxTerminationResistance:Interactive>")
        s.newline()
        app.spawn(&rng)
    }

    /// `4   NavKit                              0x0000000102c4b10c -[…] + 72`
    private func plantedFrame(_ index: Int, _ f: FrameText, app: AppProcess, tab: Bool) {
        let s = out
        if tab { s.byte(0x09) }
        var start = s.pos
        s.dec(index); s.spaces(4 - (s.pos - start))
        start = s.pos
        s.text(f.image); s.spaces(36 - (s.pos - start))
        let base: UInt64 = f.inApp ? 0x1_0000_0000 : 0x1_8000_0000
        s.str("0x"); s.hex(base | (rng.next() & 0x3FFF_FFFC), digits: 16)
        s.byte(0x20); s.text(f.symbol)
        s.newline()
    }

    /// A line of a `print()` capture that is not an event: what apps print while being debugged.
    func printNoise() {
        let s = out
        clock += Int64(rng.below(9_000) + 1)
        switch rng.below(10) {
        case 0, 1, 2:
            s.str(rng.pick(printTexts))
        case 3:
            s.str(rng.pick(["GET ", "POST ", "PUT "] as [StaticString])); s.str("https://"); s.str(rng.pick(hosts)); s.str(rng.pick(urlPaths))
            s.str(" -> "); s.dec(rng.pick([200, 200, 200, 201, 204, 304, 401, 404, 500])); s.str(" ("); s.dec(rng.range(8, 3000)); s.str(" ms)")
        case 4:
            s.str("Loaded "); s.dec(rng.range(0, 500)); s.byte(0x20); s.str(rng.pick(words)); s.str(" items from cache")
        case 5:
            s.str("DEBUG: "); s.str(rng.pick(words)); s.str(" took 0."); s.dec(rng.range(1, 999), width: 3); s.byte(0x73)
        case 6:
            s.str(rng.pick(screens)); s.str("ViewModel: state = loaded("); s.dec(rng.range(0, 99)); s.byte(0x29)
        case 7:
            s.str(rng.pick(nonAsciiTexts))
        case 8:
            // A pretty-printed array: several lines.
            s.byte(0x5B); s.newline()
            for i in 0..<rng.range(1, 4) {
                if i > 0 { s.byte(0x2C); s.newline() }
                s.str("  \""); s.str(rng.pick(words)); s.byte(0x22)
            }
            s.newline(); s.byte(0x5D)
        default:
            s.str("token refreshed, expires in "); s.dec(rng.range(60, 86_400)); s.str(" s")
        }
        s.newline()
    }
}

extension Sink {
    /// Any string (the triage set's planted text and crash reports; not for the hot path).
    func text(_ t: String) {
        var t = t
        t.withUTF8 { raw($0) }
    }

    /// Text and its newline; text holding newlines is written as several lines (and counted so).
    func line(_ t: String) {
        for part in t.split(separator: "\n", omittingEmptySubsequences: false) {
            text(String(part))
            newline()
        }
    }
}
