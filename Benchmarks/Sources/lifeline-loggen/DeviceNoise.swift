/// What a device says besides the system's stories: many daemons' lines, as in the real Console.app
/// copy (locationd's JSON, backboardd's HID and deferring rules, wifid, CommCenter, symptomsd, dasd,
/// audiomxd, cameracaptured, powerd, healthd, bluetoothd, …), SpringBoard's own chatter, and the
/// apps' own lines (no lifecycle callback: those come with the stories). None of it is an event: no
/// callback name, `-[`, `+[`, assertion, exception, Main Thread Checker, watchdog or kill text, no
/// RunningBoard state, task state or scene lifecycle line.
final class DeviceNoise {
    unowned let gen: Generator
    /// Set once the world exists (the world asks this for its daemons when it starts).
    var world: SystemWorld!
    /// The daemons of the current session (their pids change per session).
    private(set) var daemons: [Daemon] = []
    private var byName: [String: Int] = [:]

    static let names: [StaticString] = ["SpringBoard", "runningboardd", "kernel", "locationd", "backboardd", "wifid", "CommCenter",
                                        "symptomsd", "dasd", "audiomxd", "cameracaptured", "powerd", "healthd", "bluetoothd",
                                        "UserEventAgent", "PerfPowerServices", "WirelessRadioManagerd", "gamepolicyd",
                                        "useractivityd", "callservicesd", "mDNSResponder", "nsurlsessiond", "trustd", "apsd"]
    /// How often each daemon speaks (same order as `names`; SpringBoard's chatter besides its stories).
    private static let weights = Weighted([9, 3, 3, 12, 9, 6, 6, 6, 5, 4, 3, 3, 3, 4, 3, 3, 2, 2, 2, 2, 4, 4, 3, 3])

    init(gen: Generator) {
        self.gen = gen
    }

    /// New pids for a new device session (SpringBoard ~30-80, runningboardd just below, the others up
    /// to a few hundred; the kernel is 0).
    func newDaemons(_ rng: inout SplitMix64) -> (springBoard: Daemon, runningBoard: Daemon, kernel: Daemon, echoes: [Daemon]) {
        daemons = []
        byName = [:]
        let sb = rng.range(30, 80)
        for (i, n) in Self.names.enumerated() {
            let name = String(describing: n)
            let pid = name == "kernel" ? 0 : name == "SpringBoard" ? sb : name == "runningboardd" ? sb - rng.range(1, 4) : rng.range(82, 680)
            let base = UInt64(rng.range(1_000, 900_000))
            daemons.append(Daemon(name: Array(name.utf8), pid: pid, tids: (0..<4).map { base + UInt64($0 * 37) }))
            byName[name] = i
        }
        let echoes = ["backboardd", "CommCenter", "locationd", "healthd", "audiomxd", "symptomsd", "dasd", "UserEventAgent",
                      "WirelessRadioManagerd", "gamepolicyd", "useractivityd", "callservicesd", "wifid", "PerfPowerServices"].map { daemons[byName[$0]!] }
        return (daemons[0], daemons[1], daemons[2], echoes)
    }

    /// A bundle the daemons talk about: a live app's, else any.
    private func someApp() -> SysApp {
        if !world.live.isEmpty && world.rng.chance(700) { return world.live[world.rng.below(world.live.count)].app }
        return world.apps[world.rng.below(world.apps.count)]
    }

    private func origin(_ i: Int, level: Level = .default, sender: StaticString? = nil, subsystem: StaticString? = nil, category: StaticString? = nil) -> Origin {
        let d = daemons[i]
        var o = Origin(process: d.name, pid: d.pid, tid: d.tids[world.rng.below(d.tids.count)])
        o.level = level; o.sender = sender; o.subsystem = subsystem; o.category = category
        return o
    }

