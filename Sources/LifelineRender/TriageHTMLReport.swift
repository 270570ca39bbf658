import LifelineRules
import LifelineTriage

/// The triage report as one self-contained HTML page: the ranked signatures with the lifecycle
/// state of their occurrences as a bar, an example per signature, the aggregated state diagram,
/// unreadable inputs and the inputs read. No script, no network: the policy allows nothing but
/// inline styles; every byte from a log goes through `HTMLReport.appendEscaped`.
public enum TriageHTMLReport {
    public static func render(_ r: TriageResult, stateDiagramSVG: String?) -> String {
        var page = Page()
        page.document(r, svg: stateDiagramSVG)
        return page.out
    }

    static let policy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

    /// Colours of the phases in the state bars (with a text legend, so colour is not the only cue).
    static let phaseColors: [FailurePhase: String] = [
        .launch: "#7b61ff", .foregroundActive: "#2f9e44", .foregroundInactive: "#94d82d",
        .background: "#1c7ed6", .unattached: "#868e96", .disconnected: "#495057", .unknown: "#ced4da",
        .foreground: "#69db7c", .suspended: "#364fc7",
    ]

    static let extraStyle = """
        .bar { display: flex; height: .8rem; min-width: 8rem; border-radius: 3px; overflow: hidden; }
        .bar span { display: block; height: 100%; }
        .legend span.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; vertical-align: middle; margin: 0 .25rem 0 .75rem; }
        pre.excerpt { white-space: pre-wrap; word-break: break-word; margin: .25rem 0 0; font-size: .8rem; }
        td.title { max-width: 40rem; }
        .status-new { font-weight: 600; color: #c92a2a; }
        .status-filter { border: 0; padding: 0; margin: .5rem 0; }
        .status-filter label { margin-right: .75rem; }
        #status-new:checked ~ table.signatures tbody tr:not(.row-new),
        #status-recurring:checked ~ table.signatures tbody tr:not(.row-recurring),
        #status-gone:checked ~ table.signatures,
        #status-new:checked ~ .gone, #status-recurring:checked ~ .gone { display: none; }
        #status-all:checked ~ .status-filter label[for=status-all], #status-new:checked ~ .status-filter label[for=status-new],
        #status-recurring:checked ~ .status-filter label[for=status-recurring],
        #status-gone:checked ~ .status-filter label[for=status-gone] { font-weight: 600; text-decoration: underline; }
        .status-filter label { cursor: pointer; }
        """

    struct Page {
        var out = ""

        mutating func raw(_ s: String) { out += s }
        mutating func text(_ s: String) { HTMLReport.appendEscaped(s, to: &out) }
        mutating func attr(_ name: String, _ value: String) {
            out += " \(name)=\""
            HTMLReport.appendEscaped(value, to: &out)
            out += "\""
        }

        mutating func document(_ r: TriageResult, svg: String?) {
            let title = "Lifeline triage: \(r.inputCount) input\(r.inputCount == 1 ? "" : "s"), \(r.signatures.count) signature\(r.signatures.count == 1 ? "" : "s")"
            raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\"")
            attr("content", TriageHTMLReport.policy)
            raw(">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"generator\" content=\"lifeline\">\n<title>")
            text(title)
            raw("</title>\n<style>\n\(HTMLReport.style)\n\(TriageHTMLReport.extraStyle)\n</style>\n</head>\n<body>\n<header class=\"top\">\n<h1>Lifeline triage</h1>\n<p class=\"muted\">")
            text(TriageSummary.line(r))
            raw("</p>\n</header>\n<main>\n")
            signatures(r)
            if let svg, let inline = HTMLReport.inlineSVG(svg, prefix: "state-", labelID: "state-caption") {
                raw("<section id=\"diagram\">\n<h2>Lifecycle of every input</h2>\n<figure class=\"diagram\">\n<figcaption id=\"state-caption\">")
                text("Observed transitions over the expected state machines, all inputs together")
                raw("</figcaption>\n\(inline)\n</figure>\n</section>\n")
            }
            unread(r.unreadable, count: r.unreadableCount, id: "unreadable", title: "Unreadable")
            unread(r.skipped, count: r.skippedCount, id: "skipped", title: "Skipped (found in a directory and not read)")
            inputs(r)
            raw("</main>\n</body>\n</html>\n")
        }

