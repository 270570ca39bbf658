/// The state of one scene object (lifecycle reference §1.1–1.3), plus the states an analyzer needs
/// around them: `unknown` before the first event of a trace that begins in the middle of a life, and
/// `connected` for CarPlay scenes, whose activation the documentation does not describe.
public enum SceneState: String, Sendable, Equatable, CaseIterable {
    case unknown
    case unattached
    case foregroundInactive
    case foregroundActive
    case background
    /// CarPlay: the template scene was connected (`cp.didConnect`).
    case connected
    /// The scene object was released (`scene.didDisconnect`, `cp.didDisconnect`); its session may
    /// reconnect later with a new object.
    case disconnected

    /// The state a scene callback moves to (T1–T6 of the reference), or nil for events that do not
    /// change the state (`scene.openURLContexts`, geometry updates, failures …).
    public static func target(of kind: EventKind) -> SceneState? { targets[kind] }

    // A table, not a switch on the raw value: this runs for every event of every session. Made
    // from the scene and CarPlay machines' definitions (a CarPlay scene gets scene callbacks too).
    private static let targets: [EventKind: SceneState] = {
        var t: [EventKind: SceneState] = [:]
        for machine in [MachineDefinition.scene, .carPlay] {
            for (event, to) in machine.targets { t[EventKind(event)] = SceneState(rawValue: to)! }
        }
        return t
    }()

    /// Events that belong to a scene's timeline (rather than the app's).
    public static func isSceneEvent(_ kind: EventKind) -> Bool {
        kind.family == "scene" || kind.family == "windowScene" || kind.family == "cp"
    }
}

/// The state of the application process as its delegate's callbacks describe it (reference §2).
public enum AppState: String, Sendable, Equatable, CaseIterable {
    case unknown
    case launching
    case launched
    case foregroundInactive
    case foregroundActive
    case background
    case terminated

    public static func target(of kind: EventKind) -> AppState? { kind.family == "app" ? targets[kind] : nil }

    private static let targets: [EventKind: AppState] = Dictionary(
        uniqueKeysWithValues: MachineDefinition.app.targets.map { (EventKind($0.event), AppState(rawValue: $0.to)!) })
}
