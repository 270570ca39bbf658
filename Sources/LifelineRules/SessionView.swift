import LifelineCore

/// One event of a scene timeline, with what a rule needs around it. A class: every rule walks
/// the same steps, and passing one around costs a reference, not a copy of an event and a scene.
final class SceneStep {
    let scene: SceneTimeline
    let position: Int          // index in scene.entries
    let entry: TimelineEntry<SceneState>
    let event: Event
    let kind: EventKind
    var before: SceneState { entry.before }

    init(scene: SceneTimeline, position: Int, entry: TimelineEntry<SceneState>, event: Event) {
        self.scene = scene
        self.position = position
        self.entry = entry
        self.event = event
        kind = event.kind
    }
}

/// A process session as the rules read it: the session, plus what many rules derive from it
/// (its scene events in order, where each event happened, the events of each kind), worked out
/// once per session instead of once per rule. One view serves one `RuleRunner.check` on one thread.
@dynamicMemberLookup
public final class SessionView {
    public let session: ProcessSession

    public init(_ session: ProcessSession) { self.session = session }

    public subscript<T>(dynamicMember path: KeyPath<ProcessSession, T>) -> T { session[keyPath: path] }

    // The two properties every rule reads, without a key path on each access.
    var events: [Event] { session.events }
    var scenes: [SceneTimeline] { session.scenes }

    /// Every scene event in timeline order, scene by scene.
    /// Callbacks of scenes that cannot be told apart (`SceneTimeline.indistinguishableFrom`) are left
    /// out: no per-scene rule can say which scene they moved.
    private(set) lazy var sceneSteps: [SceneStep] = session.scenes.flatMap { scene in
        scene.ownEntries.enumerated().map {
            SceneStep(scene: scene, position: $0.offset, entry: $0.element, event: session.events[$0.element.event])
        }
    }

    /// Indices of the events of `kind`, in order (an ending that repeats one already seen, such as
    /// the second line reporting one kill, is left out: `ProcessSession.repeatedEndings`).
    func indices(of kind: EventKind) -> [Int] { byKind[kind] ?? [] }

    /// Indices of the events of any of `kinds`, in order.
    func indices(of kinds: EventKind...) -> [Int] {
        kinds.count == 1 ? indices(of: kinds[0]) : kinds.flatMap { indices(of: $0) }.sorted()
    }

    private lazy var byKind: [EventKind: [Int]] = {
        var map: [EventKind: [Int]] = [:]
        for (i, e) in session.events.enumerated() where !repeatedEndings.contains(i) { map[e.kind, default: []].append(i) }
        return map
    }()

    /// `ProcessSession.repeatedEndings()`, worked out once for the rules and triage.
    public private(set) lazy var repeatedEndings: Set<Int> = session.repeatedEndings()

    /// What the system had said of the app before each event (`ProcessSession.systemContexts()`),
    /// worked out once for the rules that compare the app's word with the system's.
    private(set) lazy var systemContexts: [SystemContext] = session.systemContexts()

    /// The session holds something the system said of its app (a launch, a process or scene state).
    private(set) lazy var hasSystemEvents: Bool = session.hasSystemEvents

    /// Time of the first launch marker, when it has one.
    private(set) lazy var launchTime: Double? = session.events.first { $0.kind.isFinishLaunching }?.timestamp?.seconds

    /// Index of the first `sceneDidBecomeActive`, if any.
    public private(set) lazy var firstActive: Int? = indices(of: Self.didBecomeActive).first
    private static let didBecomeActive = EventKind("scene.didBecomeActive")

    // MARK: Where each event happened

    /// For each event, its own scene entry, if it is a scene event: (scene index, entry position).
    private lazy var sceneEntryAt: [(scene: Int32, position: Int32)] = {
        var at = [(scene: Int32, position: Int32)](repeating: (-1, -1), count: session.events.count)
        for (s, scene) in session.scenes.enumerated() {
            for (p, entry) in scene.entries.enumerated() where at[entry.event].scene < 0 {
                at[entry.event] = (Int32(s), Int32(p))
            }
        }
        return at
    }()

    /// For each event, where `context(at:)` looks: the latest scene entry at or before it, else
    /// the latest app entry, else nothing. Built in one pass.
    private lazy var places: [Place] = {
        var appAt = [Int32](repeating: -1, count: session.events.count)
        for (k, a) in session.app.enumerated() where appAt[a.event] < 0 { appAt[a.event] = Int32(k) }
        var out: [Place] = []
        out.reserveCapacity(session.events.count)
        var lastScene: (scene: Int32, position: Int32)? = nil
        var lastApp: Int32? = nil
        for i in session.events.indices {
            if appAt[i] >= 0 { lastApp = appAt[i] }
            let own = sceneEntryAt[i]
            if own.scene >= 0 {
                lastScene = own
                out.append(.scene(own.scene, own.position, own: true))
            } else if let l = lastScene {
                out.append(.scene(l.scene, l.position, own: false))
            } else if let a = lastApp {
                out.append(.app(a, own: appAt[i] == a))
            } else {
                out.append(.nothing)
            }
        }
        return out
    }()

    private enum Place {
        /// A scene entry; `own` when it is the event's own entry (the state it arrived in counts).
        case scene(Int32, Int32, own: Bool)
        case app(Int32, own: Bool)
        case nothing
    }

    /// What the app was doing when event `index` arrived, as `ProcessSession.context(at:)` says,
    /// in constant time.
    public func context(at index: Int) -> (scene: SceneTimeline?, state: String?) {
        switch places[index] {
        case let .scene(s, p, own):
            let scene = session.scenes[Int(s)]
            let entry = scene.entries[Int(p)]
            return (scene, own ? entry.before.rawValue : entry.after.rawValue)
        case let .app(k, own):
            // An app callback arrives in the state before it, as a scene callback does.
            let entry = session.app[Int(k)]
            return (nil, "app." + (own ? entry.before : entry.after).rawValue)
        case .nothing:
            // A crash report with no lifecycle before it: the callback its frames show being delivered.
            if let frames = session.events[index].details?.lifecycleFrames, let state = FramePlacement.state(frames: frames) {
                return (nil, state)
            }
            return (nil, session.launchSeen ? nil : SceneState.unknown.rawValue)
        }
    }

    /// The line where the state event `index` arrived in began (the scene's or the app's entry
    /// before it), with what happened there; nil when nothing in the session set it.
    func stateSource(at index: Int) -> RelatedLocation? {
        let source: (event: Int, what: String)
        switch places[index] {
        case let .scene(s, p, own):
            let scene = session.scenes[Int(s)]
            let k = own ? Int(p) - 1 : Int(p)
            guard k >= 0 else { return nil }
            let entry = scene.entries[k]
            source = (entry.event, "\(scene.label) became \(entry.after.rawValue) here")
        case let .app(a, own):
            let k = own ? Int(a) - 1 : Int(a)
            guard k >= 0 else { return nil }
            let entry = session.app[k]
            source = (entry.event, "the app became \(entry.after.rawValue) here")
        case .nothing:
            return nil
        }
        guard source.event != index else { return nil }
        let e = session.events[source.event]
        return RelatedLocation(file: e.file, position: e.position, message: "\(source.what) (\(e.kind.rawValue))")
    }

    /// The scene and state of event `index` when it is a scene event.
    func sceneEntry(of index: Int) -> (scene: SceneTimeline, entry: TimelineEntry<SceneState>)? {
        let at = sceneEntryAt[index]
        guard at.scene >= 0 else { return nil }
        let scene = session.scenes[Int(at.scene)]
        return (scene, scene.entries[Int(at.position)])
    }
}
