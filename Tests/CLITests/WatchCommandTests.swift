import Foundation
import Testing

/// `lifeline watch`: findings while the input is still open, through a pipe and on a growing file
/// (rotated and truncated), Ctrl-C, and the same findings as `analyze` once the log is complete.
@Suite struct WatchCommandTests {
    /// A running `lifeline watch` whose standard output is collected as it arrives.
    final class Running: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        private let lock = NSLock()
        private var collected = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ arguments: [String], in directory: URL? = nil) throws {
            process.executableURL = CLI.executable
            process.arguments = ["watch"] + arguments
            process.currentDirectoryURL = directory ?? CLI.repositoryRoot
            var env = ProcessInfo.processInfo.environment
            env["SWIFT_BACKTRACE"] = "enable=no"
            env["NO_COLOR"] = "1"
            process.environment = env
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            process.standardInput = input
            try process.run()
            DispatchQueue.global().async { [self] in
                while true {
                    let d = out.fileHandleForReading.availableData
                    if d.isEmpty { break }
                    lock.lock(); collected.append(d); lock.unlock()
                }
                done.signal()
            }
        }

        var output: String { lock.lock(); defer { lock.unlock() }; return String(decoding: collected, as: UTF8.self) }

        func write(_ lines: String) { input.fileHandleForWriting.write(Data(lines.utf8)) }

        /// Waits until the output contains `text` (true) or `seconds` pass (false).
        func waitFor(_ text: String, seconds: Double = 10) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if output.contains(text) { return true }
                usleep(5_000)
            }
            return output.contains(text)
        }

        /// Waits for the process to exit; returns its status.
        func wait() -> Int32 {
            process.waitUntilExit()
            done.wait()
            return process.terminationStatus
        }
    }

    static func line(_ second: Int, _ message: String, pid: Int = 100) -> String {
        String(format: "2024-03-01 10:00:%02d.000000+0000 MyApp[%d:7] %@\n", second, pid, message)
    }

    @Test("a finding is printed while the pipe is still open, after the idle time, not when it closes")
    func findingBeforeEndOfInput() throws {
        let w = try Running(["--idle-ms", "20"])
        w.write(Self.line(0, "-[AppDelegate application:didFinishLaunchingWithOptions:]"))
        w.write(Self.line(1, "-[SceneDelegate scene:willConnectToSession:options:]"))
        #expect(!w.waitFor("LC-S03", seconds: 0.3), "a finding before its event")
        w.write(Self.line(2, "-[SceneDelegate sceneDidBecomeActive:]"))
        #expect(w.waitFor("LC-S03 active-without-foreground", seconds: 10), "no finding while the pipe is open: \(w.output)")
        #expect(!w.output.contains("done:"))
        try w.input.fileHandleForWriting.close()
        #expect(w.wait() == 0)
        #expect(w.output.contains("ended: P1 MyApp [100], 3 events"))
        #expect(w.output.contains("done: 3 lines, 3 events, 1 session: 0 fatal, 1 error"))
    }

    @Test("Ctrl-C reads the last record, ends every session, prints the summary and exits 0, or 1 with --fail-on reached")
    func interrupt() throws {
        for (failOn, status) in [(nil, Int32(0)), ("error", Int32(1))] as [(String?, Int32)] {
            let w = try Running(["--idle-ms", "60000", "--format", "jsonl"] + (failOn.map { ["--fail-on", $0] } ?? []))
            w.write(Self.line(0, "-[AppDelegate application:didFinishLaunchingWithOptions:]"))
            // The last record: a failure with no line after it, and an idle time that never passes.
            w.write(Self.line(1, "*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'bad state'"))
            w.write("*** First throw call stack:\n(0x1 0x2)\n")
            usleep(300_000)
            w.process.interrupt()
            #expect(w.wait() == status)
            let lines = w.output.split(separator: "\n").map(String.init)
            let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(objects.count == lines.count, "every line is a JSON object: \(w.output)")
            #expect(objects.contains { $0["ruleId"] as? String == "LC-F02" }, "the last record was lost: \(w.output)")
            let summary = try #require(objects.last)
            #expect(summary["type"] as? String == "summary")
            #expect(summary["interrupted"] as? Bool == true)
            #expect(summary["sessions"] as? Int == 1)
        }
    }

    @Test("a followed file: appended lines, then a rotation, a truncation and an overwrite in place with longer content, each read from its start")
    func followRotationAndTruncation() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("device.log")
        try Data(Self.line(0, "-[AppDelegate application:didFinishLaunchingWithOptions:]", pid: 100).utf8).write(to: log)
        let w = try Running(["--idle-ms", "20", log.path])
        func append(_ text: String) throws {
            let h = try FileHandle(forWritingTo: log)
            h.seekToEndOfFile()
            h.write(Data(text.utf8))
            try h.close()
        }
        try append(Self.line(1, "-[SceneDelegate scene:willConnectToSession:options:]", pid: 100)
                   + Self.line(2, "-[SceneDelegate sceneDidBecomeActive:]", pid: 100))
        #expect(w.waitFor("LC-S03 active-without-foreground  \(log.path):3 P1"), "appended lines not read: \(w.output)")
        // Rotation: the file is moved away and a new one starts under the name.
        try FileManager.default.moveItem(at: log, to: dir.appendingPathComponent("device.log.1"))
        try Data((Self.line(10, "-[AppDelegate application:didFinishLaunchingWithOptions:]", pid: 200)
                  + Self.line(11, "-[SceneDelegate scene:willConnectToSession:options:]", pid: 200)
                  + Self.line(12, "-[SceneDelegate sceneWillResignActive:]", pid: 200)).utf8).write(to: log)
        #expect(w.waitFor("LC-S06 resign-when-inactive  \(log.path):3 P2"), "the new file was not read from its start: \(w.output)")
        // Truncation: the same file emptied and written again.
        let h = try FileHandle(forWritingTo: log)
        h.truncateFile(atOffset: 0)
        // (Shorter than what was read, so the size says it was truncated, as `tail -F` judges it.)
        h.write(Data((Self.line(20, "-[SceneDelegate scene:willConnectToSession:options:]", pid: 300)
                      + Self.line(21, "-[SceneDelegate sceneDidBecomeActive:]", pid: 300)).utf8))
        try h.close()
        #expect(w.waitFor("\(log.path):2 P3"), "the truncated file was not read again: \(w.output)")
        // Overwritten in place from its start with longer content: it never gets shorter, so only
        // its first bytes tell (`tail -F` would take the new end for an append).
        let o = try FileHandle(forWritingTo: log)
        o.seek(toFileOffset: 0)
        o.write(Data((Self.line(30, "-[AppDelegate application:didFinishLaunchingWithOptions:]", pid: 400)
                      + Self.line(31, "-[SceneDelegate scene:willConnectToSession:options:]", pid: 400)
                      + Self.line(32, "-[SceneDelegate sceneWillResignActive:]", pid: 400)).utf8))
        try o.close()
        #expect(w.waitFor("LC-S06 resign-when-inactive  \(log.path):3 P4"), "the overwritten file was not read again: \(w.output)")
        w.process.interrupt()
        #expect(w.wait() == 0)
        #expect(w.output.contains("stopped: 11 lines, 11 events, 4 sessions"), "\(w.output)")
    }

    @Test("--output keeps report.json, report.html and the diagrams: at the end they hold analyze's findings and sessions")
    func outputDirectory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-watch-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = "SampleLogs/scenarios/ipad-multi-window.log"
        let r = try CLI.run(["watch", "--no-follow", "--output", dir.path, path])
        #expect(r.status == 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(names.contains("report.html") && names.contains("report.json") && names.contains("state.svg"))
        #expect(names.contains { $0.hasPrefix("timeline-P") && $0.hasSuffix(".svg") }, "\(names)")
        let analyzed = try CLI.run(["analyze", "--format", "json", path])
        func key(_ d: [String: Any]) -> String { "\(d["ruleId"]!) \(d["line"]!) \(d["session"]!) \(d["message"]!)" }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("report.json"))) as? [String: Any])
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(analyzed.stdout.utf8)) as? [String: Any])
        #expect(((report["diagnostics"] as? [[String: Any]]) ?? []).map(key) == ((expected["diagnostics"] as? [[String: Any]]) ?? []).map(key))
        #expect((report["sessions"] as? [Any])?.count == (expected["sessions"] as? [Any])?.count)
        let html = try String(contentsOf: dir.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.contains("Lifecycle state diagram") && html.contains("Timeline P1"))
    }

    @Test("--output writes report.sarif and junit.xml too, as analyze --output does, by the same writer (issue 29)")
    func outputDirectoryHasSARIFAndJUnit() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-watch-sarif-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let (watched, analyzed) = (base.appendingPathComponent("watch"), base.appendingPathComponent("analyze"))
        let path = "SampleLogs/device-kills.log"
        let w = try CLI.run(["watch", "--no-follow", "--quiet", "--no-config", "--fail-on", "error", "--output", watched.path, path])
        #expect(w.status == 1, "\(w.stderr)")
        let a = try CLI.run(["analyze", "--no-config", "--fail-on", "error", "--output", analyzed.path, path])
        #expect(a.status == 1, "\(a.stderr)")
        // The whole log was read, so the files hold what analyze reports, byte for byte.
        for name in ["report.sarif", "junit.xml", "report.json"] {
            let mine = try Data(contentsOf: watched.appendingPathComponent(name))
            #expect(!mine.isEmpty, "\(name)")
            #expect(mine == (try Data(contentsOf: analyzed.appendingPathComponent(name))), "\(name) differs from analyze's")
        }
    }

    @Test("inputs watch does not read are said so: binary data and compressed files counted, a directory or a missing file refused")
    func unreadableInputs() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-watch-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Rule examples inside a binary (as in lifeline's own executable) must not become findings.
        var binary = Data([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 512))
        binary.append(Data("2024-03-01 10:00:02.000000+0000 MyApp[100:7] -[SceneDelegate sceneDidBecomeActive:]\n".utf8))
        let file = dir.appendingPathComponent("blob.log")
        try binary.write(to: file)
        let r = try CLI.run(["watch", "--no-follow", "--format", "jsonl", file.path])
        #expect(r.status == 0)
        #expect(r.stderr.contains("blob.log: binary data"), "\(r.stderr)")
        #expect(WatchCommandTests.findings(jsonl: r.stdout).isEmpty)
        let piped = try CLI.run(["watch", "--format", "jsonl", "-"], stdin: binary)
        #expect(piped.stderr.contains("-: binary data") && WatchCommandTests.findings(jsonl: piped.stdout).isEmpty, "\(piped.stderr)")
        let folder = try CLI.run(["watch", dir.path])
        #expect(folder.status == 3 && folder.stderr.contains("a directory"), "\(folder.stderr)")
        let missing = try CLI.run(["watch", dir.appendingPathComponent("nothing.log").path])
        #expect(missing.status == 3 && missing.stderr.contains("cannot open"))
        let never = try CLI.run(["watch", "--no-follow", "--fail-on", "never", "SampleLogs/scenarios/ordering-violations.log"])
        #expect(never.status == 0)
        let error = try CLI.run(["watch", "--no-follow", "--fail-on", "error", "SampleLogs/scenarios/ordering-violations.log"])
        #expect(error.status == 1)
    }

    /// (ruleId, file, line, message) of each finding.
    static func findings(jsonl: String) -> [String] {
        jsonl.split(separator: "\n").compactMap { l in
            guard let o = try? JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any], o["type"] as? String == "finding" else { return nil }
            return "\(o["ruleId"]!) \(o["file"]!):\(o["line"]!) \(o["message"]!)"
        }.sorted()
    }

    @Test("watch on a finished log reports exactly the findings of analyze", arguments: [
        "SampleLogs/scenarios/ordering-violations.log", "SampleLogs/scenarios/off-main-lifecycle.log",
        "SampleLogs/scenarios/assertion-during-launch.log", "SampleLogs/scenarios/ipad-multi-window.log",
        "SampleLogs/device-kills.log", "SampleLogs/log-stream.ndjson", "SampleLogs/idevicesyslog.log", "SampleLogs/xcode-console.log",
        "SampleLogs/log-show-compact.log",
    ])
    func sameAsAnalyze(path: String) throws {
        let watched = try CLI.run(["watch", "--no-follow", "--format", "jsonl", path])
        #expect(watched.status == 0, "\(watched.stderr)")
        let analyzed = try CLI.run(["analyze", "--format", "json", path])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(analyzed.stdout.utf8)) as? [String: Any])
        let expected = (doc["diagnostics"] as? [[String: Any]] ?? []).map { "\($0["ruleId"]!) \($0["file"]!):\($0["line"]!) \($0["message"]!)" }.sorted()
        #expect(!expected.isEmpty || !path.contains("scenarios"))
        #expect(Self.findings(jsonl: watched.stdout) == expected)
        // And through a pipe, with the same lines.
        let piped = try CLI.run(["watch", "--format", "jsonl", "-"], stdin: try Data(contentsOf: CLI.repositoryRoot.appendingPathComponent(path)))
        #expect(Self.findings(jsonl: piped.stdout).map { $0.replacingOccurrences(of: " -:", with: " \(path):") } == expected)
    }
}

