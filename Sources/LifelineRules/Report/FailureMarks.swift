import Foundation
import LifelineCore

/// The failures of one state of a lifecycle machine: how many, of which kinds, the first one's
/// place and summary, and the most severe finding at any of them (issue 17: a diagram that leaves
/// out the crash tells a healthy story).
public struct FailureStats: Sendable, Equatable {
    public var count = 0
    /// Count per kind (`exception`, `crashReport`, `assertion`, `watchdog`, `jetsam`, …).
    public var kinds: [String: Int] = [:]
    public var firstFile = ""
    public var firstPosition = InputPosition.line(0)
    /// What the first one says (`NSInternalInconsistencyException: bad state`).
    public var firstSummary = ""
    /// The most severe finding at these failures' lines, if any rule reported one.
    public var severity: Severity?

    public init() {}

    mutating func add(kind: String, file: String, position: InputPosition, summary: String, severity: Severity?) {
        count += 1
        kinds[kind, default: 0] += 1
        if firstFile.isEmpty || (file, position) < (firstFile, firstPosition) {
            (firstFile, firstPosition, firstSummary) = (file, position, summary)
        }
        self.severity = FailureMarks.higher(self.severity, severity)
    }

    mutating func merge(_ other: FailureStats) {
        guard other.count > 0 else { return }
        if firstFile.isEmpty || (other.firstFile, other.firstPosition) < (firstFile, firstPosition) {
            (firstFile, firstPosition, firstSummary) = (other.firstFile, other.firstPosition, other.firstSummary)
        }
        count += other.count
        for (k, n) in other.kinds { kinds[k, default: 0] += n }
        severity = FailureMarks.higher(severity, other.severity)
    }

    /// `2 exceptions, 1 crash report`, most frequent first.
    public var kindsText: String {
        kinds.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            .map { "\($0.value) \(FailureMarks.name($0.key, plural: $0.value != 1))" }.joined(separator: ", ")
    }
}

public enum FailureMarks {
    /// The more severe of two, either possibly absent.
    public static func higher(_ a: Severity?, _ b: Severity?) -> Severity? {
        guard let a else { return b }
        guard let b else { return a }
        return Swift.max(a, b)
    }

    /// The failures a diagram marks: every event that ends a process, and assertions.
    public static let kinds: Set<EventKind> = SessionEnding.terminalKinds.union([.assertion])

    /// What a failure event says in a few words: the exception and its reason, the crash report's
    /// exception type or signal, the assertion's method, the message otherwise (at most `limit`
    /// characters).
    public static func summary(of e: Event, limit: Int = 72) -> String {
        let d = e.details
        var text: String
        if let name = d?.exceptionName {
            text = name + (d?.reason.map { ": \($0)" } ?? "")
        } else if let type = d?.exceptionType {
            text = type + (d?.signal.map { " (\($0))" } ?? "") + (d?.terminationReason.map { ", \($0)" } ?? "")
        } else if let method = d?.method {
            text = method
        } else if let trap = d?.trap {
            text = trap
        } else {
            text = e.message
        }
        text = text.replacingOccurrences(of: "\n", with: " ")
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

    /// `exception`/`exceptions` for `failure.exception`, `crash report` for `failure.crashReport`.
    static func name(_ kind: String, plural: Bool) -> String {
        let short = kind.split(separator: ".").last.map(String.init) ?? kind
        var words = ""
        for c in short {
            if c.isUppercase { words += " " + c.lowercased() } else { words.append(c) }
        }
        return plural ? words + "s" : words
    }

    /// Where each failure of `session` happened: the machine and state it arrived in (the scene in
    /// play, or the app's state), with `only` limiting it to one scene's failures.
    static func places(_ session: ProcessSession, only: String?) -> [(machine: LifecycleMachine, state: String, index: Int)] {
        // The rules' view of the session answers `context(at:)` in constant time (the session's
        // own scans every timeline); it is built only when the session has a failure.
        var view: SessionView?
        var out: [(LifecycleMachine, String, Int)] = []
        for i in session.events.indices where kinds.contains(session.events[i].kind) {
            let v = view ?? SessionView(session)
            view = v
            guard !v.repeatedEndings.contains(i) else { continue }
            let context = v.context(at: i)
            if let scene = context.scene {
                guard only == nil || scene.id == only else { continue }
                out.append((scene.isCarPlay ? .carPlay : .scene, context.state ?? SceneState.unknown.rawValue, i))
            } else {
                guard only == nil else { continue }
                let state = context.state ?? SceneState.unknown.rawValue
                if state.hasPrefix("app.") {
                    out.append((.app, String(state.dropFirst(4)), i))
                } else if state != SceneState.unknown.rawValue, SceneState(rawValue: state) != nil {
                    // A crash report placed by its frames (a scene callback on the stack): the scene
                    // state that callback is delivered in.
                    out.append((.scene, state, i))
                } else {
                    out.append((.app, state, i))
                }
            }
        }
        return out
    }
}
