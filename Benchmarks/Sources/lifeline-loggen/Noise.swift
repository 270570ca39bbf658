/// Noise: lines of the shapes real captures are full of, none of which is an event.
/// (Documentation/SystemEvents.md made some RunningBoard/SpringBoard lines events: noise writes none of them.)
extension Generator {
    private static let weights = Weighted([
        10, // 0 CFNetwork task / connection
        9,  // 1 CFNetwork response / summary
        3,  // 2 CFNetwork error with UserInfo
        7,  // 3 libnetwork connection
        2,  // 4 LaunchServices [db]
        8,  // 5 RunningBoard application<…>
        3,  // 6 Deactivation reason
        6,  // 7 JSON payload
        4,  // 8 non-ASCII text
        5,  // 9 hex addresses / object descriptions
        4,  // 10 xpc
        1,  // 11 background task warning
        1,  // 12 keyboard
        1,  // 13 constraints (multi-line)
        9,  // 14 app networking
        6,  // 15 analytics
        2,  // 16 sandbox
        4,  // 17 SpringBoard
        2,  // 18 boringssl
        2,  // 19 location
        3,  // 20 CoreData
        2,  // 21 media
        2,  // 22 telephony
        3,  // 23 print() (Xcode only)
        1,  // 24 multi-line NSError description
    ])

