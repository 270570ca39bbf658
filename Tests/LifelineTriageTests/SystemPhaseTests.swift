import Foundation
import Testing
import TestSupport
import LifelineCore
@testable import LifelineTriage

/// Device logs of an app that logs nothing of its own life: triage places each failure by what
/// SpringBoard, FrontBoard and RunningBoard last said of the app (`SystemPhases`), and a kill's
/// signature names that phase. Where the app logged callbacks, its word wins.
@Suite struct SystemPhaseTests {
    /// `idevicesyslog` lines (`Mon DD HH:MM:SS Device process[pid] <Notice>: message`), a second apart
    /// from 08:14:00 unless a line gives its own offset in seconds (`(seconds, line)`).
    static func device(_ lines: [(Int, String)]) -> String {
        "[connected]\n" + lines.map { t, line in
            String(format: "Mar  9 08:%02d:%02d Ravens-iPhone %@", 14 + t / 60, t % 60, line)
        }.joined(separator: "\n") + "\n"
    }

    static func device(_ lines: [String]) -> String { device(lines.enumerated().map { ($0.offset, $0.element) }) }

    static let app = "application<com.example.inkwell>"
    static func sb(_ m: String) -> String { "SpringBoard(FrontBoard)[55] <Notice>: \(m)" }
    static func rb(_ m: String) -> String { "runningboardd(RunningBoard)[33] <Notice>: \(m)" }
    static func kernel(_ m: String) -> String { "kernel[0] <Notice>: \(m)" }
    static func own(_ pid: Int, _ m: String) -> String { "Inkwell[\(pid)] <Notice>: \(m)" }

    /// SpringBoard bootstraps Inkwell as `pid` (with `intent`) and RunningBoard tracks it, active
    /// with `role`; no scene yet.
    static func launch(_ pid: Int, intent: String = "foreground-interactive", role: String = "UserInteractiveFocal") -> [String] {
        [sb("Bootstrapping \(app) with intent \(intent)"),
         kernel("/private/var/containers/Bundle/Application/0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D/Inkwell.app/Inkwell[\(pid)] ==> container"),
         rb("Now tracking process: [\(app):\(pid)]"),
         rb("Calculated state for \(app): running-active (role: \(role))"),
         sb("[\(app):\(pid)] Bootstrap success!")]
    }

    static func scene(_ state: String) -> String {
        sb("[0x283b91e00:(FBSceneManager):sceneID:com.example.inkwell-default] Scene lifecycle state did change: \(state)")
    }

    static func state(_ state: String, role: String) -> String { rb("Calculated state for \(app): \(state) (role: \(role))") }

    static func jetsam(_ pid: Int, _ reason: String) -> String {
        kernel("memorystatus: killing_top_process pid \(pid) [Inkwell] (\(reason) 0) 96544KB - memorystatus_available_pages: 6212")
    }

    static func exception(_ pid: Int) -> String {
        own(pid, "*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Inkwell store not loaded'")
    }

    static let callbacks = ["-[AppDelegate application:didFinishLaunchingWithOptions:]", "-[SceneDelegate scene:willConnectToSession:options:]",
                            "-[SceneDelegate sceneWillEnterForeground:]", "-[SceneDelegate sceneDidBecomeActive:]"]

