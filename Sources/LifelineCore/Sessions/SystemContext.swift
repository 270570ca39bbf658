/// What the system had last said of a session's app when one of its events arrived: RunningBoard's
/// process state and role, SpringBoard's task state, FrontBoard's state of each scene, and the launch
/// the system told (`Documentation/SystemEvents.md`). Rules that compare the app's word with the
/// system's, and triage's phases when the app logged no callback, read it.
public struct SystemContext: Sendable, Equatable {
    /// RunningBoard's state (`running-active`, `running-suspended-NotVisible`, `none`) and role.
    public var processState: String?
    public var role: String?
    /// SpringBoard's task state (`Running`, `Suspended`, `Not Running`) and visibility.
    public var taskState: String?
    public var visibility: String?
    /// FrontBoard's latest state of each scene (`sceneID:com.example.comet-default` → `foreground`).
    public var scenes: [String: String] = [:]
    /// The index of the session's `system.launch`, once it came.
    public var launch: Int?

    public init() {}

    /// The state of the app's scene: the only scene's, or the scene in the foreground when several
    /// are known (nil when FrontBoard said nothing).
    public var sceneState: String? {
        if scenes.count <= 1 { return scenes.values.first }
        return scenes.values.contains("foreground") ? "foreground" : scenes.values.sorted().first
    }

    /// RunningBoard's (or, without it, SpringBoard's) process is suspended.
    public var isSuspended: Bool {
        if let p = processState { return p.hasPrefix("running-suspended") }
        return taskState == "Suspended"
    }

    /// The system has the process in the foreground: a foreground scene, a user-interactive role or a
    /// visible process.
    public var isForeground: Bool {
        if let s = sceneState { return s == "foreground" }
        if let r = role { return r.hasPrefix("UserInteractive") && processState?.hasSuffix("NotVisible") != true }
        return visibility == "Foreground"
    }

    /// A state phrase for sentences and signatures (`suspended`, `foreground`, `background`,
    /// `running-active`), or nil when the system said nothing yet.
    public var phrase: String? {
        if processState == "none" || taskState == "Not Running" { return "not running" }
        if isSuspended { return "suspended" }
        if let s = sceneState { return s }
        if processState != nil || taskState != nil { return isForeground ? "foreground" : "background" }
        return nil
    }

    /// Takes event `e` (the `index`-th of its session) into account.
    public mutating func take(_ e: Event, index: Int) {
        guard e.kind.isSystemLifecycle, let d = e.details?.system else { return }
        switch e.kind {
        case .systemLaunch:
            launch = index
        case .systemProcessState:
            if let s = d.state { processState = s; role = d.role }
            if let t = d.taskState { taskState = t }
            if let v = d.visibility { visibility = v }
        default:
            if let id = d.sceneID, let s = d.state { scenes[id] = s }
        }
    }
}

extension ProcessSession {
    /// The system's context before each event (index `i`: what was said by events `0 ..< i`), in one
    /// pass; empty contexts when the session holds no system event.
    public func systemContexts() -> [SystemContext] {
        var out: [SystemContext] = []
        out.reserveCapacity(events.count)
        var c = SystemContext()
        for i in events.indices {
            out.append(c)
            c.take(events[i], index: i)
        }
        return out
    }

    /// The system's context just before event `index` (after it, with `including`).
    public func systemContext(at index: Int, including: Bool = false) -> SystemContext {
        var c = SystemContext()
        let end = min(events.count, including ? index + 1 : index)
        for i in 0..<end where events[i].kind.isSystemLifecycle { c.take(events[i], index: i) }
        return c
    }

    /// The session holds something the system said of its app (a launch, a state, a scene state).
    public var hasSystemEvents: Bool { events.contains { $0.kind.isSystemLifecycle } }

    /// The app logged lifecycle callbacks of its own.
    public var hasOwnLifecycle: Bool { events.contains { $0.kind.isLifecycleCallback } }
}
