import Foundation
import LifelineCore
import LifelineRules

/// The report's findings: the filterable table (a row per finding, with the lines that explain it
/// and a link to its excerpt) and the filter controls the page's script shows.
extension HTMLPage {
    mutating func findingSection() {
        let diagnostics = analysis.diagnostics
        raw("<section id=\"findings\" aria-labelledby=\"findings-h\">\n<h2 id=\"findings-h\">Findings <span class=\"muted\">(\(grouped(diagnostics.count)))</span></h2>\n")
        guard !diagnostics.isEmpty else {
            raw("<p class=\"empty\">no findings</p>\n</section>\n")
            return
        }
        filterForm()
        let summaries = Dictionary(RuleRegistry.all.map { ($0.description.id, $0.description.summary) }, uniquingKeysWith: { a, _ in a })
        raw("<table class=\"diagnostics\">\n<thead><tr>")
        for h in ["severity", "rule", "message", "session", "scene", "state", "at"] { raw("<th scope=\"col\">\(h)</th>") }
        raw("</tr></thead>\n<tbody>\n")
        for (i, d) in diagnostics.enumerated() {
            raw("<tr id=\"d-\(i + 1)\" class=\"row-\(d.severity.description)\"")
            attr("data-severity", d.severity.description)
            attr("data-rule", d.ruleId)
            attr("data-session", d.session.isEmpty ? "Info.plist" : d.session)
            raw("><td>")
            severityBadge(d.severity)
            raw("</td><td")
            if let summary = summaries[d.ruleId] { attr("title", summary) }
            raw(">")
            element("span", d.ruleId, class: "rule-id")
            element("span", d.rule, class: "rule-name")
            raw("</td><td class=\"message\">")
            text(d.message)
            for (k, r) in d.related.enumerated() {
                // The lines that explain it, linked to their excerpt when the report shows one.
                raw("<br><span class=\"related muted\">↳ ")
                place(r.file, r.position, keyPath: r.keyPath, excerpt: relatedExcerpts[i][k], class: "mono")
                raw(" ")
                text(r.message)
                raw("</span>")
            }
            if d.session.isEmpty {
                // A finding in the Info.plist alone belongs to no session.
                raw("</td><td class=\"mono\"><a href=\"#manifest\">Info.plist</a></td><td class=\"mono\">")
            } else {
                raw("</td><td class=\"mono\"><a")
                attr("href", "#session-\(d.session)")
                raw(">")
                text(d.session)
                raw("</a></td><td class=\"mono\">")
            }
            if let scene = d.scene { text(scene) } else { dash() }
            raw("</td><td class=\"state\">")
            if let state = d.state { text(state) } else { dash() }
            raw("</td><td class=\"at\">")
            place(d.file, d.position, keyPath: d.keyPath, excerpt: excerptOf[i], class: nil)
            raw("</td></tr>\n")
        }
        raw("</tbody>\n</table>\n</section>\n")
    }

    /// The Info.plist checked with the logs: what it declares (its findings are in the table).
    mutating func manifestSection() {
        guard let manifest = analysis.manifest else { return }
        let count = analysis.diagnostics.filter { $0.session.isEmpty }.count
        raw("<section id=\"manifest\" aria-labelledby=\"manifest-h\">\n<h2 id=\"manifest-h\">Info.plist <span class=\"muted\">(\(count) finding\(count == 1 ? "" : "s") in the plist alone)</span></h2>\n<p class=\"mono\">")
        text(manifest.summary)
        raw("</p>\n<ul class=\"manifest\">")
        for fact in manifest.summaryLines {
            raw("<li class=\"mono\">")
            text(fact)
            raw("</li>")
        }
        raw("</ul>\n</section>\n")
    }

    /// Where a finding or a line explaining it is: `file:line` (a link to its excerpt when the
    /// report shows one), and the key path of a key in an Info.plist (all a binary plist has).
    mutating func place(_ file: String, _ position: InputPosition, keyPath: String?, excerpt: Int?, class cls: String?) {
        let at = position.isKnown ? position.label(in: file) : file
        let shown = position.isKnown ? position.label(in: short(file)) : short(file)
        if let excerpt {
            raw("<a href=\"#excerpt-\(excerpt + 1)\"")
        } else {
            raw("<span")
            if let cls { attr("class", cls) }
        }
        attr("title", at)
        raw(">")
        text(shown)
        raw(excerpt == nil ? "</span>" : "</a>")
        if let keyPath {
            raw(" ")
            element("code", keyPath, class: "keypath")
        }
    }

    /// The filter controls; hidden until the script shows them (they do nothing without it).
    mutating func filterForm() {
        let diagnostics = analysis.diagnostics
        raw("<form id=\"filters\" class=\"filters\" hidden aria-label=\"filter the findings\">\n")
        raw("<fieldset><legend>severity</legend>")
        for s in Severity.allCases.reversed() {
            raw("<label><input type=\"checkbox\" name=\"severity\"")
            attr("value", s.description)
            raw(" checked> ")
            severityBadge(s)
            raw(" <span class=\"muted\">\(analysis.count(s))</span></label>")
        }
        raw("</fieldset>\n")

        var rules: [String: (name: String, count: Int)] = [:]
        var sessions: [String: Int] = [:]
        for d in diagnostics {
            rules[d.ruleId, default: (d.rule, 0)].count += 1
            sessions[d.session.isEmpty ? "Info.plist" : d.session, default: 0] += 1
        }
        raw("<label>rule <select name=\"rule\"><option value=\"\">all rules</option>")
        for id in rules.keys.sorted() {
            raw("<option")
            attr("value", id)
            raw(">")
            text("\(id) \(rules[id]!.name) (\(rules[id]!.count))")
            raw("</option>")
        }
        raw("</select></label>\n")

        // Sessions in the analysis's order; ids the analysis does not list (none, normally) after them.
        let known = analysis.sessions.filter { sessions[$0.id] != nil }
        let knownIDs = Set(known.map(\.id))
        raw("<label>session <select name=\"session\"><option value=\"\">all sessions</option>")
        for s in known {
            raw("<option")
            attr("value", s.id)
            raw(">")
            var label = "\(s.id) \(s.process ?? "unknown process")"
            if let pid = s.pid { label += " [\(pid)]" }
            text("\(label) (\(sessions[s.id]!))")
            raw("</option>")
        }
        for id in sessions.keys.filter({ !knownIDs.contains($0) }).sorted() {
            raw("<option")
            attr("value", id)
            raw(">")
            text("\(id) (\(sessions[id]!))")
            raw("</option>")
        }
        raw("</select></label>\n")
        raw("<button type=\"button\" data-action=\"reset\">show all</button>\n")
        raw("<output id=\"shown\" aria-live=\"polite\"></output>\n</form>\n")
    }

    // MARK: text
}
