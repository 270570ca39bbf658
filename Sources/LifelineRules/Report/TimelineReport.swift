import Foundation
import LifelineCore

/// Per-session timelines as a table: relative time, thread, scene, event, state after; then how long
/// the launch took and how long each scene spent in each state.
public enum TimelineReport {
    public struct Row: Sendable, Equatable {
        public var seconds: Double?
        /// The time as the log wrote it (`LogTimestamp.wallClock`).
        public var wallClock: String?
        public var thread: String
        public var scene: String
        public var event: String
        public var stateAfter: String
        public var file: String
        public var position: InputPosition
    }

    public static func rows(_ s: ProcessSession) -> [Row] {
        let start = s.events.lazy.compactMap { $0.timestamp?.seconds }.first
        var sceneOf: [Int: (label: String, state: String)] = [:]
        for scene in s.scenes {
            for (p, e) in scene.entries.enumerated() {
                // Callbacks of scenes that cannot be told apart: which scene, and so its state, is not known.
                if let from = scene.indistinguishableFrom, p >= from {
                    sceneOf[e.event] = ("\(scene.id)?", SceneState.unknown.rawValue)
                } else {
                    sceneOf[e.event] = (scene.id, e.after.rawValue)
                }
            }
        }
        var appAfter: [Int: AppState] = [:]
        for a in s.app { appAfter[a.event] = a.after }
        // What the system said: a process state (`process.running-active`), a scene's (`system.foreground`).
        var systemAfter: [Int: (label: String, state: String)] = [:]
        for p in s.processTimeline.entries { systemAfter[p.event] = ("-", "process.\(p.after.rawValue)") }
        for scene in s.scenes {
            for e in scene.systemStates { systemAfter[e.event] = (scene.id, "system.\(e.after.rawValue)") }
        }
        return s.events.enumerated().map { i, e in
            let thread: String
            // A checker report names the thread it caught; the logging thread is not the point.
            if let tid = e.details?.reportedTID ?? e.ownTID { thread = tid == s.mainThread.tid ? "main" : String(tid) } else { thread = "-" }
            let state = sceneOf[i]?.state ?? appAfter[i].map { "app.\($0.rawValue)" } ?? systemAfter[i]?.state ?? "-"
            var seconds: Double? = nil
            if let t = e.timestamp?.seconds, let start { seconds = t - start }
            return Row(seconds: seconds, wallClock: e.timestamp?.wallClock, thread: thread,
                       scene: sceneOf[i]?.label ?? systemAfter[i]?.label ?? "-", event: e.kind.rawValue, stateAfter: state, file: e.file, position: e.position)
        }
    }

    /// Seconds from the first launch marker to the first `sceneDidBecomeActive`, when both have times
    /// and the user waited for the launch (not for a CarPlay or background launch).
    public static func launchToFirstActive(_ s: ProcessSession) -> Double? {
        guard s.launchKind?.isUserFacing ?? true, let launch = s.events.first(where: { $0.kind.isFinishLaunching })?.timestamp?.seconds,
              let active = s.events.first(where: { $0.kind == .sceneDidBecomeActive })?.timestamp?.seconds else { return nil }
        return active - launch
    }

    /// Time each scene spent in each state, between timestamped events (the last state is open-ended).
    public static func timeInStates(_ s: ProcessSession) -> [(scene: String, states: [(SceneState, Double)])] {
        s.scenes.compactMap { scene in
            var total: [SceneState: Double] = [:]
            // Up to the point where several scenes share the timeline.
            for (a, b) in zip(scene.ownEntries, scene.ownEntries.dropFirst()) {
                guard let t0 = s.events[a.event].timestamp?.seconds, let t1 = s.events[b.event].timestamp?.seconds, t1 >= t0 else { continue }
                total[a.after, default: 0] += t1 - t0
            }
            guard !total.isEmpty else { return nil }
            return (scene.id, SceneState.allCases.compactMap { st in total[st].map { (st, $0) } })
        }
    }

