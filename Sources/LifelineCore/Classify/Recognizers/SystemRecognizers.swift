// The system's account of an app (`Documentation/SystemEvents.md`): SpringBoard's, FrontBoard's,
// RunningBoard's and the kernel's lines about a launch, a process state or a scene state. Each is an
// event of the app it names (its subject), not of the daemon that logged it. The lines of one launch,
// SpringBoard's task-state lines and repeated states are joined by `SystemStories` (per input): what
// the recognizers give is a *step*, which the stories turn into the events users see.

extension RecognizerFamily {
    /// The lines that tell a launch (bootstrap requests, launch jobs, tracking, success) and what may
    /// start one (an icon tap, an open request).
    static let systemLaunch = RecognizerFamily("systemLaunch")
    /// RunningBoard's calculated states and SpringBoard's task states of a process.
    static let systemProcess = RecognizerFamily("systemProcess")
    /// FrontBoard's scene lifecycle states.
    static let systemScene = RecognizerFamily("systemScene")
    /// Lines that only say who a process is: the kernel's `X.app/X[pid] ==> container`, RunningBoard's
    /// job description with its `Program` path.
    static let systemIdentity = RecognizerFamily("systemIdentity")
}

/// The steps `SystemStories` reads and turns into `system.*` events; none of them leaves the stories.
extension EventKind {
    /// A line of a launch (`Asked to bootstrap`, `Bootstrapping … with intent`, `Executing launch
    /// request`, `Creating and launching job`, `Now tracking process`).
    static let systemLaunchStep = EventKind("system.step.launch")
    /// SpringBoard's `Bootstrap success!`: the launch is complete.
    static let systemLaunchSuccess = EventKind("system.step.launchSuccess")
    /// What may start a launch: an icon tap, a notification response, another process's open request.
    static let systemLaunchCause = EventKind("system.step.cause")
    /// SpringBoard's task state or visibility of a process.
    static let systemTaskState = EventKind("system.step.taskState")
    /// A line that says which executable a bundle or pid is.
    static let systemIdentityStep = EventKind("system.step.identity")

    /// A step of the system's lines that `SystemStories` consumes.
    var isSystemStep: Bool {
        self == .systemLaunchStep || self == .systemLaunchSuccess || self == .systemLaunchCause
            || self == .systemTaskState || self == .systemIdentityStep
    }

    /// A step or an event of the system's account (`system.*`): compared by interned kind, not by family
    /// name, because `RecordProcessor.emit` asks it of every event.
    var isSystem: Bool { isSystemStep || isSystemLifecycle }
}

/// The parts of the system's lines.
enum SystemPatterns {
    /// `app<BUNDLE(persona)>` (iOS 17+) or `application<BUNDLE>` (iOS 14–16), without a pid.
    static let identity = #"(?:app|application)<(?<bundle>[^<>()\s]+)(?:\((?:[^()]|\([^()]*\))*\))?>"#
    /// The same with its pid, in brackets: `[app<BUNDLE(persona)>:PID]`.
    static let identityWithPID = #"\[(?:app|application)<(?<bundle>[^<>()\s]+)(?:\((?:[^()]|\([^()]*\))*\))?>:(?<pid>\d+)\]"#
    /// A bundle identifier as it appears in scene ids and taps.
    static let bundle = #"[A-Za-z0-9][A-Za-z0-9._-]*"#
    /// An executable inside an app bundle: `/…/Comet.app/Comet`.
    /// The folders before the bundle have no spaces; an app's and its executable's names may (`Juniper Notes`).
    static let executable = #"/[^\s"\[\]]*?/(?<app>[^/"]+?)\.app/(?<exec>[^/"\[\]]+)"#
}

