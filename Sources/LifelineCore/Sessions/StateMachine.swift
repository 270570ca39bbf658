/// The lifecycle state machines (lifecycle reference §1 UIScene, §2 UIApplication, §3 CarPlay) and
/// RunningBoard's process states (`Documentation/SystemEvents.md`).
/// Each is defined once, by its `definition`: the session builder takes what a callback moves a
/// timeline to from it (`SceneState.target(of:)`, `AppState.target(of:)`, `ProcessState.target(of:)`), the rules and the
/// transition tally ask it what is legal, and the state diagram draws its states, edges and title
/// from it. A new machine is a new case here and one definition beside the others.
/// The raw value names the machine in JSON tallies and in diagram node ids.
public enum LifecycleMachine: String, Sendable, CaseIterable, Comparable {
    case scene, app, carPlay, process
    public static func < (a: LifecycleMachine, b: LifecycleMachine) -> Bool { a.order < b.order }
    private var order: Int { Self.allCases.firstIndex(of: self)! }

    public var definition: MachineDefinition {
        switch self {
        case .scene: return MachineDefinition.scene
        case .app: return MachineDefinition.app
        case .carPlay: return MachineDefinition.carPlay
        case .process: return MachineDefinition.process
        }
    }

    /// The states in drawing order; `start` is the pseudo-state before the first callback.
    public var states: [String] { definition.states }
    /// The transitions the documentation allows, with the callback that marks each.
    public var legal: [Transition] { definition.legal }
    /// The legal transitions a diagram outlines when they were never observed.
    public var outline: [Transition] { definition.outline }
}

/// One edge of a state machine: from a state to a state, marked by a callback (event kind).
public struct Transition: Sendable, Hashable, Comparable {
    public var from: String
    public var to: String
    public var event: String

    public init(from: String, to: String, event: String) {
        self.from = from
        self.to = to
        self.event = event
    }

    public static func < (a: Transition, b: Transition) -> Bool { (a.from, a.to, a.event) < (b.from, b.to, b.event) }
}

/// One state machine, defined once: its states (typed by the builder's state enum, named by their
/// raw values here), the callbacks that move a timeline and where to, the legal transitions, and
/// the words a diagram labels it with.
public struct MachineDefinition: Sendable {
    /// The pseudo-state before a timeline's first callback.
    public static let start = "start"

    /// `UIScene`, `UIApplication`, `CarPlay scene`: the diagram's cluster title.
    public let title: String
    /// What one timeline of this machine is called, once and many times (`launch`, `launches`).
    public let unit: (one: String, many: String)
    /// The states in drawing order, `start` first.
    public let states: [String]
    /// What each callback moves a timeline of this machine to: the callback of every legal
    /// transition, and callbacks that move a timeline though the documentation draws no edge for
    /// them (CarPlay's legacy delegate).
    public let targets: [(event: String, to: String)]
    /// The transitions the documentation allows, with the callback that marks each, in drawing order.
    public let legal: [Transition]
    /// The legal transitions a diagram outlines when they were never observed.
    public let outline: [Transition]
    /// The names of every state of the typed enum the session builder keeps for this machine.
    public let typedStates: Set<String>
    /// Events whose target is read from the event's details (RunningBoard's `system.processState`
    /// says which state in `details.system.state`): `targets` lists each state such an event may
    /// move a timeline to, and the legal transitions it marks go to several states.
    public let targetsFromDetails: Set<String>

    init<State: RawRepresentable<String> & CaseIterable>(_ type: State.Type, title: String, unit: (one: String, many: String),
                                         states: [State], targets: [(String, State)], legal: [Transition],
                                         outline: [Transition]? = nil, targetsFromDetails: Set<String> = []) {
        self.title = title
        self.unit = unit
        self.states = [Self.start] + states.map(\.rawValue)
        self.targets = targets.map { ($0.0, $0.1.rawValue) }
        self.legal = legal
        self.outline = outline ?? legal
        typedStates = Set(State.allCases.map(\.rawValue))
        self.targetsFromDetails = targetsFromDetails
    }

    /// Whether `name` is a state of the typed enum the session builder keeps for this machine.
    public func isTypedState(_ name: String) -> Bool { typedStates.contains(name) }

    /// Whether `event` arriving in `from` is a transition the documentation allows.
    public func isLegal(from: String, event: String) -> Bool {
        legal.contains { $0.from == from && $0.event == event }
    }

    /// The states `event` may legally arrive in.
    public func legalSources(of event: String) -> Set<String> {
        Set(legal.filter { $0.event == event }.map(\.from))
    }
}

