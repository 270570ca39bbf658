/// The steps of the system's stories, each one burst of lines in the order the real log has them
/// (shared/corpus/device-logs/ios17-icon-launch-foreground-sigabrt.console.log): a launch, a change
/// of state, an ending. What is an event is counted by the line writers (`SystemLines.swift`).
extension SystemWorld {
    // MARK: Launches

    /// A launch: the tap, notification or open request that caused it, SpringBoard's bootstrap
    /// (`Asked to bootstrap…` once or twice, `Bootstrapping … with intent …`), RunningBoard's job
    /// (`Creating and launching job…`, the job description, `Now tracking process: […:pid]`), the
    /// kernel's `…/X.app/X[pid] ==> container`, the first state, `Bootstrap success!`, SpringBoard's
    /// task state and visibility, the echoes, the scene. One `system.launch` however many lines.
    @discardableResult
    func launch(_ app: SysApp, foreground fg: Bool, trigger: String?, opener: SysProcess?) -> SysProcess {
        if let trigger { cause(app, trigger, opener: opener) }
        let target: RBState = fg ? .active : .background
        let p = spawn(app, rb: target, visibility: fg ? .foreground : .background)
        count(.systemLaunch)
        stats.launches += 1
        stats.launchesByTrigger[trigger ?? (fg ? "none" : "background"), default: 0] += 1
        if !fg { stats.backgroundLaunches += 1 }
        let sbOnly = session.springBoardOnly
        if fg && rng.chance(300) {
            begin(springBoard("Common"))
            out.str("Generating initialization context on main thread for: "); out.bytes(app.bundle)
            end()
        }
        askedToBootstrap(app)
        if rng.chance(600) {
            begin(springBoard())
            out.str("Creating process (sync=true) with identity: "); rbID(app)
            end()
        }
        if rng.chance(500) {
            begin(springBoard())
            out.str("Created <FBWorkspace: 0x"); out.hex(0x8_6000_0000 | (rng.next() & 0x0FFF_FFC0))
            out.str("; <FBApplicationProcess: 0x"); out.hex(0x8_6000_0000 | (rng.next() & 0x0FFF_FFC0)); out.str("; "); sbID(app); out.str(":<invalid>>>")
            end()
        }
        if rng.chance(150) {
            askedToBootstrap(app)
            stats.bootstrapRequestedTwice += 1
        }
        begin(springBoard())
        out.str("Bootstrapping "); sbID(app); out.str(" with intent "); out.str(fg ? "foreground-interactive" : "background")
        end()
        if !sbOnly {
            if rng.chance(600) { launchAssertion(p, foreground: fg) }
            job(p)
        }
        // As in the real log, RunningBoard's first state usually comes before SpringBoard's success.
        let stateFirst = !sbOnly && rng.chance(750)
        if stateFirst {
            stateLine(p, target, change: true)
            stats.stateBeforeBootstrapSuccess += 1
            if rng.chance(200) { stateLine(p, target, change: false) }
        }
        if !sbOnly && rng.chance(200) {
            begin(kernel(level: .error))
            out.str("Sandbox: "); out.bytes(app.exec); out.byte(0x28); out.dec(p.pid); out.str(") deny(1) sysctl-read kern.bootargs")
            end()
        }
        begin(springBoard())
        sbRef(p); out.str(" Bootstrap success!")
        end()
        reader.tell(app, pid: p.pid)
        if !sbOnly && !stateFirst { stateLine(p, target, change: true) }
        springBoardGroup(p, task: .running, visibility: fg ? .foreground : .background)
        if !sbOnly {
            if rng.chance(400) {
                begin(runningBoard())
                rbRef(p); out.str(" Set darwin role to: "); out.str(target.role)
                end()
            }
            if rng.chance(500) { stateLine(p, target, change: false) }
        }
        echoes(p, target, count: echoCount())
        if fg {
            sceneLine(p, .foreground)
            p.scene = .foreground
            if rng.chance(500) {
                begin(springBoard("Scene"))
                sceneTag(p); out.str(" Scene assertion state did change: ForegroundFocal.")
                end()
            }
            foreground = p
        } else {
            schedule(p, .suspend, after: rng.range(3_000, 20_000))
        }
        p.lastChange = clock
        appCallbacks(p, fg ? launchCallbacks(p, foreground: true) : launchCallbacks(p, foreground: false))
        return p
    }

