/// The state of a process as RunningBoard calculates it (`Calculated state for …: <state>`), or as
/// SpringBoard's task state tells it where RunningBoard's lines are missing, plus the endings a
/// kill line moves it to (`Documentation/SystemEvents.md`). The machine is
/// `MachineDefinition.process`.
public enum ProcessState: String, Sendable, Equatable, CaseIterable {
    /// Before the first state of a trace that begins in the middle of the process's life.
    case unknown
    case runningActive = "running-active"
    case runningActiveNotVisible = "running-active-NotVisible"
    case runningSuspended = "running-suspended"
    case runningSuspendedNotVisible = "running-suspended-NotVisible"
    /// SpringBoard's `Running` task state with no RunningBoard state: running, active or visible unknown.
    case running
    /// A fatal signal ended it (`failure.signal`).
    case terminatedBySignal = "terminated-by-signal"
    /// The system killed it (`failure.killed`, `failure.jetsam`, `failure.watchdog`).
    case killed
    /// RunningBoard's `none`, SpringBoard's `Not Running`: the process is gone.
    case none

    /// Running in some way (not unknown, not an ending, not gone).
    public var isRunning: Bool { rawValue.hasPrefix("running") }
    /// An ending a kill line moved the process to.
    public var isEnding: Bool { self == .terminatedBySignal || self == .killed }
    /// The process is visible on screen, when the state says (nil for `running`, `unknown`).
    public var isVisible: Bool? {
        switch self {
        case .runningActive, .runningSuspended: return true
        case .runningActiveNotVisible, .runningSuspendedNotVisible, .terminatedBySignal, .killed, .none: return false
        case .running, .unknown: return nil
        }
    }

    /// The state `event` moves a process timeline to: a `system.processState` event's
    /// `details.system.state` (or, when it has none, its SpringBoard `taskState`), the ending of a
    /// kill line; nil for other events and for a state this machine does not know.
    public static func target(of event: Event) -> ProcessState? {
        if event.kind == .systemProcessState {
            guard let system = event.details?.system else { return nil }
            if let state = system.state { return named(state) }
            switch system.taskState {
            case "Running"?: return .running
            case "Suspended"?: return .runningSuspended
            case "Not Running"?: return ProcessState.none
            default: return nil
            }
        }
        return endings[event.kind]
    }

    /// A state in RunningBoard's words: one of the known states, else read by its parts
    /// (`running-…-NotVisible`, `none-…`), else nil.
    public static func named(_ raw: String) -> ProcessState? {
        if let s = ProcessState(rawValue: raw), s != .unknown, !s.isEnding { return s }
        let lower = raw.lowercased()
        if lower == "none" || lower.hasPrefix("none-") { return ProcessState.none }
        guard lower.hasPrefix("running") else { return nil }
        let hidden = lower.contains("notvisible")
        if lower.contains("suspended") { return hidden ? .runningSuspendedNotVisible : .runningSuspended }
        if lower.contains("active") { return hidden ? .runningActiveNotVisible : .runningActive }
        return .running
    }

    /// Made from the process machine's definition.
    private static let endings: [EventKind: ProcessState] = Dictionary(
        uniqueKeysWithValues: MachineDefinition.processEndings.map { (EventKind($0.0), $0.1) })
}

/// A FrontBoard scene's lifecycle state, lower-case as `system.sceneState` events carry it
/// (`foreground`, `background`, `none`, or another word FrontBoard wrote). What the system says a
/// scene is, whether or not the app logs its own scene callbacks.
public struct SystemSceneState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let foreground = SystemSceneState(rawValue: "foreground")
    public static let background = SystemSceneState(rawValue: "background")
    /// The scene does not exist (before it was created, after it was destroyed).
    public static let none = SystemSceneState(rawValue: "none")
    /// Before the first state of a trace that does not show the process's launch.
    public static let unknown = SystemSceneState(rawValue: "unknown")

    /// The state of a `system.sceneState` event (`details.system.state`, lower-cased).
    public static func of(_ event: Event) -> SystemSceneState? {
        guard event.kind == .systemSceneState, let s = event.details?.system?.state, !s.isEmpty else { return nil }
        return SystemSceneState(rawValue: s.lowercased())
    }

    /// Whether the app's own scene state agrees with this: a foreground scene is inactive or
    /// active, a background one in the background, a scene that is `none` unattached or
    /// disconnected. Nil when either side is unknown or a word this does not know.
    public func agrees(with app: SceneState) -> Bool? {
        guard app != .unknown else { return nil }
        switch self {
        case .foreground: return app == .foregroundInactive || app == .foregroundActive
        case .background: return app == .background
        case .none: return app == .unattached || app == .disconnected
        default: return nil
        }
    }

    /// The scene machine's state a diagram draws this one at (`MachineDefinition.scene`): the
    /// system's `foreground` is where UIKit's `willEnterForeground` goes, `none` the start before
    /// a scene's first state and `disconnected` after it; `unknown` stays unknown, and a word the
    /// scene machine has no state for is drawn as itself.
    public func sceneMachineState(asSource: Bool) -> String {
        switch self {
        case .foreground: return SceneState.foregroundInactive.rawValue
        case .background: return SceneState.background.rawValue
        case .none: return asSource ? MachineDefinition.start : SceneState.disconnected.rawValue
        default: return rawValue
        }
    }

    /// The event kind of system scene transitions in a transition tally (`TransitionTally`), whose
    /// `from` and `to` are the system's words.
    public static let event = EventKind.systemSceneState.rawValue
}

/// Where a scene timeline comes from.
public enum TimelineSource: String, Sendable, Equatable {
    /// The app's own scene callbacks (and the system's states of that scene alongside, if any).
    case app
    /// Only the system's (FrontBoard's) states of the scene: the app logged no callback for it.
    case system
}
