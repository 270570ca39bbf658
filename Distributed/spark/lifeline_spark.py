#!/usr/bin/env python3
"""Lifeline triage on Apache Spark: the reference job.

    spark-submit [spark options] lifeline_spark.py --lifeline PATH --output DIR [options] LOCATION...

Lists every file under the LOCATIONs (anything Spark's Hadoop file systems read: local paths,
file:, hdfs:, s3a:, abfs:, gs:, with the cluster's Hadoop configuration), packs the paths into
partitions by bytes (largest first, about --tasks-per-core tasks per core, a file larger than a
partition's share alone in its own), runs `lifeline triage --partial --files-from -` once per
partition on the executors, and merges the partial results with `lifeline triage merge`: in the
driver, or as a tree on the executors with --tree-depth. The merged report is written into
DIR/report (every format, as `lifeline triage --output` writes it) and printed in --format.

The lifeline binary is shipped to the executors by the job itself (SparkContext.addFile) when
--lifeline names a file on the driver, or found on them through SparkFiles when it was given to
spark-submit with --files; its execute bit is restored when the shipping lost it. Each run gets an
explicit environment (PATH, locale, HOME and TMPDIR in the task's scratch directory,
LD_LIBRARY_PATH from --library-path) and its exit status is checked: a failing partition raises,
Spark retries it (spark.task.maxFailures), and a partition that still fails ends the job with the
partition, the status and lifeline's own message. Nothing is dropped silently.

Exit status: 0 done, 1 a new signature at or above --fail-on-new, 2 usage or a failed job,
3 no input could be read.
"""

import argparse
import heapq
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time

# Partition sizing: a file costs its bytes plus this much, so that thousands of tiny files do not
# all land in one task (opening, detecting and closing a file costs about what reading 128 KiB does).
DEFAULT_OPEN_COST = 128 * 1024
DEFAULT_TASKS_PER_CORE = 4
# `lifeline triage merge` is given at most this many partials at once; more are merged in rounds.
MERGE_FAN_IN = 512
# Exit statuses of `lifeline triage --partial` that carry a partial: 0, and 3 (nothing in the
# partition could be read; the partial lists why, and the merged report counts it).
PARTIAL_OK = (0, 3)
JOB_GROUP = "lifeline-triage"
# Lifeline's severities, lowest first.
SEVERITIES = ["note", "warning", "error", "fatal"]


class JobError(Exception):
    """A failure the driver reports in one line and exits 2 for."""


# ----------------------------------------------------------------------------- pure helpers

def plan_partitions(files, partitions, open_cost=DEFAULT_OPEN_COST):
    """Packs (uri, bytes) pairs into at most `partitions` lists of about equal cost.

    Largest first: a file that costs at least a partition's share is alone in its own; the rest go,
    one by one in decreasing size, to the cheapest partition so far (ties: the lowest index), so a
    few large logs do not end up in one task. Deterministic for the same input in any order.
    Returns the non-empty partitions, each sorted by uri."""
    if not files:
        return []
    ordered = sorted(files, key=lambda f: (-f[1], f[0]))
    total = sum(size + open_cost for _, size in ordered)
    count = max(1, min(partitions, len(ordered)))
    share = total / count
    packs = []
    rest = []
    for uri, size in ordered:
        if size + open_cost >= share and len(packs) < count - 1:
            packs.append([(uri, size)])
        else:
            rest.append((uri, size))
    heap = [(0, i) for i in range(count - len(packs))]
    shared = [[] for _ in heap]
    for uri, size in rest:
        cost, i = heapq.heappop(heap)
        shared[i].append((uri, size))
        heapq.heappush(heap, (cost + size + open_cost, i))
    return [sorted(p) for p in packs + shared if p]


def display_name(uri):
    """The name a report shows for a listed file: a local file by its path, anything else by its URI."""
    if uri.startswith("file://"):
        return uri[len("file://"):] if uri[len("file://"):].startswith("/") else uri
    if uri.startswith("file:/"):
        return uri[len("file:"):]
    return uri


def is_local(uri):
    return uri.startswith("file:") or uri.startswith("/")


def hadoop_glob_escape(path):
    """A path as a literal for Hadoop's comma-separated, globbing input paths."""
    return "".join("\\" + c if c in "\\[]*?" else c for c in path)


def fetchable_by_hadoop(uri):
    """Whether Hadoop's input formats can be given this path in a comma-separated list: a comma or
    a brace in a name splits or groups the list, and no escape undoes that."""
    return not any(c in uri for c in ",{}")