    /// One log per story, one session each.
    static let stories: [String: String] = [
        // Killed in didFinishLaunching, before FrontBoard named a scene: during launch, though
        // RunningBoard gave the foreground role at the bootstrap.
        "launch-exception.log": device(launch(301) + [exception(301)]),
        // The scene came to the foreground, then the app threw.
        "foreground-exception.log": device(launch(302) + [scene("Foreground"), exception(302)]),
        // FrontBoard had the scene in the foreground; the scene-create watchdog still says the
        // launch did not finish.
        "scene-create-watchdog.log": device(launch(303) + [scene("Foreground")] + [(25, rb(
            "[\(app):303] Terminating with context: <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-create watchdog transgression: \(app):303 exhausted real (wall clock) time allowance of 19.97 seconds | ProcessVisibility: Foreground | ProcessState: Running reportType:CrashLog maxTerminationResistance:Interactive>"))].map { $0.1 }),
        // Home: the scene went to the background, a finish task keeps it running, jetsam.
        "background-jetsam.log": device(launch(304) + [scene("Foreground"), scene("Background"), state("running-active", role: "Background"),
                                                       jetsam(304, "per-process-limit")]),
        // Suspended, then reclaimed for memory; RunningBoard's `none` and launchd's report follow.
        "suspended-jetsam.log": device(launch(305) + [scene("Foreground"), scene("Background"), state("running-suspended", role: "None"),
                                                      jetsam(305, "vm-pageshortage"), rb("[\(app):305] termination reported by launchd (1, 4, 9)"),
                                                      state("none", role: "None")]),
        // Launched in the background (intent background) and killed before it was suspended.
        "background-launch-jetsam.log": device(launch(306, intent: "background", role: "Background") + [jetsam(306, "per-process-limit")]),
        // The app logs its callbacks: its word (active) wins over RunningBoard's suspension, and
        // the kill's signature stays the one of a log without system states.
        "own-callbacks-jetsam.log": device(launch(307) + callbacks.map { own(307, $0) }
            + [state("running-suspended", role: "None"), jetsam(307, "vm-pageshortage")]),
    ]

    static func triage(_ names: [String]) throws -> (TriageResult, () -> Void) {
        let dir = try Scratch()
        for n in names { try dir.write(n, stories[n]!) }
        return (TriageTests.triage([dir.path]), dir.remove)
    }

