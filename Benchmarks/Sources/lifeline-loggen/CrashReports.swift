/// Crash reports for the triage set, in the two shapes devices and Xcode produce (after
/// SampleLogs/watchdog-scene-create.ips and SampleLogs/exception-launch.crash): `.ips` (a JSON
/// header line, then a pretty-printed JSON body) and text `.crash`. One report is one event for
/// Lifeline (`failure.watchdog` or `failure.crashReport`). Each family's literal occurs once.
extension Generator {
    func crashReport(_ f: Family) {
        guard let shape = f.crash else { return }
        let app = apps[f.app]
        app.spawn(&rng)
        clock += Int64(rng.range(60, 86_400 * 3)) * 1_000_000
        switch shape {
        case .ipsWatchdog(let event): ipsWatchdog(app, event: event)
        case .textException: textException(app)
        case .ipsSwiftTrap(let message): ipsSwiftTrap(app, message: message)
        case .textWatchdog(let event): textWatchdog(app, event: event)
        case .ipsBadAccess: ipsBadAccess(app)
        }
        out.flush()
    }

    // MARK: Pieces

    private func uuidString(upper: Bool = true) -> String {
        let s = String(format16: rng.next()) + String(format16: rng.next())
        let c = Array(upper ? s.uppercased() : s)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-4" + String(c[13..<16]) + (upper ? "-A" : "-a") + String(c[17..<20]) + "-" + String(c[20..<32])
    }

    private func hexString(_ digits: Int) -> String {
        var s = ""
        while s.count < digits { s += String(format16: rng.next()) }
        return String(s.prefix(digits))
    }