def files_from_line(path, name):
    """One line of `--files-from -`: PATH<TAB>NAME, or None when a tab or line break in either
    cannot be written there."""
    if any(c in s for s in (path, name) for c in "\t\n\r"):
        return None
    return path if path == name else f"{path}\t{name}"


def task_environment(scratch, library_path=None):
    """The whole environment a lifeline run gets on an executor: nothing is inherited."""
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": scratch,
        "TMPDIR": scratch,
        "SWIFT_BACKTRACE": "enable=no",
        "NO_COLOR": "1",
    }
    if library_path:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(shipped_directory(p) for p in library_path.split(os.pathsep) if p)
    return env


def shipped_directory(path):
    """A directory of --library-path on this machine: absolute as given; relative, in the directory
    spark-submit --archives unpacked it to (the task's working directory on YARN, the SparkFiles
    directory in local, standalone and Kubernetes modes)."""
    if os.path.isabs(path):
        return path
    try:
        from pyspark import SparkFiles
        head, _, rest = path.partition("/")
        unpacked = os.path.join(SparkFiles.get(head), rest) if rest else SparkFiles.get(head)
        if os.path.isdir(unpacked):
            return os.path.normpath(unpacked)
    except Exception:  # noqa: BLE001 - no Spark here: relative to the working directory
        pass
    return os.path.abspath(path)


def tail(text, lines=12):
    kept = [line for line in text.strip().splitlines() if line.strip()]
    return "\n".join(kept[-lines:])


# ----------------------------------------------------------------------------- running lifeline

def executable(name_or_path):
    """The lifeline binary on this machine: shipped through SparkFiles, or a path that exists here.
    A shipped copy that lost its execute bit gets it back (in place, or as a copy when the
    SparkFiles directory is read-only)."""
    candidates = []
    try:
        from pyspark import SparkFiles
        candidates.append(SparkFiles.get(os.path.basename(name_or_path)))
    except Exception:  # noqa: BLE001 - no SparkContext/TaskContext here: only the path itself
        pass
    candidates.append(name_or_path)
    for path in candidates:
        if not os.path.isfile(path):
            continue
        if os.access(path, os.X_OK):
            return path
        try:
            os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
            return path
        except OSError:
            copy = os.path.join(tempfile.mkdtemp(prefix="lifeline-bin-"), os.path.basename(path))
            shutil.copyfile(path, copy)
            os.chmod(copy, 0o755)
            return copy
    raise JobError(f"the lifeline binary '{name_or_path}' is neither shipped to this machine (SparkFiles) nor on it")


def shipped_file(name):
    """A file the driver shipped with SparkContext.addFile, on this machine."""
    from pyspark import SparkFiles
    return SparkFiles.get(name)


def run_lifeline(binary, args, stdin_text, env, what):
    """Runs lifeline; returns (status, stdout). A status outside PARTIAL_OK, or an output that is
    not a partial, raises with the status and lifeline's own message."""
    p = subprocess.run([binary] + args, input=stdin_text.encode("utf-8"), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env, cwd=env["TMPDIR"], check=False)
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode not in PARTIAL_OK:
        raise RuntimeError(f"{what}: `lifeline {' '.join(args)}` exited with status {p.returncode}: {tail(err) or '(no message)'}")
    out = p.stdout.decode("utf-8", "replace")
    try:
        doc = json.loads(out)
    except ValueError as e:
        raise RuntimeError(f"{what}: lifeline wrote no partial result ({e}); its message: {tail(err) or '(none)'}") from None
    if not isinstance(doc, dict) or "lifelinePartial" not in doc:
        raise RuntimeError(f"{what}: lifeline's output is JSON but not a partial result")
    return p.returncode, out


