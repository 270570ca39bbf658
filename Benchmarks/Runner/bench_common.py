"""What scripts/bench's two kinds of run share: paths, builds, the corpora and their checks, and
measuring (python3 standard library only). scripts/bench imports this module; scripts/bench-triage
uses `verify_corpus` through scripts/bench."""

import collections
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

import system_counts

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "Benchmarks")
DATA = os.path.join(BENCH, "data")
RESULTS = os.path.join(BENCH, "results")
GEN_SCRATCH = os.path.join(ROOT, ".build-bench-gen")
LIFELINE_SCRATCH = os.path.join(ROOT, ".build-bench")
DEFAULT_SEED = 20260101
SHAPES = ["mixed", "longlived", "launches", "dense", "device"]

# The family of things Lifeline looks for, as one alternation (the rg row is a reference point
# for "search the whole file for the anchors", not a correctness check).
RG_PATTERN = r"-\[|Assertion failure|Main Thread Checker|uncaught exception|[Ss]cene|[Aa]pplication"

# Every spelling the generator writes, by kind (for --verify-corpus, which checks the
# generator itself with rg so a generator bug cannot pass for a Lifeline bug).
SPELLINGS = {
    "app.willFinishLaunching": ["application:willFinishLaunchingWithOptions:", "application(_:willFinishLaunchingWithOptions:)"],
    "app.didFinishLaunching": ["application:didFinishLaunchingWithOptions:", "application(_:didFinishLaunchingWithOptions:)"],
    "app.configurationForConnecting": ["application:configurationForConnectingSceneSession:options:", "application(_:configurationForConnecting:options:)"],
    "app.willTerminate": ["applicationWillTerminate:", "applicationWillTerminate(_:)"],
    "scene.willConnect": ["scene:willConnectToSession:options:", "scene(_:willConnectTo:options:)"],
    "scene.willEnterForeground": ["sceneWillEnterForeground:", "sceneWillEnterForeground(_:)"],
    "scene.didBecomeActive": ["sceneDidBecomeActive:", "sceneDidBecomeActive(_:)"],
    "scene.willResignActive": ["sceneWillResignActive:", "sceneWillResignActive(_:)"],
    "scene.didEnterBackground": ["sceneDidEnterBackground:", "sceneDidEnterBackground(_:)"],
    "scene.didDisconnect": ["sceneDidDisconnect:", "sceneDidDisconnect(_:)"],
    "scene.openURLContexts": ["scene:openURLContexts:", "scene(_:openURLContexts:)"],
    "cp.didConnect": ["templateApplicationScene:didConnectInterfaceController:toWindow:", "templateApplicationScene(_:didConnect:to:)",
                      "templateApplicationScene:didConnectInterfaceController:", "templateApplicationScene(_:didConnect:)"],
    "cp.didDisconnect": ["templateApplicationScene:didDisconnectInterfaceController:fromWindow:", "templateApplicationScene(_:didDisconnect:from:)",
                         "templateApplicationScene:didDisconnectInterfaceController:", "templateApplicationScene(_:didDisconnectInterfaceController:)"],
    "failure.assertion": ["*** Assertion failure in "],
    "failure.exception": ["*** Terminating app due to uncaught exception '"],
    "thread.mainThreadChecker": ["Main Thread Checker: "],
}


# ----------------------------------------------------------------------------- helpers

def say(msg=""):
    print(msg, flush=True)


def die(msg, code=1):
    print(f"bench: {msg}", file=sys.stderr, flush=True)
    sys.exit(code)