private func edge<S: RawRepresentable<String>>(_ from: S?, _ to: S, _ event: String) -> Transition {
    Transition(from: from?.rawValue ?? MachineDefinition.start, to: to.rawValue, event: event)
}

extension MachineDefinition {
    /// A UIScene (reference §1.2–1.3): T1–T6.
    public static let scene: MachineDefinition = {
        let s: [SceneState] = [.unattached, .foregroundInactive, .foregroundActive, .background, .disconnected]
        return MachineDefinition(
            SceneState.self, title: "UIScene", unit: ("timeline", "timelines"), states: s,
            targets: [("scene.willConnect", .unattached), ("scene.willEnterForeground", .foregroundInactive),
                      ("scene.didBecomeActive", .foregroundActive), ("scene.willResignActive", .foregroundInactive),
                      ("scene.didEnterBackground", .background), ("scene.didDisconnect", .disconnected)],
            legal: [edge(nil, SceneState.unattached, "scene.willConnect"),
                    edge(SceneState.unattached, .foregroundInactive, "scene.willEnterForeground"),
                    edge(SceneState.unattached, .background, "scene.didEnterBackground"),
                    edge(SceneState.foregroundInactive, .foregroundActive, "scene.didBecomeActive"),
                    edge(SceneState.foregroundActive, .foregroundInactive, "scene.willResignActive"),
                    edge(SceneState.foregroundInactive, .background, "scene.didEnterBackground"),
                    edge(SceneState.background, .foregroundInactive, "scene.willEnterForeground"),
                    edge(SceneState.background, .disconnected, "scene.didDisconnect"),
                    edge(SceneState.unattached, .disconnected, "scene.didDisconnect")])
    }()

    /// The application delegate's states (reference §2).
    public static let app: MachineDefinition = {
        let s: [AppState] = [.launching, .launched, .foregroundInactive, .foregroundActive, .background, .terminated]
        return MachineDefinition(
            AppState.self, title: "UIApplication", unit: ("launch", "launches"), states: s,
            targets: [("app.willFinishLaunching", .launching), ("app.didFinishLaunching", .launched),
                      ("app.didBecomeActive", .foregroundActive), ("app.willResignActive", .foregroundInactive),
                      ("app.willEnterForeground", .foregroundInactive), ("app.didEnterBackground", .background),
                      ("app.willTerminate", .terminated)],
            legal: [edge(nil, AppState.launching, "app.willFinishLaunching"),
                    edge(nil, AppState.launched, "app.didFinishLaunching"),
                    edge(AppState.launching, .launched, "app.didFinishLaunching"),
                    edge(AppState.launched, .foregroundActive, "app.didBecomeActive"),
                    edge(AppState.launched, .foregroundInactive, "app.willEnterForeground"),
                    edge(AppState.launched, .background, "app.didEnterBackground"),
                    edge(AppState.foregroundInactive, .foregroundActive, "app.didBecomeActive"),
                    edge(AppState.foregroundActive, .foregroundInactive, "app.willResignActive"),
                    edge(AppState.foregroundInactive, .background, "app.didEnterBackground"),
                    edge(AppState.background, .foregroundInactive, "app.willEnterForeground"),
                    edge(AppState.launched, .terminated, "app.willTerminate"),  // scene apps get no app-level activation
                    edge(AppState.background, .terminated, "app.willTerminate"),
                    edge(AppState.foregroundInactive, .terminated, "app.willTerminate")])
    }()

    /// Template scene first, then dashboard and instrument cluster (reference §3.3).
    static let carPlayConnects = ["cp.didConnect", "cp.dashboard.didConnect", "cp.cluster.didConnect"]
    static let carPlayDisconnects = ["cp.didDisconnect", "cp.dashboard.didDisconnect", "cp.cluster.didDisconnect"]

