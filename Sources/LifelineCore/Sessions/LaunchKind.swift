/// Why a process was launched, as its log shows it. Launch-time rules and triage's "during launch"
/// phase mean a launch the user waits for; a process the system launched for CarPlay or in the
/// background is not slow when its phone scene comes minutes later.
public enum LaunchKind: String, Sendable, Equatable, CaseIterable {
    /// The user opened the app: a new scene session was configured
    /// (`configurationForConnecting`) and came to the foreground.
    case user
    /// The user opened the app and an existing scene session reconnected (no
    /// `configurationForConnecting`: restored at relaunch).
    case restore
    /// Launched for CarPlay: a CarPlay scene connected before any phone scene came to the foreground.
    case carPlay = "carplay"
    /// Launched in the background (fetch, push, background URL session, location, BGTask): a
    /// background callback before anything came to the foreground, a scene that went to the
    /// background without coming to the foreground, or nothing in the foreground for longer than
    /// the launch watchdog allows a user launch.
    case background
    /// Prewarmed: the process's first lines came long before `willFinishLaunching` /
    /// `didFinishLaunching`, which run only when the user opens the app.
    case prewarm

    /// How a sentence says it.
    public var phrase: String {
        switch self {
        case .user: "launched by the user"
        case .restore: "launched by the user, its scene session restored"
        case .carPlay: "launched for CarPlay"
        case .background: "launched in the background"
        case .prewarm: "prewarmed by the system, then launched"
        }
    }

    /// Whether the user waited for this launch (launch-time limits apply).
    public var isUserFacing: Bool { self == .user || self == .restore || self == .prewarm }

    /// Seconds without anything in the foreground after `didFinishLaunching` past which a launch was
    /// not the user's: the launch watchdog ends a user launch at about 20 s (reference §5.4).
    public static let userLaunchLimit = 20.0
    /// Seconds between a process's first event and its launch callbacks past which it was prewarmed.
    public static let prewarmGap = 5.0

    static let backgroundCallbacks: Set<EventKind> = [
        EventKind("app.handleEventsForBackgroundURLSession"), EventKind("app.didReceiveRemoteNotification"), EventKind("app.performFetch"),
    ]
    static let foregroundKinds: Set<EventKind> = [.sceneWillEnterForeground, .sceneDidBecomeActive, .appWillEnterForeground, .appDidBecomeActive]

    /// The kind of the launch in `events` (a session's, in order), or nil when the launch is not in
    /// the trace or the trace ends before it shows which kind it was.
    public static func classify(_ events: [Event]) -> LaunchKind? {
        let told = events.first { $0.kind == .systemLaunch }?.details?.system
        let fromApp = classifyFromCallbacks(events)
        guard let told else { return fromApp }
        // The system's word on why it launched the process: a background intent or a prewarm is
        // what it says, whatever the app's callbacks show later (a user may open it afterwards).
        if told.trigger == "prewarm" { return .prewarm }
        if told.intent == "background" { return fromApp == .carPlay ? .carPlay : .background }
        return fromApp ?? .user
    }

    private static func classifyFromCallbacks(_ events: [Event]) -> LaunchKind? {
        guard let launch = events.firstIndex(where: { $0.kind == .appWillFinishLaunching || $0.kind == .appDidFinishLaunching })
        else { return nil }
        let launchTime = events[launch].timestamp?.seconds
        var prewarmed = false
        if let t = launchTime, let first = events[..<launch].lazy.compactMap({ $0.timestamp?.seconds }).first, t - first > prewarmGap {
            prewarmed = true
        }
        var configured = false
        var connectedScene = false
        // Only an app that logs `configurationForConnecting` shows when it was not called.
        let logsConfiguration = events.contains { $0.kind == .appConfigurationForConnecting }
        for e in events[(launch + 1)...] {
            let k = e.kind
            if let lt = launchTime, let t = e.timestamp?.seconds, t - lt > userLaunchLimit {
                // Nothing came to the foreground within the watchdog's limit of a user launch.
                return .background
            }
            if k == .appConfigurationForConnecting { configured = true }
            if backgroundCallbacks.contains(k) { return .background }
            if k.family == "cp" && k.rawValue.hasSuffix("didConnect") { return .carPlay }
            if k == .sceneWillConnect { connectedScene = true }
            if k == .sceneDidEnterBackground || k == .appDidEnterBackground { return .background }
            if foregroundKinds.contains(k) {
                if prewarmed { return .prewarm }
                return connectedScene && !configured && logsConfiguration ? .restore : .user
            }
        }
        return nil
    }
}
