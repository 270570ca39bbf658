/// The system's side of an app's life (Documentation/SystemEvents.md): the states RunningBoard and
/// SpringBoard give a process, the apps the system knows, their processes, the device that logs them,
/// and what a reader of the log can know at each line (`ReaderModel`), which decides what is an event.

/// RunningBoard's `Calculated state` of a process: the state and role are written together, and the
/// generator always writes this role with this state, so a change of one is a change of both.
enum RBState: Int {
    /// Visible in the foreground.
    case active
    /// Running, not visible: just sent to the background, launched in the background or prewarmed.
    case background
    case suspended
    /// Gone.
    case none

    var state: StaticString {
        switch self {
        case .active: "running-active"
        case .background: "running-active-NotVisible"
        case .suspended: "running-suspended"
        case .none: "none"
        }
    }

    var role: StaticString {
        switch self {
        case .active: "UserInteractiveFocal"
        case .background: "Background"
        case .suspended, .none: "None"
        }
    }

    /// iOS 17+'s ` (endowments: …)`.
    var endowments: StaticString {
        switch self {
        case .active, .background: "<private>"
        case .suspended, .none: "(null)"
        }
    }

    /// Other daemons' `Received state update for PID (…, running-active-Visible`.
    var echo: StaticString {
        switch self {
        case .active: "running-active-Visible"
        case .background: "running-active-NotVisible"
        case .suspended: "running-suspended-NotVisible"
        case .none: "none-NotVisible"
        }
    }
}

/// SpringBoard's `Setting process task state to: …`.
enum TaskState: Int {
    case running, suspended, notRunning

    var text: StaticString {
        switch self {
        case .running: "Running"
        case .suspended: "Suspended"
        case .notRunning: "Not Running"
        }
    }
}

/// SpringBoard's `Setting process visibility to: …`.
enum Visibility: Int {
    case foreground, background, unknown

    var text: StaticString {
        switch self {
        case .foreground: "Foreground"
        case .background: "Background"
        case .unknown: "Unknown"
        }
    }
}

/// FrontBoard's `Scene lifecycle state did change: …` of the app's `sceneID:<bundle>-default`.
enum SceneLife: Int {
    case foreground, background

    var text: StaticString {
        switch self {
        case .foreground: "Foreground"
        case .background: "Background"
        }
    }
}

/// An app the system knows: its bundle, executable and install location. Its processes come and go.
final class SysApp {
    let index: Int
    let bundle: [UInt8]
    let exec: [UInt8]
    let apple: Bool
    /// `/private/var/containers/Bundle/Application/<UUID>/X.app/X` (third-party apps).
    let containerHi: UInt64, containerLo: UInt64
    /// `/private/var/mobile/Containers/Data/Application/<UUID>` (the job description's HOME).
    let dataHi: UInt64, dataLo: UInt64
    /// An app that logs its own lifecycle callbacks (the device shape's seven template apps).
    let logger: AppProcess?
    /// The live process (in the current device session), if any.
    var process: SysProcess?
    /// When the app's last launch began (µs): launches of one app are at least 6 s apart, so no
    /// reader joins two of them whatever its window.
    var lastLaunch: Int64 = .min / 2

    init(index: Int, bundle: String, exec: String, apple: Bool, logger: AppProcess?, _ rng: inout SplitMix64) {
        self.index = index
        self.bundle = Array(bundle.utf8)
        self.exec = Array(exec.utf8)
        self.apple = apple
        self.logger = logger
        containerHi = rng.next(); containerLo = rng.next()
        dataHi = rng.next(); dataLo = rng.next()
    }
}

/// Timed steps of a process the user does not drive: a process sent to the background is suspended a
/// few seconds later; one woken in the background (refresh, background launch, prewarm) is too.
enum ProcessTimer { case idle, suspend }

/// One process of an app, from its launch (or from the start of a device session, for a process that
/// was already running) to its ending.
final class SysProcess {
    let app: SysApp
    let pid: Int
    /// What is true (whether or not a line said it).
    var rb: RBState
    var task: TaskState
    var visibility: Visibility
    /// nil: no scene yet (launched in the background, never shown).
    var scene: SceneLife?
    /// When its state last changed (µs): changes of one process are at least 3 s apart, so a
    /// SpringBoard line 1 s after one change is never read as part of the previous one, even at
    /// idevicesyslog's one-second resolution.
    var lastChange: Int64
    var timer = ProcessTimer.idle
    var timerAt: Int64 = .max
    /// FrontBoard's `0x…` of the scene object, the process handle RunningBoard's clients resolve, and
    /// SpringBoard's `(v833FA)` version tag.
    let sceneAddress: UInt64
    let handle: UInt64
    let versionTag: UInt64
    /// A logging app's scene has connected (its `scene(_:willConnectTo:)` was written).
    var sceneConnected = false