def triage_partition(cfg):
    """The task: one `lifeline triage --partial` run over a partition's files. Yields one record
    (partition, attempt, files, bytes, seconds, partial) or raises, so that Spark retries it."""

    def run(index, items):
        from pyspark import TaskContext
        context = TaskContext.get()
        attempt = context.attemptNumber() if context else 0
        started = time.monotonic()
        scratch = tempfile.mkdtemp(prefix=f"lifeline-part-{index:05d}-")
        try:
            binary = executable(cfg["lifeline"])
            lines, count, size, unlisted = [], 0, 0, []
            if cfg["read"] == "direct":
                for pack in items:
                    for uri, n in pack:
                        count += 1
                        size += n
                        line = files_from_line(display_name(uri), display_name(uri))
                        (lines.append(line) if line else unlisted.append(uri))
            else:
                for k, (uri, content) in enumerate(items):
                    count += 1
                    size += len(content)
                    copy = os.path.join(scratch, f"{k:06d}-{os.path.basename(uri.rstrip('/'))[:120] or 'input'}")
                    with open(copy, "wb") as f:
                        f.write(content)
                    line = files_from_line(copy, display_name(uri))
                    (lines.append(line) if line else unlisted.append(uri))
                expected = cfg["expected"][index]
                if count != expected:
                    raise RuntimeError(f"partition {index}: Hadoop returned {count} of its {expected} files")
            if unlisted:
                raise RuntimeError(f"partition {index}: names with a tab or a line break cannot be given to lifeline: {unlisted[:5]}")
            args = ["triage", "--partial", "--quiet", "--skip-non-logs", "--jobs", str(cfg["jobs"]), "--files-from", "-"] + cfg["triage"]
            if cfg["config"]:
                args += ["--config", shipped_file(cfg["config"])]
            _, partial = run_lifeline(binary, args, "\n".join(lines) + "\n", task_environment(scratch, cfg["library_path"]),
                                      f"partition {index} (attempt {attempt + 1}, {count} files)")
            yield {"partition": index, "attempt": attempt, "files": count, "bytes": size,
                   "seconds": round(time.monotonic() - started, 3), "partial": partial}
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    return run


def merge_pair(cfg):
    """treeReduce's function: two partials in, their merge (a partial) out, on whichever machine."""

    def merge(a, b):
        scratch = tempfile.mkdtemp(prefix="lifeline-merge-")
        try:
            paths = []
            for k, text in enumerate((a, b)):
                paths.append(os.path.join(scratch, f"{k}.json"))
                with open(paths[-1], "w", encoding="utf-8") as f:
                    f.write(text)
            args = ["triage", "merge", "--partial"] + (["--partial-inputs"] if cfg["input_rows"] else []) + paths
            return run_lifeline(executable(cfg["lifeline"]), args, "", task_environment(scratch, cfg["library_path"]), "tree merge")[1]
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    return merge


# ----------------------------------------------------------------------------- the driver

def list_inputs(spark, locations):
    """(uri, bytes) of every file under the locations, through Spark's own file listing (the
    binaryFile source with only path and length selected: listed in the JVM, in parallel for many
    directories, no content read). Names beginning with '.' or '_' are not inputs, by the
    Hadoop/Spark convention (`_SUCCESS`, `_temporary/`, `.crc`); lifeline skips '.' names too."""
    files = {}
    for location in locations:
        try:
            rows = (spark.read.format("binaryFile").option("recursiveFileLookup", "true")
                    .load(location).select("path", "length").collect())
        except Exception as e:  # noqa: BLE001 - Spark's AnalysisException and Py4J errors alike
            message = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise JobError(f"{location}: cannot list it: {message}") from None
        for row in rows:
            files[row["path"]] = row["length"]
    return sorted(files.items())


def merge_files(binary, paths, report_args, scratch, env, stdout):
    """`lifeline triage merge` over the partial files, in rounds of MERGE_FAN_IN; returns its status."""
    round_ = 0
    while len(paths) > MERGE_FAN_IN:
        merged = []
        for k in range(0, len(paths), MERGE_FAN_IN):
            out = os.path.join(scratch, f"round-{round_}-{k // MERGE_FAN_IN:05d}.json")
            _, text = run_lifeline(binary, ["triage", "merge", "--partial", "--partial-inputs"] + paths[k:k + MERGE_FAN_IN], "", env,
                                   f"merge round {round_ + 1}")
            with open(out, "w", encoding="utf-8") as f:
                f.write(text)
            merged.append(out)
        paths, round_ = merged, round_ + 1
    p = subprocess.run([binary, "triage", "merge"] + paths + report_args, stdout=stdout, stderr=subprocess.PIPE, env=env, check=False)
    err = p.stderr.decode("utf-8", "replace")
    if err.strip():
        sys.stderr.write(err if err.endswith("\n") else err + "\n")
    if p.returncode not in (0, 1, 3):
        raise JobError(f"`lifeline triage merge` exited with status {p.returncode}")
    return p.returncode


def failed_attempts(sc):
    """Task attempts that failed in this job's stages (Spark retried them), from its status tracker."""
    tracker = sc.statusTracker()
    failed = 0
    for job_id in tracker.getJobIdsForGroup(JOB_GROUP):
        info = tracker.getJobInfo(job_id)
        for stage_id in (info.stageIds if info else []):
            stage = tracker.getStageInfo(stage_id)
            failed += stage.numFailedTasks if stage else 0
    return failed