    /// A prewarm (iOS 15+): RunningBoard launches the app for dasd, no SpringBoard bootstrap; the
    /// process runs in the background and is suspended a few seconds later.
    func prewarm(_ app: SysApp) {
        let p = spawn(app, rb: .background, visibility: .background)
        count(.systemLaunch)
        stats.launches += 1
        stats.launchesByTrigger["prewarm", default: 0] += 1
        begin(runningBoard("job"))
        out.str("Executing launch request for "); rbID(app); out.str(" (DAS Prewarm launch)")
        end()
        job(p)
        stateLine(p, .background, change: true)
        begin(runningBoard())
        rbRef(p); out.str(" Set darwin role to: Background")
        end()
        echoes(p, .background, count: rng.range(1, 4))
        p.lastChange = clock
        schedule(p, .suspend, after: rng.range(3_000, 10_000))
    }

    func askedToBootstrap(_ app: SysApp) {
        begin(springBoard())
        out.str("Asked to bootstrap a new process with identity: "); rbID(app)
        end()
    }

    /// What made the launch: SpringBoard's icon tap (one record of three lines; the bundle is on the
    /// second), a notification response, another app's open request.
    func cause(_ app: SysApp, _ trigger: String, opener: SysProcess?) {
        switch trigger {
        case "icon": iconTap(app)
        case "notification":
            begin(springBoard("Notifications", sender: "SpringBoard", springBoardSubsystem: true))
            out.str("["); out.bytes(app.bundle); out.str("] Received notification response for "); out.bytes(app.bundle)
            out.str(": <UNNotificationResponse: 0x"); out.hex(0x8_6000_0000 | (rng.next() & 0x0FFF_FFC0))
            out.str("; actionIdentifier: com.apple.UNNotificationDefaultActionIdentifier>")
            end()
        case "open-request":
            begin(springBoard("Common"))
            out.str("[FBSystemService][0x"); out.hex(rng.next() & 0xFFFF, digits: 4); out.str("] Received request to open \""); out.bytes(app.bundle)
            out.str("\" from ")
            if let opener { out.bytes(opener.app.exec); out.byte(0x3A); out.dec(opener.pid) } else { out.str("SpringBoard:"); out.dec(session.springBoard.pid) }
            out.byte(0x2E)
            end()
        default: break
        }
        gen.clock += Int64(rng.range(50, 400)) * 1_000
    }

