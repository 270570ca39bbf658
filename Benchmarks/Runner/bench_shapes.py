"""scripts/bench's shapes run (issue 12): for every corpus shape and size, in one run and side by
side on the same file, wc -l, rg -c, lnav -n and Lifeline's events --stats, analyze and triage (and
events --format jsonl with one and two threads at the largest size); then analyze and triage on the
triage set's directory. Prints a scaling table per shape and the issue's targets, met or MISSED, and
writes Benchmarks/results/<date>-shapes.md."""

import datetime
import json
import os
import shutil
import subprocess
import tempfile

from bench_common import (DATA, RESULTS, RG_PATTERN, ROOT, SHAPES, Measure, check_lifeline_output, check_summary,
                          die, ensure_corpus, first_line, machine_facts, parse_size, per_kind_diff, say,
                          summary_from_report)

# Issue 12's targets. Growth is for 4x the input (250 MB to 1 GB); other size ranges scale it.
TARGET_GROWTH_PER_4X = 4.2
TARGET_RSS_MB = 96.0
TARGET_STATS_MBPS = 1500.0
TARGET_ANALYZE_MBPS = 500.0
TARGET_LNAV_RATIO = 3.0
TARGET_JSONL_SPEEDUP = 1.6

LNAV_SQL = ";SELECT count(*) FROM all_logs"
# The triage set (scripts/bench-triage's, shared with it through Benchmarks/data/).
SET_FULL = {"files": 10000, "set_bytes": 1 << 30, "set_name": "triage-10k"}
SET_QUICK = {"files": 1000, "set_bytes": 100 << 20, "set_name": "triage-1k"}


def lnav_env(home):
    """A writable HOME for lnav's configuration and a fresh empty TMPDIR: lnav runs headless."""
    env = dict(os.environ)
    env["HOME"] = home
    env["TMPDIR"] = tempfile.mkdtemp(prefix="tmp-", dir=home)
    return env


def last_integer(text):
    for tok in reversed(text.split()):
        if tok.isdigit():
            return int(tok)
    return None


def file_commands(lifeline, data, largest, has_triage, has_lnav):
    """(name, argv, shown, capture, needs lnav env) for one corpus, in the order they run."""
    c = [("wc -l", ["wc", "-l", data], "wc -l FILE", True, False),
         ("rg -c", ["rg", "-c", "-e", RG_PATTERN, data], "rg -c PATTERN FILE", True, False)]
    if has_lnav:
        c.append(("lnav -n", ["lnav", "-n", "-c", LNAV_SQL, data], f"lnav -n -c '{LNAV_SQL}' FILE", True, True))
    if lifeline:
        c.append(("events --stats -j 2", [lifeline, "events", "--stats", "--format", "json", "-j", "2", data],
                  "lifeline events --stats --format json -j 2 FILE", True, False))
        c.append(("analyze -j 2", [lifeline, "analyze", "--format", "json", "--no-config", "-j", "2", data],
                  "lifeline analyze --format json --no-config -j 2 FILE > /dev/null", False, False))
        if has_triage:
            c.append(("triage -j 2", [lifeline, "triage", "--format", "json", "--quiet", "--no-config", "--jobs", "2", data],
                      "lifeline triage --format json --quiet --no-config --jobs 2 FILE > /dev/null", False, False))
        if largest:
            for j in ("1", "2"):
                c.append((f"events jsonl -j {j}", [lifeline, "events", "--format", "jsonl", "-j", j, data],
                          f"lifeline events --format jsonl -j {j} FILE > /dev/null", False, False))
    return c


