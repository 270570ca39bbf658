#!/usr/bin/env python3
"""Counts the system's events of Documentation/SystemEvents.md in a generated corpus, from its text
alone (python3 standard library only), so `.expected.json`'s system kinds are checked by a second
reader rather than trusted: scripts/bench's corpus check (`verify_corpus`) calls `count_file`, and

    python3 Benchmarks/Runner/system_counts.py FILE [FILE.expected.json]

prints the counts and, given the expected file, compares them (exit 1 on a difference).

The reading, line by line in input order (a record's first line; the lines that can be a system event
are picked out with `rg` first when it is installed). Windows of log time are measured between two lines
of one format (a corpus's times only move forward within a format: a capture's clock is its own,
Console.app's time of day is compared modulo a day):

- who: a line naming `[app<B…>:PID]` (Now tracking, Bootstrap success!, SpringBoard's task state or
  visibility, a kill line with an identity) tells that bundle B's process is PID. A `Calculated
  state` names no pid: it is about the last PID told for B (or about B while none was told).
- system.launch: `Asked to bootstrap`, `Bootstrapping … with intent`, `Executing launch request`,
  `Creating and launching job`, `Now tracking process` and `Bootstrap success!` of bundle B join B's
  open launch when the pids do not disagree, else open one (a line naming a pid whose launch was
  already told is a late line of it). A launch closes at `Bootstrap success!` or after 5 s (Console.app
  copies: at `Bootstrap success!`; the generator writes no launch without it there).
- system.processState: a `Calculated state` whose (state, role) differs from the last one read for
  its process; it opens the process's state for 1 s. SpringBoard's `Setting process task state/
  visibility` of PID within 1 s of an open state of PID that it fits is a detail; otherwise, when it
  says something new for PID, it is an event of its own (and opens one).
- system.sceneState: `sceneID:…-default] Scene lifecycle state did change: S` when S differs from the
  scene's last state.
- endings: `termination reported by launchd (NS, CODE, STATUS)` (NS 0: none; 1: jetsam; 2: a signal,
  9 being a kill), `Process exited: <RBSProcessExitContext| specific, … domain:NAME(N) code:…>`
  (`voluntary`: none), the kernel's `memorystatus: killing_…`: the first for a pid is an event of its
  kind, the others for that pid within 5 s are evidence.
"""

import collections
import json
import re
import shutil
import subprocess
import sys

SYSTEM_KINDS = ["system.launch", "system.processState", "system.sceneState", "failure.signal", "failure.jetsam", "failure.killed"]

_ID = rb"(?:app|application)<([^<>()\s]+)(?:\((?:[^()]|\([^()]*\))*\))?>"
KEY_TEXT = (r"Calculated state for|Setting process |Scene lifecycle state|ootstrap|and launching job|launch request for|"
            r"tracking process|termination reported|Process exited: <RBS|memorystatus: killing_")
KEY = re.compile(KEY_TEXT.encode())
LAUNCH = re.compile(rb"(?:Asked to bootstrap a new process with identity: |Bootstrapping |Creating and launching job for: |"
                    rb"Executing launch request for |Now tracking process: \[)" + _ID + rb"(?::(\d+)\])?")
SUCCESS = re.compile(rb"\[" + _ID + rb":(\d+)\] Bootstrap success!")
STATE = re.compile(rb"Calculated state for " + _ID + rb": ([A-Za-z-]+) \(role: ([A-Za-z]+)\)")
TASK = re.compile(rb"\[" + _ID + rb":(\d+)\] Setting process (?:task state to: ([A-Za-z ]+?)|visibility to: ([A-Za-z]+))\.?\s*$")
SCENE = re.compile(rb"(sceneID:\S+?-default)\] Scene lifecycle state did change: ([A-Za-z]+)")
TERMINATION = re.compile(rb"\[" + _ID + rb":(\d+)\] termination reported by launchd \((\d+), (\d+), (\d+)\)")
EXITED = re.compile(rb"\[" + _ID + rb":(\d+)\] Process exited: <RBSProcessExitContext\| (?:voluntary|specific, status:<RBSProcessExitStatus\| "
                    rb"domain:(?:[a-z-]+)?\(?(\d+)\)? code:(?:([A-Za-z0-9_-]+)\()?(0x[0-9a-fA-F]+|\d+)\)?>)")