extension Recognizer {
    /// `Asked to bootstrap a new process with identity: app<…>`, `Bootstrapping app<…> with intent
    /// foreground-interactive`, `Executing launch request for app<…> (reason)`, `Creating and launching job
    /// for: app<…>`, `Now tracking process: [app<…>:PID]`.
    static let systemLaunchStep: Recognizer = {
        // iOS 12 and earlier name the bundle bare: `Bootstrapping com.example.comet with intent background`.
        let pattern = Pattern.builtIn(
            #"(?:Asked to bootstrap a new process with identity: |Bootstrapping |Creating and launching job for: |Executing launch request for |Now tracking process: \[)"#
                + #"(?:"# + SystemPatterns.identity + #"|(?<bare>"# + SystemPatterns.bundle + #")(?= with intent ))"#
                + #"(?::(?<pid>\d+)\])?(?: with intent (?<intent>[A-Za-z-]+)| \((?<reason>[^)]*)\))?"#)
        let bundle = pattern.group("bundle"), bare = pattern.group("bare"), pid = pattern.group("pid")
        let intent = pattern.group("intent"), reason = pattern.group("reason")
        return Recognizer("system: launch step", family: .systemLaunch,
                          triggers: ["o|otstrap", "Executing laun|ch request",
                                     "Now trackin|g process"], pattern: pattern) { c, m, r in
            var s = SystemDetails()
            s.intent = m[intent]
            if let why = m[reason]?.lowercased(), why.contains("prewarm") { s.trigger = "prewarm" }
            return .event(c.systemStep(.systemLaunchStep, r, bundle: m[bundle] ?? m[bare], pid: m[pid].flatMap { Int($0) }, system: s))
        }
    }()

    /// SpringBoard's `[app<…>:PID] Bootstrap success!`.
    static let systemLaunchSuccess: Recognizer = {
        let pattern = Pattern.builtIn(SystemPatterns.identityWithPID + #" Bootstrap success!"#)
        let bundle = pattern.group("bundle"), pid = pattern.group("pid")
        return Recognizer("system: bootstrap success", family: .systemLaunch, triggers: ["o|otstrap"], pattern: pattern) { c, m, r in
            guard let p = m[pid].flatMap({ Int($0) }) else { return .declined }
            return .event(c.systemStep(.systemLaunchSuccess, r, bundle: m[bundle], pid: p))
        }
    }()

    /// SpringBoard's `SBIconView touches began with event: …` whose record names the icon's
    /// `bundleID: …`, and FrontBoard's `Received request to open "BUNDLE" from PROCESS:PID`: what may start
    /// the next launch of that bundle.
    static let systemLaunchCause: Recognizer = {
        let pattern = Pattern.builtIn(#"SBIconView touches began with event|Received request to open "(?<bundle>[^"\s]+)"(?: from (?<by>[^\s.,;:]+(?::\d+)?))?|Delivering notification response for (?<notified>"# + SystemPatterns.bundle + #"):"#)
        let bundle = pattern.group("bundle"), by = pattern.group("by"), notified = pattern.group("notified")
        let tapBundle = Pattern.builtIn(#"bundleID: (?<bundle>"# + SystemPatterns.bundle + #")>"#)
        let tapGroup = tapBundle.group("bundle")
        return Recognizer("system: launch cause", family: .systemLaunch,
                          triggers: ["S|BIconView touches began", "Received request to o|pen \"", "|notification response for "],
                          pattern: pattern) { c, m, r in
            var s = SystemDetails()
            if let b = m[notified] {
                s.trigger = "notification"
                return .event(c.systemStep(.systemLaunchCause, r, bundle: b, pid: nil, system: s))
            }
            if let opened = m[bundle] {
                s.trigger = "open-request"
                s.openedBy = m[by]
                return .event(c.systemStep(.systemLaunchCause, r, bundle: opened, pid: nil, system: s))
            }
            // The tapped icon's bundle is in the touch's description, on the record's first line or
            // on a later one.
            for line in [r.message] + r.continuation {
                if let b = tapBundle.firstMatch(in: line, scratch: c.scratch, { $0[tapGroup] }) ?? nil {
                    s.trigger = "icon"
                    return .event(c.systemStep(.systemLaunchCause, r, bundle: b, pid: nil, system: s))
                }
            }
            return .dismissed
        }
    }()

    /// RunningBoard's `Calculated state for app<…>: running-active (role: UserInteractiveFocal)`.
    static let systemProcessState: Recognizer = {
        let pattern = Pattern.builtIn(#"^\s*Calculated state for (?:\[)?"# + SystemPatterns.identity
                                      + #"(?::(?<pid>\d+)\])?: (?<state>[A-Za-z-]+) \(role: (?<role>[A-Za-z]+)\)"#)
        let bundle = pattern.group("bundle"), pid = pattern.group("pid"), state = pattern.group("state"), role = pattern.group("role")
        return Recognizer("system: process state", family: .systemProcess, triggers: ["Calcu|lated state for "], pattern: pattern) { c, m, r in
            var s = SystemDetails()
            s.state = m[state]
            s.role = m[role]
            return .event(c.systemStep(.systemProcessState, r, bundle: m[bundle], pid: m[pid].flatMap { Int($0) }, system: s))
        }
    }()

    /// SpringBoard's `[app<…>:PID] Setting process task state to: Suspended` and `… Setting process
    /// visibility to: Background`.
    /// Also SpringBoard's older and newer summary of both, `Application process state changed for BUNDLE:
    /// <SBApplicationProcessState: 0x…; pid: 2231; taskState: Running; visibility: Foreground>` (iOS 12 to 18).
    static let systemTaskState: Recognizer = {
        let pattern = Pattern.builtIn(SystemPatterns.identityWithPID + #" Setting process (?:task state to: (?<task>[A-Za-z ]+?)|visibility to: (?<visibility>[A-Za-z]+))\.?\s*$"#
            + #"|Application process state changed for (?<changed>"# + SystemPatterns.bundle + #"): <SBApplicationProcessState: [^;]*; pid: (?<changedPID>\d+); taskState: (?<changedTask>[A-Za-z ]+?); visibility: (?<changedVisibility>[A-Za-z]+)>"#)
        let bundle = pattern.group("bundle"), pid = pattern.group("pid"), task = pattern.group("task"), visibility = pattern.group("visibility")
        let changed = pattern.group("changed"), changedPID = pattern.group("changedPID"), changedTask = pattern.group("changedTask")
        let changedVisibility = pattern.group("changedVisibility")
        return Recognizer("system: task state", family: .systemProcess,
                          triggers: ["Settin|g process ", "Applicatio|n process state changed for"],
                          pattern: pattern) { c, m, r in
            guard let p = (m[pid] ?? m[changedPID]).flatMap({ Int($0) }) else { return .declined }
            var s = SystemDetails()
            s.taskState = m[task] ?? m[changedTask]
            s.visibility = m[visibility] ?? m[changedVisibility]
            return .event(c.systemStep(.systemTaskState, r, bundle: m[bundle] ?? m[changed], pid: p, system: s))
        }
    }()

    /// FrontBoard's `[0x…:(FBSceneManager):sceneID:BUNDLE-default] Scene lifecycle state did change: Foreground`.
    static let systemSceneState: Recognizer = {
        let pattern = Pattern.builtIn(#"(?<scene>sceneID:(?<bundle>"# + SystemPatterns.bundle
                                      + #"?)-(?:default|[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}|[A-Za-z0-9]+))\] Scene lifecycle state did change: (?<state>[A-Za-z]+)"#)
        let scene = pattern.group("scene"), bundle = pattern.group("bundle"), state = pattern.group("state")
        return Recognizer("system: scene state", family: .systemScene, triggers: ["Scene lifecycle state d|id change"], pattern: pattern) { c, m, r in
            var s = SystemDetails()
            s.sceneID = m[scene]
            s.state = m[state]?.lowercased()
            return .event(c.systemStep(.systemSceneState, r, bundle: m[bundle], pid: nil, system: s))
        }
    }()

    /// The kernel's `/…/Comet.app/Comet[812] ==> container` (a pid and its executable), and RunningBoard's
    /// `'app<…>' Constructed job description:` record, whose `"Program" => … contents = "/…/Comet.app/Comet"`
    /// line names the bundle's executable.
    static let systemIdentity: Recognizer = {
        let pattern = Pattern.builtIn(#"(?:^|\s)"# + SystemPatterns.executable + #"\[(?<pid>\d+)\] ==> container|'"# + SystemPatterns.identity + #"' Constructed job description:"#)
        let exec = pattern.group("exec"), pid = pattern.group("pid"), bundle = pattern.group("bundle")
        let program = Pattern.builtIn(#""Program" => .*contents = ""# + SystemPatterns.executable + #"""#)
        let programExec = program.group("exec")
        return Recognizer("system: identity", family: .systemIdentity,
                          triggers: ["] ==|> container", "Constructed job descript|ion:"], pattern: pattern) { c, m, r in
            if let p = m[pid].flatMap({ Int($0) }), let name = m[exec] {
                return .event(c.systemStep(.systemIdentityStep, r, bundle: nil, pid: p, process: name))
            }
            guard let b = m[bundle] else { return .declined }
            for line in r.continuation {
                if let name = program.firstMatch(in: line, scratch: c.scratch, { $0[programExec] }) ?? nil {
                    return .event(c.systemStep(.systemIdentityStep, r, bundle: b, pid: nil, process: name))
                }
            }
            return .dismissed
        }
    }()
}

extension EventClassifier {
    /// A step of the system's account of the app `bundle`/`pid`: its subject is the app, whatever
    /// the classifier's detail level (the stories join steps by it; they are few).
    func systemStep(_ kind: EventKind, _ r: RecordText, bundle: String?, pid: Int?, process: String? = nil,
                    system: SystemDetails? = nil) -> Event {
        var e = Event(file: "", line: 0, format: r.format, kind: kind, message: r.message)
        e.subject = Subject(bundleID: bundle, pid: pid, process: process)
        if let system {
            var d = EventDetails()
            d.system = system
            e.details = d
        }
        return e
    }
}
