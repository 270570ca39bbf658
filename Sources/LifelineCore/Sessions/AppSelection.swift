/// Which apps get sessions and reports. A device log shows dozens of Apple apps, daemons and extensions
/// besides the app under study: by default Lifeline follows every app whose bundle ID is not
/// `com.apple.*` (and every process that logs its own lifecycle, whose bundle it does not know);
/// `--app` (`apps:` in `.lifeline.yml`) names the apps to follow, Apple's included, and `--all-apps`
/// follows every one. `events` prints the system's events of every app whatever the choice.
public struct AppSelection: Sendable, Equatable {
    /// Bundle IDs or executable names; when not empty, only these apps are followed.
    public var names: [String]
    /// Follow every app, Apple's included.
    public var all: Bool

    public init(names: [String] = [], all: Bool = false) {
        self.names = names
        self.all = all
    }

    public static let `default` = AppSelection()

    /// Whether the app of `bundleID` (and executable `process`) is followed.
    public func follows(bundleID: String?, process: String?) -> Bool {
        if all { return true }
        if !names.isEmpty {
            return names.contains { n in
                bundleID.map { $0.caseInsensitiveCompare(n) == .orderedSame } == true || process == n
            }
        }
        guard let b = bundleID else { return true }
        return !Self.isApple(b)
    }

    public func follows(_ s: ProcessSession) -> Bool { follows(bundleID: s.bundleID, process: s.process) }

    /// An Apple app or daemon (`com.apple.mobilesafari`).
    public static func isApple(_ bundleID: String) -> Bool {
        bundleID.count > 10 && bundleID.prefix(10).lowercased() == "com.apple."
    }

    /// The words of the choice, for summaries: `apps not from Apple`, `every app`, `com.example.comet`.
    public var phrase: String {
        if all { return "every app" }
        if !names.isEmpty { return names.joined(separator: ", ") }
        return "apps not from Apple (--app or --all-apps for others)"
    }
}

/// The apps the system's lines told of, with how much of each was seen: what a user picks `--app` from.
public struct AppsSeen: Sendable, Equatable {
    public struct App: Sendable, Equatable {
        public var bundleID: String
        /// The executable name, when the log said it.
        public var process: String?
        public var sessions = 0
        public var launches = 0
        /// The system's events of the app (launches, process and scene states) and its endings.
        public var systemEvents = 0
        public var endings = 0
        public var followed: Bool
    }

    private var byBundle: [String: App] = [:]

    public init() {}

    public var isEmpty: Bool { byBundle.isEmpty }
    /// The apps, by bundle ID.
    public var apps: [App] { byBundle.values.sorted { $0.bundleID < $1.bundleID } }

    /// Counts a session of an app the system named (sessions without a bundle ID are not apps seen).
    public mutating func add(_ s: ProcessSession, followed: Bool) {
        guard let b = s.bundleID else { return }
        var app = byBundle[b] ?? App(bundleID: b, process: nil, followed: followed)
        if app.process == nil, let p = s.process, p != b { app.process = p }
        app.sessions += 1
        for e in s.events {
            if e.kind == .systemLaunch { app.launches += 1 }
            if e.kind.isSystemLifecycle { app.systemEvents += 1 }
        }
        if s.endingFailure() != nil { app.endings += 1 }
        app.followed = app.followed || followed
        byBundle[b] = app
    }

    /// Adds what another run saw (the lanes of a triage, the parts of a Spark job).
    public mutating func merge(_ other: AppsSeen) {
        for (b, o) in other.byBundle {
            guard var app = byBundle[b] else { byBundle[b] = o; continue }
            app.process = app.process ?? o.process
            app.sessions += o.sessions
            app.launches += o.launches
            app.systemEvents += o.systemEvents
            app.endings += o.endings
            app.followed = app.followed || o.followed
            byBundle[b] = app
        }
    }
}