    /// One daemon line (SpringBoard's only, in a capture filtered to SpringBoard).
    func line() {
        let s = gen.out
        let i = world.session.springBoardOnly ? 0 : Self.weights.pick(&world.rng)
        let app = someApp()
        var r = world.rng.below(4)
        switch i {
        case 0:  // SpringBoard
            gen.header(origin(i, sender: "SpringBoard", subsystem: "com.apple.SpringBoard", category: "Common"))
            switch world.rng.below(6) {
            case 0: s.str("SBIdleTimerGlobalCoordinator - updateIdleTimerForReason:\"IdleTimerDisableChangedForMainDisplaySceneManager - client:"); s.bytes(app.bundle); s.str("\"]")
            case 1: s.str("MRNowPlayingAudioFormatController foreground bundle id changed: "); s.bytes(app.bundle)
            case 2: s.str("Returning cached initialization context for "); s.bytes(app.bundle)
            case 3: s.str("rules: (scene setting) ADDED keyboardFocus environment to scene: sceneID:"); s.bytes(app.bundle); s.str("-default")
            case 4: s.str("[Main (EmbeddedDisplay)] handle response: <SBSwitcherEventResponse: 0x"); s.hex(0x8_6C00_0000 | (world.rng.next() & 0xFF_FFF0)); s.str(">")
            default: s.str("[coordinator] keyboard arbiter suggested <nothing> and we replied <com.apple.frontboard.systemappservices/FBSceneManager:com.apple.springboard pid:"); s.dec(daemons[0].pid); s.str(">")
            }
        case 1:  // runningboardd
            gen.header(origin(i, sender: "RunningBoard", subsystem: "com.apple.runningboard", category: "process"))
            let d = daemons[3 + world.rng.below(daemons.count - 3)]
            switch r {
            case 0: s.str("[osservice<com.apple."); s.bytes(d.name); s.str(">:"); s.dec(d.pid); s.str("] Set jetsam priority to 0 [0] flag[1]")
            case 1: s.str("XPC connection invalidated: [osservice<com.apple."); s.bytes(d.name); s.str(">:"); s.dec(d.pid); s.byte(0x5D)
            default: s.str("Resolved pid "); s.dec(d.pid); s.str(" to [osservice<com.apple."); s.bytes(d.name); s.str(">:"); s.dec(d.pid); s.byte(0x5D)
            }
        case 2:  // kernel
            gen.header(origin(i, level: world.rng.chance(300) ? .error : .default))
            switch r {
            case 0: s.str("AppleKeyStore:Sending lock change 0 for handle 0")
            case 1: s.str("IOSurface: buffer allocation size "); s.dec(world.rng.range(4, 900)); s.str(" KB")
            case 2: s.str("ANE0: "); s.str(world.rng.pick(["ANE_ProgramSendRequest: Program sent", "aneProcessRequest: done"] as [StaticString]))
            default:
                if let p = world.live.isEmpty ? nil : world.live[world.rng.below(world.live.count)] {
                    s.str("Sandbox: "); s.bytes(p.app.exec); s.byte(0x28); s.dec(p.pid); s.str(") deny(1) file-read-metadata /private/var/mobile/Library/Preferences/.GlobalPreferences.plist")
                } else {
                    s.str("AppleKeyStore:Sending lock change 0 for handle 0")
                }
            }
        case 3:  // locationd
            gen.header(origin(i, sender: "CoreLocation", subsystem: "com.apple.locationd.Core", category: "Core"))
            switch world.rng.below(5) {
            case 0: s.str("{\"msg\":\"#CLIUA updating AssertionRecord\", \"ClientKey\":\"i"); s.bytes(app.bundle); s.str(":\", \"AssertionLevel\":\"kCLClientInUseLevelNotInUse\"}")
            case 1: s.str("{\"msg\":\"#Warning #ClientResolution the passed keyPath is not registered. Resolving to #nullCKP\", \"InputCKP\":\"i"); s.bytes(app.bundle); s.str(":\"}")
            case 2: s.str("{\"msg\":\"state transition\", \"event\":\"state_transition\", \"state\":\"LocationManager\", \"property\":\"updatingLocation\", \"old\":0, \"new\":0}")
            case 3: s.str("{\"msg\":\"Fix\", \"event\":\"location\", \"horzAcc\":"); s.dec(world.rng.range(5, 65)); s.str(", \"type\":\"wifi\", \"isFromLocationController\":0}")
            default: s.str("{\"msg\":\"RBS #AppMonitor process monitor update handler invoked\", \"pid\":"); s.dec(world.rng.range(200, 9_999)); s.str(", \"bundleID\":\""); s.bytes(app.bundle); s.str("\", \"state\":\"RunningScheduled\"}")
            }
        case 4:  // backboardd
            gen.header(origin(i, sender: "BackBoardHIDEventFoundation", subsystem: "com.apple.backboard.hid", category: "event"))
            switch r {
            case 0: s.str("chain did update (setDeferringRules) <keyboardFocus; display: builtin> []")
            case 1: s.str("new scene host settings: contextID:"); s.hex(world.rng.next() & 0xFFFF_FFFF, digits: 8, upper: true); s.str(" <sceneID:"); s.bytes(app.bundle); s.str("-default> unspecified -> foreground")
            case 2: s.str("Sending event: <BKSHIDEvent: 0x"); s.hex(0xCA26_0000_00 | (world.rng.next() & 0xFF_FFF0)); s.str("; type: Digitizer; timestamp: "); s.dec(world.rng.range(100_000, 999_999)); s.str(">")
            default: s.str("Brightness: ambient lux "); s.dec(world.rng.range(0, 3_000)); s.str(" nits "); s.dec(world.rng.range(2, 800))
            }
        case 5:  // wifid
            gen.header(origin(i, sender: "WiFiPolicy", subsystem: "com.apple.wifi", category: "policy"))
            switch r {
            case 0: s.str("WiFiUserInteractionMonitor: "); s.bytes(app.bundle); s.str(world.rng.chance(500) ? " entered foreground" : " exited")
            case 1: s.str("WifiDeviceManagerCatsWhitelistedApp: CATS en0:  deviceManager:0x"); s.hex(0x4CC2_4A00_0 | (world.rng.next() & 0xFFF0)); s.str(" FgApp:"); s.bytes(app.bundle); s.str(" stateChange:0 whitelisted=1")
            default: s.str("__WiFiDeviceManagerEvaluateAPEnvironment: rssi "); s.dec(-world.rng.range(30, 90)); s.str(" channel "); s.dec(world.rng.pick([1, 6, 11, 36, 44, 149] as [Int]))
            }
        case 6:  // CommCenter
            gen.header(origin(i, sender: "CoreTelephony", subsystem: "com.apple.telephony", category: "ct"))
            s.str(world.rng.pick(telephony))
        case 7:  // symptomsd
            gen.header(origin(i, sender: "SymptomEvaluator", subsystem: "com.apple.symptomsd", category: "flow"))
            if r < 2 { s.bytes(app.bundle); s.str(": Foreground: "); s.str(world.rng.chance(500) ? "true" : "false") }
            else { s.str("Data Usage for "); s.bytes(app.exec); s.str(" on flow "); s.dec(world.rng.range(10_000, 99_999)); s.str(" - WiFi in/out: "); s.dec(world.rng.range(0, 900_000)); s.byte(0x2F); s.dec(world.rng.range(0, 90_000)) }
        case 8:  // dasd
            gen.header(origin(i, sender: "DuetActivitySchedulerDaemon", subsystem: "com.apple.duetactivityscheduler", category: "scoring"))
            s.str("Submitted: com.apple."); s.str(world.rng.pick(["fetch.", "bgrefresh.", "pushLaunch."] as [StaticString])); s.bytes(app.bundle)
            s.str(":"); s.hex(world.rng.next() & 0xFFFFFF, digits: 6); s.str(" at priority "); s.dec(world.rng.pick([5, 10, 20, 30] as [Int]))
        case 9:  // audiomxd
            gen.header(origin(i, sender: "MediaExperience", subsystem: "com.apple.coremedia", category: "cmsession"))
            s.str("SpatializationManager.cpp:618   Returning cached value mEntitlementsCache[kUntrackedHeadphoneEntitlement]["); s.bytes(app.bundle); s.str("] = 0")
        case 10:  // cameracaptured
            gen.header(origin(i, sender: "CMCapture", subsystem: "com.apple.cameracapture", category: "general"))
            s.str("<<<< FigCaptureDisplayLayoutMonitor >>>> _updateObserversWithLayout: <FigCaptureDisplayLayout: 0x"); s.hex(0x854D_0000_0 | (world.rng.next() & 0xFFF_FFF0))
            s.str(", Main Display, foreground:["); s.bytes(app.bundle); s.str("]>")
        case 11:  // powerd
            gen.header(origin(i, sender: "powerd", subsystem: "com.apple.powerd", category: "assertions"))
            s.str("Process "); s.bytes(app.exec); s.byte(0x2E); s.dec(world.rng.range(200, 9_999)); s.str(" Released SystemIsActive \"com.apple.")
            s.str(world.rng.pick(["nsurlsessiond.download", "audio.playback", "location.fix"] as [StaticString])); s.str("\" age:00:00:0"); s.dec(world.rng.below(10))
            s.str("  id:"); s.dec(world.rng.range(10_000_000, 99_999_999)); s.str(" [System: PrevIdle SysAct]")
        case 12:  // healthd
            gen.header(origin(i, sender: "HealthDaemon", subsystem: "com.apple.healthkit", category: "Database"))
            s.str("Journal merge completed: "); s.dec(world.rng.range(0, 40)); s.str(" entries in "); s.dec(world.rng.range(1, 90)); s.str(" ms")
        case 13:  // bluetoothd
            gen.header(origin(i, sender: "bluetoothd", subsystem: "com.apple.bluetooth", category: "Server.LE"))
            if r == 0 { s.str("SystemUI unknown identifier: 'sceneID:"); s.bytes(app.bundle); s.str("-default' / '"); s.bytes(app.bundle); s.byte(0x27) }
            else { s.str("Device found: CBDevice "); s.hex(world.rng.next() & 0xFFFF_FFFF, digits: 8, upper: true); s.str(", RSSI -"); s.dec(world.rng.range(40, 95)) }
        case 20...23:  // mDNSResponder, nsurlsessiond, trustd, apsd
            gen.header(origin(i, sender: "libnetwork.dylib", subsystem: "com.apple.network", category: "connection"))
            r = world.rng.range(1, 900)
            s.str("[C"); s.dec(r); s.str(" "); s.str(world.rng.pick(hosts)); s.str(":443 tcp, tls, definite] event: flow:start_connect @0.0"); s.dec(world.rng.range(10, 99)); s.byte(0x73)
        default:
            // UserEventAgent, PerfPowerServices, WirelessRadioManagerd, gamepolicyd, useractivityd, callservicesd.
            gen.header(origin(i, sender: "RunningBoardServices", subsystem: "com.apple.runningboard", category: "monitor"))
            s.str("Removing source registration for processHandle: "); s.dec(world.rng.range(200, 9_999))
        }
        s.newline()
    }

    /// A line of a live app's own (never a lifecycle callback), with its pid and executable.
    func appLine() -> Bool {
        guard !world.session.springBoardOnly, !world.live.isEmpty else { return false }
        let p = world.live[world.rng.below(world.live.count)]
        let s = gen.out
        var o = Origin(process: p.app.exec, pid: p.pid, tid: UInt64(p.pid) * 97 + UInt64(world.rng.below(4)) * 131)
        if p.app.apple {
            o.sender = "WebKit"; o.subsystem = "com.apple.WebKit"; o.category = "Loading"
            gen.header(o)
            s.str("WebPageProxy::didFinishLoadForFrame: frameID="); s.dec(world.rng.range(3, 90)); s.str(", isMainFrame=1")
        } else {
            o.subsystem = nil
            gen.header(o)
            if world.rng.chance(500) {
                s.str("[Net] GET https://"); s.str(world.rng.pick(hosts)); s.str(world.rng.pick(urlPaths)); s.str(" -> "); s.dec(world.rng.pick([200, 200, 304, 401, 500] as [Int]))
                s.str(" ("); s.dec(world.rng.range(8, 3000)); s.str(" ms)")
            } else {
                ShortLines.message(s, &world.rng)
            }
        }
        s.newline()
        return true
    }
}