def check_report(argv, expected, what):
    """One untimed run of analyze or triage into a temporary file, its summary checked against the
    input's totals (the timed runs write to /dev/null): (description, problems)."""
    with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as out:
        path = out.name
        p = subprocess.run(argv, stdout=out, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        if p.returncode not in (0, 1):
            err = (p.stderr.decode("utf-8", "replace").strip().splitlines() or ["(no stderr)"])[-1][:300]
            return None, [f"{what} exited {p.returncode}: {err}"]
        summary = summary_from_report(path)
        if summary is None:
            return None, [f"{what}: no summary object at the end of its JSON report"]
        return check_summary(summary, expected, what)
    finally:
        os.unlink(path)


def measure(m, commands, runs, nbytes, expected, lnav_home, label, mismatches, extra, checked=None):
    """Times `commands` round-robin `runs` times; returns {name: (best seconds, MB/s, max RSS MB)}.
    `checked` maps command names to the totals their report's summary must have: their first run
    writes the report to a temporary file, which is checked (instead of an extra, untimed run)."""
    best, rss = {}, {}
    for r in range(runs):
        for name, argv, _, capture, lnav in commands:
            env = lnav_env(lnav_home) if lnav else None
            report = None
            if r == 0 and checked and name in checked:
                report = tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False)
                capture = report
            dt, rc, out, err, kb = m.run(argv, capture, env)
            if env:
                shutil.rmtree(env["TMPDIR"], ignore_errors=True)
            if report:
                report.close()
                summary = summary_from_report(report.name) if rc in (0, 1) else None
                os.unlink(report.name)
                what, problems = (check_summary(summary, checked[name], name.split()[0]) if summary is not None
                                  else (None, [f"{name}: no summary object at the end of its JSON report"]))
                mismatches += [f"{label}: {x}" for x in problems]
                if what:
                    extra[name] = what
            # rg -c exits 1 without matches; analyze exits 1 with findings at or above --fail-on.
            if rc not in (0, 1) or (rc == 1 and name != "rg -c" and not name.startswith(("analyze", "triage"))):
                die(f"{label}: {name} failed (exit {rc}): {err.strip()[-500:]}")
            if name == "wc -l":
                n = int(out.split()[0])
                if n != expected["lines"]:
                    mismatches.append(f"{label}: wc -l counted {n:,} lines, expected {expected['lines']:,}")
            elif name == "rg -c":
                extra[name] = f"{last_integer(out) or 0:,} matching lines"
            elif name == "lnav -n":
                extra[name] = f"{last_integer(out) or 0:,} log messages"
            elif name.startswith("events --stats"):
                st, problems = check_lifeline_output(out, expected, "")
                mismatches += [f"{label}: {name}, run {r + 1}: {x}" for x in problems]
                if st:
                    extra[name] = f"{st['events']:,} events, {st['unrecognizedLines']:,} unrecognized lines"
            if name not in best or dt < best[name]:
                best[name] = dt
            if kb is not None and kb / 1024 > rss.get(name, 0):
                rss[name] = kb / 1024
            say(f"   run {r + 1}: {label:18} {name:20} {dt:8.3f} s  {(kb or 0) / 1024:7.1f} MB")
    return {n: (best[n], nbytes / best[n] / 1e6, rss.get(n)) for n in best}


def set_is_current(path, want, seed, versions):
    exp_path = path + ".expected.json"
    if not (os.path.isdir(path) and os.path.exists(exp_path)):
        return None
    try:
        with open(exp_path) as f:
            e = json.load(f)
    except (OSError, ValueError):
        return None
    if (e.get("kind") != "triage-set" or e.get("seed") != seed or e.get("files") != want["files"]
            or e.get("targetBytes") != want["set_bytes"] or e.get("generator") != versions["generator"]
            or e.get("set") != versions["set"]):
        return None
    files = size = 0
    for d, _, names in os.walk(path):
        for n in names:
            files += 1
            size += os.path.getsize(os.path.join(d, n))
    return e if files == e["files"] and size == e["diskBytes"] else None