    /// `SBIconView touches began with event: …` with the touch and the tapped icon on continuation lines.
    func iconTap(_ app: SysApp) {
        begin(springBoard("Icon", sender: "SpringBoardHome", springBoardSubsystem: true))
        let window = 0x8_6500_0000 | (rng.next() & 0x00FF_FFC0)
        out.str("SBIconView touches began with event: <UITouchesEvent: 0x"); out.hex(0x8_6500_0000 | (rng.next() & 0x00FF_FFC0))
        out.str("> timestamp: "); out.dec(rng.range(1, 9)); out.byte(0x2E); out.dec(rng.range(10_000, 99_999)); out.str("e+06 touches: {(")
        end()
        let x = rng.range(20, 300), y = rng.range(80, 780)
        out.str("    <UITouch: 0x"); out.hex(0x8_6500_0000 | (rng.next() & 0x00FF_FFC0))
        out.str("> type: Direct; phase: Began; is pointer: NO; tap count: 1; force: 0.000; window: <SBHomeScreenWindow: 0x"); out.hex(window)
        out.str("; HomeScreen-0x"); out.hex(window); out.str("-5; baseClass = UIWindow; frame = (0 0; 390 844); clipsToBounds = YES; opaque = NO; autoresize = W+H; gestureRecognizers = <NSArray: 0x")
        out.hex(0x8_6700_0000 | (rng.next() & 0x00FF_FFC0)); out.str(">; layer = <UIWindowLayer: 0x"); out.hex(0x8_6500_0000 | (rng.next() & 0x00FF_FFC0))
        out.str(">>; responder: <SBIconView: 0x"); out.hex(0x8_6B00_0000 | (rng.next() & 0x00FF_FFC0)); out.str("; frame: {{")
        out.dec(x); out.str(", "); out.dec(y); out.str("}, {60, 74}}; icon: <SBApplicationIcon: 0x"); out.hex(0x8_6900_0000 | (rng.next() & 0x00FF_FFC0))
        out.str("; nodeID: "); out.bytes(app.bundle); out.str("; bundleID: "); out.bytes(app.bundle)
        out.str(">; location: SBIconLocationRoot; isTouchDownInIcon: YES>; location in window: {"); out.dec(x + 38); out.str(".66665649414062, ")
        out.dec(y + 27); out.str(".66665649414062}; previous location in window: {"); out.dec(x + 38); out.str(".66665649414062, "); out.dec(y + 27)
        out.str(".66665649414062}; location in view: {38.666656494140625, 27.666656494140625}; previous location in view: {38.666656494140625, 27.666656494140625}")
        end()
        out.str(")}, tap gesture: <SBIconTapGestureRecognizer: 0x"); out.hex(0x8_6500_0000 | (rng.next() & 0x00FF_FFC0)); out.str("; baseClass = UITapGestureRecognizer;")
        end()
    }

    /// RunningBoard's launch assertion: one record whose attributes are on continuation lines.
    func launchAssertion(_ p: SysProcess, foreground fg: Bool) {
        begin(runningBoard("assertion"))
        out.str("Acquiring assertion targeting "); rbID(p.app); out.str(" from originator [osservice<com.apple.SpringBoard>:")
        out.dec(session.springBoard.pid); out.str("] with description <RBSAssertionDescriptor| \"FBApplicationProcess\" ID:"); assertionID()
        out.str(" target:"); rbID(p.app); out.str(" attributes:[")
        end()
        out.str("\t<RBSDomainAttribute| domain:\"com.apple.frontboard\" name:\""); out.str(fg ? "Bootstrap-Foreground" : "Bootstrap-Background")
        out.str("\" sourceEnvironment:\"(null)\">,")
        end()
        out.str("\t<RBSDomainAttribute| domain:\"com.apple.frontboard\" name:\""); out.str(fg ? "Visibility" : "Background"); out.str("\" sourceEnvironment:\"(null)\">")
        end()
        out.str("\t]>")
        end()
    }

    /// RunningBoard's job: `Creating and launching job for: …`, the job description (iOS 17+ always,
    /// before now and then), the kernel's container line, memory limits, `Now tracking process: […:pid]`.
    func job(_ p: SysProcess) {
        let app = p.app
        begin(runningBoard("job"))
        out.str("Creating and launching job for: "); rbID(app)
        end()
        if session.modern || rng.chance(300) { jobDescription(p) }
        if rng.chance(app.apple ? 400 : 900) {
            begin(kernel())
            program(app, kernelSpelling: true); out.byte(0x5B); out.dec(p.pid); out.str("] ==> container")
            end()
            // The reader joins it to the launch that has no pid yet: the launch's pid.
            reader.tell(app, pid: p.pid)
        }
        if rng.chance(500) {
            let limit = rng.pick([2098, 3072, 1450, 2048] as [Int])
            begin(runningBoard())
            rbRef(p); out.str(" Memory Limits: active "); out.dec(limit); out.str(" inactive "); out.dec(limit)
            end()
        }
        begin(runningBoard())
        out.str("Now tracking process: "); rbRef(p)
        end()
        reader.tell(app, pid: p.pid)
    }

