import Foundation
import LifelineCore
import LifelineRules

/// The report's sessions: a table row per session (process, launch, main thread, scenes, the
/// failure that ended it, findings by severity) and each session's timeline table.
extension HTMLPage {
    mutating func sessionSection() {
        raw("<section id=\"sessions\" aria-labelledby=\"sessions-h\">\n<h2 id=\"sessions-h\">Sessions</h2>\n")
        guard !analysis.sessions.isEmpty else {
            raw("<p class=\"empty\">no sessions: the inputs hold no lifecycle event</p>\n</section>\n")
            return
        }
        var findings: [String: [Severity: Int]] = [:]
        for d in analysis.diagnostics { findings[d.session, default: [:]][d.severity, default: 0] += 1 }
        raw("<table class=\"sessions\">\n<thead><tr>")
        for h in ["session", "process", "pid", "launch", "events", "main thread", "scenes", "ended by", "findings", "files"] {
            raw("<th scope=\"col\"\(h == "pid" || h == "events" ? " class=\"num\"" : "")>\(h)</th>")
        }
        raw("</tr></thead>\n<tbody>\n")
        for s in analysis.sessions {
            raw("<tr")
            attr("id", "session-\(s.id)")
            raw("><th scope=\"row\" class=\"mono\">")
            text(s.id)
            raw("</th><td>")
            if let p = s.process { text(p) } else { raw("<span class=\"muted\">unknown</span>") }
            var notes: [String] = []
            if s.beginsMidSession { notes.append("the trace begins in the middle of this process's life; earlier states are unknown") }
            if s.endsAbruptly { notes.append("the trace ends with scenes still in the foreground") }
            notes += s.partNotes
            if s.processTimeline.isTracked { notes.append("process state (system): \(s.processTimeline.finalState.rawValue)") }
            for n in notes {
                raw("<br><span class=\"muted\">")
                text(n)
                raw("</span>")
            }
            raw("</td><td class=\"num\">")
            if let pid = s.pid { raw("\(pid)") } else { dash() }
            raw("</td><td>")
            text(s.launchSeen ? s.launchKind?.phrase ?? "seen" : "not in the trace")
            if let start = s.startedAt {
                raw("<br><span class=\"muted mono nowrap\" title=\"the session's first time, as the log wrote it\">")
                text(start)
                raw("</span>")
            }
            raw("</td><td class=\"num\">\(grouped(s.eventCount))</td><td>")
            if let tid = s.mainThread.tid {
                raw("<span class=\"mono\">\(tid)</span> ")
                var why = count(s.mainThread.supportingCallbacks, "callback")
                if !s.mainThread.conflicts.isEmpty { why += ", \(s.mainThread.conflicts.count) conflicting" }
                element("span", "(\(why))", class: "muted")
            } else {
                raw("<span class=\"muted\">unknown</span>")
            }
            raw("</td><td>")
            if s.scenes.isEmpty { raw("<span class=\"muted\">none</span>") } else {
                raw("<ul class=\"scenes\">")
                for scene in s.scenes { sceneItem(scene) }
                raw("</ul>")
            }
            raw("</td><td>")
            if let end = s.ending ?? s.endingFailure() { ending(end) } else { raw("<span class=\"muted\">-</span>") }
            raw("</td><td>")
            let counts = findings[s.id] ?? [:]
            if counts.isEmpty { raw("<span class=\"muted\">none</span>") }
            for sev in Severity.allCases.reversed() {
                if let n = counts[sev] {
                    raw("<span class=\"nowrap\">\(n) ")
                    severityBadge(sev)
                    raw("</span> ")
                }
            }
            raw("</td><td class=\"mono\">")
            for (i, f) in s.files.enumerated() {
                if i > 0 { raw("<br>") }
                raw("<span")
                attr("title", f)
                raw(">")
                text(short(f))
                raw("</span>")
            }
            raw("</td></tr>\n")
        }
        raw("</tbody>\n</table>\n")
        for s in analysis.sessions where !s.events.isEmpty { timeline(s) }
        raw("</section>\n")
    }

    /// `failure.crashReport at +2.000 s, foregroundActive` and the report's summary, linked to its line.
    mutating func ending(_ end: SessionEnding) {
        raw("<span class=\"mono\">")
        text(end.kind.rawValue)
        raw("</span>")
        var place: [String] = []
        if let t = end.offset { place.append(String(format: "at %+.3f s", t)) }
        if let state = end.state { place.append("in " + state) }
        if !place.isEmpty {
            raw(" ")
            text(place.joined(separator: " "))
        }
        raw("<br><span class=\"muted\">")
        text(end.message.count > 160 ? String(end.message.prefix(159)) + "…" : end.message)
        raw("</span><br><span class=\"muted mono\">")
        text(end.position.label(in: short(end.file)))
        raw("</span>")
    }

    mutating func sceneItem(_ scene: SceneTimeline) {
        raw("<li><b class=\"mono\">")
        text(scene.id)
        raw("</b> ")
        var what: [String] = []
        if let c = scene.sceneClass ?? scene.delegateClass { what.append(c) }
        if let r = scene.role { what.append(r) }
        text(what.joined(separator: " · "))
        if let a = scene.address {
            raw(" <code>")
            text(a)
            raw("</code>")
        }
        raw(" → <span class=\"state\">")
        text(scene.finalState.rawValue)
        raw("</span> <span class=\"muted\">")
        var facts = [count(scene.eventCount, "event")]
        if scene.beginsMidLife { facts.append("begins mid-life") }
        if !scene.previousLives.isEmpty { facts.append("earlier lives " + scene.previousLives.joined(separator: ", ")) }
        if let p = scene.persistentIdentifier { facts.append("session " + p) }
        if scene.source == .system { facts = ["seen from the system only"] }
        if let id = scene.sceneID { facts.append("FrontBoard " + id) }
        if let state = scene.systemFinalState { facts.append("system says " + state.rawValue) }
        text("(" + facts.joined(separator: ", ") + ")")
        raw("</span></li>")
    }

    mutating func timeline(_ s: ProcessSession) {
        let rows = TimelineReport.rows(s)
        raw("<details class=\"timeline\"><summary>")
        text("\(s.id) timeline (\(count(rows.count, "event")))")
        raw("</summary>\n<table class=\"timeline\">\n<thead><tr><th scope=\"col\" class=\"num\">time</th><th scope=\"col\">thread</th>"
            + "<th scope=\"col\">scene</th><th scope=\"col\">event</th><th scope=\"col\">state after</th><th scope=\"col\">at</th></tr></thead>\n<tbody>\n")
        for r in rows {
            raw("<tr><td class=\"num mono\">")
            if let t = r.seconds { text(String(format: "%+.3f s", t)) } else { dash() }
            raw("</td><td class=\"mono\">")
            text(r.thread)
            raw("</td><td class=\"mono\">")
            text(r.scene)
            raw("</td><td class=\"mono\">")
            text(r.event)
            raw("</td><td class=\"state\">")
            text(r.stateAfter)
            raw("</td><td class=\"at\">")
            text(r.position.label(in: r.file))
            raw("</td></tr>\n")
        }
        raw("</tbody>\n</table>\n</details>\n")
    }
}
