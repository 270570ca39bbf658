import Foundation
import Testing

/// `.lifeline.yml` from the command line: discovery, `--config`, `--no-config`, and exit status 2
/// with a located message for a bad file.
@Suite struct ConfigCommandTests {
    static func scratch(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-cli-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    static let log = """
    application(_:didFinishLaunchingWithOptions:)
    Consent: presenting privacy dialog
    scene(_:willConnectTo:options:)
    sceneWillEnterForeground(_:)
    sceneDidBecomeActive(_:)

    """

    @Test("the configuration in the current directory is used, --no-config ignores it")
    func discovery() throws {
        let dir = try Self.scratch([".lifeline.yml": "markers:\n  ui-presented: 'presenting privacy'\n", "a.log": Self.log])
        defer { try? FileManager.default.removeItem(at: dir) }
        let found = try CLI.run(["analyze", "a.log", "--format", "json"], in: dir)
        #expect(found.status == 0)  // LC-A12 is a warning; --fail-on defaults to error
        #expect(found.stdout.contains("\"ruleId\":\"LC-A12\""))
        let ignored = try CLI.run(["analyze", "a.log", "--format", "json", "--no-config"], in: dir)
        #expect(!ignored.stdout.contains("LC-A12"))
        let events = try CLI.run(["events", "a.log"], in: dir)
        #expect(events.stdout.contains("marker.ui-presented"))
        let timeline = try CLI.run(["timeline", "a.log"], in: dir)
        #expect(timeline.stdout.contains("marker.ui-presented"))
    }

    @Test("a bad configuration stops every command with status 2 and the location of the mistake",
          arguments: ["analyze", "timeline", "events"])
    func badFile(command: String) throws {
        let dir = try Self.scratch(["bad.yml": "rules:\n  severity:\n    LC-T07: loud\n", "a.log": Self.log])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run([command, "a.log", "--config", "bad.yml"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("bad.yml:3:13: unknown severity 'loud'"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("a missing --config file is a configuration error")
    func missing() throws {
        let r = try CLI.run(["analyze", "SampleLogs/print-function.log", "--config", "no-such.yml"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("no-such.yml: cannot read the configuration file"))
    }

    @Test("severity overrides and disabled rules from the file change the exit status")
    func overrides() throws {
        let dir = try Self.scratch(["a.log": "scene(_:willConnectTo:options:)\nsceneDidBecomeActive(_:)\n",
                                    "lenient.yml": "rules:\n  severity:\n    active-without-foreground: note\n",
                                    "off.yml": "rules:\n  disable: [LC-S03]\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try CLI.run(["analyze", "a.log", "--no-config"], in: dir).status == 1)
        #expect(try CLI.run(["analyze", "a.log", "--config", "lenient.yml"], in: dir).status == 0)
        let off = try CLI.run(["analyze", "a.log", "--config", "off.yml", "--format", "json"], in: dir)
        #expect(off.status == 0 && !off.stdout.contains("LC-S03"))
    }
}
