import Testing
import LifelineCore

/// Each lifecycle state machine is defined once (`MachineDefinition`); these check that every
/// definition is whole on its own and that the session builder's tables are made from it.
@Suite struct StateMachineTests {
    @Test("every machine's transitions go between its own states", arguments: LifecycleMachine.allCases)
    func transitionsReferenceOwnStates(_ machine: LifecycleMachine) {
        let d = machine.definition
        let states = Set(d.states)
        #expect(states.count == d.states.count, "no state twice")
        #expect(d.states.first == MachineDefinition.start)
        for t in d.legal {
            #expect(states.contains(t.from), "\(machine): \(t.from) of \(t.event)")
            #expect(states.contains(t.to), "\(machine): \(t.to) of \(t.event)")
            #expect(t.to != MachineDefinition.start, "\(machine): nothing goes back to start")
        }
        #expect(Set(d.legal).count == d.legal.count, "\(machine): no transition twice")
    }

    @Test("every state but start is a state the builder keeps, and every one is reachable", arguments: LifecycleMachine.allCases)
    func statesAreTypedAndReachable(_ machine: LifecycleMachine) {
        let d = machine.definition
        for s in d.states.dropFirst() {
            #expect(d.isTypedState(s), "\(machine): \(s)")
            #expect(d.legal.contains { $0.to == s }, "\(machine): nothing legal enters \(s)")
        }
        #expect(!d.isTypedState(MachineDefinition.start))
    }

    @Test("a legal transition goes where its callback moves a timeline", arguments: LifecycleMachine.allCases)
    func legalTransitionsFollowTargets(_ machine: LifecycleMachine) {
        let d = machine.definition
        var target: [String: String] = [:]
        var fromDetails: [String: Set<String>] = [:]
        for (event, to) in d.targets {
            #expect(d.isTypedState(to), "\(machine): \(event) → \(to)")
            if d.targetsFromDetails.contains(event) {
                fromDetails[event, default: []].insert(to)
                continue
            }
            #expect(target.updateValue(to, forKey: event) == nil, "\(machine): \(event) has one target")
        }
        for t in d.legal {
            if let tos = fromDetails[t.event] {
                #expect(tos.contains(t.to), "\(machine): \(t.event) never moves to \(t.to)")
            } else {
                #expect(target[t.event] == t.to, "\(machine): \(t.event) moves to \(target[t.event] ?? "nothing"), not \(t.to)")
            }
        }
    }

    @Test("the outline is a part of the legal transitions, in their order", arguments: LifecycleMachine.allCases)
    func outlineIsLegal(_ machine: LifecycleMachine) {
        let d = machine.definition
        #expect(d.outline == d.legal.filter { d.outline.contains($0) })
        #expect(!d.outline.isEmpty)
    }

