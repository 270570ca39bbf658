import LifelineCore

/// LC-D03: from the user's tap (or the system's first launch line) to the app in the foreground
/// and active took longer than `thresholds.tap-to-foreground`.
struct SlowTapToForegroundRule: Rule {
    static let description = RuleDescription(
        id: "LC-D03", name: "slow-tap-to-foreground", category: .system, severity: .warning,
        summary: "the app came to the foreground long after the user opened it",
        rationale: "What the user waits for runs from the tap (SpringBoard's `SBIconView touches began`, a notification's response, another app's open request) to the app's first frame. Apple's goal for that is 400 ms, the length of the launch animation, and the watchdog ends a launch that has not finished after about 20 s (0x8badf00d). The log shows the wait from the tap, or from the system's first launch line when no tap is logged, to the app's first didBecomeActive (the scene's or the app's), or, for an app that logs no callback, to FrontBoard's word that its scene is in the foreground; FrontBoard says that as soon as the process connects to it, before didFinishLaunching, so for such an app only a slow start before main (dyld, static initializers) shows. It counts the time the system spends creating the process, which `main-thread-blocked-at-launch` (LC-T07, from didFinishLaunching) does not see, and replaces that rule's slow-launch finding for the same launch. A launch the system made in the background or as a prewarm is not one the user waits for. With whole-second times (idevicesyslog) a launch is slow only when it is slow whatever the fractions were.",
        triggering: [
            RuleExample("""
            2026-03-09 08:14:02.118204-0500 SpringBoard[55:601] SBIconView touches began with event: <UITouchesEvent: 0x281f2c100> touches: {(<UITouch: 0x10b61e2c0> phase: Began; responder: <SBIconView: 0x10b83c400; bundleID: com.example.quill>)}
            2026-03-09 08:14:02.147390-0500 SpringBoard[55:601] Bootstrapping app<com.example.quill> with intent foreground-interactive
            2026-03-09 08:14:02.157812-0500 runningboardd[33:700] Now tracking process: [app<com.example.quill>:1893]
            2026-03-09 08:14:02.229871-0500 SpringBoard[55:601] [app<com.example.quill>:1893] Bootstrap success!
            2026-03-09 08:14:02.303917-0500 SpringBoard[55:601] [0x283b91e00:(FBSceneManager):sceneID:com.example.quill-default] Scene lifecycle state did change: Foreground
            2026-03-09 08:14:02.410000-0500 Quill[1893:7001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-03-09 08:14:03.870000-0500 Quill[1893:7001] -[SceneDelegate scene:willConnectToSession:options:]
            2026-03-09 08:14:05.110000-0500 Quill[1893:7001] -[SceneDelegate sceneWillEnterForeground:]
            ↓2026-03-09 08:14:05.120000-0500 Quill[1893:7001] -[SceneDelegate sceneDidBecomeActive:]
            """),
        ],
        nonTriggering: [
            RuleExample("""
            2026-03-09 08:14:02.118204-0500 SpringBoard[55:601] SBIconView touches began with event: <UITouchesEvent: 0x281f2c100> touches: {(<UITouch: 0x10b61e2c0> phase: Began; responder: <SBIconView: 0x10b83c400; bundleID: com.example.quill>)}
            2026-03-09 08:14:02.147390-0500 SpringBoard[55:601] Bootstrapping app<com.example.quill> with intent foreground-interactive
            2026-03-09 08:14:02.157812-0500 runningboardd[33:700] Now tracking process: [app<com.example.quill>:1893]
            2026-03-09 08:14:02.229871-0500 SpringBoard[55:601] [app<com.example.quill>:1893] Bootstrap success!
            2026-03-09 08:14:02.303917-0500 SpringBoard[55:601] [0x283b91e00:(FBSceneManager):sceneID:com.example.quill-default] Scene lifecycle state did change: Foreground
            2026-03-09 08:14:02.410000-0500 Quill[1893:7001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-03-09 08:14:02.470000-0500 Quill[1893:7001] -[SceneDelegate scene:willConnectToSession:options:]
            2026-03-09 08:14:02.610000-0500 Quill[1893:7001] -[SceneDelegate sceneWillEnterForeground:]
            2026-03-09 08:14:02.620000-0500 Quill[1893:7001] -[SceneDelegate sceneDidBecomeActive:]
            """),
            // Launched in the background (a push): the user opens it later.
            RuleExample("""
            2026-03-09 08:14:02.147390-0500 SpringBoard[55:601] Bootstrapping app<com.example.quill> with intent background
            2026-03-09 08:14:02.157812-0500 runningboardd[33:700] Now tracking process: [app<com.example.quill>:1893]
            2026-03-09 08:14:02.410000-0500 Quill[1893:7001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-03-09 08:14:02.430000-0500 Quill[1893:7001] -[AppDelegate application:didReceiveRemoteNotification:fetchCompletionHandler:]
            2026-03-09 08:21:40.303917-0500 SpringBoard[55:601] [0x283b91e00:(FBSceneManager):sceneID:com.example.quill-default] Scene lifecycle state did change: Foreground
            2026-03-09 08:21:40.470000-0500 Quill[1893:7001] -[SceneDelegate scene:willConnectToSession:options:]
            2026-03-09 08:21:40.610000-0500 Quill[1893:7001] -[SceneDelegate sceneWillEnterForeground:]
            2026-03-09 08:21:40.620000-0500 Quill[1893:7001] -[SceneDelegate sceneDidBecomeActive:]
            """),
            // No word of the system about the launch: LC-T07 measures from didFinishLaunching.
            RuleExample("""
            2026-03-09 08:14:02.410000-0500 Quill[1893:7001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-03-09 08:14:03.870000-0500 Quill[1893:7001] -[SceneDelegate scene:willConnectToSession:options:]
            2026-03-09 08:14:05.110000-0500 Quill[1893:7001] -[SceneDelegate sceneWillEnterForeground:]
            2026-03-09 08:14:05.120000-0500 Quill[1893:7001] -[SceneDelegate sceneDidBecomeActive:]
            """),
            RuleExample("""
            2026-03-09 08:14:02.118204-0500 SpringBoard[55:601] SBIconView touches began with event: <UITouchesEvent: 0x281f2c100> touches: {(<UITouch: 0x10b61e2c0> phase: Began; responder: <SBIconView: 0x10b83c400; bundleID: com.example.quill>)}
            2026-03-09 08:14:02.147390-0500 SpringBoard[55:601] Bootstrapping app<com.example.quill> with intent foreground-interactive
            2026-03-09 08:14:02.157812-0500 runningboardd[33:700] Now tracking process: [app<com.example.quill>:1893]
            2026-03-09 08:14:02.410000-0500 Quill[1893:7001] -[AppDelegate application:didFinishLaunchingWithOptions:]
            2026-03-09 08:14:05.120000-0500 Quill[1893:7001] -[SceneDelegate sceneDidBecomeActive:]
            """, config: """
            thresholds:
              tap-to-foreground: 4s
            """),
        ],
        configuration: ["`thresholds.tap-to-foreground`: seconds from the tap (or the system's first launch line) to the app's first didBecomeActive (default 2 s: five times Apple's 400 ms goal for the first frame, a tenth of the launch watchdog's 20 s)"])