def ensure_set(loggen, versions, want, seed):
    """The triage set directory (scripts/bench-triage's, which checks it in depth): reused while
    current, else generated."""
    os.makedirs(DATA, exist_ok=True)
    path = os.path.join(DATA, want["set_name"])
    e = set_is_current(path, want, seed, versions)
    if e:
        say(f"== reuse {os.path.relpath(path, ROOT)}/ (scripts/bench-triage --verify-corpus checks it in depth)")
        return path, e
    shutil.rmtree(path, ignore_errors=True)
    say(f"== generate {os.path.relpath(path, ROOT)}/ ({want['files']:,} files, seed {seed})")
    p = subprocess.run([loggen, "--files", str(want["files"]), "--bytes", str(want["set_bytes"]), "--seed", str(seed), "--out", path])
    if p.returncode != 0:
        die("lifeline-loggen --files failed")
    with open(path + ".expected.json") as f:
        return path, json.load(f)


def fmt_cell(v):
    if v is None:
        return "—"
    dt, mbps, rss = v
    return f"{dt:.2f} s · {mbps:,.0f} · {'?' if rss is None else f'{rss:.0f} MB'}"


def scaling_table(rows, labels, order):
    head = "| command | " + " | ".join(f"{l}: time · MB/s · RSS" for l in labels) + (
        f" | time {labels[-1]} ÷ {labels[0]} |" if len(labels) > 1 else " |")
    out = [head, "|---|" + "---:|" * (len(labels) + (1 if len(labels) > 1 else 0))]
    for name in order:
        by = rows.get(name)
        if not by:
            continue
        cells = [fmt_cell(by.get(l)) for l in labels]
        growth = ""
        if len(labels) > 1:
            a, b = by.get(labels[0]), by.get(labels[-1])
            growth = f" {b[0] / a[0]:.2f}× |" if a and b else " — |"
        out.append(f"| `{name}` | " + " | ".join(cells) + " |" + growth)
    return out


def shape_targets(rows, sizes):
    """(target, measured, met) for one shape."""
    (b0, l0), (b1, l1) = sizes[0], sizes[-1]
    t = []

    def at(name, label):
        return rows.get(name, {}).get(label)
    if len(sizes) > 1:
        ratio = b1 / b0
        limit = TARGET_GROWTH_PER_4X * ratio / 4
        for name in ("analyze -j 2", "triage -j 2"):
            a, b = at(name, l0), at(name, l1)
            if a and b:
                g = b[0] / a[0]
                t.append((f"`{name}` time {l1} ÷ {l0} ≤ {limit:.2f}× ({ratio:g}× the input)", f"{g:.2f}×", g <= limit))
    for name in ("analyze -j 2", "triage -j 2"):
        v = at(name, l1)
        if v and v[2] is not None:
            t.append((f"`{name}` peak RSS at {l1} ≤ {TARGET_RSS_MB:.0f} MB", f"{v[2]:.0f} MB", v[2] <= TARGET_RSS_MB))
    s, wc = at("events --stats -j 2", l1), at("wc -l", l1)
    if s:
        vs = f"{s[1]:,.0f} MB/s" + (f" ({s[0] / wc[0]:.1f}× `wc -l`'s time)" if wc else "")
        t.append((f"`events --stats -j 2` ≥ {TARGET_STATS_MBPS:,.0f} MB/s at {l1}", vs, s[1] >= TARGET_STATS_MBPS))
    a = at("analyze -j 2", l1)
    if a:
        t.append((f"`analyze -j 2` ≥ {TARGET_ANALYZE_MBPS:.0f} MB/s at {l1}", f"{a[1]:,.0f} MB/s", a[1] >= TARGET_ANALYZE_MBPS))
        ln = at("lnav -n", l1)
        if ln:
            r = ln[0] / a[0]
            t.append((f"`analyze -j 2` ≥ {TARGET_LNAV_RATIO:g}× faster than `lnav -n` at {l1}", f"{r:.2f}×", r >= TARGET_LNAV_RATIO))
    j1, j2 = at("events jsonl -j 1", l1), at("events jsonl -j 2", l1)
    if j1 and j2:
        sp = j1[0] / j2[0]
        t.append((f"`events --format jsonl -j 2` ≥ {TARGET_JSONL_SPEEDUP}× `-j 1` at {l1}", f"{sp:.2f}×", sp >= TARGET_JSONL_SPEEDUP))
    return t


