import Foundation
import LifelineCore
import LifelinePipeline
import LifelineRules

/// What `lifeline watch` prints: findings and ended sessions on standard output as they come
/// (flushed at once), and on a terminal a status line on standard error, redrawn in place.
final class WatchPrinter {
    let format: Watch.Format
    private let statusLine: Bool
    private let color: Bool
    private var statusShown = false
    private var lastStatus = 0.0
    private var lastLines = 0
    private var lastLinesAt = 0.0
    private var rate = 0.0
    private let started = LiveAnalysis.monotonic()

    init(format: Watch.Format, status: Bool) {
        self.format = format
        statusLine = status
        color = Terminal.colorAllowed
    }

    func show(_ out: LiveAnalysis.Output) {
        guard !out.isEmpty else { return }
        clearStatus()
        var text = ""
        for d in out.findings { text += format == .jsonl ? Self.json(d) + "\n" : finding(d) }
        for (s, found) in out.ended { text += format == .jsonl ? Self.json(s, findings: found.count) + "\n" : session(s, findings: found) }
        Self.write(1, text)
    }

    private func finding(_ d: Diagnostic) -> String {
        var where_ = d.place
        if !d.session.isEmpty { where_ += " \(d.session)" }
        if let scene = d.scene { where_ += " \(scene)" }
        if let state = d.state { where_ += " [\(state)]" }
        return "\(paint(d.severity.description, Self.code(d.severity))) \(d.ruleId) \(d.rule)  \(where_)\n    \(d.message)\n"
    }

    private func session(_ s: ProcessSession, findings: [Diagnostic]) -> String {
        var head = "\(s.id) \(s.process ?? "(unknown process)")"
        if let pid = s.pid { head += " [\(pid)]" }
        let n = findings.count
        if s.continuesLater {
            return paint("part checked: \(head), \(Self.count(s.eventCount, "event")) (the session event limit), \(Self.count(s.scenes.count, "scene timeline")), \(Self.count(n, "finding")); the process goes on in a new session", "2") + "\n"
        }
        return paint("ended: \(head), \(Self.count(s.eventCount, "event")), \(Self.count(s.scenes.count, "scene timeline")), \(Self.count(n, "finding"))", "2") + "\n"
    }

    func summary(_ a: LiveAnalysis, inputs: [InputStats], interrupted: Bool) {
        clearStatus()
        let lines = inputs.reduce(0) { $0 + $1.lines }
        if format == .jsonl {
            var w = JSONWriter()
            w.beginObject()
            w.field("type", "summary")
            w.field("lines", lines)
            w.field("events", a.events)
            w.field("sessions", a.sessionsEnded)
            w.key("findings")
            w.beginObject()
            for s in [Severity.fatal, .error, .warning, .note] { w.key(named: s.description); w.int(a.counts[s] ?? 0) }
            w.endObject()
            w.field("interrupted", interrupted)
            w.endObject()
            Self.write(1, String(decoding: w.bytes, as: UTF8.self) + "\n")
            return
        }
        let counts = [Severity.fatal, .error, .warning, .note].map { s in Self.count(a.counts[s] ?? 0, s.description, fatal: s == .fatal) }
        Self.write(1, "\(interrupted ? "stopped" : "done"): \(lines) lines, \(a.events) events, \(a.sessionsEnded) session\(a.sessionsEnded == 1 ? "" : "s"): "
                   + counts.joined(separator: ", ") + "\n")
    }

    /// The status line (terminal only), at most four times a second.
    func status(_ a: LiveAnalysis, lines: Int) {
        guard statusLine else { return }
        let now = LiveAnalysis.monotonic()
        guard now - lastStatus >= 0.25 else { return }
        if now - lastLinesAt >= 1 {
            rate = lastLinesAt == 0 ? 0 : Double(lines - lastLines) / (now - lastLinesAt)
            lastLines = lines
            lastLinesAt = now
        }
        lastStatus = now
        let found = [Severity.fatal, .error, .warning, .note].compactMap { s in a.counts[s].map { Self.count($0, s.description, fatal: s == .fatal) } }
        var text = "watching: \(Self.count(a.liveSessions, "session")) live, \(Self.count(a.events, "event")), "
            + (found.isEmpty ? "no findings" : found.joined(separator: ", ")) + ", \(Int(rate)) lines/s"
        // One row, never wrapped: a wrapped line cannot be redrawn in place.
        let width = Self.terminalWidth
        if text.count > width - 1 { text = String(text.prefix(max(1, width - 2))) + "…" }
        Self.write(2, "\r\u{1B}[K" + paint(text, "2"))
        statusShown = true
    }

    private func clearStatus() {
        guard statusShown else { return }
        Self.write(2, "\r\u{1B}[K")
        statusShown = false
        lastStatus = 0
    }

    /// `1 event`, `3 events` (`fatal` has no plural).
    static func count(_ n: Int, _ noun: String, fatal: Bool = false) -> String { "\(n) \(noun)\(n == 1 || fatal ? "" : "s")" }

    /// Columns of the terminal standard error is on (80 when it does not say).
    static var terminalWidth: Int { Terminal.columns(2) ?? 80 }

    private static func code(_ s: Severity) -> String {
        switch s { case .fatal: return "1;35"; case .error: return "1;31"; case .warning: return "33"; case .note: return "36" }
    }

    private func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    static func json(_ d: Diagnostic) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "finding")
        d.writeFields(to: &w)
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static func json(_ s: ProcessSession, findings: Int) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "session")
        w.field("session", s.id)
        w.field("process", s.process)
        w.field("pid", s.pid)
        w.field("events", s.eventCount)
        w.field("scenes", s.scenes.count)
        w.field("findings", findings)
        if s.continuesLater { w.field("continuesLater", true) }
        if let from = s.continuedFrom { w.field("continuedFrom", from) }
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// Writes all of `text` to `fd` now (unbuffered: a finding must not wait in a buffer).
    static func write(_ fd: Int32, _ text: String) { Terminal.writeAll(fd, Array(text.utf8)) }
}