    func noiseItem() {
        if rng.chance(2) { longLine(); return }
        if seg.format == .xcode && rng.below(2000) == 0 { out.newline(); return }
        let s = out
        let pick = Self.weights.pick(&rng)
        // With a system world, RunningBoard's and SpringBoard's lines are its stories (or lines about
        // its live processes that are no event) wherever the capture has system lines.
        if pick == 5 || pick == 17, let world, world.takesSlot {
            world.slot()
            return
        }
        switch pick {
        case 0:
            var o = noiseOrigin(daemon: 4)
            o.sender = "CFNetwork"; o.subsystem = "com.apple.CFNetwork"; o.category = "Default"
            header(o, xcodeCategory: false)
            taskID()
            switch rng.below(3) {
            case 0: s.str(" now using Connection "); s.dec(rng.range(1, 400))
            case 1: s.str(" done using Connection "); s.dec(rng.range(1, 400))
            default: s.str(" resuming, timeouts(60.0, 604800.0) qos(0x19) voucher((null)) activity(00000000-0000-0000-0000-000000000000)")
            }
        case 1:
            var o = noiseOrigin(daemon: 4)
            o.sender = "CFNetwork"; o.subsystem = "com.apple.CFNetwork"; o.category = "Summary"
            header(o, xcodeCategory: false)
            taskID()
            if rng.chance(600) {
                s.str(" received response, status "); s.dec(rng.pick([200, 200, 200, 204, 304, 401, 404, 500]))
                s.str(" content "); s.str(rng.chance(500) ? "K" : "C")
            } else {
                s.str(" summary for task success {transaction_duration_ms="); s.dec(rng.range(20, 4000))
                s.str(", response_status=200, connection="); s.dec(rng.range(1, 400))
                s.str(", protocol=\"h2\", domain_lookup_duration_ms=0, connect_duration_ms=0, secure_connection_duration_ms=0, private_relay=false, request_start_ms=0, request_duration_ms=0, response_start_ms=")
                s.dec(rng.range(20, 4000)); s.str(", response_duration_ms=0, request_bytes="); s.dec(rng.range(100, 3000))
                s.str(", request_throughput_kbps=0, response_bytes="); s.dec(rng.range(100, 900_000))
                s.str(", response_throughput_kbps="); s.dec(rng.range(100, 90_000)); s.str(", cache_hit=false}")
            }
        case 2:
            var o = noiseOrigin(daemon: 4)
            o.sender = "CFNetwork"; o.subsystem = "com.apple.CFNetwork"; o.category = "Default"; o.level = .error
            header(o, xcodeCategory: false)
            taskID()
            s.str(" finished with error [-1001] Error Domain=NSURLErrorDomain Code=-1001 \"The request timed out.\" UserInfo={_kCFStreamErrorCodeKey=-2102, NSUnderlyingError=0x")
            s.hex(0x6000_0000_0000 | (rng.next() & 0xFF_FFFF_FFF0))
            s.str(" {Error Domain=kCFErrorDomainCFNetwork Code=-1001 \"(null)\" UserInfo={_kCFStreamErrorCodeKey=-2102, _kCFStreamErrorDomainKey=4}}, _NSURLErrorFailingURLSessionTaskErrorKey=LocalDataTask ")
            taskID(prefix: "<")
            s.str(", NSErrorFailingURLStringKey=https://"); s.str(rng.pick(hosts)); s.str(rng.pick(urlPaths))
            s.str("?page="); s.dec(rng.range(1, 40)); s.str(", NSLocalizedDescription=The request timed out.}")
        case 3:
            var o = noiseOrigin(daemon: 6)
            o.sender = "libnetwork.dylib"; o.subsystem = "com.apple.network"; o.category = "connection"
            header(o)
            let c = rng.range(1, 300)
            switch rng.below(3) {
            case 0:
                s.str("nw_connection_copy_connected_local_endpoint_block_invoke [C"); s.dec(c); s.str("] Connection has no local endpoint")
            case 1:
                s.str("[C"); s.dec(c); s.byte(0x20); uuid(); s.str(":443 tcp, url hash: "); s.hex(rng.next() & 0xFFFF_FFFF, digits: 8)
                s.str(", tls, definite, attribution: developer] start")
            default:
                s.str("[C"); s.dec(c); s.str(".1.1 192.168."); s.dec(rng.below(255)); s.byte(0x2E); s.dec(rng.below(255))
                s.str(":443 in_progress channel-flow (satisfied (Path is satisfied), viable, interface: en0, ipv4, dns)] event: flow:start_connect @0.0")
                s.dec(rng.range(10, 99)); s.byte(0x73)
            }
        case 4:
            var o = noiseOrigin()
            o.sender = "LaunchServices"; o.subsystem = "com.apple.launchservices"; o.category = "db"; o.level = .error
            header(o)
            if rng.chance(700) {
                s.str("_LSSchemaConfigureForStore failed with error Error Domain=NSOSStatusErrorDomain Code=-10817 \"(null)\" UserInfo={_LSFunction=_LSSchemaConfigureForStore, _LSLine="); s.dec(rng.range(300, 480)); s.byte(0x7D)
            } else {
                s.str("Attempt to map database failed: permission was denied. This attempt will not be retried.")
            }
        case 5:
            var o = noiseOrigin(daemon: 1)
            o.sender = "RunningBoardServices"; o.subsystem = "com.apple.runningboard"; o.category = "process"
            header(o)
            let app = rng.pick(apps)
            switch rng.below(5) {
            // SpringBoard's `Setting process task state to:` is an event of its own without RunningBoard's
            // state (Documentation/SystemEvents.md): noise says what role RunningBoard gave instead.
            case 0: appRef(app); s.str(" Set darwin role to: "); s.str(rng.pick(["UserInteractiveFocal", "Background"] as [StaticString]))
            case 1: s.str("Hit the server for a process handle "); s.hex(rng.next() & 0xFFFF_FFFF_FFFF, digits: 16); s.str(" that resolved to: "); appRef(app)
            case 2:
                s.str("Acquiring assertion targeting "); appRef(app); s.str(" from originator [daemon<com.apple.SpringBoard>:")
                s.dec(daemons[0].pid); s.str("] with description <RBSAssertionDescriptor| \"FBApplicationProcess\" ID:33-")
                s.dec(daemons[0].pid); s.byte(0x2D); s.dec(rng.range(1000, 99_999)); s.str(" target:"); s.dec(app.pid)
                s.str(" attributes:[<RBSDomainAttribute| domain:\"com.apple.frontboard\" name:\"Visible\" sourceEnvironment:\"(null)\">]>")
            case 3: appRef(app); s.str(" Ignoring jetsam update because this process is not memory-managed")
            default: appRef(app); s.str(" Set jetsam priority to "); s.dec(rng.pick([10, 40, 100])); s.str(" [0] flag[1]")
            }
        case 6:
            var o = appOrigin(rng.pick(apps), main: true)
            o.sender = "UIKitCore"; o.subsystem = "com.apple.UIKit"; o.category = "Application"
            header(o, xcodeCategory: false)
            let r = rng.pick([5, 10, 11, 12] as [Int])
            let from = rng.pick([0, 1024, 1056, 3104] as [Int]) & ~(1 << r)
            if rng.chance(500) {
                s.str("Deactivation reason added: "); s.dec(r); s.str("; deactivation reasons: "); s.dec(from); s.str(" -> "); s.dec(from | (1 << r))
            } else {
                s.str("Deactivation reason removed: "); s.dec(r); s.str("; deactivation reasons: "); s.dec(from | (1 << r)); s.str(" -> "); s.dec(from)
            }
            s.str("; animating application lifecycle event: "); s.dec(rng.below(2))
        case 7:
            let app = rng.pick(apps)
            var o = appOrigin(app)
            o.appSubsystem = app.bundleID; o.category = "net"
            header(o)
            s.str("Received payload: {\"id\":\""); uuid(); s.str("\",\"type\":\""); s.str(rng.pick(words)); s.str("\",\"page\":"); s.dec(rng.range(1, 50))
            s.str(",\"items\":[")
            for i in 0..<rng.range(1, 6) {
                if i > 0 { s.byte(0x2C) }
                jsonItem()
            }
            s.str("],\"cursor\":\""); s.hex(rng.next(), digits: 16); s.str("\"}")
        case 8:
            let app = rng.pick(apps)
            var o = appOrigin(app)
            if app.t.usesLogger { o.appSubsystem = app.bundleID; o.category = "ui" }
            header(o)
            s.str(rng.pick(nonAsciiTexts))
            if rng.chance(400) { s.byte(0x20); s.dec(rng.range(1, 99_999)) }
        case 9:
            var o = noiseOrigin()
            switch rng.below(3) {
            case 0:
                o.sender = "QuartzCore"; o.level = .debug
                header(o)
                let layer = addr()
                s.str("<CALayer: 0x"); s.hex(layer); s.str(">; position = CGPoint ("); s.dec(rng.range(0, 400)); s.str(".5 "); s.dec(rng.range(0, 900))
                s.str("); bounds = CGRect (0 0; 375 812); delegate = <UIView: 0x"); s.hex(addr())
                s.str("; frame = (0 0; 375 812); autoresize = W+H; layer = <CALayer: 0x"); s.hex(layer); s.str(">>")
            case 1:
                o.sender = "libsystem_malloc.dylib"
                header(o)
                let a = 0x16F0_0000_0 | (rng.next() & 0xFF_F000)
                let n = rng.range(1, 64) * 4096
                s.str("Memory pressure: freed 0x"); s.hex(a); s.str("-0x"); s.hex(a + UInt64(n)); s.str(" ("); s.dec(n); s.str(" bytes)")
            default:
                o.sender = "FrontBoardServices"; o.subsystem = "com.apple.FrontBoard"; o.category = "Common"
                header(o)
                s.str("Snapshot request 0x"); s.hex(addr()); s.str(" complete with error: <NSError: 0x"); s.hex(addr())
                s.str("; domain: FBSSceneSnapshotErrorDomain; code: 4; reason: \"an unrelated condition or state was not satisfied\">")
            }
        case 10:
            var o = noiseOrigin(daemon: 9)
            o.sender = "libxpc.dylib"; o.subsystem = "com.apple.xpc"; o.category = "connection"
            header(o)
            s.str("[0x"); s.hex(addr()); s.str("] ")
            switch rng.below(3) {
            case 0: s.str("activating connection: mach=true listener=false peer=false name="); s.str(rng.pick(xpcServices))
            case 1: s.str("invalidated after the last release of the connection object")
            default: s.str("Re-initialization successful; calling out to event handler with XPC_ERROR_CONNECTION_INTERRUPTED")
            }
        case 11:
            var o = appOrigin(rng.pick(apps), main: true)
            o.sender = "UIKitCore"; o.subsystem = "com.apple.UIKit"; o.category = "BackgroundTask"; o.level = .error
            header(o)
            s.str("Background Task "); s.dec(rng.range(1, 90)); s.str(" (\""); s.str(rng.pick(words))
            s.str("\"), was created over 30 seconds ago. In applications running in the background, this creates a risk of termination. Remember to call UIApplication.endBackgroundTask(_:) for your task in a timely manner to avoid this.")
        case 12:
            var o = appOrigin(rng.pick(apps), main: true)
            o.sender = "UIKitCore"
            header(o)
            s.str("Can't find keyplane that supports type "); s.dec(rng.range(2, 11)); s.str(" for keyboard "); s.str(rng.pick(keyboards))
            s.str("; using "); s.dec(rng.range(10_000, 99_999)); s.str("_PortraitChoco_iPhone-Simple-Pad_Default")
        case 13:
            constraints()
        case 14:
            let app = rng.pick(apps)
            var o = appOrigin(app)
            if app.t.usesLogger { o.appSubsystem = app.bundleID; o.category = "net" }
            header(o)
            s.str(rng.pick(["[Net] GET ", "[Net] POST ", "[Net] PUT ", "[API] GET "] as [StaticString]))
            s.str("https://"); s.str(rng.pick(hosts)); s.str(rng.pick(urlPaths)); s.str("?page="); s.dec(rng.range(1, 40))
            s.str(" -> "); s.dec(rng.pick([200, 200, 200, 201, 204, 304, 401, 404, 500])); s.str(" ("); s.dec(rng.range(8, 3000))
            s.str(" ms, "); s.dec(rng.range(0, 900)); s.byte(0x2E); s.dec(rng.below(10)); s.str(" KB)")
        case 15:
            let app = rng.pick(apps)
            var o = appOrigin(app)
            if app.t.usesLogger { o.appSubsystem = app.bundleID; o.category = "analytics" }
            header(o)
            s.str("[Analytics] event="); s.str(rng.pick(["screen_view", "tap", "purchase_started", "share"] as [StaticString]))
            s.str(" name="); s.str(rng.pick(screens)); s.str(" props={\"tab\":\""); s.str(rng.pick(words))
            s.str("\",\"session\":\""); uuid(); s.str("\",\"ts\":"); s.dec(Int(clock / 1000))
            s.str(",\"experiment\":\""); s.str(rng.pick(words)); s.byte(0x2D); s.dec(rng.below(4)); s.str("\"}")
        case 16:
            var o = noiseOrigin(daemon: 7)
            o.level = .error
            header(o)
            let app = rng.pick(apps)
            s.str("Sandbox: "); s.bytes(app.module); s.byte(0x28); s.dec(app.pid); s.str(") deny(1) file-read-data "); s.str(rng.pick(sandboxPaths))
        case 17:
            var o = noiseOrigin(daemon: 0)
            o.sender = "FrontBoard"; o.subsystem = "com.apple.FrontBoard"; o.category = "Common"
            header(o)
            let app = rng.pick(apps)
            if rng.chance(500) {
                s.str("SBMainWorkspaceApplicationSceneLayoutElementViewController-sceneID:"); s.bytes(app.bundleID)
                s.str("-default will begin transition to visible "); s.str(rng.chance(500) ? "YES" : "NO")
            } else {
                s.str("Background status assertion invalidated for scene: <FBScene: 0x"); s.hex(addr()); s.str("; sceneID: sceneID:")
                s.bytes(app.bundleID); s.str("-default; valid: NO>")
            }
        case 18:
            var o = noiseOrigin(daemon: 12)
            o.sender = "libboringssl.dylib"; o.subsystem = "com.apple.network"; o.category = "boringssl"
            header(o)
            s.str("boringssl_metrics_log_metric_block_invoke(151) Failed to log metrics")
        case 19:
            var o = noiseOrigin(daemon: 3)
            o.sender = "CoreLocation"; o.subsystem = "com.apple.locationd.Core"; o.category = "Core"
            header(o)
            s.str("{\"msg\":\"CLLocationManager\", \"event\":\"activity\", \"_subMsg\":\"")
            s.str(rng.pick(["requestWhenInUseAuthorization", "startUpdatingLocation", "stopUpdatingLocation"] as [StaticString]))
            s.str("\", \"self\":\"0x"); s.hex(addr()); s.str("\", \"accuracy\":"); s.dec(rng.range(5, 65)); s.str("}")
        case 20:
            let app = rng.pick(apps)
            var o = appOrigin(app, main: false)
            o.sender = "CoreData"; o.subsystem = "com.apple.coredata"; o.category = "sql"
            header(o, xcodeCategory: false)
            if rng.chance(300) {
                s.str("CoreData: annotation: Connecting to sqlite database file at \"/var/mobile/Containers/Data/Application/")
                uuid(); s.str("/Library/Application Support/Model.sqlite\"")
            } else {
                s.str("CoreData: sql: "); s.str(rng.pick(coreDataSQL))
            }
        case 21:
            var o = noiseOrigin(daemon: 15)
            o.sender = "MediaToolbox"
            header(o)
            s.str(rng.pick(mediaTexts))
        case 22:
            var o = noiseOrigin(daemon: 5)
            o.sender = "CoreTelephony"; o.subsystem = "com.apple.telephony"; o.category = "ct"
            header(o)
            s.str(rng.pick(telephony))
        case 23:
            if seg.format == .xcode {
                // print(): stdout, no header (§6.3).
                s.str(rng.pick(printTexts))
            } else {
                let app = rng.pick(apps)
                header(appOrigin(app))
                s.str("[Cache] hit ratio 0."); s.dec(rng.range(10, 99)); s.str(" ("); s.dec(rng.range(100, 5000)); s.str(" lookups)")
            }
        default:
            let app = rng.pick(apps)
            var o = appOrigin(app)
            o.level = .error
            header(o)
            s.str("Error decoding "); s.str(rng.pick(words))
            s.str(": Error Domain=NSCocoaErrorDomain Code=4865 \"The data couldn’t be read because it is missing.\" UserInfo={NSCodingPath=(")
            s.newline()
            s.str("    CodingKeys(stringValue: \"items\", intValue: nil),"); s.newline()
            s.str("    _JSONKey(stringValue: \"Index "); let i = rng.below(20); s.dec(i); s.str("\", intValue: "); s.dec(i); s.str(")"); s.newline()
            s.str("), NSDebugDescription=No value associated with key CodingKeys(stringValue: \"title\", intValue: nil) (\"title\").}")
        }
        s.newline()
    }