def parse_arguments(argv):
    p = argparse.ArgumentParser(prog="lifeline_spark.py", description="Lifeline triage on Apache Spark.",
                                epilog="Exit status: 0 done, 1 a new signature at or above --fail-on-new, "
                                       "2 usage or a failed job, 3 no input could be read.")
    p.add_argument("locations", nargs="+", metavar="LOCATION", help="directories or files: local paths or any Hadoop URI")
    p.add_argument("--lifeline", default="lifeline", help="the lifeline binary on the driver (shipped to the executors), "
                   "or the name of one given to spark-submit --files (default: lifeline)")
    p.add_argument("--output", required=True, help="a directory on the driver: report/ (every format) and partials/")
    p.add_argument("--format", default="text", choices=["text", "json", "csv", "markdown", "html"], help="the report printed (default: text)")
    p.add_argument("--read", default="auto", choices=["auto", "direct", "copy"],
                   help="direct: executors open the listed paths themselves (local or shared file systems); copy: Spark "
                        "fetches each file's bytes (binaryFiles) into the task's scratch directory; auto: direct when every "
                        "location is local, else copy")
    p.add_argument("--tasks-per-core", type=int, default=DEFAULT_TASKS_PER_CORE, help="partitions per core of the cluster (default: 4)")
    p.add_argument("--partitions", type=int, help="the number of partitions (default: --tasks-per-core × Spark's default parallelism)")
    p.add_argument("--open-cost", type=int, default=DEFAULT_OPEN_COST, help="bytes a file costs on top of its size when packing (default: 131072)")
    p.add_argument("--tree-depth", type=int, default=0, help="merge on the executors with treeReduce of this depth (default 0: in the driver)")
    p.add_argument("--input-rows", action="store_true", help="keep one row per input (the report lists every input) instead of their sums")
    p.add_argument("--library-path", help="LD_LIBRARY_PATH for lifeline on the executors (relative paths: in the task's working "
                   "directory, where spark-submit --archives unpacks)")
    p.add_argument("--config", help="a lifeline configuration file (shipped with the binary)")
    p.add_argument("--min-severity", choices=SEVERITIES, help="as lifeline triage --min-severity")
    p.add_argument("--input-format", help="as lifeline triage --input-format")
    p.add_argument("--limit", type=int, help="as lifeline triage --limit")
    p.add_argument("--group-by", choices=["version", "os", "device"], help="as lifeline triage --group-by")
    p.add_argument("--baseline", help="as lifeline triage --baseline (a file on the driver)")
    p.add_argument("--fail-on-new", choices=SEVERITIES, help="as lifeline triage --fail-on-new")
    args = p.parse_args(argv)
    if args.tasks_per_core < 1 or (args.partitions is not None and args.partitions < 1) or args.open_cost < 0 or args.tree_depth < 0:
        p.error("--tasks-per-core and --partitions must be at least 1, --open-cost and --tree-depth at least 0")
    return args


def say(message):
    print(f"lifeline-spark: {message}", file=sys.stderr, flush=True)