        /// Inputs that were not read, with the reason.
        mutating func unread(_ list: [Unreadable], count: Int, id: String, title: String) {
            guard !list.isEmpty else { return }
            raw("<section id=\"\(id)\">\n<h2>")
            text("\(title) (\(count))")
            raw("</h2>\n<table>\n<thead><tr><th scope=\"col\">input</th><th scope=\"col\">reason</th></tr></thead>\n<tbody>\n")
            for u in list {
                raw("<tr><td class=\"mono\">")
                text(u.path)
                raw("</td><td>")
                text(u.reason)
                raw("</td></tr>\n")
            }
            raw("</tbody>\n</table>\n</section>\n")
        }

        mutating func signatures(_ r: TriageResult) {
            raw("<section id=\"signatures\">\n<h2>Signatures</h2>\n")
            guard !r.signatures.isEmpty else {
                raw("<p>No failures, and no findings at or above the minimum severity.</p>\n")
                gone(r)
                raw("</section>\n")
                return
            }
            raw("<p class=\"legend muted\">State at failure:")
            // The system's own phases are listed when an occurrence has one (a report of logs
            // without system lines keeps its legend).
            for p in FailurePhase.allCases where !p.isSystemOnly || r.signatures.contains(where: { $0.phases[p] != nil }) {
                raw("<span class=\"swatch\" style=\"background:\(TriageHTMLReport.phaseColors[p]!)\"></span>")
                text(p.rawValue)
            }
            raw("</p>\n")
            if r.baseline != nil {
                // What is new comes first; then a filter (CSS only: the page runs no script).
                let new = r.newSignatures()
                raw("<section id=\"new\">\n<h3>")
                text(new.isEmpty ? "Nothing new since the baseline" : "New since the baseline (\(new.count))")
                raw("</h3>\n")
                if !new.isEmpty {
                    raw("<ul>\n")
                    for s in new {
                        raw("<li><a")
                        attr("href", "#" + s.signature.id)
                        raw(">")
                        text(s.signature.title)
                        raw("</a> ")
                        text("(\(s.signature.id), \(s.severity), ×\(s.count), e.g. \(s.example.place))")
                        raw("</li>\n")
                    }
                    raw("</ul>\n")
                }
                raw("</section>\n<input type=\"radio\" name=\"status\" id=\"status-all\" checked hidden>")
                raw("<input type=\"radio\" name=\"status\" id=\"status-new\" hidden>")
                raw("<input type=\"radio\" name=\"status\" id=\"status-recurring\" hidden>")
                raw("<input type=\"radio\" name=\"status\" id=\"status-gone\" hidden>")
                let counts = Dictionary(grouping: r.signatures, by: { r.baseline?[$0.signature.id] ?? .new }).mapValues(\.count)
                raw("<p class=\"status-filter\">Show: ")
                for (id, label) in [("all", "all (\(r.signatures.count))"), ("new", "new (\(counts[.new] ?? 0))"),
                                    ("recurring", "recurring (\(counts[.recurring] ?? 0))"), ("gone", "gone (\(r.gone.count))")] {
                    raw("<label for=\"status-\(id)\">")
                    text(label)
                    raw("</label>")
                }
                raw("</p>\n")
            }
            raw("<table class=\"signatures\">\n<thead><tr>")
            var head = ["#", "count", "files", "sessions", "severity", "kind"]
            if r.baseline != nil { head.append("status") }
            head += ["signature", "state at failure"]
            for h in head { raw("<th scope=\"col\">\(h)</th>") }
            raw("</tr></thead>\n<tbody>\n")
            for (i, s) in r.signatures.enumerated() {
                raw("<tr")
                attr("id", s.signature.id)
                if let status = r.baseline?[s.signature.id] { attr("class", "row-\(status.rawValue)") }
                raw("><td class=\"num\">\(i + 1)</td><td class=\"num\">\(s.count)</td><td class=\"num\">\(s.fileCount)</td><td class=\"num\">\(s.sessionCount)</td><td>")
                raw("<span class=\"sev sev-\(s.severity.description)\">\(s.severity.description)</span></td><td>\(s.signature.kind.rawValue)</td>")
                if let status = r.baseline?[s.signature.id] { raw("<td class=\"status-\(status.rawValue)\">\(status.rawValue)</td>") }
                else if r.baseline != nil { raw("<td></td>") }
                raw("<td class=\"title\">")
                if let v = r.newInVersion(s) {
                    raw("<span class=\"status-new\">")
                    text("new in \(v)")
                    raw("</span> ")
                }
                raw("<strong>")
                text(s.signature.title)
                raw("</strong><br>")
                if let variants = TriageText.variantLine(s) {
                    raw("<span class=\"muted\">")
                    text(variants)
                    raw("</span><br>")
                }
                if let releases = TriageText.releaseLine(s) {
                    raw("<span class=\"muted\">")
                    text(releases)
                    raw("</span><br>")
                }
                raw("<span class=\"muted mono\">")
                text("\(s.signature.id) · e.g. \(s.example.place)")
                if let f = s.firstSeen?.iso, let l = s.lastSeen?.iso { text(f == l ? " · at \(f)" : " · \(f) – \(l)") }
                raw("</span><pre class=\"excerpt mono\">")
                text(s.example.excerpt)
                raw("</pre></td><td><div class=\"bar\" role=\"img\"")
                attr("aria-label", s.phaseSummary)
                raw(">")
                for share in s.phaseShares {
                    let percent = Double(share.count) * 100 / Double(max(1, s.count))
                    raw("<span style=\"width:\(String(format: "%.2f", percent))%;background:\(TriageHTMLReport.phaseColors[share.phase]!)\"></span>")
                }
                raw("</div><span class=\"muted\">")
                text(s.phaseSummary)
                raw("</span></td></tr>\n")
            }
            raw("</tbody>\n</table>\n")
            gone(r)
            raw("</section>\n")
        }