    /// `2025-04-22 07:31:48.2913 +0200` from the generator's clock; `decimals` 2 or 4.
    private func crashDate(_ us: Int64, zone: String, decimals: Int) -> String {
        let day = us / 86_400_000_000
        let (y, m, d) = civil(day)
        let rem = Int(us - day * 86_400_000_000)
        let secs = rem / 1_000_000
        let frac = rem % 1_000_000 / (decimals == 2 ? 10_000 : 100)
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2)) \(pad(secs / 3600, 2)):\(pad(secs / 60 % 60, 2)):\(pad(secs % 60, 2)).\(pad(frac, decimals)) \(zone)"
    }

    private func civil(_ z0: Int64) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), Int(m), Int(d))
    }

    private func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    private func name(_ app: AppProcess) -> String { String(decoding: app.name, as: UTF8.self) }
    private func bundle(_ app: AppProcess) -> String { String(decoding: app.bundleID, as: UTF8.self) }

    private var osVersions: [(String, String)] {
        [("iPhone OS 17.6.1", "21G93"), ("iPhone OS 18.3.2", "22D82"), ("iPhone OS 18.5", "22F76"), ("iPhone OS 17.5.1", "21F90")]
    }

    private var models: [String] { ["iPhone14,5", "iPhone15,2", "iPhone16,1", "iPhone17,3", "iPad13,18"] }

    private var zones: [String] { ["+0000", "+0100", "+0200", "-0500", "-0800", "+0900", "+0530"] }

    // MARK: .ips

    private struct IPSFrame {
        let symbol: String
        let image: Int
        let location: Int
    }

    private func ipsFrames(_ frames: [IPSFrame]) -> String {
        frames.map { f in
            "{\"imageOffset\":\(rng.range(1_000, 5_000_000)),\"symbol\":\"\(f.symbol)\",\"symbolLocation\":\(f.location),\"imageIndex\":\(f.image)}"
        }.joined(separator: ",")
    }

    /// The `usedImages` list: the app first, then the given system images.
    private func usedImages(_ app: AppProcess, appPath: String, appUUID: String, system: [(String, String)]) -> [String] {
        var lines = ["  \"usedImages\" : ["]
        var entries: [String] = []
        entries.append("""
          {
            "source" : "P",
            "arch" : "arm64",
            "base" : \(4_294_967_296 + rng.range(1, 60_000) * 16_384),
            "size" : \(rng.range(40, 400) * 16_384),
            "uuid" : "\(appUUID)",
            "path" : "\(appPath.replacingSlashes())",
            "name" : "\(name(app))"
          }
        """)
        for (image, path) in system {
            entries.append("""
              {
                "source" : "P",
                "arch" : "arm64e",
                "base" : \(6_442_450_944 + rng.range(1, 120_000) * 16_384),
                "size" : \(rng.range(2, 2_000) * 16_384),
                "uuid" : "\(uuidString(upper: false))",
                "path" : "\(path.replacingSlashes())",
                "name" : "\(image)"
              }
            """)
        }
        lines.append(entries.joined(separator: ",\n"))
        lines.append("],")
        return lines
    }

    /// The header line and the body's opening fields, up to and including `"bundleInfo"`.
    private func ipsOpening(_ app: AppProcess, appPath: String, appUUID: String, incident: String,
                            captureUS: Int64, zone: String, os: (String, String), version: (String, String)) {
        let launchUS = captureUS - Int64(rng.range(2_000, 400_000)) * 1_000
        out.line("{\"app_name\":\"\(name(app))\",\"timestamp\":\"\(crashDate(captureUS, zone: zone, decimals: 2))\",\"app_version\":\"\(version.0)\",\"slice_uuid\":\"\(appUUID)\",\"adam_id\":\"0\",\"build_version\":\"\(version.1)\",\"platform\":2,\"bundleID\":\"\(bundle(app))\",\"share_with_app_devs\":1,\"is_first_party\":0,\"bug_type\":\"309\",\"os_version\":\"\(os.0) (\(os.1))\",\"roots_installed\":0,\"incident_id\":\"\(incident)\",\"name\":\"\(name(app))\"}")
        out.line("{")
        out.line("  \"uptime\" : \(rng.range(100, 900_000)),")
        out.line("  \"procRole\" : \"Foreground\",")
        out.line("  \"version\" : 2,")
        out.line("  \"userID\" : 501,")
        out.line("  \"deployVersion\" : 210,")
        out.line("  \"modelCode\" : \"\(rng.pick(models))\",")
        out.line("  \"coalitionID\" : \(rng.range(300, 9_000)),")
        out.line("  \"osVersion\" : {")
        out.line("    \"isEmbedded\" : true,")
        out.line("    \"train\" : \"\(os.0)\",")
        out.line("    \"releaseType\" : \"User\",")
        out.line("    \"build\" : \"\(os.1)\"")
        out.line("  },")
        out.line("  \"captureTime\" : \"\(crashDate(captureUS, zone: zone, decimals: 4))\",")
        out.line("  \"codeSigningMonitor\" : 2,")
        out.line("  \"incident\" : \"\(incident)\",")
        out.line("  \"pid\" : \(app.pid),")
        out.line("  \"cpuType\" : \"ARM-64\",")
        out.line("  \"roots_installed\" : 0,")
        out.line("  \"bug_type\" : \"309\",")
        out.line("  \"procLaunch\" : \"\(crashDate(launchUS, zone: zone, decimals: 4))\",")
        out.line("  \"procStartAbsTime\" : \(rng.range(1_000_000, 900_000_000) * 100),")
        out.line("  \"procExitAbsTime\" : \(rng.range(900_000_001, 999_999_999) * 100),")
        out.line("  \"procName\" : \"\(name(app))\",")
        out.line("  \"procPath\" : \"\(appPath.replacingSlashes())\",")
        out.line("  \"bundleInfo\" : {\"CFBundleShortVersionString\":\"\(version.0)\",\"CFBundleVersion\":\"\(version.1)\",\"CFBundleIdentifier\":\"\(bundle(app))\"},")
        out.line("  \"storeInfo\" : {\"deviceIdentifierForVendor\":\"\(uuidString())\",\"thirdParty\":true},")
        out.line("  \"parentProc\" : \"launchd\",")
        out.line("  \"parentPid\" : 1,")
        out.line("  \"coalitionName\" : \"\(bundle(app))\",")
        out.line("  \"crashReporterKey\" : \"\(hexString(40))\",")
        out.line("  \"isBeta\" : 0,")
        out.line("  \"wasUnlockedSinceBoot\" : 1,")
        out.line("  \"isLocked\" : 0,")
        out.line("  \"codeSigningID\" : \"\(bundle(app))\",")
        out.line("  \"codeSigningTeamID\" : \"X7Q2M9K4LP\",")
        out.line("  \"bootSessionUUID\" : \"\(uuidString())\",")
        out.line("  \"basebandVersion\" : \"2.\(rng.range(10, 80)).0\(rng.range(1, 9))\",")
    }

    private func ipsClosing() {
        out.line("  \"sharedCache\" : {\"base\":\(6_442_450_944 + rng.range(1, 9_000) * 16_384),\"size\":4658626560,\"uuid\":\"\(uuidString(upper: false))\"},")
        out.line("  \"legacyInfo\" : {\"threadTriggered\":{\"queue\":\"com.apple.main-thread\"}},")
        out.line("  \"logWritingSignature\" : \"\(hexString(40))\",")
        out.line("  \"trialInfo\" : {\"rollouts\":[],\"experiments\":[]}")
        out.line("}")
    }

    private func threadState() -> String {
        "{\"x\":[{\"value\":\(rng.range(0, 20))},{\"value\":0},{\"value\":0},{\"value\":\(rng.range(6_000_000_000, 6_200_000_000))},{\"value\":0},{\"value\":0}],\"flavor\":\"ARM_THREAD_STATE64\",\"lr\":{\"value\":\(rng.range(7_000_000_000, 7_100_000_000))},\"cpsr\":{\"value\":1610612736},\"fp\":{\"value\":\(rng.range(6_100_000_000, 6_200_000_000))},\"sp\":{\"value\":\(rng.range(6_100_000_000, 6_200_000_000))},\"esr\":{\"value\":1442840704,\"description\":\" Address size fault\"},\"pc\":{\"value\":\(rng.range(7_800_000_000, 7_900_000_000)),\"matchesCrashFrame\":1},\"far\":{\"value\":0}}"
    }

    private func eventFetchThread(image kernel: Int, cf: Int, uikit: Int) -> String {
        "{\"id\":\(rng.range(1_000_000, 9_000_000)),\"name\":\"com.apple.uikit.eventfetch-thread\",\"frames\":[" + ipsFrames([
            IPSFrame(symbol: "mach_msg2_trap", image: kernel, location: 8),
            IPSFrame(symbol: "mach_msg2_internal", image: kernel, location: 76),
            IPSFrame(symbol: "mach_msg_overwrite", image: kernel, location: 484),
            IPSFrame(symbol: "__CFRunLoopServiceMachPort", image: cf, location: 160),
            IPSFrame(symbol: "__CFRunLoopRun", image: cf, location: 1212),
            IPSFrame(symbol: "CFRunLoopRunSpecific", image: cf, location: 572),
            IPSFrame(symbol: "-[UIEventFetcher threadMain]", image: uikit, location: 420),
        ]) + "]}"
    }

    private func ipsWatchdog(_ app: AppProcess, event: String) {
        let incident = uuidString(), appUUID = uuidString(upper: false), containerUUID = uuidString()
        let appPath = "/private/var/containers/Bundle/Application/\(containerUUID)/\(name(app)).app/\(name(app))"
        let zone = rng.pick(zones)
        ipsOpening(app, appPath: appPath, appUUID: appUUID, incident: incident, captureUS: clock, zone: zone,
                   os: rng.pick(osVersions), version: ("5.\(rng.range(0, 9)).0", "\(rng.range(5_000, 5_999))"))
        let allowance = 19.96
        let total = rng.range(1_000, 9_999), share = rng.range(100, 900)
        out.line("  \"exception\" : {\"codes\":\"0x0000000000000000, 0x0000000000000000\",\"rawCodes\":[0,0],\"type\":\"EXC_CRASH\",\"signal\":\"SIGKILL\"},")
        out.line("  \"termination\" : {\"code\":2343432205,\"flags\":6,\"namespace\":\"FRONTBOARD\",\"reasons\":[\"<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:\(event) watchdog transgression: app<\(bundle(app))(\(containerUUID))>:\(app.pid) exhausted real (wall clock) time allowance of \(allowance) seconds\",\"ProcessVisibility: Foreground\",\"ProcessState: Running\",\"WatchdogEvent: \(event)\",\"WatchdogVisibility: Foreground\",\"WatchdogCPUStatistics: (\",\"\\\"Elapsed total CPU time (seconds): \(total / 1000).\(pad(total % 1000, 3)) (user \(total / 1000).\(pad(total % 1000, 3)), system 0.000), \(total / 200)% CPU\\\",\",\"\\\"Elapsed application CPU time (seconds): 0.\(share), \(share / 200)% CPU\\\"\",\") reportType:CrashLog maxTerminationResistance:Interactive>\"]},")
        out.line("  \"faultingThread\" : 0,")
        // Images: 0 app, 1 kernel, 2 libdispatch, 3 UIKitCore, 4 FrontBoardServices, 5 CoreFoundation, 6 dyld, 7 pthread.
        let main = ipsFrames([
            IPSFrame(symbol: "semaphore_wait_trap", image: 1, location: 8),
            IPSFrame(symbol: "_dispatch_sema4_wait", image: 2, location: 28),
            IPSFrame(symbol: "_dispatch_semaphore_wait_slow", image: 2, location: 132),
            IPSFrame(symbol: "RemoteConfigLoader.loadBlocking()", image: 0, location: 284),
            IPSFrame(symbol: "SceneDelegate.scene(_:willConnectTo:options:)", image: 0, location: 196),
            IPSFrame(symbol: "@objc SceneDelegate.scene(_:willConnectTo:options:)", image: 0, location: 64),
            IPSFrame(symbol: "+[UIScene _sceneForFBSScene:create:withSession:connectionOptions:]", image: 3, location: 1492),
            IPSFrame(symbol: "-[UIApplication _connectUISceneFromFBSScene:transitionContext:]", image: 3, location: 864),
            IPSFrame(symbol: "-[UIApplication workspace:didCreateScene:withTransitionContext:completion:]", image: 3, location: 352),
            IPSFrame(symbol: "-[UIApplicationSceneClientAgent scene:didInitializeWithEvent:completion:]", image: 3, location: 288),
            IPSFrame(symbol: "-[FBSScene _callOutQueue_agent_didCreateWithTransitionContext:completion:]", image: 4, location: 456),
            IPSFrame(symbol: "-[_UISceneLifecycleMultiplexer completeApplicationLaunchWithFBSScene:transitionContext:]", image: 3, location: 132),
            IPSFrame(symbol: "-[UIApplication _runWithMainScene:transitionContext:completion:]", image: 3, location: 976),
            IPSFrame(symbol: "-[UIApplication _run]", image: 3, location: 912),
            IPSFrame(symbol: "UIApplicationMain", image: 3, location: 340),
            IPSFrame(symbol: "main", image: 0, location: 64),
            IPSFrame(symbol: "start", image: 6, location: 2724),
        ])
        out.line("  \"threads\" : [{\"triggered\":true,\"id\":\(rng.range(1_000_000, 9_000_000)),\"threadState\":\(threadState()),\"queue\":\"com.apple.main-thread\",\"frames\":[\(main)]},\(eventFetchThread(image: 1, cf: 5, uikit: 3)),{\"id\":\(rng.range(1_000_000, 9_000_000)),\"frames\":[\(ipsFrames([IPSFrame(symbol: "start_wqthread", image: 7, location: 0)]))]}],")
        for l in usedImages(app, appPath: appPath, appUUID: appUUID, system: [
            ("libsystem_kernel.dylib", "/usr/lib/system/libsystem_kernel.dylib"),
            ("libdispatch.dylib", "/usr/lib/system/libdispatch.dylib"),
            ("UIKitCore", "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"),
            ("FrontBoardServices", "/System/Library/PrivateFrameworks/FrontBoardServices.framework/FrontBoardServices"),
            ("CoreFoundation", "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"),
            ("dyld", "/usr/lib/dyld"),
            ("libsystem_pthread.dylib", "/usr/lib/system/libsystem_pthread.dylib"),
        ]) { out.line(l) }
        ipsClosing()
    }

    private func ipsSwiftTrap(_ app: AppProcess, message: String) {
        let incident = uuidString(), appUUID = uuidString(upper: false), containerUUID = uuidString()
        let appPath = "/private/var/containers/Bundle/Application/\(containerUUID)/\(name(app)).app/\(name(app))"
        let module = String(describing: app.t.module)
        ipsOpening(app, appPath: appPath, appUUID: appUUID, incident: incident, captureUS: clock, zone: rng.pick(zones),
                   os: rng.pick(osVersions), version: ("3.\(rng.range(0, 9))", "\(rng.range(300, 399))"))
        let pc = rng.range(4_300_000_000, 4_310_000_000)
        out.line("  \"exception\" : {\"codes\":\"0x0000000000000001, 0x\(String(format16: UInt64(pc)).suffix(16))\",\"rawCodes\":[1,\(pc)],\"type\":\"EXC_BREAKPOINT\",\"signal\":\"SIGTRAP\"},")
        out.line("  \"termination\" : {\"flags\":0,\"code\":5,\"namespace\":\"SIGNAL\",\"indicator\":\"Trace\\/BPT trap: 5\",\"byProc\":\"exc handler\",\"byPid\":\(app.pid)},")
        out.line("  \"asi\" : {\"libswiftCore.dylib\":[\"\(module)\\/PlayerViewModel.swift:301: Fatal error: \(message)\"]},")
        out.line("  \"faultingThread\" : 0,")
        // Images: 0 app, 1 libswiftCore, 2 SwiftUI, 3 UIKitCore, 4 CoreFoundation, 5 dyld, 6 kernel, 7 pthread.
        let main = ipsFrames([
            IPSFrame(symbol: "_assertionFailure(_:_:file:line:flags:)", image: 1, location: 1208),
            IPSFrame(symbol: "PlayerViewModel.play(episode:)", image: 0, location: 812),
            IPSFrame(symbol: "closure #2 in EpisodeRow.body.getter", image: 0, location: 96),
            IPSFrame(symbol: "PrimitiveButtonStyleConfiguration.trigger()", image: 2, location: 40),
            IPSFrame(symbol: "closure #1 in PressableGestureCallbacks.dispatch(phase:state:)", image: 2, location: 60),
            IPSFrame(symbol: "-[UIGestureRecognizer _updateGestureForActiveEvents]", image: 3, location: 1304),
            IPSFrame(symbol: "-[UIApplication sendEvent:]", image: 3, location: 428),
            IPSFrame(symbol: "__CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE0_PERFORM_FUNCTION__", image: 4, location: 28),
            IPSFrame(symbol: "__CFRunLoopRun", image: 4, location: 1996),
            IPSFrame(symbol: "CFRunLoopRunSpecific", image: 4, location: 588),
            IPSFrame(symbol: "-[UIApplication _run]", image: 3, location: 816),
            IPSFrame(symbol: "UIApplicationMain", image: 3, location: 340),
            IPSFrame(symbol: "main", image: 0, location: 84),
            IPSFrame(symbol: "start", image: 5, location: 2724),
        ])
        out.line("  \"threads\" : [{\"triggered\":true,\"id\":\(rng.range(1_000_000, 9_000_000)),\"threadState\":\(threadState()),\"queue\":\"com.apple.main-thread\",\"frames\":[\(main)]},\(eventFetchThread(image: 6, cf: 4, uikit: 3)),{\"id\":\(rng.range(1_000_000, 9_000_000)),\"frames\":[\(ipsFrames([IPSFrame(symbol: "start_wqthread", image: 7, location: 0)]))]}],")
        for l in usedImages(app, appPath: appPath, appUUID: appUUID, system: [
            ("libswiftCore.dylib", "/usr/lib/swift/libswiftCore.dylib"),
            ("SwiftUI", "/System/Library/Frameworks/SwiftUI.framework/SwiftUI"),
            ("UIKitCore", "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"),
            ("CoreFoundation", "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"),
            ("dyld", "/usr/lib/dyld"),
            ("libsystem_kernel.dylib", "/usr/lib/system/libsystem_kernel.dylib"),
            ("libsystem_pthread.dylib", "/usr/lib/system/libsystem_pthread.dylib"),
        ]) { out.line(l) }
        ipsClosing()
    }

    private func ipsBadAccess(_ app: AppProcess) {
        let incident = uuidString(), appUUID = uuidString(upper: false), containerUUID = uuidString()
        let appPath = "/private/var/containers/Bundle/Application/\(containerUUID)/\(name(app)).app/\(name(app))"
        ipsOpening(app, appPath: appPath, appUUID: appUUID, incident: incident, captureUS: clock, zone: rng.pick(zones),
                   os: rng.pick(osVersions), version: ("7.\(rng.range(0, 9)).\(rng.range(0, 9))", "\(rng.range(7_000, 7_999))"))
        let address = rng.pick([0x10, 0x18, 0x20, 0x28, 0x8] as [Int])
        let hexAddress = String(repeating: "0", count: 14 - String(address, radix: 16).count + 2) + String(address, radix: 16)
        out.line("  \"exception\" : {\"codes\":\"0x0000000000000001, 0x\(hexAddress)\",\"rawCodes\":[1,\(address)],\"type\":\"EXC_BAD_ACCESS\",\"signal\":\"SIGSEGV\",\"subtype\":\"KERN_INVALID_ADDRESS at 0x\(hexAddress)\"},")
        out.line("  \"vmRegionInfo\" : \"0x\(String(address, radix: 16)) is not in any region.  Bytes before following region: \(rng.range(4_000_000_000, 4_300_000_000))\\n      REGION TYPE                 START - END      [ VSIZE] PRT\\/MAX SHRMOD  REGION DETAIL\\n      UNUSED SPACE AT START\\n--->  \\n      __TEXT                   102a8c000-102b94000 [ 1056K] r-x\\/r-x SM=COW  \\/var\\/containers\\/Bundle\\/Application\\/\(containerUUID)\\/\(name(app)).app\\/\(name(app))\",")
        out.line("  \"termination\" : {\"flags\":0,\"code\":11,\"namespace\":\"SIGNAL\",\"indicator\":\"Segmentation fault: 11\",\"byProc\":\"exc handler\",\"byPid\":\(app.pid)},")
        out.line("  \"faultingThread\" : 3,")
        // Images: 0 app, 1 libobjc, 2 libdispatch, 3 kernel, 4 CoreFoundation, 5 UIKitCore, 6 dyld, 7 pthread.
        let main = ipsFrames([
            IPSFrame(symbol: "mach_msg2_trap", image: 3, location: 8),
            IPSFrame(symbol: "mach_msg2_internal", image: 3, location: 80),
            IPSFrame(symbol: "__CFRunLoopServiceMachPort", image: 4, location: 160),
            IPSFrame(symbol: "__CFRunLoopRun", image: 4, location: 1212),
            IPSFrame(symbol: "CFRunLoopRunSpecific", image: 4, location: 588),
            IPSFrame(symbol: "-[UIApplication _run]", image: 5, location: 888),
            IPSFrame(symbol: "UIApplicationMain", image: 5, location: 340),
            IPSFrame(symbol: "main", image: 0, location: 64),
            IPSFrame(symbol: "start", image: 6, location: 2724),
        ])
        let crashed = ipsFrames([
            IPSFrame(symbol: "objc_msgSend", image: 1, location: 32),
            IPSFrame(symbol: "-[NKTileCache tileForKey:]", image: 0, location: 144),
            IPSFrame(symbol: "-[NKMapRenderer renderTileAtPath:]", image: 0, location: 228),
            IPSFrame(symbol: "__38-[NKTileLoader loadTilesForRegion:]_block_invoke", image: 0, location: 96),
            IPSFrame(symbol: "_dispatch_call_block_and_release", image: 2, location: 32),
            IPSFrame(symbol: "_dispatch_client_callout", image: 2, location: 20),
            IPSFrame(symbol: "_dispatch_workloop_worker_thread", image: 2, location: 648),
            IPSFrame(symbol: "_pthread_wqthread", image: 7, location: 288),
        ])
        out.line("  \"threads\" : [{\"id\":\(rng.range(1_000_000, 9_000_000)),\"queue\":\"com.apple.main-thread\",\"frames\":[\(main)]},\(eventFetchThread(image: 3, cf: 4, uikit: 5)),{\"id\":\(rng.range(1_000_000, 9_000_000)),\"frames\":[\(ipsFrames([IPSFrame(symbol: "start_wqthread", image: 7, location: 0)]))]},{\"triggered\":true,\"id\":\(rng.range(1_000_000, 9_000_000)),\"threadState\":\(threadState()),\"queue\":\"org.navkit.tiles.render\",\"frames\":[\(crashed)]}],")
        for l in usedImages(app, appPath: appPath, appUUID: appUUID, system: [
            ("libobjc.A.dylib", "/usr/lib/libobjc.A.dylib"),
            ("libdispatch.dylib", "/usr/lib/system/libdispatch.dylib"),
            ("libsystem_kernel.dylib", "/usr/lib/system/libsystem_kernel.dylib"),
            ("CoreFoundation", "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"),
            ("UIKitCore", "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"),
            ("dyld", "/usr/lib/dyld"),
            ("libsystem_pthread.dylib", "/usr/lib/system/libsystem_pthread.dylib"),
        ]) { out.line(l) }
        ipsClosing()
    }

    // MARK: Text .crash

    private func textHeader(_ app: AppProcess, appPath: String, captureUS: Int64, zone: String, os: (String, String), version: String) {
        let launchUS = captureUS - Int64(rng.range(300, 40_000)) * 1_000
        let lines = [
            "Incident Identifier: \(uuidString())",
            "CrashReporter Key:   \(hexString(40))",
            "Hardware Model:      \(rng.pick(models))",
            "Process:             \(name(app)) [\(app.pid)]",
            "Path:                \(appPath)",
            "Identifier:          \(bundle(app))",
            "Version:             \(version)",
            "AppStoreTools:       16C5031b",
            "Code Type:           ARM-64 (Native)",
            "Role:                Foreground",
            "Parent Process:      launchd [1]",
            "Coalition:           \(bundle(app)) [\(rng.range(300, 9_000))]",
            "",
            "Date/Time:           \(crashDate(captureUS, zone: zone, decimals: 4))",
            "Launch Time:         \(crashDate(launchUS, zone: zone, decimals: 4))",
            "OS Version:          \(os.0) (\(os.1))",
            "Release Type:        User",
            "Baseband Version:    3.\(rng.range(10, 80)).0\(rng.range(1, 9))",
            "Report Version:      104",
            "",
        ]
        for l in lines { out.line(l) }
    }

    /// `5   Candela                       \t0x1029c1b94 -[CDAppDelegate …] + 148 (CDAppDelegate.m:34)`
    private func textFrame(_ index: Int, _ image: String, _ symbol: String, inApp: Bool) -> String {
        var s = String(index)
        s += String(repeating: " ", count: max(1, 4 - s.count))
        s += image + String(repeating: " ", count: max(1, 30 - image.count))
        let base: UInt64 = inApp ? 0x1_0290_0000 : 0x1_9800_0000
        s += "\t0x" + String(base | (rng.next() & 0x0FFF_FFFC), radix: 16) + " " + symbol
        return s
    }

    private func textBinaryImages(_ app: AppProcess, appPath: String, images: [(String, String)]) {
        out.line("")
        out.line("Binary Images:")
        let appBase = 0x1_0290_0000 + UInt64(rng.below(4096)) * 0x4000
        out.line("        0x\(String(appBase, radix: 16)) -         0x\(String(appBase + 0x1F_FFFF, radix: 16)) \(name(app)) arm64  <\(hexString(32))> \(appPath)")
        for (image, path) in images {
            let base = 0x1_9800_0000 + UInt64(rng.below(65_536)) * 0x4000
            out.line("        0x\(String(base, radix: 16)) -         0x\(String(base + 0x7_FFFF, radix: 16)) \(image) arm64e  <\(hexString(32))> \(path)")
        }
        out.line("")
        out.line("EOF")
    }

    private func textException(_ app: AppProcess) {
        let containerUUID = uuidString()
        let appPath = "/private/var/containers/Bundle/Application/\(containerUUID)/\(name(app)).app/\(name(app))"
        textHeader(app, appPath: appPath, captureUS: clock, zone: rng.pick(zones), os: rng.pick(osVersions),
                   version: "2.\(rng.range(0, 9)) (\(rng.range(200, 299)))")
        let me = name(app)
        out.line("Exception Type:  EXC_CRASH (SIGABRT)")
        out.line("Exception Codes: 0x0000000000000000, 0x0000000000000000")
        out.line("Triggered by Thread:  0")
        out.line("")
        out.line("Application Specific Information:")
        out.line("abort() called")
        out.line("*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '*** -[__NSPlaceholderDictionary initWithObjects:forKeys:count:]: attempt to insert nil object from objects[\(rng.range(0, 6))]'")
        out.line("")
        out.line("")
        out.line("Last Exception Backtrace:")
        let leb: [(String, String, Bool)] = [
            ("CoreFoundation", "__exceptionPreprocess + 164 (NSException.m:249)", false),
            ("libobjc.A.dylib", "objc_exception_throw + 88 (objc-exception.mm:356)", false),
            ("CoreFoundation", "-[__NSPlaceholderDictionary initWithObjects:forKeys:count:] + 700 (NSDictionaryM.m:167)", false),
            ("CoreFoundation", "+[NSDictionary dictionaryWithObjects:forKeys:count:] + 52 (NSDictionary.m:557)", false),
            (me, "-[CDAnalytics startWithLaunchOptions:] + 236 (CDAnalytics.m:61)", true),
            (me, "-[CDAppDelegate application:didFinishLaunchingWithOptions:] + 148 (CDAppDelegate.m:34)", true),
            ("UIKitCore", "-[UIApplication _handleDelegateCallbacksWithOptions:isSuspended:restoreState:] + 320 (UIApplication.m:2544)", false),
            ("UIKitCore", "-[UIApplication _callInitializationDelegatesWithActions:forCanvas:payload:fromOriginatingProcess:] + 2916 (UIApplication.m:2973)", false),
            ("UIKitCore", "-[UIApplication _runWithMainScene:transitionContext:completion:] + 976 (UIApplication.m:4649)", false),
            ("UIKitCore", "-[_UISceneLifecycleMultiplexer completeApplicationLaunchWithFBSScene:transitionContext:] + 132 (_UISceneLifecycleMultiplexer.m:451)", false),
            ("UIKitCore", "-[UIApplication _run] + 908 (UIApplication.m:3847)", false),
            ("UIKitCore", "UIApplicationMain + 340 (UIApplication.m:5509)", false),
            (me, "main + 64 (main.m:17)", true),
            ("dyld", "start + 2724 (dyldMain.cpp:1338)", false),
        ]
        for (i, f) in leb.enumerated() { out.line(textFrame(i, f.0, f.1, inApp: f.2)) }
        out.line("")
        out.line("Thread 0 name:  Dispatch queue: com.apple.main-thread")
        out.line("Thread 0 Crashed:")
        let crashed: [(String, String, Bool)] = [
            ("libsystem_kernel.dylib", "__pthread_kill + 8", false),
            ("libsystem_pthread.dylib", "pthread_kill + 268 (pthread.c:1721)", false),
            ("libsystem_c.dylib", "abort + 180 (abort.c:118)", false),
            ("libc++abi.dylib", "abort_message + 132 (abort_message.cpp:78)", false),
            ("libc++abi.dylib", "demangling_terminate_handler() + 348 (cxa_default_handlers.cpp:77)", false),
            ("libobjc.A.dylib", "_objc_terminate() + 156 (objc-exception.mm:496)", false),
            ("libc++abi.dylib", "std::__terminate(void (*)()) + 16 (cxa_handlers.cpp:59)", false),
            ("libc++abi.dylib", "std::terminate() + 108 (cxa_handlers.cpp:88)", false),
            ("libobjc.A.dylib", "objc_exception_rethrow + 44 (objc-exception.mm:405)", false),
            ("CoreFoundation", "CFRunLoopRunSpecific + 784 (CFRunLoop.c:3438)", false),
            ("GraphicsServices", "GSEventRunModal + 164 (GSEvent.c:2196)", false),
            ("UIKitCore", "-[UIApplication _run] + 876 (UIApplication.m:3844)", false),
            ("UIKitCore", "UIApplicationMain + 340 (UIApplication.m:5509)", false),
            (me, "main + 64 (main.m:17)", true),
            ("dyld", "start + 2724 (dyldMain.cpp:1338)", false),
        ]
        for (i, f) in crashed.enumerated() { out.line(textFrame(i, f.0, f.1, inApp: f.2)) }
        out.line("")
        out.line("Thread 1:")
        out.line(textFrame(0, "libsystem_pthread.dylib", "start_wqthread + 0", inApp: false))
        out.line("")
        out.line("Thread 2 name:  com.apple.uikit.eventfetch-thread")
        out.line("Thread 2:")
        let fetch: [(String, String)] = [
            ("libsystem_kernel.dylib", "mach_msg2_trap + 8"),
            ("libsystem_kernel.dylib", "mach_msg2_internal + 80 (mach_msg.c:201)"),
            ("CoreFoundation", "__CFRunLoopServiceMachPort + 160 (CFRunLoop.c:2637)"),
            ("CoreFoundation", "__CFRunLoopRun + 1212 (CFRunLoop.c:3021)"),
            ("CoreFoundation", "CFRunLoopRunSpecific + 588 (CFRunLoop.c:3434)"),
            ("Foundation", "-[NSRunLoop(NSRunLoop) runMode:beforeDate:] + 212 (NSRunLoop.m:373)"),
            ("UIKitCore", "-[UIEventFetcher threadMain] + 420 (UIEventFetcher.m:1207)"),
            ("Foundation", "__NSThread__start__ + 724 (NSThread.m:991)"),
            ("libsystem_pthread.dylib", "_pthread_start + 136 (pthread.c:931)"),
            ("libsystem_pthread.dylib", "thread_start + 8"),
        ]
        for (i, f) in fetch.enumerated() { out.line(textFrame(i, f.0, f.1, inApp: false)) }
        out.line("")
        out.line("")
        out.line("Thread 0 crashed with ARM Thread State (64-bit):")
        out.line("    x0: 0x0000000000000000   x1: 0x0000000000000000   x2: 0x0000000000000000   x3: 0x0000000000000000")
        out.line("    fp: 0x000000016d4fe810   lr: 0x00000001fd5fac0c")
        out.line("    sp: 0x000000016d4fe7f0   pc: 0x00000001e9b4a42c cpsr: 0x40001000")
        out.line("   esr: 0x56000080  Address size fault")
        textBinaryImages(app, appPath: appPath, images: [
            ("dyld", "/usr/lib/dyld"),
            ("libsystem_kernel.dylib", "/usr/lib/system/libsystem_kernel.dylib"),
            ("libsystem_pthread.dylib", "/usr/lib/system/libsystem_pthread.dylib"),
            ("libsystem_c.dylib", "/usr/lib/system/libsystem_c.dylib"),
            ("libc++abi.dylib", "/usr/lib/libc++abi.dylib"),
            ("libobjc.A.dylib", "/usr/lib/libobjc.A.dylib"),
            ("CoreFoundation", "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"),
            ("Foundation", "/System/Library/Frameworks/Foundation.framework/Foundation"),
            ("GraphicsServices", "/System/Library/PrivateFrameworks/GraphicsServices.framework/GraphicsServices"),
            ("UIKitCore", "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"),
        ])
    }

    private func textWatchdog(_ app: AppProcess, event: String) {
        let containerUUID = uuidString()
        let appPath = "/private/var/containers/Bundle/Application/\(containerUUID)/\(name(app)).app/\(name(app))"
        textHeader(app, appPath: appPath, captureUS: clock, zone: rng.pick(zones), os: rng.pick(osVersions),
                   version: "4.\(rng.range(0, 20)) (\(rng.range(4_000, 4_999)))")
        let me = name(app)
        let total = rng.range(1_000, 6_000), share = rng.range(100, 900)
        out.line("Exception Type:  EXC_CRASH (SIGKILL)")
        out.line("Exception Codes: 0x0000000000000000, 0x0000000000000000")
        out.line("Termination Reason: FRONTBOARD 2343432205 ")
        out.line("<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:\(event) watchdog transgression: app<\(bundle(app))(\(containerUUID))>:\(app.pid) exhausted real (wall clock) time allowance of 20.00 seconds")
        out.line("ProcessVisibility: Foreground")
        out.line("ProcessState: Running")
        out.line("WatchdogEvent: \(event)")
        out.line("WatchdogVisibility: Foreground")
        out.line("WatchdogCPUStatistics: (")
        out.line("\"Elapsed total CPU time (seconds): \(total / 1000).\(pad(total % 1000, 3)) (user \(total / 1000).\(pad(total % 1000, 3)), system 0.000), \(total / 200)% CPU\",")
        out.line("\"Elapsed application CPU time (seconds): 0.\(share), \(share / 200)% CPU\"")
        out.line(") reportType:CrashLog maxTerminationResistance:Interactive>")
        out.line("")
        out.line("Triggered by Thread:  0")
        out.line("")
        out.line("Thread 0 name:   Dispatch queue: com.apple.main-thread")
        out.line("Thread 0 Crashed:")
        let main: [(String, String, Bool)] = [
            ("libsystem_kernel.dylib", "mach_msg2_trap + 8", false),
            ("libsystem_kernel.dylib", "mach_msg2_internal + 80 (mach_msg.c:201)", false),
            ("libsystem_kernel.dylib", "mach_msg_overwrite + 436 (mach_msg.c:0)", false),
            ("libdispatch.dylib", "_dispatch_sema4_wait + 28 (lock.c:139)", false),
            ("libdispatch.dylib", "_dispatch_semaphore_wait_slow + 132 (semaphore.c:132)", false),
            (me, "-[RSLocationBootstrap waitForFirstFix] + 212 (RSLocationBootstrap.m:88)", true),
            (me, "-[RSAppDelegate application:didFinishLaunchingWithOptions:] + 380 (RSAppDelegate.m:57)", true),
            ("UIKitCore", "-[UIApplication _handleDelegateCallbacksWithOptions:isSuspended:restoreState:] + 320 (UIApplication.m:2544)", false),
            ("UIKitCore", "-[UIApplication _callInitializationDelegatesWithActions:forCanvas:payload:fromOriginatingProcess:] + 2916 (UIApplication.m:2973)", false),
            ("UIKitCore", "-[UIApplication _runWithMainScene:transitionContext:completion:] + 976 (UIApplication.m:4649)", false),
            ("UIKitCore", "-[UIApplication _run] + 908 (UIApplication.m:3847)", false),
            ("UIKitCore", "UIApplicationMain + 340 (UIApplication.m:5509)", false),
            (me, "main + 64 (main.m:17)", true),
            ("dyld", "start + 2724 (dyldMain.cpp:1338)", false),
        ]
        for (i, f) in main.enumerated() { out.line(textFrame(i, f.0, f.1, inApp: f.2)) }
        out.line("")
        out.line("Thread 1:")
        out.line(textFrame(0, "libsystem_pthread.dylib", "start_wqthread + 0", inApp: false))
        out.line("")
        out.line("Thread 2 name:  com.apple.CoreLocation.ConnectionClient")
        out.line("Thread 2:")
        out.line(textFrame(0, "libsystem_kernel.dylib", "mach_msg2_trap + 8", inApp: false))
        out.line(textFrame(1, "CoreLocation", "CLConnectionClient::handleMessage(std::__1::shared_ptr<CLConnectionMessage>) + 96", inApp: false))
        out.line(textFrame(2, "libdispatch.dylib", "_dispatch_client_callout + 20 (object.m:576)", inApp: false))
        out.line("")
        out.line("")
        out.line("Thread 0 crashed with ARM Thread State (64-bit):")
        out.line("    x0: 0x000000000000000e   x1: 0x0000000000000000   x2: 0x0000000000000000   x3: 0x000000016b3a2f50")
        out.line("    fp: 0x000000016b3a2fa0   lr: 0x00000001a2f3c8b0")
        out.line("    sp: 0x000000016b3a2f40   pc: 0x00000001e9b3f688 cpsr: 0x60001000")
        out.line("   esr: 0x56000080  Address size fault")
        textBinaryImages(app, appPath: appPath, images: [
            ("dyld", "/usr/lib/dyld"),
            ("libsystem_kernel.dylib", "/usr/lib/system/libsystem_kernel.dylib"),
            ("libdispatch.dylib", "/usr/lib/system/libdispatch.dylib"),
            ("libsystem_pthread.dylib", "/usr/lib/system/libsystem_pthread.dylib"),
            ("CoreLocation", "/System/Library/Frameworks/CoreLocation.framework/CoreLocation"),
            ("UIKitCore", "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"),
        ])
    }
}

extension String {
    /// 16 lower-case hex digits.
    init(format16 v: UInt64) {
        let s = String(v, radix: 16)
        self = String(repeating: "0", count: 16 - s.count) + s
    }

    /// JSON's `\/` for a path, as Apple's `.ips` files write it.
    func replacingSlashes() -> String {
        var out = ""
        for c in self { if c == "/" { out += "\\/" } else { out.append(c) } }
        return out
    }
}
