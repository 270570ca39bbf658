/// App lines: lifecycle callbacks in their several spellings, assertions, uncaught exceptions
/// with `*** First throw call stack:` blocks, and Main Thread Checker reports.
extension Generator {
    func appItem() {
        let r = rng.below(1000)
        if r < 900 || !backgroundFailures {
            callbackItem()
        } else if r < 945 {
            assertion(rng.pick(apps))
        } else if r < 975 {
            mainThreadChecker(rng.pick(apps))
        } else {
            let app = rng.pick(apps)
            exception(app, rng.pick(exceptions))
        }
    }

    // MARK: Callbacks

    /// Advances one process's state machine by one callback (reference §1.5: legal orderings).
    func callbackItem() {
        let app = rng.pick(apps)
        if !app.launched {
            if !app.sentWillFinish && rng.chance(300) {
                app.sentWillFinish = true
                callback(app, Callbacks.willFinishLaunching, nil)
            } else {
                app.launched = true
                callback(app, Callbacks.didFinishLaunching, nil)
            }
            return
        }
        if rng.chance(4) {
            callback(app, Callbacks.willTerminate, nil)
            app.spawn(&rng)
            return
        }
        let scene = rng.pick(app.scenes)
        switch scene.state {
        case .detached:
            if scene.carPlay {
                if !scene.sentWillConnect && rng.chance(300) {
                    scene.sentWillConnect = true
                    callback(app, Callbacks.willConnect, scene)
                } else {
                    callback(app, app.t.navigation ? Callbacks.cpDidConnectNav : Callbacks.cpDidConnect, scene)
                    scene.state = .connected
                }
            } else if !scene.askedConfiguration && rng.chance(250) {
                scene.askedConfiguration = true
                callback(app, Callbacks.configurationForConnecting, scene)
            } else {
                callback(app, Callbacks.willConnect, scene)
                scene.state = .connected
            }
        case .connected:
            callback(app, Callbacks.willEnterForeground, scene)
            scene.state = .foregroundInactive
        case .foregroundInactive:
            callback(app, Callbacks.didBecomeActive, scene)
            scene.state = .active
        case .active:
            if !scene.carPlay && rng.chance(80) {
                callback(app, Callbacks.openURLContexts, scene)
            } else {
                callback(app, Callbacks.willResignActive, scene)
                scene.state = .resigned
            }
        case .resigned:
            if rng.chance(300) {
                callback(app, Callbacks.didBecomeActive, scene)
                scene.state = .active
            } else {
                callback(app, Callbacks.didEnterBackground, scene)
                scene.state = .background
            }
        case .background:
            if rng.chance(750) {
                callback(app, Callbacks.willEnterForeground, scene)
                scene.state = .foregroundInactive
            } else if scene.carPlay {
                callback(app, app.t.navigation ? Callbacks.cpDidDisconnectNav : Callbacks.cpDidDisconnect, scene)
                if rng.chance(400) { scene.state = .carPlayGone } else { scene.renew(&rng) }
            } else {
                callback(app, Callbacks.didDisconnect, scene)
                scene.renew(&rng)
            }
        case .carPlayGone:
            callback(app, Callbacks.didDisconnect, scene)
            scene.renew(&rng)
        }
    }

    private enum Variant {
        case pretty, cmdBare, cmdClass
        case swiftBare, swiftQualified, swiftTypeOf, swiftTag, swiftEmoji
    }

