import LifelineCore

// What the rules of the system's account (LC-D01 … LC-D05) read of the system's events
// (`Documentation/SystemEvents.md`), and how they compare its times with the app's.

extension SystemDetails {
    /// This word of the system has the app in the foreground: FrontBoard's scene in the foreground,
    /// SpringBoard's visibility `Foreground`, or (when SpringBoard gave no visibility) RunningBoard's
    /// user-interactive role on a visible process.
    func saysForeground(_ kind: EventKind) -> Bool {
        if kind == .systemSceneState { return state == "foreground" }
        guard kind == .systemProcessState else { return false }
        if let v = visibility { return v == "Foreground" }
        guard let r = role else { return false }
        return r.hasPrefix("UserInteractive") && state?.hasSuffix("NotVisible") != true
    }

    /// This process-state word has the process suspended (RunningBoard's `running-suspended…`, or
    /// SpringBoard's task state `Suspended` when RunningBoard said nothing).
    var saysSuspended: Bool {
        if let s = state { return s.hasPrefix("running-suspended") }
        return taskState == "Suspended"
    }

    /// This process-state word has the process running again or gone: any state that is not
    /// suspended (`running-active…`, `none`), or SpringBoard's `Running` / `Not Running`.
    var saysNotSuspended: Bool {
        if let s = state { return !s.hasPrefix("running-suspended") }
        return taskState != nil && taskState != "Suspended"
    }
}

extension Event {
    /// The app's own word on what it was doing: its callbacks, threading reports, markers, UIKit's
    /// messages in it and failures it logged itself. Not the system's lines about it (its launch,
    /// states and kill lines) and not a report written about it afterwards.
    var isAppsOwnWork: Bool {
        let k = kind
        if k.isLifecycleCallback || k.isThreading { return true }
        if k.family == "marker" || k.family == "config" { return true }
        return k.isFailure && !isKillLine && !format.isReport
    }
}

/// The answer to "did the system say so, shortly after?", when the log may end before it would.
enum SystemWord: Equatable {
    case said, notSaid, unknown
}

extension SessionView {
    /// Seconds from event `a` to event `b` by the log's clock (`LogTimestamp.interval`, which also
    /// compares the times of day of a Console.app copy), when both have times.
    func interval(from a: Int, to b: Int) -> Double? {
        guard let t0 = events[a].timestamp, let t1 = events[b].timestamp else { return nil }
        return t1.interval(since: t0)
    }

    /// Event `b` is later than event `a` by more than the clocks' resolution: not a line of the same
    /// moment printed late (idevicesyslog prints lines as they reach it, at whole seconds).
    func isSurelyAfter(_ b: Int, _ a: Int) -> Bool {
        guard let t0 = events[a].timestamp, let t1 = events[b].timestamp else { return false }
        return t1.isSurelyAfter(t0) == true
    }

    /// Seconds the system may take to say a change that the app's line after it already shows:
    /// a daemon's line and the app's written in the same moment can reach the log in either order.
    static let systemWordSlack = 1.0

    /// Whether a system event after `index`, within `systemWordSlack` seconds of it (or of the
    /// same second), says what `condition` asks; `unknown` when this part of a session ends before
    /// that time has passed and the process goes on in the next part.
    func systemSays(after index: Int, _ condition: (SystemDetails, EventKind) -> Bool) -> SystemWord {
        var j = index + 1
        while j < events.count {
            let e = events[j]
            if let d = interval(from: index, to: j), d > Self.systemWordSlack { return .notSaid }
            if e.kind.isSystemLifecycle, let s = e.details?.system, condition(s, e.kind) { return .said }
            j += 1
        }
        if session.continuesLater { return .unknown }
        return .notSaid
    }

    /// The index of the first ending of the process (a kill, a crash, an uncaught exception), if any.
    var firstEnding: Int? {
        events.indices.first { SessionEnding.terminalKinds.contains(events[$0].kind) && !repeatedEndings.contains($0) }
    }

    /// Whether event `index` is a callback of a CarPlay scene (the car's screen is not the phone's
    /// foreground, and FrontBoard's phone scene says nothing of it).
    func isCarPlayCallback(_ index: Int) -> Bool {
        sceneEntry(of: index)?.scene.isCarPlay == true || events[index].kind.family == "cp"
    }

    /// A callback as messages name it: as the app spelled it, or its kind.
    func callbackName(_ index: Int) -> String {
        events[index].spelling ?? events[index].kind.rawValue
    }
}