    /// `'app<…>' Constructed job description:` and the launchd dictionary, 30-40 continuation lines.
    func jobDescription(_ p: SysProcess) {
        let app = p.app
        let modern = session.modern
        func addr() { out.str("0x"); out.hex(0xBDE3_0000_0 | (rng.next() & 0x3FFF_FF0)) }
        func int64() { out.str("<int64: 0x"); out.hex(0xB126_71B8_0000_0000 | (rng.next() & 0xFFFF_FFFF_FFFF), digits: 16); out.str(">: ") }
        func string(_ key: StaticString, _ indent: Int, _ length: Int, _ value: () -> Void) {
            for _ in 0..<indent { out.byte(0x09) }
            out.byte(0x22); out.str(key); out.str("\" => <string: "); addr(); out.str("> { length = "); out.dec(length); out.str(", contents = \"")
            value(); out.str("\" }"); end()
        }
        func dict(_ key: StaticString, _ indent: Int, _ n: Int) {
            for _ in 0..<indent { out.byte(0x09) }
            out.byte(0x22); out.str(key); out.str("\" => <dictionary: "); addr(); out.str("> { count = "); out.dec(n)
            out.str(", transaction: 0, voucher = 0x0, contents ="); end()
        }
        func close(_ indent: Int) { for _ in 0..<indent { out.byte(0x09) }; out.byte(0x7D); end() }
        func home(_ suffix: StaticString) {
            out.str("/private/var/mobile/Containers/Data/Application/"); out.uuid(app.dataHi, app.dataLo); out.str(suffix)
        }
        begin(runningBoard("job"))
        out.byte(0x27); rbID(app); out.str("' Constructed job description:")
        end()
        out.str("<dictionary: "); addr(); out.str("> { count = "); out.dec(modern ? 19 : 18); out.str(", transaction: 0, voucher = 0x0, contents ="); end()
        string("ProcessType", 1, 3) { out.str("App") }
        out.str("\t\"EnableTransactions\" => <bool: 0x26be26590>: false"); end()
        string("_ManagedBy", 1, 22) { out.str("com.apple.runningboard") }
        string("_ResourceCoalition", 1, rbIDLength(app)) { rbID(app) }
        string("CFBundleIdentifier", 1, app.bundle.count) { out.bytes(app.bundle) }
        out.str("\t\"ThrottleInterval\" => "); int64(); out.str("2147483647"); end()
        if modern { out.str("\t\"PersonaEnterprise\" => "); int64(); out.str("1000"); end() }
        dict("MachServices", 1, 0)
        close(1)
        out.str("\t\"EnablePressuredExit\" => <bool: 0x26be26590>: false"); end()
        out.str("\t\"InitialTaskRole\" => "); int64(); out.str("1"); end()
        string("UserName", 1, 6) { out.str("mobile") }
        dict("EnvironmentVariables", 1, 3)
        string("TMPDIR", 2, 88) { home("/tmp") }
        string("HOME", 2, 84) { home("") }
        string("CFFIXED_USER_HOME", 2, 84) { home("") }
        close(1)
        dict("_AdditionalProperties", 1, 1)
        dict("RunningBoard", 2, 3)
        out.str("\t\t\t\"Managed\" => <bool: 0x26be26570>: true"); end()
        dict("RunningBoardLaunchedIdentity", 3, modern ? 3 : 2)
        out.str("\t\t\t\t\"TYPE\" => "); int64(); out.str("2"); end()
        string("EAI", 4, app.bundle.count) { out.bytes(app.bundle) }
        if modern { string("PERS", 4, 36) { out.uuid(session.personaHi, session.personaLo) } }
        close(3)
        out.str("\t\t\t\"RunningBoardLaunched\" => <bool: 0x26be26570>: true"); end()
        close(2)
        close(1)
        out.str("\t\"ExitTimeOut\" => "); int64(); out.str("1"); end()
        let tag = rng.next() & 0xFFFF
        string("Label", 1, 17 + app.bundle.count + 6 + 11) {
            out.str("UIKitApplication:"); out.bytes(app.bundle); out.byte(0x5B); out.hex(tag, digits: 4); out.str("][rb-legacy]")
        }
        out.str("\t\"MaterializeDatalessFiles\" => <bool: 0x26be26570>: true"); end()
        out.str("\t\"_LaunchType\" => "); int64(); out.str("3"); end()
        out.str("\t\"ProgramArguments\" => <array: "); addr(); out.str("> { count = 1, capacity = 8, contents ="); end()
        out.str("\t\t0: <string: "); addr(); out.str("> { length = "); out.dec(programLength(app)); out.str(", contents = \"")
        program(app, kernelSpelling: false); out.str("\" }"); end()
        close(1)
        string("Program", 1, programLength(app)) { program(app, kernelSpelling: false) }
        out.byte(0x7D); end()
    }