    /// Writes one callback line (one record, one event).
    func callback(_ app: AppProcess, _ cb: Callback, _ scene: SceneModel?) {
        counts[cb.kind.rawValue] += 1
        let objc: Bool
        switch app.t.spelling {
        case .objc: objc = true
        case .swift: objc = false
        case .mixed: objc = rng.chance(500)
        }
        let variant: Variant
        if objc {
            let r = rng.below(100)
            variant = r < 80 ? .pretty : r < 90 ? .cmdBare : .cmdClass
        } else {
            variant = rng.pick([.swiftBare, .swiftBare, .swiftQualified, .swiftQualified, .swiftTypeOf, .swiftTag, .swiftEmoji] as [Variant])
        }
        var o = appOrigin(app, main: rng.chance(960))
        if app.t.usesLogger && !objc {
            o.appSubsystem = app.bundleID
            o.category = "lifecycle"
            o.level = rng.chance(700) ? .default : .info
        } else if seg.format != .xcode && rng.chance(500) {
            o.sender = "Foundation"
        }
        header(o)
        let s = out
        let cls: StaticString
        switch cb.role {
        case .app: cls = app.t.appDelegate
        case .scene: cls = scene?.carPlay == true ? (app.t.carPlayDelegate ?? app.t.sceneDelegate) : app.t.sceneDelegate
        case .carPlay: cls = app.t.carPlayDelegate ?? app.t.sceneDelegate
        }
        let describe = scene != nil && cb.role != .app && rng.chance(describePerMille)
        switch variant {
        case .pretty:
            s.str("-["); s.str(cls); s.byte(0x20); s.str(cb.selector); s.byte(0x5D)
            if describe, let scene { s.byte(0x20); sceneDescription(scene, cb) }
            if cb.kind == .appDidFinishLaunching && rng.chance(300) { s.str(" launchOptions: (null)") }
        case .cmdBare:
            s.str(cb.selector)
            if describe, let scene { s.byte(0x20); sceneDescription(scene, cb) }
        case .cmdClass:
            s.str(cls); s.str(": "); s.str(cb.selector)
        case .swiftBare:
            s.str(cb.swift)
        case .swiftQualified:
            s.str(cls); s.byte(0x2E); s.str(cb.swift)
            if describe, let scene { s.str(" scene: "); sceneDescription(scene, cb) }
        case .swiftTypeOf:
            s.bytes(app.module); s.byte(0x2E); s.str(cls); s.byte(0x20); s.str(cb.swift)
        case .swiftTag:
            s.str("[Lifecycle] "); s.str(cb.swift)
            if describe, let scene { s.str(" scene="); sceneDescription(scene, cb) }
        case .swiftEmoji:
            s.str("🔵 "); s.str(cb.swift)
            if let scene, cb.role != .app { s.str(" — "); sceneDescription(scene, cb) }
        }
        s.newline()
    }

    /// `<UIWindowScene: 0x…; role: …; persistentIdentifier: …; activationState: …>`
    private func sceneDescription(_ scene: SceneModel, _ cb: Callback) {
        let s = out
        s.str(scene.carPlay ? "<CPTemplateApplicationScene: 0x" : "<UIWindowScene: 0x")
        s.hex(scene.address)
        s.str("; role: "); s.str(scene.role)
        s.str("; persistentIdentifier: "); s.uuid(scene.idHi, scene.idLo)
        s.str("; activationState: ")
        switch cb.kind {
        case .sceneWillConnect, .appConfigurationForConnecting, .cpDidConnect: s.str("UISceneActivationStateUnattached")
        case .sceneWillEnterForeground, .sceneDidEnterBackground, .sceneDidDisconnect, .cpDidDisconnect: s.str("UISceneActivationStateBackground")
        case .sceneDidBecomeActive, .sceneOpenURLContexts: s.str("UISceneActivationStateForegroundInactive")
        default: s.str("UISceneActivationStateForegroundActive")
        }
        s.byte(0x3E)
    }

    // MARK: Failures

    /// `*** Assertion failure in -[…], file.m:NNN`, sometimes followed by the exception it raises.
    func assertion(_ app: AppProcess) {
        counts[Kind.failureAssertion.rawValue] += 1
        let site = rng.pick(assertionSites)
        var o = appOrigin(app, main: rng.chance(850))
        o.sender = "Foundation"; o.level = .fault
        header(o)
        let s = out
        s.str("*** Assertion failure in "); s.str(site.method); s.str(", "); s.str(site.file); s.byte(0x3A); s.dec(site.line)
        s.newline()
        if rng.chance(400) {
            clock += Int64(rng.below(900) + 1)
            exception(app, ExceptionText(name: "NSInternalInconsistencyException", reason: rng.pick(["Invalid parameter not satisfying: index < self.count", "Application windows are expected to have a root view controller at the end of application launch"] as [StaticString])), thread: o.tid)
        }
    }

