import Foundation
import Testing
import TestSupport

/// The reference Spark job (Distributed/spark/): its pure parts' unit tests, and a real run in
/// Spark's local[2] mode (PySpark from .venv-tools/, set up by `scripts/spark-local --install-only`,
/// which scripts/test runs) whose merged report must equal one `lifeline triage` run byte for byte.
@Suite(.serialized, .tags(.spark), .external(.spark)) struct SparkJobTests {
    static let root = CLI.repositoryRoot

    /// Runs a program from the repository root; returns status, stdout and stderr.
    static func run(_ program: String, _ arguments: [String]) throws -> CLI.Result {
        try CLI.run(program: URL(fileURLWithPath: program), arguments)
    }

    /// Every regular file under `dir`, relative, sorted.
    static func files(under dir: URL) -> [String] {
        (FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []).filter { name in
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path, isDirectory: &isDir) && !isDir.boolValue
        }.sorted()
    }

    /// A few hundred inputs: SampleLogs/ six times over (its non-logs included, which a directory
    /// walk skips), and gzip copies of its logs.
    static func corpus(in scratch: URL) throws -> URL {
        let fm = FileManager.default
        let dir = scratch.appendingPathComponent("fleet")
        let samples = root.appendingPathComponent("SampleLogs")
        for copy in 1...6 {
            let target = dir.appendingPathComponent("device-\(copy)")
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.copyItem(at: samples, to: target)
        }
        let gz = dir.appendingPathComponent("gz")
        try fm.createDirectory(at: gz, withIntermediateDirectories: true)
        for name in files(under: samples) where name.hasSuffix(".log") {
            let copy = gz.appendingPathComponent(name.replacingOccurrences(of: "/", with: "-"))
            try fm.copyItem(at: samples.appendingPathComponent(name), to: copy)
            let r = try run("/usr/bin/env", ["gzip", "-n", copy.path])
            #expect(r.status == 0, "\(r.stderr)")
        }
        return dir
    }

    @Test("the job's planning, naming and environment (Python unit tests, no Spark)")
    func pythonUnitTests() throws {
        let r = try Self.run("/usr/bin/env", ["python3", "-m", "unittest", "Distributed/spark/test_lifeline_spark.py"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("OK"))
    }

    @Test("in local[2] mode the merged report equals one triage run, read directly or copied, merged in the driver or as a tree, with a retried task; a partition that keeps failing fails the job")
    func localModeEqualsSingleRun() throws {
        let python = Self.root.appendingPathComponent(".venv-tools/bin/python3").path
        let stamp = Self.root.appendingPathComponent(".venv-tools/.spark-requirements").path
        try #require(FileManager.default.fileExists(atPath: python) && FileManager.default.fileExists(atPath: stamp),
                     "PySpark is not set up: run scripts/spark-local --install-only (scripts/test does)")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-spark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let fleet = try Self.corpus(in: scratch)
        let inputs = Self.files(under: fleet).count
        #expect(inputs > 250)
        let lifeline = CLI.executable.path
        let job = Self.root.appendingPathComponent("scripts/spark-local").path

        let singleDir = scratch.appendingPathComponent("single").path
        let single = try CLI.run(["triage", "--quiet", "--format", "json", "--output", singleDir, fleet.path])
        #expect(single.status == 0, "\(single.stderr)")
        #expect(single.stdout.contains("\"skipped\""))

        func sameReport(_ out: URL, _ r: CLI.Result, _ what: String) throws {
            #expect(r.status == 0, "\(what): \(r.stderr.suffix(3000))")
            #expect(r.stdout == single.stdout, "\(what): the report printed differs from one triage run")
            let report = out.appendingPathComponent("report")
            let names = Self.files(under: report)
            #expect(names == Self.files(under: URL(fileURLWithPath: singleDir)), "\(what)")
            for name in names {
                let a = try Data(contentsOf: report.appendingPathComponent(name))
                let b = try Data(contentsOf: URL(fileURLWithPath: singleDir).appendingPathComponent(name))
                #expect(a == b, "\(what): \(name) differs from one triage run")
            }
        }

        // 1. The paths read where they are, partials merged in the driver.
        let direct = scratch.appendingPathComponent("direct")
        let r1 = try Self.run(job, ["--lifeline", lifeline, "--output", direct.path, "--format", "json", "--input-rows", fleet.path])
        try sameReport(direct, r1, "direct")
        #expect(r1.stderr.contains("lifeline-spark: \(inputs) files"), "\(r1.stderr.suffix(2000))")
        let partials = Self.files(under: direct.appendingPathComponent("partials"))
        #expect(partials.count == 8, "local[2] × 4 tasks per core: \(partials)")

        // 2. Files copied by Spark (as from HDFS or S3), merged as a tree on the executors, and the
        // first task's first attempt failing (a lifeline that exits 70 once): Spark retries it.
        let flaky = scratch.appendingPathComponent("flaky")
        let marker = scratch.appendingPathComponent("failed-once").path
        try Data("""
        #!/bin/sh
        if [ "$1" = triage ] && [ "$2" = --partial ] && mkdir '\(marker)' 2>/dev/null; then
          echo "lifeline: simulated executor fault" >&2; exit 70
        fi
        exec '\(lifeline)' "$@"

        """.utf8).write(to: flaky)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: flaky.path)
        let copied = scratch.appendingPathComponent("copied")
        let r2 = try Self.run(job, ["--master", "local[2,3]", "--lifeline", flaky.path, "--read", "copy", "--tree-depth", "2",
                                    "--output", copied.path, "--format", "json", "--input-rows", fleet.path])
        try sameReport(copied, r2, "copy + tree + retry")
        #expect(FileManager.default.fileExists(atPath: marker), "the simulated fault never happened")
        #expect(r2.stderr.contains("1 task attempt failed and was retried by Spark"), "\(r2.stderr.suffix(3000))")

        // 3. A lifeline that always fails: the job fails, naming the partition and lifeline's message.
        let broken = scratch.appendingPathComponent("broken")
        try Data("#!/bin/sh\necho 'lifeline: cannot read the --files-from list' >&2\nexit 2\n".utf8).write(to: broken)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: broken.path)
        let r3 = try Self.run(job, ["--master", "local[2,2]", "--lifeline", broken.path, "--output", scratch.appendingPathComponent("broken-out").path,
                                    fleet.path])
        #expect(r3.status == 2)
        #expect(r3.stderr.contains("lifeline-spark: the job failed: partition"), "\(r3.stderr.suffix(3000))")
        #expect(r3.stderr.contains("exited with status 2: lifeline: cannot read the --files-from list"))
        #expect(r3.stdout.isEmpty)
    }
}