    // MARK: Pieces

    private func taskID(prefix: StaticString = "Task <") {
        out.str(prefix); uuid(); out.str(">.<"); out.dec(rng.range(1, 300)); out.byte(0x3E)
    }

    func uuid() { out.uuid(rng.next(), rng.next()) }

    func addr() -> UInt64 { 0x6000_0000_0000 | (rng.next() & 0x0FFF_FFFF_FFF0) }

    private func appRef(_ app: AppProcess) {
        out.str("[application<"); out.bytes(app.bundleID); out.str(">:"); out.dec(app.pid); out.byte(0x5D)
    }

    private func jsonItem() {
        let s = out
        s.str("{\"id\":"); s.dec(rng.range(1, 9_999_999)); s.str(",\"title\":\""); s.str(rng.pick(jsonTitles))
        s.str("\",\"score\":0."); s.dec(rng.range(10, 99)); s.str(",\"tags\":[\""); s.str(rng.pick(words)); s.str("\",\""); s.str(rng.pick(words))
        s.str("\"],\"owner\":\""); s.hex(rng.next(), digits: 12); s.str("\"}")
    }

    /// A 2-8 KB line: a response body or a base64-ish blob.
    private func longLine() {
        let app = rng.pick(apps)
        var o = appOrigin(app)
        if app.t.usesLogger { o.appSubsystem = app.bundleID; o.category = "net" }
        header(o)
        let s = out
        let target = s.pos + rng.range(2_048, 8_192)
        if rng.chance(600) {
            s.str("Response body: {\"data\":[")
            var first = true
            while s.pos < target {
                if !first { s.byte(0x2C) }
                first = false
                jsonItem()
            }
            s.str("],\"next\":null}")
        } else {
            s.str("Persisted state blob=")
            let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
            while s.pos < target {
                var v = rng.next()
                for _ in 0..<10 { s.byte(alphabet.utf8Start[Int(v & 63)]); v >>= 6 }
            }
            s.str("==")
        }
        s.newline()
    }

