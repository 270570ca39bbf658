"""Unit tests of the Spark job's pure parts (no Spark needed): partition planning, names, the
files-from lines and the executors' environment. Run: python3 -m unittest Distributed/spark/test_lifeline_spark.py
(the CLI tests run them; the local[2] run of the whole job is SparkJobTests)."""

import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lifeline_spark as job  # noqa: E402


def cost(pack, open_cost):
    return sum(n + open_cost for _, n in pack)


class PlanPartitionsTests(unittest.TestCase):
    def shapes(self):
        """Input sets of different shapes: many tiny files, a few huge ones among small, equal sizes,
        one file, sizes spread over six orders of magnitude."""
        rng = random.Random(7)
        yield "tiny", [(f"hdfs://n/t/{i:05d}.log", rng.randint(0, 2000)) for i in range(5000)]
        yield "skewed", [(f"s3a://b/k/{i:04d}.log", 3 << 30 if i < 3 else rng.randint(1000, 5 << 20)) for i in range(800)]
        yield "equal", [(f"file:/d/{i:03d}.ips", 40_000) for i in range(333)]
        yield "single", [("file:/d/one.log", 123)]
        yield "spread", [(f"file:/d/{i:04d}.log", int(10 ** rng.uniform(1, 7))) for i in range(2000)]

    def test_every_file_once_and_at_most_the_partitions_asked_for(self):
        for name, files in self.shapes():
            for partitions in (1, 2, 8, 64, 10_000):
                packs = job.plan_partitions(files, partitions)
                listed = [f for p in packs for f in p]
                self.assertEqual(sorted(listed), sorted(files), name)
                self.assertLessEqual(len(packs), max(1, min(partitions, len(files))), name)
                self.assertTrue(all(packs), f"{name}: an empty partition")

    def test_a_file_larger_than_a_share_is_alone(self):
        files = dict(self.shapes())["skewed"]
        packs = job.plan_partitions(files, 16)
        for p in packs:
            if any(n >= 3 << 30 for _, n in p):
                self.assertEqual(len(p), 1, "a 3 GiB file shares its task")

    def test_balanced_within_one_file(self):
        # Largest first onto the cheapest partition: no partition of small files exceeds the share
        # by more than the largest file in it.
        for name, files in self.shapes():
            open_cost = job.DEFAULT_OPEN_COST
            packs = job.plan_partitions(files, 8, open_cost)
            share = sum(n + open_cost for _, n in files) / max(1, min(8, len(files)))
            for p in packs:
                if len(p) > 1:
                    self.assertLessEqual(cost(p, open_cost), share + max(n + open_cost for _, n in p), name)

    def test_tiny_files_are_spread_by_their_open_cost(self):
        files = [(f"f{i:04d}", 0) for i in range(1000)]
        packs = job.plan_partitions(files, 8)
        self.assertEqual(len(packs), 8)
        self.assertEqual({len(p) for p in packs}, {125})

    def test_deterministic_whatever_the_listing_order(self):
        for name, files in self.shapes():
            shuffled = list(files)
            random.Random(3).shuffle(shuffled)
            self.assertEqual(job.plan_partitions(files, 12), job.plan_partitions(shuffled, 12), name)

    def test_nothing_listed(self):
        self.assertEqual(job.plan_partitions([], 8), [])


class NamesTests(unittest.TestCase):
    def test_local_files_are_shown_by_path_others_by_uri(self):
        self.assertEqual(job.display_name("file:/var/logs/a b.log"), "/var/logs/a b.log")
        self.assertEqual(job.display_name("file:///var/logs/a.log"), "/var/logs/a.log")
        self.assertEqual(job.display_name("s3a://bucket/fleet/2026/a.ips"), "s3a://bucket/fleet/2026/a.ips")
        self.assertEqual(job.display_name("hdfs://nn:8020/logs/x.log"), "hdfs://nn:8020/logs/x.log")
        self.assertTrue(job.is_local("file:/x") and job.is_local("/x") and not job.is_local("s3a://b/x"))

    def test_hadoop_paths_are_literal(self):
        self.assertEqual(job.hadoop_glob_escape("s3a://b/run[1]/*.log?"), "s3a://b/run\\[1\\]/\\*.log\\?")
        self.assertFalse(job.fetchable_by_hadoop("s3a://b/a,b.log"))
        self.assertFalse(job.fetchable_by_hadoop("s3a://b/{a}.log"))
        self.assertTrue(job.fetchable_by_hadoop("s3a://b/a b [1].log"))

    def test_files_from_lines(self):
        self.assertEqual(job.files_from_line("/x/a.log", "/x/a.log"), "/x/a.log")
        self.assertEqual(job.files_from_line("/tmp/0001-a.log", "s3a://b/a.log"), "/tmp/0001-a.log\ts3a://b/a.log")
        self.assertIsNone(job.files_from_line("/tmp/a\tb.log", "/tmp/a\tb.log"))
        self.assertIsNone(job.files_from_line("/tmp/1.log", "s3a://b/line\nbreak.log"))


class EnvironmentTests(unittest.TestCase):
    def test_nothing_is_inherited(self):
        os.environ["LIFELINE_SPARK_TEST_SECRET"] = "x"
        try:
            env = job.task_environment("/scratch/p1", "rt/lib:/opt/lib")
        finally:
            del os.environ["LIFELINE_SPARK_TEST_SECRET"]
        self.assertNotIn("LIFELINE_SPARK_TEST_SECRET", env)
        self.assertEqual(env["HOME"], "/scratch/p1")
        self.assertEqual(env["TMPDIR"], "/scratch/p1")
        self.assertEqual(env["LD_LIBRARY_PATH"], os.pathsep.join([os.path.abspath("rt/lib"), "/opt/lib"]))
        self.assertIn("/usr/bin", env["PATH"].split(os.pathsep))
        self.assertNotIn("LD_LIBRARY_PATH", job.task_environment("/s"))

    def test_a_failing_lifeline_raises_with_its_status_and_message(self):
        env = job.task_environment(os.path.abspath(os.curdir))
        with self.assertRaisesRegex(RuntimeError, r"exited with status 2: .*nope"):
            job.run_lifeline("/bin/sh", ["-c", "echo nope >&2; exit 2"], "", env, "partition 3")
        with self.assertRaisesRegex(RuntimeError, "wrote no partial result"):
            job.run_lifeline("/bin/sh", ["-c", "echo '{'"], "", env, "partition 3")
        with self.assertRaisesRegex(RuntimeError, "not a partial result"):
            job.run_lifeline("/bin/sh", ["-c", "echo '[1]'"], "", env, "partition 3")
        status, out = job.run_lifeline("/bin/sh", ["-c", "echo '{\"lifelinePartial\": 1}'; exit 3"], "", env, "p")
        self.assertEqual(status, 3)


class ArgumentTests(unittest.TestCase):
    def test_severities_are_lifelines(self):
        args = job.parse_arguments(["--output", "/tmp/o", "--min-severity", "note", "--fail-on-new", "fatal", "/logs"])
        self.assertEqual((args.min_severity, args.fail_on_new), ("note", "fatal"))
        self.assertEqual(job.SEVERITIES, ["note", "warning", "error", "fatal"])
        with self.assertRaises(SystemExit):
            job.parse_arguments(["--output", "/tmp/o", "--min-severity", "info", "/logs"])


if __name__ == "__main__":
    unittest.main()
