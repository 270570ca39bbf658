import Foundation
import Testing

/// `lifeline analyze`: the report, the JSON contract, rule selection and exit codes.
@Suite struct AnalyzeCommandTests {
    static let crash = "SampleLogs/log-stream-default.log"      // a CarPlay launch, then a fatal CarPlay exception
    static let quiet = "SampleLogs/log-show.json"                // one note (a swipe-kill from the switcher)

    @Test("the JSON contract: inputs, sessions with scenes, diagnostics and a summary that adds up")
    func jsonContract() throws {
        let r = try CLI.run(["analyze", Self.crash, "--format", "json", "--fail-on", "never"])
        #expect(r.status == 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let inputs = try #require(root["inputs"] as? [[String: Any]])
        for key in ["path", "format", "lines", "records", "continuationLines", "nonLogLines", "unrecognizedLines", "events"] {
            #expect(inputs[0][key] != nil, "inputs.\(key)")
        }
        let sessions = try #require(root["sessions"] as? [[String: Any]])
        #expect(sessions.count == 2)
        for key in ["id", "process", "pid", "launchSeen", "mainThread", "scenes", "events"] { #expect(sessions[0][key] != nil, "sessions.\(key)") }
        let scene = try #require((sessions[0]["scenes"] as? [[String: Any]])?.first)
        for key in ["id", "role", "finalState", "events"] { #expect(scene[key] != nil, "scenes.\(key)") }
        let diagnostics = try #require(root["diagnostics"] as? [[String: Any]])
        for key in ["ruleId", "rule", "severity", "message", "file", "line", "session", "state"] {
            #expect(diagnostics.allSatisfy { $0[key] != nil }, "diagnostics.\(key)")
        }
        #expect(diagnostics.map { $0["ruleId"] as? String } == ["LC-C04", "LC-C01"])
        let summary = try #require(root["summary"] as? [String: Any])
        let counts = try #require(summary["diagnostics"] as? [String: Int])
        #expect(counts == ["note": 0, "warning": 1, "error": 0, "fatal": 1])
        #expect(summary["sessions"] as? Int == 2)
    }

    @Test("exit codes follow --fail-on", arguments: [
        ([crash], Int32(1)), ([crash, "--fail-on", "never"], 0), ([quiet], 0), ([quiet, "--fail-on", "note"], 1),
        ([crash, "--fail-on", "fatal"], 1), ([crash, "--disable", "LC-C01", "--fail-on", "fatal"], 0),
    ] as [([String], Int32)])
    func exitCodes(arguments: [String], status: Int32) throws {
        #expect(try CLI.run(["analyze"] + arguments).status == status)
    }

    @Test("--rules runs only the named rules; names and ids both work")
    func ruleSelection() throws {
        let r = try CLI.run(["analyze", Self.crash, "--rules", "carplay-first-launch", "--format", "json", "--fail-on", "never"])
        #expect(r.stdout.contains("\"LC-C04\"") && !r.stdout.contains("\"LC-C01\""))
        let min = try CLI.run(["analyze", Self.crash, "--min-severity", "fatal", "--format", "json", "--fail-on", "never"])
        #expect(!min.stdout.contains("\"LC-C04\"") && min.stdout.contains("\"LC-C01\""))
    }

    @Test("an unknown rule is a usage error; a missing input exits with 3")
    func errors() throws {
        let bad = try CLI.run(["analyze", Self.crash, "--rules", "LC-Z99"])
        #expect(bad.status == 2 && bad.stderr.contains("unknown rule: LC-Z99"))
        #expect(try CLI.run(["analyze", "no/such/file.log"]).status == 3)
    }

    @Test("the text report names each session and ends with the summary; no colour when not a terminal")
    func text() throws {
        let r = try CLI.run(["analyze", Self.crash, "--fail-on", "never"])
        #expect(r.stdout.contains("P1  Drive Tunes [2654]") && r.stdout.contains("P2  Drive Tunes [2702]"))
        #expect(r.stdout.contains("fatal LC-C01 carplay-delegate-missing  SampleLogs/log-stream-default.log:17"))
        #expect(r.stdout.hasSuffix("1 input, 2 sessions, 7 events: 1 fatal, 0 errors, 1 warning, 0 notes\n"))
        #expect(!r.stdout.contains("\u{1B}["))
    }
}