    static func stats(_ r: TriageResult, _ kind: SignatureKind, file: String) throws -> SignatureStats {
        try #require(r.signatures.first { $0.signature.kind == kind && $0.example.file.hasSuffix(file) },
                     "\(r.signatures.map { ($0.signature.key, $0.example.file) })")
    }

    @Test("with no callback of the app, the phase is the system's: launch, foreground, background, suspended", arguments: [
        ("launch-exception.log", SignatureKind.exception, FailurePhase.launch),
        ("foreground-exception.log", .exception, .foreground),
        ("scene-create-watchdog.log", .watchdog, .launch),
        ("background-jetsam.log", .killed, .background),
        ("suspended-jetsam.log", .killed, .suspended),
        ("background-launch-jetsam.log", .killed, .background),
        ("own-callbacks-jetsam.log", .killed, .foregroundActive),
    ])
    func phasesFromTheSystem(story: String, kind: SignatureKind, phase: FailurePhase) throws {
        let (r, done) = try Self.triage([story])
        defer { done() }
        let failures = r.signatures.filter { $0.signature.kind != .rule }
        #expect(failures.count == 1, "\(failures.map(\.signature.key))")
        let s = try Self.stats(r, kind, file: story)
        #expect(s.phases == [phase: 1])
    }

    @Test("one exception in two phases: the shares say which")
    func sharedSignature() throws {
        let (r, done) = try Self.triage(["launch-exception.log", "foreground-exception.log"])
        defer { done() }
        let s = try #require(r.signatures.first { $0.signature.kind == .exception })
        #expect(s.count == 2 && s.phaseSummary == "50% during launch before any scene was active, 50% in the foreground")
    }

    @Test("a kill's signature names the system's phase; a watchdog's keeps its event; with the app's callbacks nothing changes")
    func killSignatures() throws {
        let (r, done) = try Self.triage(Array(Self.stories.keys))
        defer { done() }
        let suspended = try Self.stats(r, .killed, file: "suspended-jetsam.log")
        #expect(suspended.signature.key == "memory | vm-pageshortage | suspended")
        #expect(suspended.signature.title == "Killed for memory while suspended (vm-pageshortage)")
        #expect(suspended.count == 1, "launchd's report and RunningBoard's none are the same ending")
        let background = try Self.stats(r, .killed, file: "background-jetsam.log")
        #expect(background.signature.title == "Killed for memory in the background (per-process-limit)")
        #expect(background.count == 2 && background.files.count == 2, "a background launch's kill is the same problem")
        let own = try Self.stats(r, .killed, file: "own-callbacks-jetsam.log")
        #expect(own.signature.key == "memory | vm-pageshortage" && own.signature.title == "Killed for memory (vm-pageshortage)")
        let watchdog = try Self.stats(r, .watchdog, file: "scene-create-watchdog.log")
        #expect(watchdog.signature.title.hasPrefix("Watchdog scene-create: "), "\(watchdog.signature.title)")
        #expect(!watchdog.signature.key.hasSuffix("| launch"))
    }

    @Test("signature ids do not move for kills the system said no state of")
    func stableIDs() throws {
        var e = Event(file: "a.log", line: 1, format: .idevicesyslog, kind: .jetsam,
                      message: "memorystatus: killing_specific_process pid 812 [Comet] (per-process-limit 100:8)")
        var d = EventDetails()
        d.terminationReason = "per-process-limit"
        e.details = d
        let plain = try #require(Signatures.failure(e))
        #expect(plain.id == "killed-48d05c5a59b7" && plain.key == "memory | per-process-limit", "the id baselines of SampleLogs/device-kills.log hold")
        #expect(Signatures.failure(e, systemPhase: nil)?.id == plain.id)
        for phase in FailurePhase.allCases where Signatures.killPhrases[phase] == nil {
            #expect(Signatures.failure(e, systemPhase: phase)?.id == plain.id, "\(phase) is no kill phrase")
        }
        #expect(Signatures.failure(e, systemPhase: .foreground)?.title == "Killed for memory in the foreground (per-process-limit)")
        #expect(Signatures.failure(e, systemPhase: .launch)?.title == "Killed for memory during launch (per-process-limit)")
        // Other kinds ignore the phase.
        let x = Event(file: "a.log", line: 2, format: .idevicesyslog, kind: .exception, message: "boom")
        #expect(Signatures.failure(x, systemPhase: .suspended) == Signatures.failure(x))
        // SampleLogs/device-kills.log: a launch told (Bootstrap success!) and no state: unchanged.
        let r = TriageTests.triage([Repository.sampleLogs.appendingPathComponent("device-kills.log").path])
        #expect(r.signatures.map(\.signature.id).contains("killed-48d05c5a59b7"))
        #expect(!r.signatures.contains { $0.phases.keys.contains { $0.isSystemOnly } })
    }

    @Test("SampleLogs/real-shapes: the notification launch and the prewarm jetsammed while suspended are one signature, suspended")
    func realShapes() throws {
        let r = TriageTests.triage([Repository.sampleLogs.appendingPathComponent("real-shapes").path])
        let killed = try #require(r.signatures.first { $0.signature.kind == .killed })
        #expect(killed.signature.key == "memory | vm-pageshortage | suspended")
        #expect(killed.signature.title == "Killed for memory while suspended (vm-pageshortage)")
        #expect(killed.count == 2 && killed.phases == [.suspended: 2] && killed.phaseSummary == "100% while suspended")
        #expect(Set(killed.files.map { ($0 as NSString).lastPathComponent })
                == ["console-ios17-notification-launch-suspend-jetsam.log", "idevicesyslog-ios16-prewarm-jetsam-then-tap.log"])
        // The watchdogs' apps logged didFinishLaunching (and willConnect): their word, launch, stands.
        let watchdogs = r.signatures.filter { $0.signature.kind == .watchdog }
        #expect(watchdogs.count == 2 && watchdogs.allSatisfy { $0.phases == [.launch: 1] })
        // The other samples log their own callbacks: no system phase appears anywhere else.
        #expect(r.signatures.filter { $0.phases.keys.contains { $0.isSystemOnly } }.map(\.signature.kind) == [.killed])
    }

    @Test("the corpus's iOS 17 icon launch: the RCTFatalException, which its SIGABRT ends, comes after FrontBoard's Foreground",
          .tags(.corpus), .needsCorpus)
    func corpusIconLaunch() throws {
        let r = TriageTests.triage([Repository.corpus("device-logs/ios17-icon-launch-foreground-sigabrt.console.log").path])
        let exception = try #require(r.signatures.first { $0.signature.kind == .exception })
        #expect(exception.signature.key.hasPrefix("RCTFatalException"))
        #expect(exception.phases == [.foreground: 1])
        // The SIGABRT 15 ms later is the exception's ending (`repeatedEndings`): one failure, not two.
        #expect(!r.signatures.contains { $0.signature.kind == .signal })
        #expect(r.signatures.allSatisfy { $0.phases == [.foreground: 1] }, "\(r.signatures.map { ($0.signature.key, $0.phases) })")
    }
}