    /// Which times the text table shows: since the session's first event, as the log wrote them, or both.
    public enum Clock: String, Sendable, CaseIterable { case relative, wall, both }

    public static func text(_ sessions: [ProcessSession], clock: Clock = .relative) -> String {
        var out: [String] = []
        for s in sessions {
            var head = "\(s.id)  \(s.process ?? "(unknown process)")"
            if let pid = s.pid { head += " [\(pid)]" }
            if clock != .relative, let start = s.startedAt { head += "  started \(start)" }
            out.append(head + "  " + s.files.joined(separator: ", "))
            let rows = rows(s)
            let timeHeads: [String] = clock == .relative ? ["time"] : clock == .wall ? ["wall clock"] : ["time", "wall clock"]
            let table = [timeHeads + ["thread", "scene", "event", "state after", "at"]] + rows.map { r in
                let relative = r.seconds.map { String(format: "%+.3f s", $0) } ?? "-"
                let times = clock == .relative ? [relative] : clock == .wall ? [r.wallClock ?? "-"] : [relative, r.wallClock ?? "-"]
                return times + [r.thread, r.scene, r.event, r.stateAfter, r.position.label(in: r.file)]
            }
            let columns = table[0].count
            let widths = (0..<columns).map { c in table.map { $0[c].count }.max() ?? 0 }
            for row in table {
                out.append("  " + row.enumerated().map { c, cell in
                    c < timeHeads.count ? String(repeating: " ", count: widths[c] - cell.count) + cell
                           : c == columns - 1 ? cell : cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                }.joined(separator: "  "))
            }
            if let d = launchToFirstActive(s) { out.append("  launch to first active scene: \(String(format: "%.3f s", d))") }
            for (scene, states) in timeInStates(s) {
                out.append("  \(scene) time in state: " + states.map { "\($0.0.rawValue) \(String(format: "%.3f s", $0.1))" }.joined(separator: ", "))
            }
            if let kind = s.launchKind { out.append("  launch: \(kind.phrase)") }
            for scene in s.scenes where scene.isIndistinguishable {
                out.append("  note: \(scene.id)? marks callbacks of \(scene.sceneCount) scenes of \(scene.delegateClass ?? "one delegate") that name no scene address and cannot be told apart; their states are unknown")
            }
            if s.beginsMidSession { out.append("  note: the trace begins in the middle of this process's life") }
            for n in s.partNotes { out.append("  note: \(n)") }
            out.append("")
        }
        return out.joined(separator: "\n")
    }

    public static func json(_ sessions: [ProcessSession]) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.key("sessions")
        w.beginArray()
        for s in sessions {
            w.beginObject()
            w.key("events")
            w.beginArray()
            for r in rows(s) {
                w.beginObject()
                w.field("event", r.event)
                w.field("file", r.file)
                w.field("line", r.position.line)
                w.field("offset", r.position.byteOffset)
                w.field("scene", r.scene == "-" ? nil : r.scene)
                if let sec = r.seconds { w.key("seconds"); w.raw(String(format: "%.6f", sec)) }
                w.field("wallClock", r.wallClock)
                w.field("stateAfter", r.stateAfter == "-" ? nil : r.stateAfter)
                w.field("thread", r.thread == "-" ? nil : r.thread)
                w.endObject()
            }
            w.endArray()
            w.field("id", s.id)
            w.field("launchKind", s.launchKind?.rawValue)
            w.field("startedAt", s.startedAt)
            if let d = launchToFirstActive(s) { w.key("launchToFirstActive"); w.raw(String(format: "%.6f", d)) }
            w.field("pid", s.pid)
            w.field("process", s.process)
            w.key("timeInStates")
            w.beginObject()
            for (scene, states) in timeInStates(s).sorted(by: { $0.scene < $1.scene }) {
                w.key(named: scene)
                w.beginObject()
                for (st, d) in states.sorted(by: { $0.0.rawValue < $1.0.rawValue }) { w.key(named: st.rawValue); w.raw(String(format: "%.6f", d)) }
                w.endObject()
            }
            w.endObject()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.text
    }
}
