import LifelineCore

/// The phase the system's account of an app gives each event of its session
/// (`Documentation/SystemEvents.md`): what SpringBoard, FrontBoard and RunningBoard had last said
/// of the app when the event came, as `SystemContext` folds it.
///
/// Triage places a failure by the app's own callbacks; in a session where the app logged none
/// (a device log of an app that logs nothing of its life), these phases place it instead, and a
/// kill's signature names the phase (`killPhase(at:of:)`, `Signatures.failure(_:systemPhase:)`).
/// Where the app logged callbacks, its word wins: there are no system phases.
///
/// - `suspended`: RunningBoard's state is `running-suspended…` (or SpringBoard's task state
///   `Suspended`, without RunningBoard).
/// - `launch`: the system told a launch, no scene has come to the foreground yet, and less than
///   the launch watchdog's allowance (`LaunchKind.userLaunchLimit`, 20 s) has passed since; a
///   foreground role or visibility does not end it (SpringBoard and RunningBoard give them at the
///   bootstrap, before the app runs). `background` instead for a launch the system made in the
///   background (intent `background`, a prewarm, RunningBoard's role `Background`). A watchdog of
///   the launch (`scene-create`, `process-launch`) is in the launch whatever the scene's state:
///   the system itself says the launch did not finish.
/// - `foreground`: a foreground scene, else a user-interactive role or a visible process.
/// - `background`: a process the system knows to run, not in the foreground.
///
/// A state that says the process is gone (`none`, `Not Running`) places nothing: a kill line that
/// comes after it is placed by the state before.
struct SystemPhases: Sendable {
    /// Per event index, the system's phase before it; nil while the system had said nothing.
    private var phases: [FailurePhase?]
    /// Per event index, whether the system had stated a state of the process or of a scene (more
    /// than that it launched it).
    private var stated: [Bool]
    /// The launch was the system's, in the background: a launch watchdog there is no one's wait.
    private let backgroundLaunch: Bool

    /// Watchdog events of a launch (`details.watchdogEvent`).
    static let launchWatchdogs: Set<String> = ["scene-create", "process-launch"]

    /// The phases of `session`'s events; nil when the system said nothing of the app in it, or
    /// when the app logged lifecycle callbacks of its own (its word places its failures).
    init?(_ session: ProcessSession) {
        let events = session.events
        guard let first = events.firstIndex(where: { $0.kind.isSystemLifecycle }), !session.hasOwnLifecycle else { return nil }
        let told = events.first { $0.kind == .systemLaunch }?.details?.system
        backgroundLaunch = told?.intent == "background" || told?.trigger == "prewarm"
        let launchTime = events.first { $0.kind == .systemLaunch }?.timestamp?.seconds
        phases = [FailurePhase?](repeating: nil, count: events.count)
        stated = [Bool](repeating: false, count: events.count)
        var context = SystemContext()
        // The context while the process ran: a state of a process that is gone does not replace it.
        var live = context
        var launchOver = false
        var said = false
        for i in first..<events.count {
            if said {
                if !launchOver, let t0 = launchTime, let t = events[i].timestamp?.seconds, t - t0 > LaunchKind.userLaunchLimit {
                    launchOver = true
                }
                phases[i] = Self.phase(live, launchOver: launchOver, backgroundLaunch: backgroundLaunch)
                stated[i] = live.processState != nil || live.taskState != nil || live.visibility != nil || !live.scenes.isEmpty
            }
            guard events[i].kind.isSystemLifecycle, events[i].details?.system != nil else { continue }
            context.take(events[i], index: i)
            if context.processState == "none" || context.taskState == "Not Running" { continue }
            live = context
            said = true
            if live.scenes.values.contains("foreground") { launchOver = true }
        }
    }

    private static func phase(_ c: SystemContext, launchOver: Bool, backgroundLaunch: Bool) -> FailurePhase? {
        if c.isSuspended { return .suspended }
        if c.launch != nil, !launchOver {
            return backgroundLaunch || c.role == "Background" ? .background : .launch
        }
        if c.processState == nil, c.taskState == nil, c.visibility == nil, c.scenes.isEmpty { return nil }
        return c.isForeground ? .foreground : .background
    }

    /// The phase a kill's signature names (`Signatures.failure(_:systemPhase:)`): the system's,
    /// once it stated a state of the process or a scene (a launch alone is no statement of where
    /// the process was when it was killed).
    func killPhase(at index: Int, of event: Event) -> FailurePhase? {
        guard stated[index] else { return nil }
        return phase(at: index, of: event)
    }

    /// The system's phase at event `index` (of `event`); nil while the system had said nothing.
    func phase(at index: Int, of event: Event) -> FailurePhase? {
        guard let p = phases[index] else { return nil }
        if event.kind == .watchdog, p != .suspended,
           let w = event.details?.watchdogEvent?.lowercased(), Self.launchWatchdogs.contains(w) {
            return backgroundLaunch ? .background : .launch
        }
        return p
    }
}