    /// A CarPlay template scene is a UIScene too: after didConnect it goes through the scene states
    /// (reference §3), and the car can go away in any of them. Its `connected` plays the part of the
    /// scene machine's `unattached`. Dashboard and instrument-cluster scenes connect and disconnect
    /// through their own delegate methods (reference §3.3), which are as legal as the template
    /// scene's; the legacy delegate's move a timeline but draw no edge.
    public static let carPlay: MachineDefinition = {
        let scene = MachineDefinition.scene.legal
        func t(_ from: String, _ to: String, _ event: String) -> Transition { Transition(from: from, to: to, event: event) }
        var legal = carPlayConnects.map { t(start, SceneState.connected.rawValue, $0) }
            + scene.filter { $0.from == SceneState.unattached.rawValue && $0.to != SceneState.disconnected.rawValue }
                .map { t(SceneState.connected.rawValue, $0.to, $0.event) }
            + scene.filter { $0.from != start && $0.from != SceneState.unattached.rawValue }
        let connectedStates: [SceneState] = [.connected, .foregroundInactive, .foregroundActive, .background]
        for from in connectedStates {
            legal += carPlayDisconnects.map { t(from.rawValue, SceneState.disconnected.rawValue, $0) }
        }
        // The outline: every legal transition but the dashboard's and cluster's own connect and
        // disconnect. Which of the three kinds of CarPlay scene an app has decides which callbacks
        // it gets, and outlining all three would bury the machine under dashed lines.
        let variants = Set(carPlayConnects.dropFirst() + carPlayDisconnects.dropFirst())
        var targets: [(String, SceneState)] = []
        for p in ["cp", "cp.dashboard", "cp.cluster", "cp.legacy"] {
            targets += [("\(p).didConnect", .connected), ("\(p).didDisconnect", .disconnected)]
        }
        // The scene callbacks a CarPlay scene also gets.
        targets += MachineDefinition.scene.targets.map { ($0.event, SceneState(rawValue: $0.to)!) }
        return MachineDefinition(
            SceneState.self, title: "CarPlay scene", unit: ("timeline", "timelines"),
            states: [.connected, .foregroundInactive, .foregroundActive, .background, .disconnected],
            targets: targets, legal: legal, outline: legal.filter { !variants.contains($0.event) })
    }()
}

extension MachineDefinition {
    /// The event RunningBoard's (or SpringBoard's) process-state lines make: its target is in its details.
    public static let processStateEvent = EventKind.systemProcessState.rawValue
    /// Failures that end a process, and the ending they move its process timeline to.
    static let processEndings: [(String, ProcessState)] = [
        (EventKind.signal.rawValue, .terminatedBySignal), (EventKind.killed.rawValue, .killed),
        (EventKind.jetsam.rawValue, .killed), (EventKind.watchdog.rawValue, .killed),
    ]

    /// RunningBoard's account of a process (`Documentation/SystemEvents.md`): the states its
    /// `Calculated state` lines name (SpringBoard's task state where RunningBoard's lines are
    /// missing: `running`, visibility unknown), then the endings. A kill line moves a running
    /// process to `terminated-by-signal` or `killed`, and RunningBoard's `none` follows once the
    /// process is gone (or comes first, and the kill line tells why after it). Nothing leaves
    /// `none`: a process that runs again is a new process, with a new pid and session.
    /// No documentation draws this machine: its legal transitions are what RunningBoard does.
    public static let process: MachineDefinition = {
        let rb: [ProcessState] = [.runningActive, .runningActiveNotVisible, .runningSuspended, .runningSuspendedNotVisible]
        let running = rb + [.running]
        let endings: [ProcessState] = [.terminatedBySignal, .killed]
        let p = processStateEvent
        var legal: [Transition] = running.map { edge(nil, $0, p) }
        // Any change among RunningBoard's states: visibility and activity change independently.
        for from in rb { for to in rb where to != from { legal.append(edge(from, to, p)) } }
        // SpringBoard's task states: Running and Suspended.
        legal += [edge(ProcessState.running, .runningSuspended, p), edge(ProcessState.runningSuspended, .running, p)]
        for from in running { legal.append(edge(from, ProcessState.none, p)) }
        for from in running + [.none] {
            for (event, to) in processEndings { legal.append(edge(from, to, event)) }
        }
        for from in endings { legal.append(edge(from, ProcessState.none, p)) }
        let outline = [edge(nil, ProcessState.runningActive, p), edge(nil, ProcessState.runningActiveNotVisible, p),
                       edge(ProcessState.runningActive, .runningActiveNotVisible, p),
                       edge(ProcessState.runningActiveNotVisible, .runningActive, p),
                       edge(ProcessState.runningActiveNotVisible, .runningSuspendedNotVisible, p),
                       edge(ProcessState.runningSuspendedNotVisible, .runningActive, p),
                       edge(ProcessState.runningSuspendedNotVisible, .none, p),
                       edge(ProcessState.runningSuspendedNotVisible, .killed, EventKind.jetsam.rawValue),
                       edge(ProcessState.killed, .none, p), edge(ProcessState.terminatedBySignal, .none, p)]
        let order = Dictionary(uniqueKeysWithValues: legal.enumerated().map { ($1, $0) })
        return MachineDefinition(
            ProcessState.self, title: "RunningBoard process", unit: ("process", "processes"),
            states: running + endings + [.none],
            targets: (running + [.none]).map { (p, $0) } + processEndings,
            legal: legal, outline: outline.sorted { order[$0]! < order[$1]! }, targetsFromDetails: [p])
    }()
}