    // MARK: Changes of state

    /// The user leaves the app: its scene goes to the background, RunningBoard makes it not visible,
    /// SpringBoard says so; it is suspended a few seconds later.
    func toBackground(_ p: SysProcess) {
        if p.scene == .foreground {
            sceneLine(p, .background)
            p.scene = .background
        }
        if !session.springBoardOnly { stateLine(p, .background, change: true) }
        springBoardGroup(p, task: nil, visibility: .background)
        echoes(p, .background, count: echoCount())
        p.rb = .background
        p.visibility = .background
        p.lastChange = clock
        schedule(p, .suspend, after: rng.range(3_000, 15_000))
        appCallbacks(p, [Callbacks.willResignActive, Callbacks.didEnterBackground])
    }

    func suspend(_ p: SysProcess) {
        if !session.springBoardOnly { stateLine(p, .suspended, change: true) }
        springBoardGroup(p, task: .suspended, visibility: nil)
        echoes(p, .suspended, count: echoCount())
        p.rb = .suspended
        p.task = .suspended
        p.lastChange = clock
    }

    /// Back to the foreground (from the app switcher, or a tap on the icon of an app that is running,
    /// which is no launch).
    func resume(_ p: SysProcess, tapped: Bool) {
        if tapped {
            iconTap(p.app)
            stats.tapsOnRunningApps += 1
            gen.clock += Int64(rng.range(50, 300)) * 1_000
        }
        if !session.springBoardOnly { stateLine(p, .active, change: true) }
        springBoardGroup(p, task: p.task == .running ? nil : .running, visibility: .foreground)
        echoes(p, .active, count: echoCount())
        sceneLine(p, .foreground)
        let connect = !p.sceneConnected
        p.scene = .foreground
        p.rb = .active
        p.task = .running
        p.visibility = .foreground
        p.timer = .idle
        p.timerAt = .max
        p.lastChange = clock
        foreground = p
        appCallbacks(p, (connect ? [Callbacks.willConnect] : []) + [Callbacks.willEnterForeground, Callbacks.didBecomeActive])
    }

    /// A suspended app woken in the background (a fetch, a push), suspended again later.
    func refresh(_ p: SysProcess) {
        if !session.springBoardOnly { stateLine(p, .background, change: true) }
        springBoardGroup(p, task: .running, visibility: nil)
        echoes(p, .background, count: echoCount())
        p.rb = .background
        p.task = .running
        p.lastChange = clock
        schedule(p, .suspend, after: rng.range(3_000, 20_000))
    }

    // MARK: Endings