    /// `*** Terminating app due to uncaught exception …` + `*** First throw call stack:` block.
    /// The whole block is one record and one event. The process dies: it is spawned anew.
    func exception(_ app: AppProcess, _ e: ExceptionText, thread: UInt64? = nil) {
        counts[Kind.failureException.rawValue] += 1
        var o = appOrigin(app, main: rng.chance(850))
        if let thread { o.tid = thread }
        o.sender = "CoreFoundation"; o.level = .fault
        header(o)
        let s = out
        s.str("*** Terminating app due to uncaught exception '"); s.str(e.name); s.str("', reason: '"); s.str(e.reason); s.byte(0x27)
        s.newline()
        s.str("*** First throw call stack:"); s.newline()
        if rng.chance(300) {
            // Device form: one line of return addresses.
            s.byte(0x28)
            for i in 0..<rng.range(8, 20) {
                if i > 0 { s.byte(0x20) }
                s.str("0x"); s.hex(0x1_8000_0000 | (rng.next() & 0x3FFF_FFFC))
            }
            s.byte(0x29); s.newline()
        } else {
            // Simulator / Xcode form: symbolicated frames, tab-indented.
            s.byte(0x28); s.newline()
            var index = 0
            frame(index, "CoreFoundation", "__exceptionPreprocess + 172", tab: true); index += 1
            frame(index, "libobjc.A.dylib", "objc_exception_throw + 56", tab: true); index += 1
            if String(describing: e.name) == "NSInternalInconsistencyException" {
                frame(index, "Foundation", "-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:] + 188", tab: true); index += 1
            }
            for _ in 0..<rng.range(4, 14) {
                let f = rng.pick(exceptionFrames)
                frame(index, f.image, f.symbol, tab: true); index += 1
            }
            frameBytes(index, app.module, "main + 96", tab: true); index += 1
            frame(index, "dyld", "start + 2840", tab: true)
            s.byte(0x29); s.newline()
        }
        if seg.format == .xcode && rng.chance(500) {
            // libc++abi's own line, on stderr right after the stack: part of the same crash.
            s.str("libc++abi: terminating due to uncaught exception of type NSException"); s.newline()
        }
        app.spawn(&rng)
    }

    /// Main Thread Checker report (§4.2): header line, PID/TID line, `Backtrace:`, 4-8 frames.
    /// The os_log copy carries a header (`[reports]` in Xcode); in Xcode captures the stderr copy
    /// (a `=` rule, no header) is written instead now and then — never both for one report.
    func mainThreadChecker(_ app: AppProcess) {
        counts[Kind.threadMainThreadChecker.rawValue] += 1
        let s = out
        var o = appOrigin(app, main: false)
        let api = rng.pick(mtcAPIs)
        if seg.format == .xcode && rng.chance(300) {
            s.str("================================================================="); s.newline()
        } else {
            o.sender = "libMainThreadChecker.dylib"; o.subsystem = "com.apple.runtime-issues"; o.category = "reports"; o.level = .fault
            header(o)
        }
        s.str("Main Thread Checker: UI API called on a background thread: "); s.str(api); s.newline()
        s.str("PID: "); s.dec(app.pid); s.str(", TID: "); s.dec(Int(o.tid)); s.str(", Thread name: "); s.str(rng.pick(mtcThreadNames))
        s.str(", Queue name: "); s.str(rng.pick(mtcQueues)); s.str(", QoS: "); s.dec(rng.pick(mtcQoS)); s.newline()
        s.str("Backtrace:"); s.newline()
        let n = rng.range(4, 8)
        for i in 0..<n {
            if i == 0 || rng.chance(250) {
                frameBytes(4 + i, app.module, rng.pick(appFrameSymbols), tab: false)
            } else {
                let f = rng.pick(mtcFrames)
                frame(4 + i, f.image, f.symbol, tab: false)
            }
        }
    }

    /// `4   STPopup                             0x000000010313910c -[…] + 72`
    private func frame(_ index: Int, _ image: StaticString, _ symbol: StaticString, tab: Bool) {
        image.withUTF8Buffer { frameRaw(index, $0, symbol, tab: tab) }
    }

    private func frameBytes(_ index: Int, _ image: [UInt8], _ symbol: StaticString, tab: Bool) {
        image.withUnsafeBufferPointer { frameRaw(index, $0, symbol, tab: tab) }
    }

    private func frameRaw(_ index: Int, _ image: UnsafeBufferPointer<UInt8>, _ symbol: StaticString, tab: Bool) {
        let s = out
        if tab { s.byte(0x09) }
        var start = s.pos
        s.dec(index); s.spaces(4 - (s.pos - start))
        start = s.pos
        s.raw(image); s.spaces(36 - (s.pos - start))
        s.str("0x"); s.hex(0x1_0000_0000 | (rng.next() & 0xFFFF_FFFC), digits: 16)
        s.byte(0x20); s.str(symbol)
        s.newline()
    }
}