MEMORYSTATUS = re.compile(rb"memorystatus: killing_\w+ pid (\d+) \[")

MONTHS = {m: i for i, m in enumerate([b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec"])}
CONSOLE_TYPES = (b"default\t", b"info\t", b"debug\t", b"error\t", b"fault\t")


def header_format(line):
    """The format of a record's first line, or None for a continuation (or any non-record) line."""
    c = line[:1]
    if c.isdigit():
        if len(line) > 24 and line[4:5] == b"-" and line[19:20] == b".":
            if line[23:24] == b" ":
                return "log-compact"
            if line[26:27] in (b"+", b"-"):
                if line[31:34] == b" 0x":
                    return "log-default"
                if line[31:42] == b"  localhost":
                    return "log-syslog"
                return "xcode"
        return None
    if line.startswith(CONSOLE_TYPES):
        return "console"
    if line[:3] in MONTHS and line[3:4] == b" " and line[9:10] == b":":
        return "idevicesyslog"
    return None


def days_from_civil(y, m, d):
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def seconds(line, fmt):
    """Log time in seconds: since 1970 for dated lines, of the year (idevicesyslog) or of the day
    (Console.app). Only differences within one capture are used."""
    if fmt == "console":
        t = line.index(b"\t") + 1
        return int(line[t:t + 2]) * 3600 + int(line[t + 3:t + 5]) * 60 + int(line[t + 6:t + 8]) + int(line[t + 9:t + 15]) / 1e6
    if fmt == "idevicesyslog":
        return (MONTHS[line[:3]] * 31 + int(line[4:6])) * 86400 + int(line[7:9]) * 3600 + int(line[10:12]) * 60 + int(line[13:15])
    frac = line[20:23] if fmt == "log-compact" else line[20:26]
    return (days_from_civil(int(line[0:4]), int(line[5:7]), int(line[8:10])) * 86400 + int(line[11:13]) * 3600
            + int(line[14:16]) * 60 + int(line[17:19]) + int(frac) / 10 ** len(frac))


def within(fmt, t0, t1, window):
    d = t1 - t0
    if fmt == "console":
        d %= 86400
    return 0 <= d <= window


class Reader:
    def __init__(self):
        self.counts = collections.Counter()
        self.told = {}
        self.last_state = {}
        self.open_state = {}
        self.last_task = {}
        self.last_scene = {}
        self.launches = {}
        self.launched = set()
        self.endings = {}
        self.fmt = None

    def line(self, line):
        if not KEY.search(line):
            return
        fmt = header_format(line)
        if fmt is None:
            return
        self.fmt = fmt
        t = seconds(line, fmt)
        m = STATE.search(line)
        if m:
            return self.state(m.group(1), (m.group(2), m.group(3)), t)
        m = TASK.search(line)
        if m:
            return self.task(m.group(1), int(m.group(2)), m.group(3), m.group(4), t)
        m = SCENE.search(line)
        if m:
            if self.last_scene.get(m.group(1)) != m.group(2):
                self.last_scene[m.group(1)] = m.group(2)
                self.counts["system.sceneState"] += 1
            return
        m = SUCCESS.search(line)
        if m:
            return self.launch(m.group(1), int(m.group(2)), True, t)
        m = LAUNCH.search(line)
        if m:
            return self.launch(m.group(1), int(m.group(2)) if m.group(2) else None, False, t)
        m = TERMINATION.search(line)
        if m:
            ns, code = int(m.group(3)), int(m.group(4))
            kind = None if ns == 0 else "failure.jetsam" if ns == 1 else ("failure.killed" if code == 9 else "failure.signal") if ns == 2 else "failure.killed"
            return self.kill(m.group(1), int(m.group(2)), kind, t)
        m = EXITED.search(line)
        if m:
            if m.group(3) is None:
                return  # voluntary
            domain, name, code = int(m.group(3)), m.group(4), m.group(5)
            kind = ("failure.jetsam" if domain == 1 else
                    ("failure.killed" if code == b"9" or name == b"SIGKILL" else "failure.signal") if domain == 2 else "failure.killed")
            return self.kill(m.group(1), int(m.group(2)), kind, t)
        m = MEMORYSTATUS.search(line)
        if m:
            return self.kill(None, int(m.group(1)), "failure.jetsam", t)

    def state(self, bundle, value, t):
        key = ("pid", self.told[bundle]) if bundle in self.told else ("bundle", bundle)
        if self.last_state.get(key) == value:
            return
        self.last_state[key] = value
        self.counts["system.processState"] += 1
        if key[0] == "pid":
            self.open_state[key[1]] = [self.fmt, t, None, None]

    def task(self, bundle, pid, task, visibility, t):
        self.told[bundle] = pid
        last = self.last_task.setdefault(pid, [None, None])
        o = self.open_state.get(pid)
        if (o and o[0] == self.fmt and within(self.fmt, o[1], t, 1.0)
                and (task is None or o[2] is None or o[2] == task) and (visibility is None or o[3] is None or o[3] == visibility)):
            if task is not None:
                o[2] = last[0] = task
            if visibility is not None:
                o[3] = last[1] = visibility
            return
        if (task is None or task == last[0]) and (visibility is None or visibility == last[1]):
            return
        if task is not None:
            last[0] = task
        if visibility is not None:
            last[1] = visibility
        self.counts["system.processState"] += 1
        self.open_state[pid] = [self.fmt, t, task, visibility]

    def launch(self, bundle, pid, success, t):
        if pid is not None:
            self.told[bundle] = pid
        o = self.launches.get(bundle)
        if o and (o[0] != self.fmt or (self.fmt != "console" and not within(self.fmt, o[1], t, 5.0))):
            o = None
        if o and (pid is None or o[2] is None or o[2] == pid):
            if pid is not None:
                o[2] = pid
                self.launched.add(pid)
            if success:
                del self.launches[bundle]
            return
        if pid is not None and pid in self.launched:
            return
        self.counts["system.launch"] += 1
        if pid is not None:
            self.launched.add(pid)
        if success:
            self.launches.pop(bundle, None)
        else:
            self.launches[bundle] = [self.fmt, t, pid]

    def kill(self, bundle, pid, kind, t):
        if kind is None:
            return
        if bundle is not None:
            self.told[bundle] = pid
        e = self.endings.get(pid)
        if e and e[0] == self.fmt and within(self.fmt, e[1], t, 5.0):
            return
        self.counts[kind] += 1
        self.endings[pid] = (self.fmt, t)
        self.launched.discard(pid)


def count_file(path):
    """Events per system kind (`SYSTEM_KINDS`) the text of `path` holds, as the contract reads it."""
    r = Reader()
    rg = shutil.which("rg")
    if rg:
        # rg reads the file in order and keeps the lines that can matter (a few in a hundred).
        p = subprocess.Popen([rg, "-a", "--no-filename", "--no-line-number", "--no-config", "-e", KEY_TEXT, path], stdout=subprocess.PIPE)
        for line in p.stdout:
            r.line(line)
        if p.wait() not in (0, 1):
            raise RuntimeError(f"rg failed on {path}")
    else:
        with open(path, "rb") as f:
            for line in f:
                r.line(line)
    return {k: r.counts.get(k, 0) for k in SYSTEM_KINDS}


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    got = count_file(argv[1])
    bad = False
    expected = None
    if len(argv) > 2:
        with open(argv[2]) as f:
            expected = json.load(f)["kinds"]
    for k in SYSTEM_KINDS:
        want = expected.get(k, 0) if expected is not None else None
        mark = "" if want is None else ("  ok" if want == got[k] else f"  MISMATCH (expected {want})")
        bad |= want is not None and want != got[k]
        print(f"{k:22} {got[k]:>10}{mark}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