def parse_size(text):
    """(bytes, label): `100M` is 100 MiB."""
    m = re.fullmatch(r"(\d+)([KMG]?)", text.strip(), re.IGNORECASE)
    if not m or int(m.group(1)) == 0:
        die(f"bad size '{text}' (use e.g. 100M, 1G)", 2)
    n = int(m.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[m.group(2).upper()]
    return n, f"{m.group(1)}{m.group(2).upper()}"


def run_quiet(cmd, cwd=ROOT):
    """Runs a build step; returns (ok, combined output)."""
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    return p.returncode == 0, p.stdout


def first_line(cmd):
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace").stdout
        return out.strip().splitlines()[0] if out.strip() else "?"
    except OSError:
        return "?"


def machine_facts(extra=()):
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        cpu = platform.processor() or "?"
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                    break
    except OSError:
        pass
    commit = first_line(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"])
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "Sources", "Package.swift"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.strip()
    facts = collections.OrderedDict([
        ("nproc", first_line(["nproc"])),
        ("CPU", cpu),
        ("memory", mem),
        ("kernel", platform.release()),
        ("swift", first_line(["swift", "--version"])),
        ("rg", first_line(["rg", "--version"])),
    ])
    for k, v in extra:
        facts[k] = v
    facts["lifeline commit"] = commit + (" (+ uncommitted changes in Sources/)" if dirty else "")
    facts["load average at start"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return facts


# ----------------------------------------------------------------------------- builds

def bootstrap():
    say("== bootstrap: scripts/bootstrap --bench")
    p = subprocess.run([os.path.join(ROOT, "scripts", "bootstrap"), "--bench"], cwd=ROOT)
    if p.returncode != 0:
        die("scripts/bootstrap --bench failed")


def build_generator():
    """Builds lifeline-loggen; returns (path, versions): versions[0] names the mixed corpus,
    versions[1] the triage set, and `shapes` maps every other shape to its version line."""
    say("== build generator: swift build -c release --scratch-path .build-bench-gen (in Benchmarks/)")
    ok, out = run_quiet(["swift", "build", "-c", "release", "--scratch-path", GEN_SCRATCH], cwd=BENCH)
    if not ok:
        say(out[-4000:])
        die("generator build failed")
    loggen = os.path.join(GEN_SCRATCH, "release", "lifeline-loggen")
    lines = subprocess.run([loggen, "--version"], stdout=subprocess.PIPE, text=True).stdout.splitlines()
    versions = {"generator": lines[0].strip() if lines else "?", "set": lines[1].strip() if len(lines) > 1 else "?",
                "shapes": {l.split()[0]: l.strip() for l in lines[2:] if l.strip()}}
    return loggen, versions


def build_lifeline(path_arg):
    """Builds (or takes, with --lifeline) the lifeline binary; returns (path, skip reason or None)."""
    if path_arg:
        lifeline = os.path.abspath(path_arg)
        say(f"== lifeline: using {lifeline} (--lifeline), not building")
        if os.access(lifeline, os.X_OK):
            return lifeline, None
        return lifeline, f"lifeline not runnable: {lifeline} is not an executable file"
    say("== build lifeline: swift build -c release --scratch-path .build-bench --product lifeline")
    lifeline = os.path.join(LIFELINE_SCRATCH, "release", "lifeline")
    build = ["swift", "build", "-c", "release", "--scratch-path", LIFELINE_SCRATCH, "--product", "lifeline"]
    ok, out = run_quiet(build)
    for _ in range(2):
        if ok or "was modified during the build" not in out:
            break
        say("   a source file changed during the build; building again")
        time.sleep(5)
        ok, out = run_quiet(build)
    if ok:
        return lifeline, None
    errors = list(dict.fromkeys(l.strip() for l in out.splitlines() if "error:" in l))[:6]
    skip = "lifeline not built (swift build failed): " + ("; ".join(errors) or out.strip()[-500:])
    say("   " + skip)
    return lifeline, skip


# ----------------------------------------------------------------------------- corpora

def corpus_is_current(expected, shape, seed, versions, path):
    """True when a saved corpus was made by this generator for this shape and seed, and is whole."""
    if (expected.get("seed") != seed or expected.get("generator") != versions["generator"]
            or expected.get("bytes") != os.path.getsize(path) or expected.get("shape", "mixed") != shape):
        return False
    if shape == "mixed":
        return expected.get("format") == "mixed"
    return expected.get("shapeVersion") == versions["shapes"].get(shape)


def ensure_corpus(loggen, versions, shape, size_bytes, size_label, seed, verify):
    """Benchmarks/data/<shape>-<size>.log and its .expected.json: reused while current, else
    generated. A fresh corpus (or any, with verify) is checked against its .expected.json with rg and
    wc -l. Returns (path, expected, (seconds, MB/s) when generated or None)."""
    os.makedirs(DATA, exist_ok=True)
    data = os.path.join(DATA, f"{shape}-{size_label}.log")
    exp_path = data + ".expected.json"
    rel = os.path.relpath(data, ROOT)
    expected = None
    if os.path.exists(data) and os.path.exists(exp_path):
        try:
            with open(exp_path) as f:
                expected = json.load(f)
            if not corpus_is_current(expected, shape, seed, versions, data):
                say(f"== corpus {rel} was made by another generator version or seed, or is damaged: regenerating")
                expected = None
        except (ValueError, OSError):
            expected = None
    gen_info = None
    if expected is None:
        say(f"== generate {rel} ({size_label}, seed {seed})")
        args = [loggen, "--bytes", str(size_bytes), "--seed", str(seed), "--out", data]
        args += ["--format", "mixed"] if shape == "mixed" else ["--shape", shape]
        t0 = time.perf_counter()
        p = subprocess.run(args)
        dt = time.perf_counter() - t0
        if p.returncode != 0:
            die("lifeline-loggen failed")
        with open(exp_path) as f:
            expected = json.load(f)
        gen_info = (dt, expected["bytes"] / dt / 1e6)
        say(f"   {expected['bytes'] / 1e6:.1f} MB in {dt:.2f} s ({gen_info[1]:.0f} MB/s)")
        verify = True
    else:
        say(f"== reuse {rel} (delete it, or its .expected.json, to regenerate)")
    if verify:
        say(f"== verify {rel} against .expected.json (rg -o -F over every spelling written, system_counts.py, wc -l)")
        problems = verify_corpus(data, expected)
        if problems:
            for pr in problems:
                say(f"   CORPUS MISMATCH: {pr}")
            os.unlink(exp_path)  # not reused next time
            die("the corpus does not match its .expected.json; the generator is wrong")
        say(f"   ok: {expected['lines']:,} lines, {expected['events']:,} events in {len(expected['kinds'])} kinds")
    return data, expected, gen_info


def verify_corpus(path, expected):
    """Counts every spelling the generator writes with `rg -o -F` and compares with the
    generator's own per-kind counts; the system's events (Documentation/SystemEvents.md), which are
    changes rather than spellings, are recounted from the text by `system_counts` (a reader of the
    contract of its own); also checks lines with wc -l."""
    literal_kind = {}
    for kind, spellings in SPELLINGS.items():
        for s in spellings:
            literal_kind[s] = kind
    literals = sorted(literal_kind, key=len, reverse=True)
    with tempfile.NamedTemporaryFile("w", suffix=".pats", delete=False) as f:
        f.write("\n".join(literals) + "\n")
        pats = f.name
    try:
        p = subprocess.run(["rg", "-o", "-F", "--no-filename", "--no-line-number", "-f", pats, path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finally:
        os.unlink(pats)
    if p.returncode not in (0, 1):
        return [f"rg failed: {p.stderr.decode(errors='replace').strip()}"]
    seen = collections.Counter()
    for m in p.stdout.decode("utf-8", "replace").splitlines():
        seen[literal_kind.get(m, "?" + m)] += 1
    problems = []
    for kind in sorted((set(seen) | set(expected["kinds"])) - set(system_counts.SYSTEM_KINDS)):
        want = expected["kinds"].get(kind, 0)
        if seen.get(kind, 0) != want:
            problems.append(f"{kind}: rg finds {seen.get(kind, 0)}, expected.json says {want}")
    system = system_counts.count_file(path)
    for kind in system_counts.SYSTEM_KINDS:
        want = expected["kinds"].get(kind, 0)
        if system[kind] != want:
            problems.append(f"{kind}: the system reader (system_counts.py) finds {system[kind]}, expected.json says {want}")
    wc = subprocess.run(["wc", "-l", path], stdout=subprocess.PIPE, text=True).stdout.split()
    if not wc or int(wc[0]) != expected["lines"]:
        problems.append(f"wc -l says {wc[0] if wc else '?'} lines, expected.json says {expected['lines']}")
    if os.path.getsize(path) != expected["bytes"]:
        problems.append(f"file has {os.path.getsize(path)} bytes, expected.json says {expected['bytes']}")
    return problems


# ----------------------------------------------------------------------------- checking lifeline

def check_lifeline_output(stdout, expected, path):
    """`events --stats --format json` output: returns (stats dict or None, list of problems)."""
    try:
        doc = json.loads(stdout)
        inputs = doc["inputs"]
        assert isinstance(inputs, list) and len(inputs) == 1
        st = inputs[0]
        fields = {k: int(st[k]) for k in ("lines", "records", "continuationLines", "nonLogLines", "unrecognizedLines", "events")}
    except Exception as e:  # noqa: BLE001 - any shape problem is a mismatch
        return None, [f"stats JSON not understood ({type(e).__name__}: {e}); got: {stdout[:300]!r}"]
    problems = []
    if fields["lines"] != expected["lines"]:
        problems.append(f"lines = {fields['lines']}, expected {expected['lines']}")
    parts = fields["records"] + fields["continuationLines"] + fields["nonLogLines"] + fields["unrecognizedLines"]
    if parts != fields["lines"]:
        problems.append(f"records+continuationLines+nonLogLines+unrecognizedLines = {parts} != lines = {fields['lines']}")
    if fields["events"] != expected["events"]:
        problems.append(f"events = {fields['events']}, expected {expected['events']}")
    return dict(st, **fields), problems


def check_analysis_output(stdout, expected):
    """Problems with `lifeline analyze --format json` output: its summary must count the corpus."""
    try:
        doc = json.loads(stdout)
        summary = doc["summary"]
    except Exception as e:  # noqa: BLE001
        return None, [f"analysis JSON not understood ({type(e).__name__}: {e}); got: {stdout[:300]!r}"]
    return check_summary(summary, expected, "analysis")


def check_summary(summary, expected, what):
    """The `summary` object of an analyze or triage report against a corpus's (or set's) totals:
    returns (a short description, problems)."""
    problems = []
    try:
        lines, events, sessions = int(summary["lines"]), int(summary["events"]), int(summary["sessions"])
    except Exception as e:  # noqa: BLE001
        return None, [f"{what} summary not understood ({type(e).__name__}: {e}): {str(summary)[:300]}"]
    if lines != expected["lines"]:
        problems.append(f"{what} lines = {lines:,}, expected {expected['lines']:,}")
    if events != expected["events"]:
        problems.append(f"{what} events = {events:,}, expected {expected['events']:,}")
    if "diagnostics" in summary:
        findings = sum(int(v) for v in summary["diagnostics"].values())
        return f"{sessions:,} sessions, {findings:,} findings", problems
    return f"{sessions:,} sessions, {int(summary.get('signatures', 0)):,} signatures", problems


def summary_from_report(path):
    """The top-level `summary` object of a (possibly huge) JSON report, read from its tail: the keys
    are sorted and `summary` is the last object but `unreadable`, so the whole report need not be
    parsed."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        f.seek(max(0, size - (1 << 16)))
        tail = f.read().decode("utf-8", "replace")
    at = tail.rfind('"summary":')
    if at < 0:
        return None
    try:
        obj, _ = json.JSONDecoder().raw_decode(tail[at + len('"summary":'):].lstrip())
        return obj
    except ValueError:
        return None


def kinds_from_events_output(text):
    """Best effort: counts `kind` values in `lifeline events --format json` output, whatever its
    exact shape (array, object holding arrays, or one object per line)."""
    counts = collections.Counter()

    def walk(x):
        if isinstance(x, dict):
            k = x.get("kind")
            if isinstance(k, str):
                counts[k] += 1
                return
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    try:
        walk(json.loads(text))
    except ValueError:
        for line in text.splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    walk(json.loads(line))
                except ValueError:
                    pass
    return counts


def per_kind_diff(lifeline, path, expected):
    """Expected vs. Lifeline's events per kind (from `events --format jsonl`), for a MISMATCH report."""
    got = collections.Counter()
    p = subprocess.Popen([lifeline, "events", "--format", "jsonl", "--jobs", "2", path],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    for line in p.stdout:
        try:
            k = json.loads(line).get("kind")
        except ValueError:
            continue
        if isinstance(k, str):
            got[k] += 1
    p.wait()
    if not got:
        return ["(per-kind diagnosis unavailable: no `kind` fields in `lifeline events --format jsonl` output)"]
    lines = ["per kind (expected vs lifeline):"]
    for kind in sorted(set(got) | set(expected["kinds"])):
        want, have = expected["kinds"].get(kind, 0), got.get(kind, 0)
        if want or have:
            lines.append(f"  {kind:32} {want:>10} {have:>10}{'   <-- differs' if want != have else ''}")
    return lines


# ----------------------------------------------------------------------------- measuring

class Measure:
    """Wall time from a direct spawn (perf_counter around spawn..exit, so process start is
    included: see the `true` baseline) and peak RSS from GNU time (`/usr/bin/time -f '%e %M'`),
    whose forked child starts small. (Python's own wait4 rusage is no good here: a child spawned
    from Python inherits Python's ~14 MB high-water mark at exec.)"""

    def __init__(self):
        self.gnu_time = None
        if os.path.exists("/usr/bin/time"):
            p = subprocess.run(["/usr/bin/time", "-f", "%M", "true"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if p.returncode == 0 and p.stderr.strip().isdigit():
                self.gnu_time = "/usr/bin/time"
        self.rss_method = ("GNU time (`/usr/bin/time -f '%e %M'`), one extra run per command" if self.gnu_time else
                           "getrusage(RUSAGE_CHILDREN) in a fresh python3 per command (includes python's own RSS floor)")
        self.rss_method_each = ("GNU time (`/usr/bin/time -f '%e %M'`) around every timed run; the largest of the runs"
                                if self.gnu_time else self.rss_method)

    def wall(self, cmd, capture, env=None):
        """`capture`: True (stdout returned), False (/dev/null) or an open file to write it to."""
        t0 = time.perf_counter()
        out_to = subprocess.PIPE if capture is True else subprocess.DEVNULL if not capture else capture
        p = subprocess.Popen(cmd, stdout=out_to, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env)
        out, err = p.communicate()
        dt = time.perf_counter() - t0
        return dt, p.returncode, out.decode("utf-8", "replace") if out else "", err.decode("utf-8", "replace")

    def peak_rss_kb(self, cmd, env=None):
        if self.gnu_time:
            with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
                p = subprocess.run([self.gnu_time, "-f", "%e %M", "-o", tf.name] + cmd,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env)
                fields = tf.read().split()
                if p.returncode not in (0, 1) or len(fields) < 2:  # analyze exits 1 with findings
                    return None
                return int(fields[-1])
        code = ("import resource,subprocess,sys\n"
                "p=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL)\n"
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if p.returncode in (0,1) else -1)\n")
        p = subprocess.run([sys.executable, "-c", code] + cmd, stdout=subprocess.PIPE, text=True, env=env)
        v = int(p.stdout.strip() or -1)
        return v if v >= 0 else None

    def run(self, cmd, capture, env=None):
        """One timed run, and its peak RSS in the same run when GNU time is there (otherwise from an
        extra run): (seconds, exit status, stdout, stderr, peak RSS KiB or None)."""
        if not self.gnu_time:
            dt, rc, out, err = self.wall(cmd, capture, env)
            return dt, rc, out, err, self.peak_rss_kb(cmd, env)
        with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
            dt, rc, out, err = self.wall([self.gnu_time, "-f", "%e %M", "-o", tf.name] + cmd, capture, env)
            fields = tf.read().split()
        rss = int(fields[-1]) if len(fields) >= 2 and fields[-1].isdigit() else None
        return dt, rc, out, err, rss
