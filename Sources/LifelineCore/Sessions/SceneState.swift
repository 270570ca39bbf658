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
    public static func target(of kind: EventKind) -> SceneState? {
        switch kind.rawValue {
        case "scene.willConnect": return .unattached
        case "scene.willEnterForeground": return .foregroundInactive
        case "scene.didBecomeActive": return .foregroundActive
        case "scene.willResignActive": return .foregroundInactive
        case "scene.didEnterBackground": return .background
        case "scene.didDisconnect": return .disconnected
        case "cp.didConnect", "cp.dashboard.didConnect", "cp.cluster.didConnect", "cp.legacy.didConnect": return .connected
        case "cp.didDisconnect", "cp.dashboard.didDisconnect", "cp.cluster.didDisconnect", "cp.legacy.didDisconnect":
            return .disconnected
        default: return nil
        }
    }

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

    public static func target(of kind: EventKind) -> AppState? {
        switch kind.rawValue {
        case "app.willFinishLaunching": return .launching
        case "app.didFinishLaunching": return .launched
        case "app.didBecomeActive": return .foregroundActive
        case "app.willResignActive": return .foregroundInactive
        case "app.willEnterForeground": return .foregroundInactive
        case "app.didEnterBackground": return .background
        case "app.willTerminate": return .terminated
        default: return nil
        }
    }
}