    @Test("the builder's scene and app tables are the definitions' targets")
    func builderReadsDefinitions() {
        for machine in [LifecycleMachine.scene, .carPlay] {
            for (event, to) in machine.definition.targets {
                #expect(SceneState.target(of: EventKind(event))?.rawValue == to, "\(event)")
                #expect(AppState.target(of: EventKind(event)) == nil, "\(event)")
            }
        }
        for (event, to) in LifecycleMachine.app.definition.targets {
            #expect(AppState.target(of: EventKind(event))?.rawValue == to, "\(event)")
            #expect(SceneState.target(of: EventKind(event)) == nil, "\(event)")
        }
        // What the tables held before they were made from the definitions.
        let scene: [String: SceneState] = [
            "scene.willConnect": .unattached, "scene.willEnterForeground": .foregroundInactive,
            "scene.didBecomeActive": .foregroundActive, "scene.willResignActive": .foregroundInactive,
            "scene.didEnterBackground": .background, "scene.didDisconnect": .disconnected,
            "cp.didConnect": .connected, "cp.didDisconnect": .disconnected,
            "cp.dashboard.didConnect": .connected, "cp.dashboard.didDisconnect": .disconnected,
            "cp.cluster.didConnect": .connected, "cp.cluster.didDisconnect": .disconnected,
            "cp.legacy.didConnect": .connected, "cp.legacy.didDisconnect": .disconnected,
        ]
        let sceneEvents = Set(LifecycleMachine.scene.definition.targets.map(\.event) + LifecycleMachine.carPlay.definition.targets.map(\.event))
        #expect(sceneEvents == Set(scene.keys))
        for (event, state) in scene { #expect(SceneState.target(of: EventKind(event)) == state, "\(event)") }
        #expect(SceneState.target(of: EventKind("scene.openURLContexts")) == nil)
        #expect(SceneState.target(of: EventKind("windowScene.didUpdateCoordinateSpace")) == nil)
        #expect(AppState.target(of: EventKind("app.configurationForConnecting")) == nil)
        #expect(LifecycleMachine.app.definition.targets.count == 7)
    }

    @Test("legality answers from the transitions")
    func legality() {
        let scene = MachineDefinition.scene
        #expect(scene.isLegal(from: "foregroundInactive", event: "scene.didBecomeActive"))
        #expect(!scene.isLegal(from: "background", event: "scene.didBecomeActive"))
        #expect(scene.legalSources(of: "scene.didDisconnect") == ["background", "unattached"])
        #expect(MachineDefinition.carPlay.legalSources(of: "cp.didDisconnect")
                == ["connected", "foregroundInactive", "foregroundActive", "background"])
        #expect(LifecycleMachine.carPlay.outline.count < LifecycleMachine.carPlay.legal.count)
    }

    @Test("machines keep their order and names (JSON tallies and diagram node ids use them)")
    func names() {
        #expect(LifecycleMachine.allCases.map(\.rawValue) == ["scene", "app", "carPlay", "process"])
        #expect(LifecycleMachine.allCases.map(\.definition.title) == ["UIScene", "UIApplication", "CarPlay scene", "RunningBoard process"])
        #expect(LifecycleMachine.scene < .app && LifecycleMachine.app < .carPlay && LifecycleMachine.carPlay < .process)
    }
}

/// RunningBoard's process states (issue 30): the fourth machine, and what moves a process timeline.
@Suite struct ProcessMachineTests {
    static let p = MachineDefinition.processStateEvent