    /// Auto Layout's multi-line complaint: a record followed by continuation lines.
    private func constraints() {
        let app = rng.pick(apps)
        var o = appOrigin(app, main: true)
        o.sender = "UIKitCore"; o.subsystem = "com.apple.UIKit"; o.category = "LayoutConstraints"
        header(o)
        let s = out
        let label = addr(), view = addr(), c1 = addr(), c2 = addr()
        s.str("Unable to simultaneously satisfy constraints."); s.newline()
        s.str("\tProbably at least one of the constraints in the following list is one you don't want. "); s.newline()
        s.str("\tTry this: "); s.newline()
        s.str("\t\t(1) look at each constraint and try to figure out which you don't expect; "); s.newline()
        s.str("\t\t(2) find the code that added the unwanted constraint or constraints and fix it. "); s.newline()
        s.str("("); s.newline()
        s.str("    \"<NSLayoutConstraint:0x"); s.hex(c1); s.str(" UILabel:0x"); s.hex(label); s.str(".width == 120   (active)>\","); s.newline()
        s.str("    \"<NSLayoutConstraint:0x"); s.hex(c2); s.str(" UILabel:0x"); s.hex(label); s.str(".leading == UIView:0x"); s.hex(view); s.str(".leadingMargin + 16   (active)>\""); s.newline()
        s.str(")"); s.newline()
        s.newline()
        s.str("Will attempt to recover by breaking constraint "); s.newline()
        s.str("<NSLayoutConstraint:0x"); s.hex(c1); s.str(" UILabel:0x"); s.hex(label); s.str(".width == 120   (active)>"); s.newline()
        s.newline()
        s.str("Make a symbolic breakpoint at UIViewAlertForUnsatisfiableConstraints to catch this in the debugger.")
    }
}