def run_shapes(args, shapes, sizes, runs, loggen, versions, lifeline, lifeline_skip, has_triage, has_lnav):
    """Returns the exit status."""
    m = Measure()
    lnav_home = tempfile.mkdtemp(prefix="lifeline-bench-lnav-home-")
    use = None if lifeline_skip else lifeline
    labels = [l for _, l in sizes]
    mismatches, sections, all_targets = [], [], []
    corpora = {}
    t_start = datetime.datetime.now()
    for shape in shapes:
        rows, extra_last, stats_mismatch = {}, {}, None
        corpora[shape] = []
        for i, (nbytes_target, label) in enumerate(sizes):
            largest = i == len(sizes) - 1
            data, expected, _ = ensure_corpus(loggen, versions, shape, nbytes_target, label, args.seed, args.verify_corpus)
            corpora[shape].append((label, expected))
            say(f"== {shape} {label}: warm page cache (cat FILE > /dev/null)")
            subprocess.run(["cat", data], stdout=subprocess.DEVNULL)
            commands = file_commands(use, data, largest, has_triage, has_lnav)
            extra = {}
            tag = f"{shape} {label}"
            if use:
                for name, argv, *_ in commands:
                    if name.startswith(("analyze", "triage")):
                        what, problems = check_report(argv, expected, name.split()[0])
                        mismatches += [f"{tag}: {x}" for x in problems]
                        if what:
                            extra[name] = what
            before = len(mismatches)
            res = measure(m, commands, runs, expected["bytes"], expected, lnav_home, tag, mismatches, extra)
            if len(mismatches) > before and stats_mismatch is None:
                stats_mismatch = (data, expected)
            for name, v in res.items():
                rows.setdefault(name, {})[label] = v
            if largest:
                extra_last = extra
        order = [c[0] for c in file_commands(use or "lifeline", "FILE", True, has_triage, has_lnav) if c[0] in rows]
        targets = shape_targets(rows, sizes) if use else []
        all_targets += [(shape, *t) for t in targets]
        lines = [f"### {shape}", ""]
        for label, e in corpora[shape]:
            lines.append(f"- {label}: {e['bytes']:,} bytes, {e['lines']:,} lines, {e['events']:,} events"
                         f" ({e.get('shapeVersion') or e.get('generator')}, seed {e['seed']})")
        lines.append("")
        lines += scaling_table(rows, labels, order)
        lines.append("")
        if extra_last:
            lines.append(f"At {labels[-1]}: " + "; ".join(f"`{k}` {v}" for k, v in extra_last.items()) + ".")
            lines.append("")
        for label, got, ok in targets:
            lines.append(f"- {'met' if ok else 'MISSED'}: {label} — {got}")
        if stats_mismatch and use:
            lines.append("")
            lines += ["    " + x for x in per_kind_diff(use, *stats_mismatch)]
        sections.append("\n".join(lines))
        say("\n" + sections[-1] + "\n")

    # The triage set's directory: analyze and triage on 10,000 files (--quick: 1,000).
    dir_lines = []
    if use and not args.no_dir:
        want = SET_QUICK if args.quick else SET_FULL
        set_dir, set_exp = ensure_set(loggen, versions, want, args.seed)
        say(f"== {want['set_name']}: warm page cache (find DIR -type f | xargs cat > /dev/null)")
        subprocess.run(f"find '{set_dir}' -type f -print0 | xargs -0 cat > /dev/null", shell=True)
        commands = [("analyze DIR -j 2", [use, "analyze", "--format", "json", "--no-config", "-j", "2", set_dir],
                     "lifeline analyze --format json --no-config -j 2 DIR > /dev/null", False, False)]
        if has_triage:
            commands.append(("triage DIR -j 2", [use, "triage", "--format", "json", "--quiet", "--no-config", "--jobs", "2", set_dir],
                             "lifeline triage --format json --quiet --no-config --jobs 2 DIR > /dev/null", False, False))
        # analyze reads files and directories, not archives (triage reads the logs inside them): its
        # totals are the set's without the members of the .tar.gz bundles.
        plain = [x for x in set_exp["inputList"] if "bundle" not in x]
        analyze_exp = {"lines": sum(x["lines"] for x in plain), "events": sum(x["events"] for x in plain)}
        # Their first timed run writes the report to a file and is checked: on a directory an extra
        # run would cost as much again.
        extra = {}
        checked = {name: analyze_exp if name.startswith("analyze") else set_exp for name, *_ in commands}
        res = measure(m, commands, runs, set_exp["contentBytes"], set_exp, lnav_home, want["set_name"], mismatches,
                      extra, checked)
        dir_lines = [f"### Directory: `{os.path.relpath(set_dir, ROOT)}/`", "",
                     f"{set_exp['files']:,} files ({set_exp['inputs']:,} inputs with the members of its archives), "
                     f"{set_exp['contentBytes'] / 1e6:,.1f} MB uncompressed, {set_exp['lines']:,} lines, {set_exp['events']:,} events. "
                     f"`analyze` reads no archives (`triage` reads the logs inside them): its run is checked against the "
                     f"{len(plain):,} other inputs ({analyze_exp['lines']:,} lines, {analyze_exp['events']:,} events), and its "
                     "MB/s counts all the set's bytes.", "",
                     "| command | time | MB/s (uncompressed) | peak RSS | output |", "|---|---:|---:|---:|---|"]
        for name, argv, shown, *_ in commands:
            dt, mbps, rss = res[name]
            dir_lines.append(f"| `{shown}` | {dt:.2f} s | {mbps:,.0f} | {'?' if rss is None else f'{rss:.0f} MB'} | {extra.get(name, '')} |")
            if rss is not None:
                ok = rss <= TARGET_RSS_MB
                all_targets.append(("directory", f"`{name}` peak RSS ≤ {TARGET_RSS_MB:.0f} MB", f"{rss:.0f} MB", ok))
        dir_lines.append("")
        for shape, label, got, ok in all_targets:
            if shape == "directory":
                dir_lines.append(f"- {'met' if ok else 'MISSED'}: {label} — {got}")
        sections.append("\n".join(dir_lines))
        say("\n" + sections[-1] + "\n")
    shutil.rmtree(lnav_home, ignore_errors=True)

    elapsed = (datetime.datetime.now() - t_start).total_seconds()
    summary = [f"## Targets (issue 12): {sum(1 for t in all_targets if t[3])} met, "
               f"{sum(1 for t in all_targets if not t[3])} MISSED", ""]
    summary += [f"- {'met   ' if ok else 'MISSED'} {shape}: {label} — {got}" for shape, label, got, ok in all_targets]
    say("\n".join(summary))
    if lifeline_skip:
        say(f"\nLIFELINE ROWS SKIPPED: {lifeline_skip}")
    if mismatches:
        say("\n" + "!" * 78)
        say("MISMATCH: Lifeline's output does not match the corpus (a fast-but-wrong run does not pass)")
        for x in mismatches:
            say(f"  MISMATCH {x}")
        say("!" * 78)

    md = render(args, shapes, labels, runs, sections, summary, mismatches, lifeline_skip, m, elapsed, lifeline)
    os.makedirs(RESULTS, exist_ok=True)
    suffix = []
    if set(shapes) != set(SHAPES):
        suffix.append("-".join(shapes))
    if args.quick:
        suffix.append("quick")
    elif labels != ["250M", "500M", "1G"]:
        suffix.append("-".join(labels))
    name = f"{datetime.date.today().isoformat()}-shapes{''.join('-' + s for s in suffix)}.md"
    out_md = os.path.join(RESULTS, name)
    with open(out_md, "w") as f:
        f.write(md)
    say(f"\nwrote {os.path.relpath(out_md, ROOT)} ({elapsed:.0f} s)")
    if mismatches:
        return 1
    if lifeline_skip:
        return 2
    if args.fail_on_miss and not all(t[3] for t in all_targets):
        return 3
    return 0