    /// A crash (SIGABRT after an uncaught exception, or SIGSEGV): RunningBoard's `termination reported
    /// by launchd (2, 6, 6)` and SpringBoard's `Process exited: … SIGABRT(6)` are one `failure.signal`;
    /// the state `none` after them is a process-state event.
    func crash(_ p: SysProcess, signal: Int) {
        let sbOnly = session.springBoardOnly
        if signal == 6, let l = p.app.logger, !sbOnly {
            gen.clock += Int64(rng.range(1_000, 40_000))
            let before = out.lines
            gen.exception(l, exceptions[rng.below(exceptions.count)])
            stats.appOwnLines += out.lines - before
            stats.crashesWithException += 1
        }
        stats.endingsSignal += 1
        let name: StaticString = signal == 6 ? "SIGABRT" : "SIGSEGV"
        var counted = false
        if !sbOnly && rng.chance(400) {
            begin(kernel())
            out.bytes(p.app.exec); out.byte(0x5B); out.dec(p.pid); out.str("] Corpse allowed 1 of 5")
            end()
        }
        if rng.chance(500) {
            begin(springBoard())
            sbRef(p); out.str(" Workspace connection invalidated.")
            end()
        }
        if !sbOnly {
            terminationReported(p, 2, signal, signal, &counted, .failureSignal)
            removingProcess(p)
            stateLine(p, .none, change: true)
        }
        processExited(p, &counted, .failureSignal) { out.str("specific, status:<RBSProcessExitStatus| domain:signal(2) code:"); out.str(name); out.byte(0x28); out.dec(signal); out.str(")>>") }
        if !sbOnly && rng.chance(400) { stateLine(p, .none, change: false) }
        gone(p)
        if !sbOnly && rng.chance(500) {
            begin(springBoard())
            out.str("Process exited: <FBApplicationProcess: 0x"); out.hex(0x8_6B00_0000 | (rng.next() & 0x00FF_FFC0)); out.str("; "); sbID(p.app); out.byte(0x3A); out.dec(p.pid)
            out.str("(v"); out.hex(p.versionTag, digits: 5, upper: true); out.str(")> -> <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:signal(2) code:")
            out.str(name); out.byte(0x28); out.dec(signal); out.str(")>>")
            end()
        }
        if !sbOnly && rng.chance(600) {
            gen.clock += Int64(rng.range(100, 300)) * 1_000
            var o = Origin(process: Array("ReportCrash".utf8), pid: session.runningBoard.pid + rng.range(200, 9_000), tid: UInt64(rng.range(100_000, 9_999_999)))
            o.sender = "CrashReporterSupport"; o.subsystem = "com.apple.ReportCrash"; o.category = "general"
            begin(o)
            out.str("Formulating fatal 309 report for corpse["); out.dec(p.pid); out.str("] "); out.bytes(p.app.exec)
            end()
        }
        remove(p)
    }

    /// A jetsam kill: the kernel's `memorystatus: killing_…` (first, when written), RunningBoard's
    /// `termination reported by launchd (1, CAUSE, 9)`, SpringBoard's `Process exited: … domain:jetsam(1)
    /// code:…`: one `failure.jetsam`. A foreground app past its limit, or a suspended one under pressure.
    func jetsam(_ p: SysProcess, foreground fg: Bool) {
        let sbOnly = session.springBoardOnly
        stats.endingsJetsam += 1
        let (action, cause, code): (StaticString, StaticString, Int) = fg
            ? ("killing_specific_process", "per-process-limit", 7)
            : rng.chance(800) ? ("killing_top_process", "vm-pageshortage", 3) : ("killing_idle_process", "idle-exit", 9)
        var counted = false
        if !sbOnly && rng.chance(750) {
            begin(kernel())
            if rng.chance(300) { out.dec(rng.range(10_000, 999_999)); out.byte(0x2E); out.dec(rng.below(1000), width: 3); out.byte(0x20) }
            out.str("memorystatus: "); out.str(action); out.str(" pid "); out.dec(p.pid); out.str(" ["); out.bytes(p.app.exec); out.str("] (")
            out.str(cause); out.byte(0x20); out.dec(fg ? 100 : rng.pick([0, 0, 10] as [Int]))
            if session.modern {
                out.byte(0x20); out.dec(rng.range(20, 9_000)); out.str("s rf:low type:app) "); out.dec(rng.range(20_000, 3_000_000)); out.str("KB")
            } else {
                out.byte(0x29)
            }
            out.str(" - memorystatus_available_pages: "); out.dec(rng.range(2_000, 60_000))
            end()
            if !counted { count(.failureJetsam); counted = true }
        }
        if !sbOnly {
            terminationReported(p, 1, code, 9, &counted, .failureJetsam)
            removingProcess(p)
            stateLine(p, .none, change: true)
        }
        processExited(p, &counted, .failureJetsam) { out.str("specific, status:<RBSProcessExitStatus| domain:jetsam(1) code:"); out.str(cause); out.byte(0x28); out.dec(code); out.str(")>>") }
        gone(p)
        remove(p)
    }

