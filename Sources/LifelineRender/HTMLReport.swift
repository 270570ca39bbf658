import Foundation
import LifelineCore
import LifelineRules

/// The analysis as one self-contained HTML5 page: a summary, the diagrams, the sessions, the
/// findings (with filters) and the log lines around each finding.
///
/// The page references nothing outside itself (inline CSS, one small inline script, the diagrams'
/// SVG inline) and reads fully without JavaScript; only the filters need it. A Content Security
/// Policy forbids every load and every script but the page's own (by its hash), so even a
/// mistake in escaping could not run code or reach the network.
///
/// Every piece of text that comes from a log or the analysis (messages, paths, process names,
/// scene ids, states, log lines, rule text) is escaped; nothing from a log goes into the script:
/// the filters read `data-*` attributes. The diagrams' SVG comes from Graphviz and is embedded as
/// is, without its XML prologue, with its ids prefixed so that several diagrams can share the page.
/// The output depends only on the arguments: no time, no random ids.
public enum HTMLReport {
    /// Renders the page.
    ///
    /// - Parameters:
    ///   - analysis: inputs, sessions and findings (sessions may be summaries; when they keep their
    ///     events, each session's timeline is added, folded).
    ///   - diagrams: shown in order, each as a figure with its title.
    ///   - excerpts: log lines around the findings (``LogExcerpts/read(around:context:maxLineBytes:)``);
    ///     each finding links to the excerpt that shows its line with the most context around it.
    ///   - reports: what the reports among the inputs say of their failures
    ///     (``ReportExcerptCollector``): shown in the excerpt of a finding on a report, before the
    ///     report's own first lines.
    ///   - title: the page's title and heading.
    ///   - failOn: the severity at which the run fails (`lifeline analyze --fail-on`), nil for never.
    public static func render(_ analysis: Analysis, diagrams: [RenderedDiagram], excerpts: [LogExcerpt], reports: [ReportExcerpt] = [],
                              title: String = "Lifeline report", failOn: Severity? = .error) -> String {
        var page = HTMLPage(analysis: analysis, excerpts: excerpts, reports: reports)
        page.document(title: title, diagrams: diagrams, failOn: failOn)
        return page.out
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` as character references, safe in element content and
    /// in quoted attribute values. Control characters (other than tab and newline), which HTML
    /// cannot show, become their visible pictures (`␀`, `␛`, …; C1 controls U+FFFD).
    public static func escape(_ text: String) -> String {
        var out = ""
        appendEscaped(text, to: &out)
        return out
    }

    static func appendEscaped(_ text: String, to out: inout String) {
        let plain = text.utf8.allSatisfy { b in
            b >= 0x20 && b != 0x26 && b != 0x3C && b != 0x3E && b != 0x22 && b != 0x27 && b != 0x7F && b != 0xC2
                || b == 0x09 || b == 0x0A
        }
        if plain {
            out += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;"
            case 0x3C: out += "&lt;"
            case 0x3E: out += "&gt;"
            case 0x22: out += "&quot;"
            case 0x27: out += "&#39;"
            case 0x09, 0x0A: out.unicodeScalars.append(scalar)
            case 0x00..<0x20: out.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out += "\u{2421}"
            case 0x80..<0xA0: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
    }

    /// The SVG text of a diagram ready to sit inside the page: from its `<svg` root element on (the
    /// `<?xml …?>` declaration, `<!DOCTYPE …>` and comments before it dropped), ids and references
    /// to them (`id="…"`, `url(#…)`, `href="#…"`) prefixed with `prefix`, and labelled by `labelID`.
    /// Nil when the text has no `<svg` element.
    /// The id of a log line in the report's excerpts (`L-<12 hex of the path's SHA-256>-<line>`):
    /// what a timeline box links to. Diagram-internal references are prefixed per diagram; these
    /// are left as they are (`inlineSVG`).
    static func lineAnchor(file: String, line: Int) -> String {
        let hex = SHA256.digest(Array(file.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
        return "L-\(hex)-\(line)"
    }

    static func inlineSVG(_ svg: String, prefix: String, labelID: String) -> String? {
        var root: String.Index? = nil
        var search = svg.startIndex
        while let r = svg.range(of: "<svg", range: search..<svg.endIndex) {
            if r.upperBound == svg.endIndex { break }
            let next = svg[r.upperBound]
            if next == " " || next == "\n" || next == "\t" || next == "\r" || next == ">" || next == "/" {
                root = r.lowerBound
                break
            }
            search = r.upperBound
        }
        guard let root else { return nil }
        var body = String(svg[root...])
        while let last = body.last, last.isWhitespace { body.removeLast() }
        body = body.replacingOccurrences(of: " id=\"", with: " id=\"\(prefix)")
            .replacingOccurrences(of: "url(#", with: "url(#\(prefix)")
            .replacingOccurrences(of: "href=\"#L-", with: "href=\"\u{0}L-")
            .replacingOccurrences(of: "href=\"#", with: "href=\"#\(prefix)")
            .replacingOccurrences(of: "href=\"\u{0}L-", with: "href=\"#L-")
        body.replaceSubrange(body.startIndex..<body.index(body.startIndex, offsetBy: 4),
                             with: "<svg role=\"img\" aria-labelledby=\"\(labelID)\"")
        return body
    }

    /// Up to this many inputs the inputs table is shown open; a longer one is folded under its count.
    static let inputsShownOpen = 12

    /// The page's script: the filters of the findings table. It is static (no data is ever
    /// written into it) and allowed by the policy through its hash.
    static let script = """
        (function () {
          "use strict";
          var form = document.getElementById("filters");
          var table = document.querySelector("table.diagnostics");
          if (!form || !table) return;
          var rows = Array.prototype.slice.call(table.tBodies[0].rows);
          var status = document.getElementById("shown");
          function apply() {
            var severities = {};
            form.querySelectorAll("input[name=severity]").forEach(function (box) { severities[box.value] = box.checked; });
            var rule = form.elements.rule.value, session = form.elements.session.value, shown = 0;
            rows.forEach(function (row) {
              var d = row.dataset;
              var show = severities[d.severity] === true && (!rule || d.rule === rule) && (!session || d.session === session);
              row.hidden = !show;
              if (show) shown++;
            });
            status.textContent = shown + " of " + rows.length + " shown";
          }
          form.addEventListener("change", apply);
          form.addEventListener("submit", function (e) { e.preventDefault(); });
          form.querySelector("[data-action=reset]").addEventListener("click", function () { form.reset(); apply(); });
          form.hidden = false;
          apply();
        })();
        """

    /// `'sha256-…'` of ``script``, for the Content Security Policy.
    static let scriptHash = "'sha256-" + Data(SHA256.digest(Array(script.utf8))).base64EncodedString() + "'"

    static let policy = "default-src 'none'; script-src \(scriptHash); style-src 'unsafe-inline'; img-src data:; "
        + "base-uri 'none'; form-action 'none'"

    static let style = """
        :root {
          color-scheme: light dark;
          --bg: #ffffff; --fg: #1d2127; --muted: #5d6672; --line: #d9dde3; --panel: #f5f7f9; --head: #eef1f4;
          --accent: #2459c4; --hit: #fff4c2; --hit-edge: #e0b400;
          --fatal: #7a1fa2; --fatal-bg: #f4e6fa; --error: #b3261e; --error-bg: #fce8e6;
          --warning: #8a5300; --warning-bg: #fdf0d5; --note: #006b77; --note-bg: #e0f4f6;
          --pass: #1e7b34; --pass-bg: #e6f4ea;
          --mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #15181c; --fg: #e3e6ea; --muted: #9aa3ad; --line: #343a42; --panel: #1d2126; --head: #23282e;
            --accent: #7aa7ff; --hit: #4a3f0f; --hit-edge: #c9a100;
            --fatal: #d9a2f0; --fatal-bg: #3a2146; --error: #ff9b92; --error-bg: #46201d;
            --warning: #f3c26b; --warning-bg: #3f3117; --note: #7fd5df; --note-bg: #16373b;
            --pass: #8fd6a0; --pass-bg: #1b3a23;
          }
        }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        html { background: var(--bg); color: var(--fg); }
        body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
        header.top { padding: 1.25rem 2rem 1rem; border-bottom: 1px solid var(--line); background: var(--panel); }
        header.top h1 { margin: 0 0 .4rem; font-size: 1.6rem; }
        header.top nav a { margin-right: 1rem; }
        main { padding: 0 2rem 3rem; max-width: 110rem; }
        section > h2 { margin: 2rem 0 .75rem; font-size: 1.3rem; border-bottom: 1px solid var(--line); padding-bottom: .3rem; }
        h3 { font-size: 1.05rem; margin: 1.25rem 0 .4rem; }
        a { color: var(--accent); }
        a:focus-visible, button:focus-visible, select:focus-visible, input:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
        .muted, .empty { color: var(--muted); }
        code, .mono { font-family: var(--mono); font-size: .92em; }
        .verdict { display: inline-block; margin: .2rem 0 .6rem; padding: .25rem .7rem; border-radius: 999px; font-weight: 600; }
        .verdict.fails { color: var(--error); background: var(--error-bg); }
        .verdict.passes { color: var(--pass); background: var(--pass-bg); }
        .verdict.never { color: var(--muted); background: var(--head); }
        .counts { display: flex; flex-wrap: wrap; gap: .6rem; list-style: none; margin: 0 0 1rem; padding: 0; }
        .counts li { min-width: 7.5rem; padding: .5rem .9rem; border-radius: 8px; border: 1px solid var(--line); }
        .counts .n { display: block; font-size: 1.6rem; font-weight: 700; line-height: 1.1; }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1.2rem; margin: 0 0 1rem; }
        .facts dt { color: var(--muted); }
        .facts dd { margin: 0; }
        .sev { display: inline-block; padding: 0 .45rem; border-radius: 4px; font-weight: 600; font-size: .85em; }
        .sev-fatal { color: var(--fatal); background: var(--fatal-bg); }
        .sev-error { color: var(--error); background: var(--error-bg); }
        .sev-warning { color: var(--warning); background: var(--warning-bg); }
        .sev-note { color: var(--note); background: var(--note-bg); }
        table { border-collapse: separate; border-spacing: 0; width: 100%; margin: .5rem 0 1rem; }
        caption { text-align: left; color: var(--muted); padding-bottom: .3rem; }
        th, td { text-align: left; vertical-align: top; padding: .35rem .6rem; border-bottom: 1px solid var(--line); }
        thead th { background: var(--head); font-weight: 600; white-space: nowrap; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        table.diagnostics thead th { position: sticky; top: 0; z-index: 2; box-shadow: 0 1px 0 var(--line); }
        table.diagnostics tbody tr { border-left: 4px solid transparent; }
        table.diagnostics tbody tr.row-fatal td:first-child { box-shadow: inset 4px 0 var(--fatal); }
        table.diagnostics tbody tr.row-error td:first-child { box-shadow: inset 4px 0 var(--error); }
        table.diagnostics tbody tr.row-warning td:first-child { box-shadow: inset 4px 0 var(--warning); }
        table.diagnostics tbody tr.row-note td:first-child { box-shadow: inset 4px 0 var(--note); }
        table.diagnostics tbody tr:hover, tr:target { background: var(--panel); }
        td.message { overflow-wrap: anywhere; white-space: pre-wrap; min-width: 18rem; }
        td.at { font-family: var(--mono); font-size: .88em; min-width: 12rem; overflow-wrap: anywhere; }
        .nowrap { white-space: nowrap; }
        .rule-id { font-family: var(--mono); font-size: .9em; white-space: nowrap; }
        .rule-name { display: block; color: var(--muted); font-size: .88em; }
        .filters { display: flex; flex-wrap: wrap; align-items: center; gap: .6rem 1.2rem; padding: .6rem .8rem;
                   background: var(--panel); border: 1px solid var(--line); border-radius: 8px; }
        .filters fieldset { border: 0; margin: 0; padding: 0; display: flex; gap: .7rem; align-items: center; }
        .filters legend { float: left; margin-right: .5rem; color: var(--muted); }
        .filters label { white-space: nowrap; }
        .filters select, .filters button { font: inherit; padding: .15rem .4rem; }
        .filters output { margin-left: auto; color: var(--muted); }
        ul.scenes, ul.notes { margin: 0; padding-left: 1.1rem; }
        .state { font-family: var(--mono); font-size: .9em; }
        figure.diagram { margin: 1rem 0 1.5rem; padding: .8rem; border: 1px solid var(--line); border-radius: 8px;
                         background: #ffffff; color: #1d2127; overflow-x: auto; }
        figure.diagram figcaption { font-weight: 600; margin-bottom: .5rem; }
        figure.diagram figcaption .mono { font-weight: 400; color: #5d6672; margin-left: .3rem; }
        figure.diagram svg { display: block; max-width: 100%; height: auto; margin: 0 auto; }
        details.inputs { margin: 0 0 1rem; }
        details.inputs > summary { cursor: pointer; color: var(--muted); }
        details.timeline { margin: .4rem 0; }
        details.timeline summary { cursor: pointer; }
        section.excerpt { margin: 1rem 0 1.5rem; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
        section.excerpt:target { outline: 2px solid var(--accent); }
        section.excerpt h3 { margin: 0; padding: .45rem .8rem; background: var(--head); font-family: var(--mono); font-size: .92rem;
                             font-weight: 600; overflow-wrap: anywhere; }
        section.excerpt p.refs { margin: 0; padding: .3rem .8rem; font-size: .88em; border-bottom: 1px solid var(--line); }
        div.report { padding: .5rem .8rem; border-bottom: 1px solid var(--line); }
        div.report p { margin: .2rem 0; }
        div.report .reason { font-family: var(--mono); overflow-wrap: anywhere; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .8rem; margin: .4rem 0; font-size: .92em; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; font-family: var(--mono); overflow-wrap: anywhere; }
        ol.frames { list-style: none; margin: .2rem 0; padding: 0; font-family: var(--mono); font-size: .88em; }
        ol.frames li { white-space: pre-wrap; overflow-wrap: anywhere; }
        ol.frames li.app { font-weight: 600; background: var(--head); }
        ol.frames .mark { display: inline-block; width: 1.2em; color: var(--accent); }
        details.report-lines summary { padding: .3rem .8rem; cursor: pointer; font-size: .88em; }
        table.log { margin: 0; font-family: var(--mono); font-size: .84rem; line-height: 1.4; }
        table.log th, table.log td { border: 0; padding: .05rem .6rem; }
        table.log th { width: 1%; text-align: right; color: var(--muted); font-weight: 400; user-select: none;
                       border-right: 1px solid var(--line); font-variant-numeric: tabular-nums; }
        table.log td { white-space: pre-wrap; overflow-wrap: anywhere; }
        table.log tr.hit { background: var(--hit); }
        table.log tr.hit th { color: var(--fg); font-weight: 700; box-shadow: inset 3px 0 var(--hit-edge); }
        @media print {
          .filters, header.top nav { display: none; }
          table.diagnostics thead th { position: static; }
          section.excerpt { break-inside: avoid; }
        }
        """
}

/// Writes the page; holds what several sections share (excerpt links, highlighted lines, short paths).
struct HTMLPage {
    let analysis: Analysis
    let excerpts: [LogExcerpt]
    /// For each diagnostic, the index of its excerpt.
    let excerptOf: [Int?]
    /// For each finding, the excerpt that shows each of its related lines, if one does.
    let relatedExcerpts: [[Int?]]
    /// For each excerpt, the diagnostics that link to it.
    let linkedFrom: [[Int]]
    /// Lines a finding points at, by file (highlighted in every excerpt that shows them).
    let hits: [String: Set<Int>]
    /// Paths as the findings and sessions tables show them (the inputs table has them whole).
    let shortPaths: [String: String]
    var out = ""

    /// Report excerpts by file, then line.
    let reports: [String: [Int: ReportExcerpt]]
    /// Log lines given an anchor (`HTMLReport.lineAnchor`) so far: the first excerpt row of each.
    var anchored: Set<String> = []

    init(analysis: Analysis, excerpts: [LogExcerpt], reports: [ReportExcerpt] = []) {
        var reportsByFile: [String: [Int: ReportExcerpt]] = [:]
        for r in reports { if let line = r.position.line { reportsByFile[r.file, default: [:]][line] = r } }
        self.reports = reportsByFile
        self.analysis = analysis
        self.excerpts = excerpts
        // Per file: the excerpts by first line, and the longest, to find those around a line quickly.
        var byFile: [String: (indices: [Int], longest: Int)] = [:]
        for (i, e) in excerpts.enumerated() {
            byFile[e.file, default: ([], 0)].indices.append(i)
            byFile[e.file]!.longest = max(byFile[e.file]!.longest, e.lines.count)
        }
        for file in byFile.keys { byFile[file]!.indices.sort { (excerpts[$0].firstLine, $0) < (excerpts[$1].firstLine, $1) } }
        var excerptOf: [Int?] = []
        var linkedFrom = [[Int]](repeating: [], count: excerpts.count)
        var hits: [String: Set<Int>] = [:]
        /// The excerpt with the most lines on both sides of `line`; then the one most centred on
        /// it; then the one starting first.
        func excerpt(file: String, position: InputPosition) -> Int? {
            guard let line = position.line else { return nil }
            var best: (index: Int, around: Int, skew: Int)? = nil
            let (candidates, longest) = byFile[file] ?? ([], 0)
            // The first excerpt that may reach the line: it starts at most `longest - 1` lines above it.
            var low = 0, high = candidates.count
            while low < high {
                let mid = (low + high) / 2
                if excerpts[candidates[mid]].firstLine < line - longest + 1 { low = mid + 1 } else { high = mid }
            }
            for i in candidates[low...] {
                let e = excerpts[i]
                if e.firstLine > line { break }
                let above = line - e.firstLine, below = e.firstLine + e.lines.count - 1 - line
                guard above >= 0, below >= 0 else { continue }
                let around = min(above, below), skew = abs(above - below)
                if best == nil || around > best!.around || (around == best!.around && skew < best!.skew) {
                    best = (i, around, skew)
                }
            }
            return best?.index
        }
        var relatedExcerpts: [[Int?]] = []
        for (d, diagnostic) in analysis.diagnostics.enumerated() {
            if let line = diagnostic.position.line { hits[diagnostic.file, default: []].insert(line) }
            let best = excerpt(file: diagnostic.file, position: diagnostic.position)
            excerptOf.append(best)
            if let i = best { linkedFrom[i].append(d) }
            relatedExcerpts.append(diagnostic.related.map { excerpt(file: $0.file, position: $0.position) })
        }
        self.relatedExcerpts = relatedExcerpts
        self.excerptOf = excerptOf
        self.linkedFrom = linkedFrom
        self.hits = hits
        shortPaths = Self.shortened(Set(analysis.diagnostics.map(\.file) + analysis.sessions.flatMap(\.files)))
    }

    /// The notes of an input that are problems (warnings and errors), as the inputs table lists them.
    static func problemNotes(_ input: InputStats) -> [InputNote] { input.notes.filter { $0.severity != .info } }

    /// Each path without the directory that all of them share (`device-1/system.log`,
    /// `device-2/system.log` for two files under `/var/logs/`; a single file's name alone).
    static func shortened(_ paths: Set<String>) -> [String: String] {
        let directories = paths.map { $0.split(separator: "/", omittingEmptySubsequences: false).dropLast() }
        guard var common = directories.first.map(Array.init) else { return [:] }
        for d in directories.dropFirst() { common = zip(common, d).prefix { $0 == $1 }.map(\.0) }
        let prefix = common.isEmpty ? 0 : common.joined(separator: "/").utf8.count + 1
        return Dictionary(uniqueKeysWithValues: paths.map { ($0, String(decoding: $0.utf8.dropFirst(prefix), as: UTF8.self)) })
    }

    func short(_ path: String) -> String { shortPaths[path] ?? path }

    // MARK: writing

    mutating func raw(_ s: String) { out += s }
    mutating func text(_ s: String) { HTMLReport.appendEscaped(s, to: &out) }
    /// ` name="value"`, escaped.
    mutating func attr(_ name: String, _ value: String) {
        out += " \(name)=\""
        HTMLReport.appendEscaped(value, to: &out)
        out += "\""
    }
    /// `<tag class="…">text</tag>`.
    mutating func element(_ tag: String, _ s: String, class cls: String? = nil) {
        out += "<\(tag)"
        if let cls { attr("class", cls) }
        out += ">"
        text(s)
        out += "</\(tag)>"
    }
    mutating func severityBadge(_ s: Severity) { element("span", s.description, class: "sev sev-\(s.description)") }
    mutating func dash() { out += "<span class=\"muted\">–</span>" }

    // MARK: the page

    mutating func document(title: String, diagrams: [RenderedDiagram], failOn: Severity?) {
        raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        raw("<meta http-equiv=\"Content-Security-Policy\"")
        attr("content", HTMLReport.policy)
        raw(">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        raw("<meta name=\"generator\" content=\"lifeline\">\n<title>")
        text(title)
        raw("</title>\n<style>\n\(HTMLReport.style)\n</style>\n</head>\n<body>\n")
        header(title: title, failOn: failOn)
        raw("<main>\n")
        // What a reader came for first: the verdict and the findings; then the sessions they belong
        // to, the pictures, and the log lines the findings link to.
        summary()
        findingSection()
        manifestSection()
        sessionSection()
        diagramSection(diagrams)
        excerptSection()
        // The policy allows the script by the hash of exactly the element's text.
        raw("</main>\n<script>\(HTMLReport.script)</script>\n</body>\n</html>\n")
    }

    mutating func header(title: String, failOn: Severity?) {
        raw("<header class=\"top\">\n<h1>")
        text(title)
        raw("</h1>\n")
        let worst = analysis.highestSeverity
        if let failOn {
            let failing = analysis.diagnostics.reduce(0) { $0 + ($1.severity >= failOn ? 1 : 0) }
            if failing > 0 {
                raw("<p class=\"verdict fails\">")
                text("fails at \(failOn): \(count(failing, "finding")) at or above it")
            } else {
                raw("<p class=\"verdict passes\">")
                text("passes at \(failOn): no finding at or above it")
            }
        } else {
            raw("<p class=\"verdict never\">")
            text("never fails (fail-on never)")
        }
        raw("</p>\n<p class=\"muted\">")
        let events = analysis.sessions.reduce(0) { $0 + $1.eventCount }
        let lines = analysis.inputs.reduce(0) { $0 + $1.lines }
        text([count(analysis.readInputs, "input"), count(lines, "line"), count(analysis.sessions.count, "session"),
              count(events, "event"), count(analysis.diagnostics.count, "finding")].joined(separator: " · "))
        if let worst {
            text(" · highest severity ")
            severityBadge(worst)
        }
        raw("</p>\n<nav aria-label=\"sections\"><a href=\"#summary\">Summary</a><a href=\"#findings\">Findings</a>"
            + "<a href=\"#sessions\">Sessions</a><a href=\"#diagrams\">Diagrams</a><a href=\"#excerpts\">Log excerpts</a></nav>\n")
        raw("</header>\n")
    }

    mutating func summary() {
        raw("<section id=\"summary\" aria-labelledby=\"summary-h\">\n<h2 id=\"summary-h\">Summary</h2>\n")
        raw("<ul class=\"counts\" aria-label=\"findings by severity\">\n")
        for s in Severity.allCases.reversed() {
            raw("<li class=\"sev-\(s.description)\"><span class=\"n\">\(analysis.count(s))</span>")
            text(s.description)
            raw("</li>\n")
        }
        raw("</ul>\n")

        // A long list of inputs is folded, open where one of them had a problem.
        let folded = analysis.inputs.count > HTMLReport.inputsShownOpen
        if folded {
            let troubled = analysis.inputs.contains { $0.error != nil || !$0.isBalanced || !Self.problemNotes($0).isEmpty }
            raw(troubled ? "<details class=\"inputs\" open>" : "<details class=\"inputs\">")
            raw("<summary>")
            text("\(count(analysis.inputs.count, "input")): how every line was accounted for")
            raw("</summary>\n")
        }
        raw("<table class=\"inputs\">\n<caption>Inputs, and how every line was accounted for</caption>\n<thead><tr>")
        raw("<th scope=\"col\">input</th><th scope=\"col\">format</th>")
        for h in ["lines", "records", "continuation", "non-log", "unrecognized", "events"] {
            raw("<th scope=\"col\" class=\"num\">\(h)</th>")
        }
        raw("<th scope=\"col\">problems</th></tr></thead>\n<tbody>\n")
        for input in analysis.inputs {
            raw("<tr><td class=\"mono\">")
            text(input.path)
            raw("</td><td>")
            if let f = input.format { text(f.rawValue) } else { dash() }
            if input.recordsByFormat.count > 1 {
                let mix = input.recordsByFormat.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                raw("<br><span class=\"muted\">")
                text(mix.map { "\($0.key.rawValue) \(grouped($0.value))" }.joined(separator: ", "))
                raw("</span>")
            }
            raw("</td>")
            for n in [input.lines, input.records, input.continuationLines, input.nonLogLines, input.unrecognizedLines, input.events] {
                raw("<td class=\"num\">\(grouped(n))</td>")
            }
            raw("<td>")
            let notes = Self.problemNotes(input)
            if input.error == nil && notes.isEmpty {
                if input.isBalanced { raw("<span class=\"muted\">none</span>") } else { text("the line counts do not add up") }
            } else {
                raw("<ul class=\"notes\">")
                if let error = input.error {
                    raw("<li class=\"sev-error\">")
                    text(error)
                    raw("</li>")
                }
                for note in notes {
                    raw("<li>")
                    text((note.position.map { "\($0.phrase): " } ?? "") + note.message)
                    raw("</li>")
                }
                raw("</ul>")
            }
            raw("</td></tr>\n")
        }
        if analysis.inputs.isEmpty { raw("<tr><td colspan=\"9\" class=\"empty\">no inputs</td></tr>\n") }
        raw("</tbody>\n")
        if analysis.inputs.count > 1 {
            raw("<tfoot><tr><th scope=\"row\" colspan=\"2\">total</th>")
            for key in [\InputStats.lines, \.records, \.continuationLines, \.nonLogLines, \.unrecognizedLines, \.events] {
                raw("<td class=\"num\">\(grouped(analysis.inputs.reduce(0) { $0 + $1[keyPath: key] }))</td>")
            }
            raw("<td></td></tr></tfoot>\n")
        }
        raw("</table>\n")
        if folded { raw("</details>\n") }
        raw("</section>\n")
    }

    mutating func diagramSection(_ diagrams: [RenderedDiagram]) {
        raw("<section id=\"diagrams\" aria-labelledby=\"diagrams-h\">\n<h2 id=\"diagrams-h\">Diagrams</h2>\n")
        if diagrams.isEmpty { raw("<p class=\"empty\">no diagrams</p>\n") }
        for (i, d) in diagrams.enumerated() {
            let id = "diagram-\(i + 1)"
            raw("<figure class=\"diagram\" id=\"\(id)\">\n<figcaption id=\"\(id)-caption\">")
            text(d.title)
            raw(" <span class=\"mono\">")
            text(d.fileName)
            raw("</span></figcaption>\n")
            if let svg = HTMLReport.inlineSVG(d.svg, prefix: "\(id)-", labelID: "\(id)-caption") {
                raw(svg)
            } else {
                raw("<p class=\"empty\">this diagram has no SVG to show</p>")
            }
            raw("\n</figure>\n")
        }
        raw("</section>\n")
    }

    func count(_ n: Int, _ noun: String) -> String { "\(grouped(n)) \(noun)\(n == 1 ? "" : "s")" }

    /// `1234567` as `1,234,567` (the same in every locale).
    func grouped(_ n: Int) -> String { NumberText.grouped(n) }
}