def render(args, shapes, labels, runs, sections, summary, mismatches, skip, m, elapsed, lifeline):
    today = datetime.date.today().isoformat()
    o = [f"# Lifeline by corpus shape — {today}", ""]
    cmd = "scripts/bench" + (" --quick" if args.quick else f" --shapes {','.join(shapes)} --sizes {','.join(labels)}") + (
        f" --runs {runs}" if not args.quick else "")
    o.append(f"`{cmd}`: per shape and size, the page cache warmed with `cat FILE > /dev/null`, then every command "
             f"timed {runs} time{'s' if runs != 1 else ''} round-robin on the same file, the best kept; took {elapsed:.0f} s.")
    o.append("")
    if mismatches:
        o.append("**MISMATCH — Lifeline's counts do not match the corpus; the speeds below do not count.**")
        o.append("")
        o += [f"- {x}" for x in mismatches]
        o.append("")
    if skip:
        o.append(f"**Lifeline rows skipped:** {skip}")
        o.append("")
    o += summary
    o.append("")
    o.append("## Scaling by shape")
    o.append("")
    o.append("Cells: best wall time · MB/s (10^6 bytes of the file per second) · peak RSS. The last column is "
             "how much longer the largest input took than the smallest.")
    o.append("")
    o += sections
    o.append("")
    o.append("## Method")
    o.append("")
    o.append("- Corpora: `Benchmarks/data/<shape>-<size>.log`, written by `lifeline-loggen --shape SHAPE` (seed "
             f"{args.seed}); each `.expected.json` holds its exact lines and events per kind.")
    o.append("- Every `events --stats` run is checked against it (lines, events, and records + continuation + non-log + "
             "unrecognized lines = lines), and so is `wc -l`. `analyze` and `triage` are timed with their report sent to "
             "/dev/null (exit status 0 or 1 accepted: findings); one more, untimed, run of each writes its report to a "
             "file whose `summary` (lines, events) is checked. On the directory, the first timed run of each writes "
             "its report to a file and is the one checked.")
    o.append(f"- lnav: `lnav -n -c '{LNAV_SQL}' FILE` with a temporary HOME and an empty TMPDIR, stdin from /dev/null; "
             "its count of messages is shown, not checked (lnav's idea of a message is not Lifeline's).")
    o.append(f"- rg: `rg -c '{RG_PATTERN}' FILE` (it memory-maps the file: its RSS counts the mapped pages).")
    o.append(f"- Wall time: spawn to exit, process start included. Peak RSS: {m.rss_method_each}.")
    o.append("- The directory rows run on the triage set (`lifeline-loggen --files N`, scripts/bench-triage's); MB/s "
             "there counts uncompressed bytes (gzip members and archives included).")
    o.append("")
    o.append("## Machine")
    o.append("")
    extra = [("lnav", first_line(["lnav", "-V"])), ("lifeline", first_line([lifeline, "--version"]) if lifeline else "?")]
    for k, v in machine_facts(extra).items():
        o.append(f"- {k}: {v}")
    return "\n".join(o) + "\n"


def parse_sizes(text):
    sizes = [parse_size(s) for s in text.split(",") if s.strip()]
    if not sizes:
        die("--sizes needs at least one size", 2)
    return sorted(sizes)