    /// A process in the background exits by itself: `termination reported by launchd (0, 0, 0)` and
    /// `Process exited: <RBSProcessExitContext| voluntary>` are no failure; its state `none` is an event.
    func voluntaryExit(_ p: SysProcess) {
        let sbOnly = session.springBoardOnly
        stats.voluntaryExits += 1
        if !sbOnly {
            begin(runningBoard())
            rbRef(p); out.str(" termination reported by launchd (0, 0, 0)")
            end()
            removingProcess(p)
            stateLine(p, .none, change: true)
        }
        begin(springBoard())
        sbRef(p); out.str(" Process exited: <RBSProcessExitContext| voluntary>.")
        end()
        gone(p)
        remove(p)
    }

    private func terminationReported(_ p: SysProcess, _ ns: Int, _ code: Int, _ status: Int, _ counted: inout Bool, _ kind: Kind) {
        begin(runningBoard())
        rbRef(p); out.str(" termination reported by launchd ("); out.dec(ns); out.str(", "); out.dec(code); out.str(", "); out.dec(status); out.byte(0x29)
        end()
        reader.tell(p.app, pid: p.pid)
        if !counted { count(kind); counted = true }
    }

    private func removingProcess(_ p: SysProcess) {
        begin(runningBoard())
        out.str("Removing process: "); rbRef(p)
        end()
    }

    private func processExited(_ p: SysProcess, _ counted: inout Bool, _ kind: Kind, _ context: () -> Void) {
        begin(springBoard())
        sbRef(p); out.str(" Process exited: <RBSProcessExitContext| "); context(); out.byte(0x2E)
        end()
        reader.tell(p.app, pid: p.pid)
        if !counted { count(kind); counted = true }
    }

    /// SpringBoard's last word on the process (task state and visibility) and the echoes of `none`.
    private func gone(_ p: SysProcess) {
        springBoardGroup(p, task: .notRunning, visibility: .unknown)
        echoes(p, .none, count: echoCount())
        p.lastChange = clock
    }

    // MARK: The app's own lines

    /// A logging app's callbacks for its launch.
    func launchCallbacks(_ p: SysProcess, foreground fg: Bool) -> [Callback] {
        guard p.app.logger != nil else { return [] }
        var list: [Callback] = []
        if rng.chance(300) { list.append(Callbacks.willFinishLaunching) }
        list.append(Callbacks.didFinishLaunching)
        if fg { list += [Callbacks.willConnect, Callbacks.willEnterForeground, Callbacks.didBecomeActive] }
        return list
    }

    /// Writes a logging app's callbacks (not in a capture filtered to SpringBoard).
    func appCallbacks(_ p: SysProcess, _ list: [Callback]) {
        guard let l = p.app.logger, !session.springBoardOnly, !list.isEmpty else { return }
        let scene = l.scenes[0]
        for cb in list {
            gen.clock += Int64(rng.range(200, 30_000))
            gen.callback(l, cb, cb.role == .app ? nil : scene)
            stats.appCallbackLines += 1
            stats.appOwnLines += 1
            if cb.kind == .sceneWillConnect { p.sceneConnected = true }
        }
    }
}