def run_job(args):
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("lifeline triage").getOrCreate()
    sc = spark.sparkContext
    started = time.monotonic()
    shipped = os.path.isfile(args.lifeline)
    if shipped:
        sc.addFile(os.path.abspath(args.lifeline))
    triage = []
    if args.config:
        if not os.path.isfile(args.config):
            raise JobError(f"{args.config}: no such configuration file")
        sc.addFile(os.path.abspath(args.config))
    for flag, value in (("--min-severity", args.min_severity), ("--input-format", args.input_format)):
        if value:
            triage += [flag, value]

    files = list_inputs(spark, args.locations)
    listed = time.monotonic()
    total = sum(n for _, n in files)
    read = args.read if args.read != "auto" else ("direct" if all(is_local(u) for u, _ in files) else "copy")
    if read == "direct" and not all(is_local(u) for u, _ in files):
        raise JobError("--read direct needs local paths (or a shared file system mounted on every executor); use --read copy")
    if read == "copy":
        bad = [u for u, _ in files if not fetchable_by_hadoop(u)]
        if bad:
            raise JobError(f"{len(bad)} input names hold ',', '{{' or '}}', which Hadoop's input paths cannot express "
                           f"(first: {bad[0]}); read them with --read direct from a mount, or rename them")
    partitions = args.partitions or args.tasks_per_core * sc.defaultParallelism
    packs = plan_partitions(files, partitions, args.open_cost)
    say(f"{len(files):,} files, {total:,} bytes (listed in {listed - started:.1f} s) in {len(packs):,} partitions "
        f"(largest {max((sum(n for _, n in p) for p in packs), default=0):,} bytes), read {read}")

    cfg = {"lifeline": os.path.basename(args.lifeline) if shipped else args.lifeline, "read": read, "triage": triage,
           "jobs": int(sc.getConf().get("spark.task.cpus", "1")), "library_path": args.library_path,
           "input_rows": args.input_rows, "expected": [len(p) for p in packs],
           "config": os.path.basename(args.config) if args.config else None}
    if args.input_rows:
        cfg["triage"] = triage + ["--partial-inputs"]
    os.makedirs(args.output, exist_ok=True)
    partial_dir = os.path.join(args.output, "partials")
    shutil.rmtree(partial_dir, ignore_errors=True)
    os.makedirs(partial_dir)

    if not packs:
        rdd = sc.parallelize([], 1)
    elif read == "direct":
        rdd = sc.parallelize(packs, len(packs))
    else:
        rdd = sc.union([sc.binaryFiles(",".join(hadoop_glob_escape(u) for u, _ in p), minPartitions=1).coalesce(1) for p in packs])
    sc.setJobGroup(JOB_GROUP, "lifeline triage --partial per partition, then merge")
    records = rdd.mapPartitionsWithIndex(triage_partition(cfg))
    driver_binary = os.path.abspath(args.lifeline) if shipped else executable(args.lifeline)
    scratch = tempfile.mkdtemp(prefix="lifeline-driver-")
    try:
        env = task_environment(scratch, args.library_path)
        if args.tree_depth and packs:
            merged = records.map(lambda r: r["partial"]).treeReduce(merge_pair(cfg), depth=args.tree_depth)
            paths = [os.path.join(partial_dir, "merged.json")]
            with open(paths[0], "w", encoding="utf-8") as f:
                f.write(merged)
        else:
            collected = sorted(records.collect(), key=lambda r: r["partition"]) if packs else []
            paths = []
            for r in collected:
                paths.append(os.path.join(partial_dir, f"part-{r['partition']:05d}.json"))
                with open(paths[-1], "w", encoding="utf-8") as f:
                    f.write(r["partial"])
                if r["attempt"]:
                    say(f"partition {r['partition']} ({r['files']} files) succeeded on attempt {r['attempt'] + 1}")
            if not paths:
                # Nothing listed: an empty partial, so the report says so in every format.
                empty = ["triage", "--partial", "--quiet", "--files-from", "-"] + cfg["triage"]
                if args.config:
                    empty += ["--config", os.path.abspath(args.config)]
                _, text = run_lifeline(driver_binary, empty, "\n", env, "empty input")
                paths.append(os.path.join(partial_dir, "part-00000.json"))
                with open(paths[0], "w", encoding="utf-8") as f:
                    f.write(text)
        ran = time.monotonic()
        if not args.tree_depth and packs:
            say(f"ran {len(collected):,} partitions in {ran - listed:.1f} s (lifeline's time in them: "
                f"{sum(r['seconds'] for r in collected):.1f} s)")
        retried = failed_attempts(sc)
        if retried:
            say(f"{retried} task attempt{'s' if retried != 1 else ''} failed and {'were' if retried != 1 else 'was'} retried by Spark "
                "(their messages are in the executor logs)")
        report = ["--format", args.format, "--output", os.path.join(args.output, "report")]
        for flag, value in (("--limit", args.limit), ("--group-by", args.group_by), ("--baseline", args.baseline),
                            ("--fail-on-new", args.fail_on_new)):
            if value is not None:
                report += [flag, str(value)]
        sys.stdout.flush()
        status = merge_files(driver_binary, paths, report, scratch, env, sys.stdout.buffer)
        written = os.path.isfile(os.path.join(args.output, "report", "triage.json"))
        if status == 1 and (not args.fail_on_new or not written):
            # Status 1 means a new signature at or above --fail-on-new; anything else behind it (a
            # state diagram Graphviz could not lay out) is a failed merge, not a finding.
            raise JobError("`lifeline triage merge` failed (status 1) and wrote no report; its message is above")
        say(f"merged {len(paths):,} partial{'s' if len(paths) != 1 else ''} in {time.monotonic() - ran:.1f} s "
            f"({time.monotonic() - started:.1f} s in all); report in {os.path.join(args.output, 'report')}")
        return status
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv=None):
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        return run_job(args)
    except JobError as e:
        say(str(e))
        return 2
    except Exception as e:  # noqa: BLE001 - a Spark job failure: say which partition and why, then fail
        message = str(e)
        found = [line.strip() for line in message.splitlines() if "RuntimeError: partition" in line or "RuntimeError: tree merge" in line]
        say("the job failed: " + (found[-1].split("RuntimeError: ", 1)[1] if found else message.strip().splitlines()[0]))
        return 2


if __name__ == "__main__":
    sys.exit(main())