/// `watch` on a real terminal (tmux): the status line is drawn in place on standard error, kept
/// below the findings, updated as lines arrive, and cleared when the run stops.
@Suite struct WatchTerminalTests {
    /// Runs tmux on its own server, through system(3): the server it starts daemonizes, and
    /// Foundation's Process would wait for it to close what it inherited.
    static func tmux(_ socket: String, _ arguments: [String]) throws -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = (["tmux", "-L", socket] + arguments).map(quote).joined(separator: " ") + " > \(quote(out.path)) 2>/dev/null < /dev/null"
        let status = system(command)
        if status != 0 { throw TmuxError(description: "\(command): status \(status)") }
        return (try? String(contentsOf: out, encoding: .utf8)) ?? ""
    }
    struct TmuxError: Error, CustomStringConvertible { let description: String }

    @Test("the status line on a terminal: sessions live, events, findings, lines/s; cleared on Ctrl-C")
    func statusLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-tty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("device.log")
        try Data((WatchCommandTests.line(0, "-[AppDelegate application:didFinishLaunchingWithOptions:]")
                  + WatchCommandTests.line(1, "-[SceneDelegate scene:willConnectToSession:options:]")
                  + WatchCommandTests.line(2, "-[SceneDelegate sceneDidBecomeActive:]")).utf8).write(to: log)
        let socket = "lifeline-test-\(UUID().uuidString.prefix(8))"
        defer { _ = try? Self.tmux(socket, ["kill-server"]) }
        _ = try Self.tmux(socket, ["new-session", "-d", "-x", "150", "-y", "30",
                                   "env NO_COLOR=1 '\(CLI.executable.path)' watch --idle-ms 20 '\(log.path)'; sleep 30"])
        func screen() throws -> String { try Self.tmux(socket, ["capture-pane", "-p"]) }
        func waitFor(_ text: String) throws -> Bool {
            for _ in 0..<200 {
                if try screen().contains(text) { return true }
                usleep(50_000)
            }
            return false
        }
        #expect(try waitFor("watching: 1 session live, 3 events, 1 error"), "\((try? screen()) ?? "")")
        let first = try screen().split(separator: "\n").map(String.init)
        // The status line is the last line written, below the finding; the finding is intact.
        #expect(first.contains { $0.hasPrefix("error LC-S03 active-without-foreground") })
        #expect(first.last { !$0.isEmpty }?.hasPrefix("watching:") == true, "\(first)")
        let h = try FileHandle(forWritingTo: log)
        h.seekToEndOfFile()
        h.write(Data(WatchCommandTests.line(3, "-[SceneDelegate sceneWillEnterForeground:]").utf8))
        try h.close()
        #expect(try waitFor("watching: 1 session live, 4 events, 2 error"), "\((try? screen()) ?? "")")
        _ = try Self.tmux(socket, ["send-keys", "C-c"])
        #expect(try waitFor("stopped: 4 lines, 4 events, 1 session"), "\((try? screen()) ?? "")")
        #expect(!(try screen()).contains("watching:"), "the status line was left on the screen: \((try? screen()) ?? "")")
    }
}
