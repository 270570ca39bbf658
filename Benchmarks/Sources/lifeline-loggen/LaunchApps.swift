/// The launches shape's apps and its short lines: hundreds of app names built from two word lists
/// (every fifth with a space in its name), each with one of the seven templates' delegates and
/// spelling; `print()` texts of 20-60 bytes and short NSLog messages.

/// One app of the launches shape, and where its last launch left its pid.
final class LaunchApp {
    let process: AppProcess
    /// The pid of its last launch (0: never launched) and when that launch ended (µs, the clock's).
    var lastPid = 0
    var lastEnd: Int64 = .min
    var launches = 0

    init(_ process: AppProcess) { self.process = process }
}

enum LaunchCatalog {
    private static let prefixes = ["Photo", "Field", "Ride", "Pod", "Nav", "Budget", "Recipe", "Habit", "Sleep", "Trail",
                                   "Note", "Chess", "Weather", "Radio", "Book", "Fit", "Plant", "Study", "Travel", "Pixel"]
    private static let suffixes = ["Club", "Notes", "Share", "Kit", "Pro", "Box", "Hub", "Lab", "Go", "Log",
                                   "Pal", "Mate", "Desk", "Flow", "Snap"]

    /// 300 apps, in a fixed order (no randomness: the seed only decides which are launched when).
    static func apps() -> [LaunchApp] {
        var out: [LaunchApp] = []
        for (i, s) in suffixes.enumerated() {
            for (j, p) in prefixes.enumerated() {
                let n = i * prefixes.count + j
                let name = n % 5 == 0 ? "\(p) \(s)" : "\(p)\(s)"
                let module = "\(p)\(s)"
                let bundle = "com.example.\(module.lowercased())"
                let t = appTemplates[n % appTemplates.count]
                out.append(LaunchApp(AppProcess(t, name: Array(name.utf8), module: Array(module.utf8), bundleID: Array(bundle.utf8))))
            }
        }
        return out
    }
}

/// Writes the short lines of a launch: `print()` output without a header (Xcode captures only: print
/// goes to stdout, not to the unified log) and short NSLog/Logger messages. None is an event: no
/// callback spelling, no line starting with a digit, a space, `(`, `{` or `[` (which the reader would
/// take for a stack frame, a JSON line or a bracketed tag).
enum ShortLines {
    /// 20-60 bytes each once the variable part is written.
    static func printLine(_ s: Sink, _ rng: inout SplitMix64) {
        switch rng.below(14) {
        case 0: s.str("viewDidLoad: "); s.str(rng.pick(controllers))
        case 1: s.str("reloading "); s.dec(rng.range(1, 200)); s.str(" rows in section "); s.dec(rng.below(6))
        case 2: s.str("cache hit: avatar_"); s.dec(rng.range(1, 9_999)); s.str(".png ("); s.dec(rng.range(2, 300)); s.str(" KB)")
        case 3: s.str("tap at ("); s.dec(rng.range(0, 430)); s.str(".0, "); s.dec(rng.range(0, 930)); s.str(".5)")
        case 4: s.str("Optional(\"token-"); s.hex(rng.next(), digits: 4); s.str("\")")
        case 5: s.str("didSelectRowAt ["); s.dec(rng.below(4)); s.str(", "); s.dec(rng.below(40)); s.byte(0x5D)
        case 6: s.str("Frame dropped")
        case 7: s.str("count = "); s.dec(rng.below(500))
        case 8: s.str("state -> "); s.str(rng.pick(states))
        case 9: s.str("✅ saved "); s.dec(rng.range(1, 40)); s.str(" items")
        case 10: s.str("prefetching page "); s.dec(rng.range(1, 12)); s.str(" of "); s.dec(rng.range(12, 40))
        case 11: s.str("token refreshed, expires in "); s.dec(rng.range(60, 7_200)); s.str(" s")
        case 12: s.str("DEBUG: layout pass took "); s.dec(rng.range(1, 40)); s.str(" ms")
        default: s.str("player.rate = 1.0, item = episode-"); s.dec(rng.range(1, 999))
        }
    }