    init(app: SysApp, pid: Int, rb: RBState, task: TaskState, visibility: Visibility, scene: SceneLife?, now: Int64, _ rng: inout SplitMix64) {
        self.app = app
        self.pid = pid
        self.rb = rb
        self.task = task
        self.visibility = visibility
        self.scene = scene
        lastChange = now
        sceneAddress = 0x8_6000_0000 | (rng.next() & 0x0FFF_FFC0)
        handle = (rng.next() & 0xFFFF_FFFF_0000_0000) | 0x0001_8638 | UInt64(pid & 0xFFFF) << 20
        versionTag = 0x10000 | (rng.next() & 0xFFFFF)
    }
}

/// One device the log was taken from, for a run of captures: its iOS version decides how identities
/// are spelled; a SpringBoard-only device session is one whose captures were filtered to SpringBoard
/// (`log show --predicate 'process == "SpringBoard"'`, `idevicesyslog -p SpringBoard`): a log without
/// RunningBoard's lines, where SpringBoard's task-state lines are the process-state events.
struct DeviceSession {
    var iosMajor: Int
    var personaHi: UInt64, personaLo: UInt64
    var springBoardOnly: Bool
    /// SpringBoard's and runningboardd's pids (`[osservice<com.apple.SpringBoard>:34]`, `ID:33-34-…`).
    var springBoard: Daemon
    var runningBoard: Daemon
    var kernel: Daemon
    /// Daemons that echo state updates (`Received state update for …`), hit the server for process
    /// handles, and say their own words about apps.
    var echoes: [Daemon]
    var assertionSeq: Int

    /// iOS 17+: `app<bundle(persona)>`; before, `application<bundle>`.
    var modern: Bool { iosMajor >= 17 }
}

/// What the generator counts per kind of story, for `.expected.json`.
struct SystemStats {
    var sessions = 0, springBoardOnlySessions = 0
    var sessionsByIOS: [Int: Int] = [:]
    var launches = 0
    var launchesByTrigger: [String: Int] = [:]
    var backgroundLaunches = 0
    var bootstrapRequestedTwice = 0
    /// Launches whose first RunningBoard state comes before SpringBoard's `Bootstrap success!` (as in
    /// the real log): one launch, the success line is a late line of it.
    var stateBeforeBootstrapSuccess = 0
    var tapsOnRunningApps = 0
    var endingsSignal = 0, endingsJetsam = 0, voluntaryExits = 0
    var crashesWithException = 0
    /// `Calculated state` lines written, those that were events, and repeats (no event).
    var stateLines = 0, stateEvents = 0
    /// State lines that were events only because the reader had just learnt a new pid for the bundle
    /// (a process that was running before the capture: its first lines are read as the bundle's
    /// previous process until one names its pid).
    var stateEventsAfterNewPid = 0
    /// State changes a reader reads as repeats: a running process's first line naming no pid, the
    /// same state as the bundle's last process had.
    var stateChangesReadAsRepeats = 0
    /// SpringBoard task-state groups: details of a RunningBoard state, or events of their own.
    var taskGroups = 0, taskGroupEvents = 0
    var sceneLines = 0, sceneEvents = 0
    /// Scene lines repeating the scene's last state where the last one was written for another
    /// process of the app (a relaunch after an ending in the foreground): no event (one scene id).
    var sceneRepeatsAcrossProcesses = 0
    var echoLines = 0
    var systemLines = 0
    var appCallbackLines = 0
    /// Lines the apps wrote in the stories (callbacks, uncaught exceptions with their stacks).
    var appOwnLines = 0
    var preexistingProcesses = 0
    var processes = 0
}

