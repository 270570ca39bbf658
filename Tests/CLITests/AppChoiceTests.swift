import Foundation
import Testing

/// `--app` / `--all-apps` / `apps:`: which apps of a device log get sessions, and the list of the apps
/// the system told of, from which a user picks.
@Suite struct AppChoiceTests {
    static let ipad = "SampleLogs/real-shapes/console-ipad-two-apps-background-launch.log"

    static func sessions(_ arguments: [String]) throws -> (processes: [String], apps: [[String: Any]]) {
        let r = try CLI.run(["analyze", Self.ipad, "--format", "json", "--fail-on", "never", "--no-config"] + arguments)
        #expect(r.status == 0, "\(r.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let sessions = try #require(root["sessions"] as? [[String: Any]])
        return (sessions.compactMap { $0["process"] as? String }, root["apps"] as? [[String: Any]] ?? [])
    }

    @Test("by default Apple's apps are listed, not followed")
    func byDefault() throws {
        let (processes, apps) = try Self.sessions([])
        #expect(processes == ["HarborLog"])
        #expect(apps.map { $0["bundleID"] as? String } == ["com.apple.mobilenotes", "com.example.harborlog"])
        #expect(apps.map { $0["followed"] as? Bool } == [false, true])
        #expect(apps[1]["launches"] as? Int == 1)
    }

    @Test("--app follows the apps named, Apple's included; --all-apps every one")
    func chosen() throws {
        #expect(try Self.sessions(["--app", "com.apple.mobilenotes"]).processes == ["com.apple.mobilenotes"])
        #expect(try Self.sessions(["--app", "HarborLog,com.apple.mobilenotes"]).processes == ["HarborLog", "com.apple.mobilenotes"])
        #expect(try Self.sessions(["--all-apps"]).processes == ["HarborLog", "com.apple.mobilenotes"])
        let r = try CLI.run(["analyze", Self.ipad, "--app", "x", "--all-apps"])
        #expect(r.status != 0 && r.stderr.contains("--app and --all-apps exclude each other"))
    }

    @Test("the text report lists the apps the system told of, marking those followed")
    func textList() throws {
        let r = try CLI.run(["analyze", Self.ipad, "--fail-on", "never", "--no-config"])
        #expect(r.stdout.contains("Apps the system told of: 2 (1 followed; --app BUNDLE|NAME or --all-apps to choose)"))
        #expect(r.stdout.contains("  - com.apple.mobilenotes: 1 session, 0 launches, 1 system event, 0 endings"))
        #expect(r.stdout.contains("  + com.example.harborlog (HarborLog): 1 session, 1 launch, 5 system events, 0 endings"))
    }

    @Test("events prints every app's system events whatever the choice")
    func eventsUnfiltered() throws {
        let r = try CLI.run(["events", Self.ipad, "--format", "jsonl"])
        #expect(r.stdout.contains(#""bundleID":"com.apple.mobilenotes""#))
    }
}