    /// A short message for a line with a header.
    static func message(_ s: Sink, _ rng: inout SplitMix64) {
        switch rng.below(8) {
        case 0: s.str("ok")
        case 1: s.str("Loaded "); s.dec(rng.range(1, 300)); s.str(" items")
        case 2: s.str("Cache miss for key "); s.dec(rng.range(1, 9_999))
        case 3: s.str("Start sync")
        case 4: s.str("Session token valid")
        case 5: s.str("Rendering "); s.dec(rng.range(1, 9)); s.str(" cards")
        case 6: s.str("Opened "); s.str(rng.pick(controllers))
        default: s.str("Fetched config v"); s.dec(rng.range(1, 90))
        }
    }

    private static let controllers: [StaticString] = ["FeedViewController", "SettingsViewController", "PlayerViewController",
                                                      "MapViewController", "ProfileViewController", "EditorViewController"]
    private static let states: [StaticString] = ["loading", "loaded", "idle", "refreshing", "error(retry: 2)", "empty"]
}

/// The callbacks of one launch, in order, and how it ends. Complete launches connect one or two
/// window scenes (and a CarPlay scene now and then) and bring them to the foreground, cycle through
/// the background a few times, and end suspended in the background or terminated; the others
/// crash part-way, are cut off by the end of the capture, or are picked up mid-session.
struct LaunchScript {
    enum Ending { case background, terminated, crash, cut }
    struct Step {
        let callback: Callback
        let scene: SceneModel?
    }
    private(set) var steps: [Step] = []
    private(set) var ending = Ending.background
    private(set) var midSession = false

    init(_ app: AppProcess, _ rng: inout SplitMix64) {
        func add(_ cb: Callback, _ scene: SceneModel? = nil) { steps.append(Step(callback: cb, scene: scene)) }
        if rng.chance(300) { add(Callbacks.willFinishLaunching) }
        add(Callbacks.didFinishLaunching)
        let windows = app.scenes.filter { !$0.carPlay }
        let connected = windows.count > 1 && rng.chance(300) ? Array(windows.prefix(2)) : [windows[0]]
        for scene in connected {
            if rng.chance(600) { add(Callbacks.configurationForConnecting, scene) }
            add(Callbacks.willConnect, scene)
            add(Callbacks.willEnterForeground, scene)
            add(Callbacks.didBecomeActive, scene)
        }
        let car = app.scenes.first { $0.carPlay }
        if let car, rng.chance(250) { add(app.t.navigation ? Callbacks.cpDidConnectNav : Callbacks.cpDidConnect, car) }
        let main = connected[0]
        for _ in 0..<rng.below(4) {
            if rng.chance(200) { add(Callbacks.openURLContexts, main) }
            add(Callbacks.willResignActive, main)
            add(Callbacks.didEnterBackground, main)
            add(Callbacks.willEnterForeground, main)
            add(Callbacks.didBecomeActive, main)
        }
        let r = rng.below(100)
        if r < 40 {
            add(Callbacks.willResignActive, main)
            add(Callbacks.didEnterBackground, main)
        } else if r < 62 {
            ending = .terminated
            add(Callbacks.willResignActive, main)
            add(Callbacks.didEnterBackground, main)
            if rng.chance(500) { add(Callbacks.didDisconnect, main) }
            add(Callbacks.willTerminate)
        } else if r < 77 {
            ending = .crash
            steps.removeLast(rng.below(steps.count))
        } else if r < 90 {
            ending = .cut
            steps.removeLast(rng.below(steps.count))
        } else {
            // The capture starts after the launch: the first callbacks are not in it.
            midSession = true
            add(Callbacks.willResignActive, main)
            add(Callbacks.didEnterBackground, main)
            steps.removeFirst(rng.range(1, steps.count - 2))
        }
    }
}