    /// What the rule measured in a session: the launch, the event where the app was in the
    /// foreground, and the seconds between the tap and it (at least; whole-second clocks count the
    /// least the times allow).
    struct Measure {
        let launch: Int
        let end: Int
        let seconds: Double
        let leastSeconds: Double
        let byApp: Bool
    }

    static func measure(_ session: SessionView) -> Measure? {
        guard session.hasSystemEvents, session.launchKind != .carPlay,
              let launch = session.indices(of: .systemLaunch).first, let told = session.events[launch].details?.system,
              told.trigger != "prewarm", told.intent != "background",
              told.intent == "foreground-interactive" || told.trigger == "icon" || told.trigger == "notification"
        else { return nil }
        let ending = session.firstEnding ?? session.events.count
        guard launch < ending else { return nil }
        let window = (launch + 1)..<ending
        var end = window.first { i in
            let k = session.events[i].kind
            return (k == .sceneDidBecomeActive || k == .appDidBecomeActive) && !session.isCarPlayCallback(i)
        }
        var byApp = true
        if end == nil, !session.session.hasOwnLifecycle, !session.session.continuesLater {
            end = window.first { i in
                let e = session.events[i]
                return e.kind == .systemSceneState && e.details?.system?.state == "foreground"
            }
            byApp = false
        }
        guard let end, let stop = session.events[end].timestamp, let launched = session.events[launch].timestamp,
              var seconds = stop.interval(since: launched) else { return nil }
        var step = max(stop.resolution, launched.resolution)
        // The tap came before the launch line: `tapTime` is the text the log wrote, so it is compared
        // with the launch line's text (an offset the reader assumed for both stays out of it).
        if let tap = told.tapTime.flatMap(LogTimestamp.init(iso:)), let lead = LogTimestamp(iso: launched.iso)?.interval(since: tap), lead >= 0 {
            seconds += lead
            step = max(step, tap.resolution)
        }
        guard seconds >= 0 else { return nil }
        return Measure(launch: launch, end: end, seconds: seconds, leastSeconds: step >= 1 ? seconds - step : seconds, byApp: byApp)
    }

    /// The slow launch of `session`, if the rule reports one (LC-T07 leaves it to this rule).
    static func slowLaunch(_ session: SessionView, settings: RuleSettings) -> Measure? {
        guard let m = measure(session) else { return nil }
        // At whole seconds a wait of at least the threshold is one of more than it (the fractions are lost).
        let slow = m.leastSeconds < m.seconds ? m.leastSeconds >= settings.tapToForeground : m.seconds > settings.tapToForeground
        return slow ? m : nil
    }

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard let m = Self.slowLaunch(session, settings: settings), let told = session.events[m.launch].details?.system else { return [] }
        let opened: String
        switch told.trigger {
        case "icon": opened = "the user tapped its icon"
        case "notification": opened = "the user tapped its notification"
        case "open-request": opened = "\(told.openedBy ?? "another process") asked to open it"
        default: opened = "the system began launching it"
        }
        let took = m.leastSeconds < m.seconds ? "more than \(duration(m.leastSeconds))" : duration(m.seconds)
        let what = m.byApp ? "\(session.callbackName(m.end)) came \(took) after \(opened)"
            : "FrontBoard put the app's scene in the foreground \(took) after \(opened): the process took that long to reach UIApplicationMain"
        let c = session.context(at: m.end)
        let launch = session.events[m.launch]
        var d = diagnostic(session, event: m.end, scene: c.scene, state: c.state,
                           "\(what) (Apple's goal is the first frame within 400 ms; the watchdog ends a launch at about 20 s)")
        d.related.insert(RelatedLocation(file: launch.file, position: launch.position, message: "the system launched the app here"), at: 0)
        return [d]
    }
}