/// What a reader of the log knows at each line, per the contract: which pid a bundle was last said to
/// have (a state line names no pid: it is about that one), each process's last state, the open
/// process-state event of each pid (SpringBoard's lines within 1 s are its details), SpringBoard's
/// last task state and visibility per pid, and each scene's last state. The generator asks it whether
/// each line it writes is an event, so the counts are the contract's reading of the text, not the
/// generator's knowledge.
struct ReaderModel {
    /// Key of a process's state memory: its pid when the bundle's pid is known, else the bundle.
    enum Key: Hashable { case pid(Int), bundle(Int) }

    struct OpenState {
        var at: Int64
        var task: TaskState?
        var visibility: Visibility?
    }

    private(set) var toldPID: [Int: Int] = [:]
    private var lastState: [Key: RBState] = [:]
    /// The last state line of each bundle, whatever its key (for the statistics only).
    private var lastOfBundle: [Int: RBState] = [:]
    private var open: [Int: OpenState] = [:]
    private var lastTask: [Int: (task: TaskState?, visibility: Visibility?)] = [:]
    private var lastScene: [Int: SceneLife] = [:]
    /// The pid whose process wrote each scene's last state (for the statistics only).
    private var lastScenePID: [Int: Int] = [:]

    static let window: Int64 = 1_000_000

    /// A line named the bundle's process with its pid.
    mutating func tell(_ app: SysApp, pid: Int) { toldPID[app.index] = pid }

    func key(_ app: SysApp) -> Key {
        toldPID[app.index].map { .pid($0) } ?? .bundle(app.index)
    }

    /// Whether a `Calculated state` line with `state` would be read as an event now.
    func isStateEvent(_ app: SysApp, _ state: RBState) -> Bool { lastState[key(app)] != state }

    /// A `Calculated state` line: whether it is an event, and whether it repeats the bundle's previous
    /// state line (an event only because its key, the pid the reader knows, is new).
    mutating func state(_ app: SysApp, _ state: RBState, at now: Int64) -> (event: Bool, repeatsBundle: Bool) {
        let k = key(app)
        let previous = lastOfBundle[app.index]
        lastOfBundle[app.index] = state
        guard lastState[k] != state else { return (false, false) }
        lastState[k] = state
        // An event names the pid the reader knows for the bundle: SpringBoard's lines of that pid
        // within 1 s are its details. Without a known pid it has none.
        if case .pid(let p) = k { open[p] = OpenState(at: now) }
        return (true, previous == state)
    }

    /// A SpringBoard `Setting process task state/visibility` line of pid `pid`: true when it makes a
    /// process-state event of its own (no open event of the pid within 1 s that it fits, and it says
    /// something new); else it is a detail (or says nothing new).
    mutating func springBoard(_ app: SysApp, pid: Int, task: TaskState?, visibility: Visibility?, at now: Int64) -> Bool {
        tell(app, pid: pid)
        var last = lastTask[pid] ?? (nil, nil)
        if var o = open[pid], now - o.at <= Self.window,
           task == nil || o.task == nil || o.task == task, visibility == nil || o.visibility == nil || o.visibility == visibility {
            if let task { o.task = task; last.task = task }
            if let visibility { o.visibility = visibility; last.visibility = visibility }
            open[pid] = o
            lastTask[pid] = last
            return false
        }
        if (task == nil || task == last.task) && (visibility == nil || visibility == last.visibility) { return false }
        if let task { last.task = task }
        if let visibility { last.visibility = visibility }
        lastTask[pid] = last
        open[pid] = OpenState(at: now, task: task, visibility: visibility)
        return true
    }

    /// Whether SpringBoard's line would say something new to a reader that has no open event of `pid`.
    func taskIsNew(pid: Int, task: TaskState?, visibility: Visibility?) -> Bool {
        let last = lastTask[pid] ?? (nil, nil)
        return (task != nil && task != last.task) || (visibility != nil && visibility != last.visibility)
    }

    /// A scene lifecycle line: (event, a repeat of a state another process of the app wrote).
    mutating func scene(_ app: SysApp, _ state: SceneLife, pid: Int) -> (event: Bool, acrossProcesses: Bool) {
        if lastScene[app.index] == state {
            return (false, lastScenePID[app.index] != pid)
        }
        lastScene[app.index] = state
        lastScenePID[app.index] = pid
        return (true, false)
    }

    func sceneIsRepeat(_ app: SysApp, _ state: SceneLife) -> Bool { lastScene[app.index] == state }
}
