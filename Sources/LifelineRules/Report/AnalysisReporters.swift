import Foundation
import LifelineCore

/// The JSON contract of `lifeline analyze --format json` (fields may be added, none renamed).
public enum AnalysisJSON {
    public static func render(_ a: Analysis) -> String {
        var bytes: [UInt8] = []
        render(a) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the report to `sink` in pieces of about 64 KB (no line break at the end).
    public static func render(_ a: Analysis, to sink: ([UInt8]) -> Void) {
        render(inputs: a.inputs, diagnostics: a.diagnostics, sessions: a.sessions.lazy.map(SessionSummary.init),
               manifest: a.manifest, apps: a.apps, count: a.count, to: sink)
    }

    /// The same report from a spool (in `.report` order), which it empties.
    public static func render(_ spool: AnalysisSpool, to sink: ([UInt8]) -> Void) {
        render(inputs: spool.inputs, diagnostics: spool.drainFindings(), sessions: spool.drainSessions(),
               manifest: spool.manifest, apps: spool.apps, count: spool.count, to: sink)
    }

    private static func render(inputs: [InputStats], diagnostics: some Sequence<Diagnostic>, sessions: some Sequence<SessionSummary>,
                               manifest: SceneManifest?, apps: AppsSeen, count: (Severity) -> Int, to sink: ([UInt8]) -> Void) {
        var w = JSONWriter()
        func piece() { if w.bytes.count >= 1 << 16 { w.drain(into: sink) } }
        w.beginObject()
        if !apps.isEmpty {
            // The apps a device log's system lines told of, followed (sessions below) or not.
            w.key("apps")
            w.beginArray()
            for app in apps.apps {
                w.beginObject()
                w.field("bundleID", app.bundleID)
                w.field("endings", app.endings)
                w.field("followed", app.followed)
                w.field("launches", app.launches)
                w.field("process", app.process)
                w.field("sessions", app.sessions)
                w.field("systemEvents", app.systemEvents)
                w.endObject()
            }
            w.endArray()
        }
        w.key("diagnostics")
        w.beginArray()
        for d in diagnostics {
            w.beginObject()
            d.writeFields(to: &w)
            w.endObject()
            piece()
        }
        w.endArray()
        w.key("inputs")
        w.beginArray()
        for s in inputs { s.write(to: &w) }
        w.endArray()
        if let manifest {
            w.key("manifest")
            manifest.write(to: &w)
        }
        w.key("sessions")
        w.beginArray()
        var sessionCount = 0, events = 0
        for s in sessions {
            write(s, to: &w)
            sessionCount += 1
            events += s.eventCount
            piece()
        }
        w.endArray()
        w.key("summary")
        w.beginObject()
        w.key("diagnostics")
        w.beginObject()
        for s in [Severity.error, .fatal, .note, .warning] { w.field(sevKey(s), count(s)) }
        w.endObject()
        w.field("events", events)
        w.field("lines", inputs.reduce(0) { $0 + $1.lines })
        w.field("sessions", sessionCount)
        w.endObject()
        w.endObject()
        w.drain(into: sink)
    }

    private static func sevKey(_ s: Severity) -> StaticString {
        switch s { case .note: return "note"; case .warning: return "warning"; case .error: return "error"; case .fatal: return "fatal" }
    }

    private static func write(_ s: SessionSummary, to w: inout JSONWriter) {
        w.beginObject()
        w.field("beginsMidSession", s.beginsMidSession)
        if let from = s.continuedFrom { w.field("continuedFrom", from) }
        if s.continuesLater { w.field("continuesLater", true) }
        w.field("endsAbruptly", s.endsAbruptly)
        w.field("events", s.eventCount)
        w.field("files", s.files)
        w.field("id", s.id)
        w.field("launchKind", s.launchKind?.rawValue)
        w.field("launchSeen", s.launchSeen)
        w.key("mainThread")
        if let tid = s.mainThread { w.int(tid) } else { w.raw("null") }
        w.key("mainThreadEvidence")
        w.beginObject()
        w.field("conflicts", s.mainThreadConflicts)
        w.field("supportingCallbacks", s.mainThreadCallbacks)
        w.endObject()
        w.field("pid", s.pid)
        w.field("process", s.process)
        if let state = s.processState { w.field("processState", state) }
        w.key("scenes")
        w.beginArray()
        for sc in s.scenes {
            w.beginObject()
            w.field("address", sc.address)
            w.field("beginsMidLife", sc.beginsMidLife)
            w.field("delegateClass", sc.delegateClass)
            w.field("events", sc.eventCount)
            w.field("finalState", sc.finalState)
            w.field("id", sc.id)
            w.field("persistentIdentifier", sc.persistentIdentifier)
            w.field("role", sc.role)
            if let id = sc.sceneID { w.field("sceneID", id) }
            if sc.source == .system { w.field("source", sc.source.rawValue) }
            if let state = sc.systemFinalState { w.field("systemFinalState", state) }
            if sc.sceneCount > 1 { w.field("indistinguishableScenes", sc.sceneCount) }
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}

/// The text report: one block per session with its findings, then a summary line.
public struct AnalysisText {
    public var color: Bool
    public init(color: Bool) { self.color = color }

    public func render(_ a: Analysis) -> String {
        var lines: [String] = []
        render(a) { lines.append($0) }
        return lines.joined(separator: "\n")
    }

    /// Hands the report to `line` one line at a time (without line breaks).
    public func render(_ a: Analysis, line: (String) -> Void) {
        // Positions of each session's findings (in report order), not copies of them.
        var bySession: [String: [Int]] = [:]
        for i in a.diagnostics.indices { bySession[a.diagnostics[i].session, default: []].append(i) }
        let manifestFindings = (bySession.removeValue(forKey: "") ?? []).map { a.diagnostics[$0] }
        let blocks = a.sessions.lazy.map { s in
            (SessionSummary(s), (bySession.removeValue(forKey: s.id) ?? []).map { a.diagnostics[$0] })
        }
        render(inputs: a.inputs, manifest: a.manifest, manifestFindings: manifestFindings, blocks: blocks, apps: a.apps, count: a.count, line: line)
    }

    /// The same report from a spool (in `.bySession` order), which it empties.
    public func render(_ spool: AnalysisSpool, line: (String) -> Void) {
        render(inputs: spool.inputs, manifest: spool.manifest, manifestFindings: spool.manifestFindings,
               blocks: spool.drainSessionsWithFindings(), apps: spool.apps, count: spool.count, line: line)
    }

    /// The block of an Info.plist: what it declares, then its findings (also `lifeline manifest`'s report).
    public func render(manifest: SceneManifest, findings: [Diagnostic], line: (String) -> Void) {
        line(paint("Info.plist  \(manifest.summary)", "1"))
        for fact in manifest.summaryLines { line("  " + fact) }
        for d in findings { finding(d, line: line) }
        line("")
    }

    private func finding(_ d: Diagnostic, line: (String) -> Void) {
        var where_ = d.place
        if let scene = d.scene { where_ += " \(scene)" }
        if let state = d.state { where_ += " [\(state)]" }
        line("  \(paint(d.severity.description, code(d.severity))) \(d.ruleId) \(d.rule)  \(where_)")
        line("      \(d.message)")
        for r in d.related where r.keyPath != nil {
            line("      see \(r.place): \(r.message)")
        }
    }

    private func render(inputs all: [InputStats], manifest: SceneManifest?, manifestFindings: [Diagnostic],
                        blocks: some Sequence<(SessionSummary, [Diagnostic])>, apps: AppsSeen, count: (Severity) -> Int,
                        line: (String) -> Void) {
        if let manifest { render(manifest: manifest, findings: manifestFindings, line: line) }
        var sessions = 0, events = 0
        for (s, found) in blocks {
            sessions += 1
            events += s.eventCount
            var head = "\(s.id)  \(s.process ?? "(unknown process)")"
            if let pid = s.pid { head += " [\(pid)]" }
            head += "  \(s.files.joined(separator: ", "))"
            line(paint(head, "1"))
            var facts: [String] = [s.launchSeen ? "launch seen" + (s.launchKind.map { " (\($0.phrase))" } ?? "") : "no launch in the trace"]
            facts.append("\(s.eventCount) events")
            let indistinguishable = s.scenes.filter { $0.sceneCount > 1 }
            var scenes = "\(s.sceneObjects) scene\(s.sceneObjects == 1 ? "" : "s")"
            if !indistinguishable.isEmpty {
                scenes += " (\(indistinguishable.map { "\($0.sceneCount) of \($0.delegateClass ?? "one class")" }.joined(separator: ", ")) not distinguishable)"
            }
            facts.append(scenes)
            if let state = s.processState { facts.append("process \(state) (system)") }
            if let tid = s.mainThread {
                facts.append("main thread \(tid) (\(s.mainThreadCallbacks) callbacks\(s.mainThreadConflicts == 0 ? "" : ", \(s.mainThreadConflicts) conflicting"))")
            }
            line("  " + facts.joined(separator: " · "))
            if s.beginsMidSession { line("  note: the trace begins in the middle of this process's life; earlier states are unknown") }
            if s.endsAbruptly { line("  note: the trace ends with scenes still in the foreground") }
            for n in s.partNotes { line("  note: \(n)") }
            for d in found { finding(d, line: line) }
            line("")
        }
        if !apps.isEmpty { render(apps: apps, line: line) }
        let counts = [Severity.fatal, .error, .warning, .note].map { "\(count($0)) \($0)\(count($0) == 1 || $0 == .fatal ? "" : "s")" }
        // Inputs read; files found in a directory and skipped (not logs) are counted apart, as triage does.
        let skipped = all.filter { $0.skipped != nil }.count, inputs = all.count - skipped
        line("\(inputs) input\(inputs == 1 ? "" : "s")\(skipped > 0 ? " (\(skipped) skipped)" : ""), \(sessions) session\(sessions == 1 ? "" : "s"), \(events) events: " + counts.joined(separator: ", "))
    }

    /// The apps the system's lines told of: what a user picks `--app` from.
    private func render(apps: AppsSeen, line: (String) -> Void) {
        let list = apps.apps
        let followed = list.filter(\.followed).count
        line(paint("Apps the system told of: \(list.count) (\(followed) followed; --app BUNDLE|NAME or --all-apps to choose)", "1"))
        for a in list {
            func n(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
            var text = "  \(a.followed ? "+" : "-") \(a.bundleID)"
            if let p = a.process { text += " (\(p))" }
            text += ": " + [n(a.sessions, "session"), n(a.launches, "launch").replacingOccurrences(of: "launchs", with: "launches"),
                             n(a.systemEvents, "system event"), n(a.endings, "ending")].joined(separator: ", ")
            line(text)
        }
        line("")
    }

    private func code(_ s: Severity) -> String {
        switch s { case .fatal: return "1;35"; case .error: return "1;31"; case .warning: return "33"; case .note: return "36" }
    }

    private func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
}

extension Diagnostic {
    /// The finding's fields as members of a JSON object, in the order every report writes them.
    public func writeFields(to w: inout JSONWriter) {
        w.field("file", file)
        if let keyPath { w.field("keyPath", keyPath) }
        w.field("line", position.line)
        w.field("message", message)
        w.field("offset", position.byteOffset)
        if !related.isEmpty {
            w.key("related")
            w.beginArray()
            for r in related {
                w.beginObject()
                w.field("file", r.file)
                if let k = r.keyPath { w.field("keyPath", k) }
                w.field("line", r.position.line)
                w.field("message", r.message)
                w.field("offset", r.position.byteOffset)
                w.endObject()
            }
            w.endArray()
        }
        w.field("rule", rule)
        w.field("ruleId", ruleId)
        w.field("scene", scene)
        w.field("session", session)
        w.field("severity", severity.description)
        w.field("state", state)
    }
}
