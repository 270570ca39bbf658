import LifelineCore
import LifelineRules

// The page's last section: the log lines around each finding, and for a finding on a report what
// the report says of the failure.
extension HTMLPage {
    mutating func excerptSection() {
        raw("<section id=\"excerpts\" aria-labelledby=\"excerpts-h\">\n<h2 id=\"excerpts-h\">Log excerpts</h2>\n")
        if excerpts.isEmpty { raw("<p class=\"empty\">no log excerpts</p>\n") }
        for (i, e) in excerpts.enumerated() {
            let id = "excerpt-\(i + 1)"
            let last = e.firstLine + max(e.lines.count, 1) - 1
            raw("<section class=\"excerpt\" id=\"\(id)\" aria-labelledby=\"\(id)-h\">\n<h3 id=\"\(id)-h\">")
            text(e.file)
            text(e.lines.count > 1 ? ":\(e.firstLine)–\(last)" : ":\(e.firstLine)")
            raw("</h3>\n")
            let linked = linkedFrom[i]
            if !linked.isEmpty {
                raw("<p class=\"refs\">")
                text(linked.count == 1 ? "finding: " : "findings: ")
                for (k, d) in linked.enumerated() {
                    if k > 0 { raw(", ") }
                    let diagnostic = analysis.diagnostics[d]
                    raw("<a href=\"#d-\(d + 1)\">")
                    text("\(diagnostic.ruleId) \(diagnostic.position.phrase)")
                    raw("</a>")
                }
                raw("</p>\n")
            }
            let marked = hits[e.file] ?? []
            let shown = reports[e.file].map { byLine in
                (e.firstLine..<(e.firstLine + e.lines.count)).compactMap { marked.contains($0) ? byLine[$0] : nil }
            } ?? []
            for r in shown { report(r) }
            if !shown.isEmpty { raw("<details class=\"report-lines\"><summary>the report's own lines</summary>\n") }
            raw("<table class=\"log\">\n<tbody>\n")
            for (k, line) in e.lines.enumerated() {
                let n = e.firstLine + k
                if marked.contains(n) {
                    // The first row of a finding's line is where a timeline box links.
                    let anchor = HTMLReport.lineAnchor(file: e.file, line: n)
                    raw(anchored.insert(anchor).inserted ? "<tr class=\"hit\" id=\"\(anchor)\">" : "<tr class=\"hit\">")
                    raw("<th scope=\"row\" title=\"a finding points at this line\">")
                } else {
                    raw("<tr><th scope=\"row\">")
                }
                raw("\(n)</th><td>")
                text(line)
                raw("</td></tr>\n")
            }
            raw("</tbody>\n</table>\n")
            if !shown.isEmpty { raw("</details>\n") }
            raw("</section>\n")
        }
        raw("</section>\n")
    }


    /// A report's failure: headline, reason, facts, and the top frames with the app's own marked.
    mutating func report(_ r: ReportExcerpt) {
        raw("<div class=\"report\">\n<p class=\"report-head\"><strong>")
        text(r.headline)
        raw("</strong>")
        if let reason = r.reason {
            raw("<br><span class=\"reason\">")
            text(reason)
            raw("</span>")
        }
        raw("</p>\n")
        if !r.facts.isEmpty {
            raw("<dl class=\"facts\">")
            for f in r.facts {
                raw("<dt>")
                text(f.name)
                raw("</dt><dd>")
                text(f.value)
                raw("</dd>")
            }
            raw("</dl>\n")
        }
        if !r.frames.isEmpty {
            raw("<p class=\"frames-title\">")
            text(r.framesTitle)
            raw(" <span class=\"muted\">(app frames marked ◆)</span></p>\n<ol class=\"frames\">")
            for f in r.frames {
                raw(f.isApp ? "<li class=\"app\"><span class=\"mark\" title=\"the app's own frame\">◆</span> " : "<li><span class=\"mark\"></span> ")
                text(f.text)
                raw("</li>")
            }
            raw("</ol>\n")
        }
        raw("</div>\n")
    }
}
