import LifelineCore

/// One event of a scene timeline, with what a rule needs around it.
struct SceneStep {
    let scene: SceneTimeline
    let position: Int          // index in scene.entries
    let entry: TimelineEntry<SceneState>
    let event: Event
    var kind: String { event.kind.rawValue }
    var before: SceneState { entry.before }
}

extension ProcessSession {
    /// Every scene event in timeline order, scene by scene.
    var sceneSteps: [SceneStep] {
        scenes.flatMap { scene in
            scene.entries.enumerated().map { SceneStep(scene: scene, position: $0.offset, entry: $0.element, event: events[$0.element.event]) }
        }
    }

    /// The previous event of the same scene that changed its state, if any.
    func previousTransition(before step: SceneStep) -> SceneStep? {
        var p = step.position - 1
        while p >= 0 {
            let entry = step.scene.entries[p]
            if SceneState.target(of: events[entry.event].kind) != nil {
                return SceneStep(scene: step.scene, position: p, entry: entry, event: events[entry.event])
            }
            p -= 1
        }
        return nil
    }
}

extension SceneTimeline {
    /// `S1 (0x10431c2a0)` or `S1`: how messages name a scene.
    var label: String { address.map { "\(id) (\($0))" } ?? id }
}

extension Rule {
    /// Findings for every `kind` event that arrives in one of `states` (never `unknown`: a trace that
    /// begins mid-life says nothing about what came before).
    func arrivals(of kind: String, in states: Set<SceneState>, _ session: ProcessSession,
                  severity: ((SceneStep) -> Severity)? = nil, message: (SceneStep) -> String) -> [Diagnostic] {
        session.sceneSteps.compactMap { step in
            guard step.kind == kind, step.before != .unknown, states.contains(step.before) else { return nil }
            return diagnostic(session, event: step.entry.event, scene: step.scene, state: step.before.rawValue,
                              severity: severity?(step), message(step))
        }
    }
}