        /// The baseline's signatures this run did not see (inside the signatures section, so the
        /// status filter can show them alone).
        mutating func gone(_ r: TriageResult) {
            guard r.baseline != nil, !r.gone.isEmpty else { return }
            raw("<div class=\"gone\" id=\"gone\">\n<h3>Gone since the baseline</h3>\n<ul>\n")
            for g in r.gone {
                raw("<li>")
                text("\(g.title) (\(g.id), \(g.severity), was \(g.count))")
                raw("</li>\n")
            }
            raw("</ul>\n</div>\n")
        }

        mutating func inputs(_ r: TriageResult) {
            raw("<section id=\"inputs\">\n<details>\n<summary><h2 style=\"display:inline\">Inputs (\(r.inputCount))</h2></summary>\n<table>\n<thead><tr>")
            for h in ["input", "format", "lines", "events", "sessions"] { raw("<th scope=\"col\">\(h)</th>") }
            raw("</tr></thead>\n<tbody>\n")
            for i in r.inputs {
                raw("<tr><td class=\"mono\">")
                text(i.path)
                raw("</td><td>")
                text(i.format?.rawValue ?? "–")
                raw("</td><td class=\"num\">\(i.lines)</td><td class=\"num\">\(i.events)</td><td class=\"num\">\(i.sessions)</td></tr>\n")
            }
            let e = r.extraInputs
            if e.count > 0 {
                raw("<tr><td>")
                text("\(e.count) more, counted in partial results without their rows")
                raw("</td><td>–</td><td class=\"num\">\(e.lines)</td><td class=\"num\">\(e.events)</td><td class=\"num\">\(e.sessions)</td></tr>\n")
            }
            raw("</tbody>\n</table>\n</details>\n</section>\n")
        }
    }
}
