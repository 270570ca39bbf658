/// The lifecycle callbacks that code compares events against, as values: `e.kind == .appDidFinishLaunching`
/// compares two interned numbers, where comparing `rawValue` strings compared strings
/// and a misspelt id compiled. Every constant is an id of `CallbackCatalog` (a test checks it).
extension EventKind {
    // UIApplicationDelegate.
    public static let appWillFinishLaunching = EventKind("app.willFinishLaunching")
    public static let appDidFinishLaunching = EventKind("app.didFinishLaunching")
    public static let appConfigurationForConnecting = EventKind("app.configurationForConnecting")
    public static let appDidDiscardSceneSessions = EventKind("app.didDiscardSceneSessions")
    public static let appDidBecomeActive = EventKind("app.didBecomeActive")
    public static let appWillResignActive = EventKind("app.willResignActive")
    public static let appDidEnterBackground = EventKind("app.didEnterBackground")
    public static let appWillEnterForeground = EventKind("app.willEnterForeground")
    public static let appWillTerminate = EventKind("app.willTerminate")
    // UISceneDelegate.
    public static let sceneWillConnect = EventKind("scene.willConnect")
    public static let sceneDidDisconnect = EventKind("scene.didDisconnect")
    public static let sceneDidBecomeActive = EventKind("scene.didBecomeActive")
    public static let sceneWillResignActive = EventKind("scene.willResignActive")
    public static let sceneWillEnterForeground = EventKind("scene.willEnterForeground")
    public static let sceneDidEnterBackground = EventKind("scene.didEnterBackground")
    // UIWindowSceneDelegate.
    public static let windowSceneDidUpdateCoordinateSpace = EventKind("windowScene.didUpdateCoordinateSpace")
    // CarPlay scene delegates.
    public static let carPlayDidConnect = EventKind("cp.didConnect")
    public static let carPlayDidDisconnect = EventKind("cp.didDisconnect")

    /// The constants above, for the test that checks each is a catalogue id.
    public static let comparedLifecycleKinds: [EventKind] = [
        .appWillFinishLaunching, .appDidFinishLaunching, .appConfigurationForConnecting, .appDidDiscardSceneSessions,
        .appDidBecomeActive, .appWillResignActive, .appDidEnterBackground, .appWillEnterForeground, .appWillTerminate,
        .sceneWillConnect, .sceneDidDisconnect, .sceneDidBecomeActive, .sceneWillResignActive, .sceneWillEnterForeground,
        .sceneDidEnterBackground, .windowSceneDidUpdateCoordinateSpace, .carPlayDidConnect, .carPlayDidDisconnect,
    ]

    /// `app.willFinishLaunching` or `app.didFinishLaunching`: a launch callback.
    public var isFinishLaunching: Bool { self == .appWillFinishLaunching || self == .appDidFinishLaunching }
}
