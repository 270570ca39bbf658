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
        for (event, to) in d.targets {
            #expect(target.updateValue(to, forKey: event) == nil, "\(machine): \(event) has one target")
            #expect(d.isTypedState(to), "\(machine): \(event) → \(to)")
        }
        for t in d.legal { #expect(target[t.event] == t.to, "\(machine): \(t.event) moves to \(target[t.event] ?? "nothing"), not \(t.to)") }
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
        #expect(LifecycleMachine.allCases.map(\.rawValue) == ["scene", "app", "carPlay"])
        #expect(LifecycleMachine.allCases.map(\.definition.title) == ["UIScene", "UIApplication", "CarPlay scene"])
        #expect(LifecycleMachine.scene < .app && LifecycleMachine.app < .carPlay)
    }
}