    @Test("the process machine's states, in drawing order: running states, then the endings, then none")
    func states() {
        #expect(MachineDefinition.process.states == [
            "start", "running-active", "running-active-NotVisible", "running-suspended", "running-suspended-NotVisible",
            "running", "terminated-by-signal", "killed", "none",
        ])
        #expect(MachineDefinition.process.targetsFromDetails == [Self.p])
    }

    @Test("legal: launch into any running state, changes among RunningBoard's states, exit, and kills from a running state or after none")
    func legal() {
        let d = MachineDefinition.process
        func legal(_ from: String, _ to: String, _ event: String = Self.p) -> Bool { d.legal.contains(Transition(from: from, to: to, event: event)) }
        #expect(legal("start", "running-active"))
        #expect(legal("start", "running-active-NotVisible"))
        #expect(legal("running-active", "running-active-NotVisible"))
        #expect(legal("running-active-NotVisible", "running-suspended-NotVisible"))
        #expect(legal("running-suspended-NotVisible", "running-active"))
        #expect(legal("running", "running-suspended"))
        #expect(legal("running-suspended", "running"))
        #expect(legal("running-suspended-NotVisible", "none"))
        #expect(legal("running-suspended-NotVisible", "killed", "failure.jetsam"))
        #expect(legal("running-active", "killed", "failure.watchdog"))
        #expect(legal("running-active", "terminated-by-signal", "failure.signal"))
        #expect(legal("none", "terminated-by-signal", "failure.signal"), "RunningBoard's none may come before the kill line")
        #expect(legal("killed", "none"))
        #expect(legal("terminated-by-signal", "none"))
        // Illegal: nothing leaves none or an ending but none; a kill does not go to another state.
        #expect(!legal("none", "running-active"))
        #expect(!legal("killed", "running-active"))
        #expect(!legal("terminated-by-signal", "killed", "failure.killed"))
        #expect(!legal("running-active", "running-active"))
        #expect(!legal("running-active", "none", "failure.jetsam"))
        #expect(!legal("start", "none"))
        #expect(!legal("running", "running-active"), "SpringBoard's Running is not one of RunningBoard's states")
        #expect(d.isLegal(from: "running-suspended-NotVisible", event: "failure.jetsam"))
        #expect(!d.isLegal(from: "killed", event: "failure.jetsam"))
        #expect(d.legalSources(of: "failure.signal") == ["running-active", "running-active-NotVisible", "running-suspended",
                                                        "running-suspended-NotVisible", "running", "none"])
    }

    static func event(_ kind: EventKind, state: String? = nil, taskState: String? = nil) -> Event {
        var e = Event(file: "d.log", line: 1, format: .console, kind: kind, message: "m")
        var details = EventDetails()
        var system = SystemDetails()
        system.state = state
        system.taskState = taskState
        details.system = system
        e.details = details
        return e
    }

    @Test("a process state event moves to its state; SpringBoard's task state when it names none; kill lines to their endings")
    func targets() {
        let ps = EventKind.systemProcessState
        #expect(ProcessState.target(of: Self.event(ps, state: "running-active")) == .runningActive)
        #expect(ProcessState.target(of: Self.event(ps, state: "running-suspended-NotVisible")) == .runningSuspendedNotVisible)
        #expect(ProcessState.target(of: Self.event(ps, state: "none")) == ProcessState.none)
        // Read by its parts when RunningBoard writes a state this does not list.
        #expect(ProcessState.target(of: Self.event(ps, state: "running-NotVisible")) == .running)
        #expect(ProcessState.target(of: Self.event(ps, state: "none-NotVisible")) == ProcessState.none)
        #expect(ProcessState.target(of: Self.event(ps, state: "scheduled")) == nil)
        #expect(ProcessState.target(of: Self.event(ps, state: "killed")) == nil, "an ending is not a state RunningBoard names")
        #expect(ProcessState.target(of: Self.event(ps, taskState: "Running")) == .running)
        #expect(ProcessState.target(of: Self.event(ps, taskState: "Suspended")) == .runningSuspended)
        #expect(ProcessState.target(of: Self.event(ps, taskState: "Not Running")) == ProcessState.none)
        #expect(ProcessState.target(of: Self.event(ps, state: "running-active", taskState: "Suspended")) == .runningActive, "RunningBoard's state first")
        #expect(ProcessState.target(of: Self.event(.signal)) == .terminatedBySignal)
        for kind in [EventKind.killed, .jetsam, .watchdog] { #expect(ProcessState.target(of: Self.event(kind)) == .killed) }
        #expect(ProcessState.target(of: Self.event(.exception)) == nil)
        #expect(ProcessState.target(of: Self.event(.systemSceneState, state: "foreground")) == nil)
        // Every target the builder reads is one the definition lists for the event.
        let targets = Set(MachineDefinition.process.targets.map { "\($0.event)>\($0.to)" })
        for s in ["running-active", "running-active-NotVisible", "running-suspended", "running-suspended-NotVisible", "none"] {
            #expect(targets.contains("\(Self.p)>\(s)"))
        }
    }

    @Test("the system's scene states agree with the app's: foreground is inactive or active, none unattached or disconnected")
    func systemSceneStates() {
        #expect(SystemSceneState.foreground.agrees(with: .foregroundActive) == true)
        #expect(SystemSceneState.foreground.agrees(with: .foregroundInactive) == true)
        #expect(SystemSceneState.background.agrees(with: .foregroundActive) == false)
        #expect(SystemSceneState.none.agrees(with: .disconnected) == true)
        #expect(SystemSceneState.foreground.agrees(with: .unknown) == nil)
        #expect(SystemSceneState(rawValue: "foreground-obscured").agrees(with: .background) == nil)
        #expect(SystemSceneState.foreground.sceneMachineState(asSource: false) == "foregroundInactive")
        #expect(SystemSceneState.none.sceneMachineState(asSource: true) == "start")
        #expect(SystemSceneState.none.sceneMachineState(asSource: false) == "disconnected")
        for s in [SystemSceneState.foreground, .background] {
            #expect(MachineDefinition.scene.states.contains(s.sceneMachineState(asSource: false)))
        }
    }
}
