import Foundation
import Testing
import TestSupport
import LifelineCore
import LifelinePipeline
@testable import LifelineRules

/// The rules that compare the app's word with the system's (LC-D01 … LC-D05) beside the rules
/// they share a launch or a death with, and the clock they compare times by.
@Suite struct SystemAccountTests {
    static func analyze(_ text: String, rules: [any Rule.Type]? = nil, config: String? = nil) throws -> Analysis {
        let configuration = try config.map { try Configuration.parse($0, path: "test.yml") } ?? .defaults
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-system-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("device.log")
        try Data((text + "\n").utf8).write(to: file)
        return Analysis.run(paths: [file.path], ingest: IngestOptions(jobs: 1), rules: rules ?? configuration.rules(),
                            configuration: configuration, keepEvents: true)
    }

    /// A tap at 08:14:02.118, didFinishLaunching 0.3 s later and the first active scene 6 s after
    /// that: slow from the tap and from didFinishLaunching.
    static let slowLaunch = """
    2026-03-09 08:14:02.118204-0500 SpringBoard[55:601] SBIconView touches began with event: <UITouchesEvent: 0x281f2c100> touches: {(<UITouch: 0x10b61e2c0> phase: Began; responder: <SBIconView: 0x10b83c400; bundleID: com.example.quill>)}
    2026-03-09 08:14:02.147390-0500 SpringBoard[55:601] Bootstrapping app<com.example.quill> with intent foreground-interactive
    2026-03-09 08:14:02.157812-0500 runningboardd[33:700] Now tracking process: [app<com.example.quill>:1893]
    2026-03-09 08:14:02.303917-0500 SpringBoard[55:601] [0x283b91e00:(FBSceneManager):sceneID:com.example.quill-default] Scene lifecycle state did change: Foreground
    2026-03-09 08:14:02.410000-0500 Quill[1893:7001] -[AppDelegate application:didFinishLaunchingWithOptions:]
    2026-03-09 08:14:02.470000-0500 Quill[1893:7001] -[SceneDelegate scene:willConnectToSession:options:]
    2026-03-09 08:14:08.410000-0500 Quill[1893:7001] -[SceneDelegate sceneWillEnterForeground:]
    2026-03-09 08:14:08.420000-0500 Quill[1893:7001] -[SceneDelegate sceneDidBecomeActive:]
    """

    @Test("a slow launch the system told is one finding, LC-D03's, not also LC-T07's")
    func slowLaunchReportedOnce() throws {
        let found = try Self.analyze(Self.slowLaunch).diagnostics
        #expect(found.map(\.ruleId) == ["LC-D03"], "\(found.map { "\($0.ruleId) \($0.line): \($0.message)" })")
        #expect(found.first?.line == 8)
        #expect(found.first?.message.contains("6.3 s after the user tapped its icon") == true, "\(found.first?.message ?? "")")
    }

    @Test("LC-T07 still reports the slow launch when LC-D03 does not run or does not find it slow")
    func slowLaunchWithoutD03() throws {
        let t07 = try Self.analyze(Self.slowLaunch, rules: [MainThreadBlockedAtLaunchRule.self]).diagnostics
        #expect(t07.map(\.ruleId) == ["LC-T07"])
        let both = try Self.analyze(Self.slowLaunch, config: "rules:\n  disable: [LC-D03]\n").diagnostics
        #expect(both.map(\.ruleId) == ["LC-T07"])
        let lenient = try Self.analyze(Self.slowLaunch, config: "thresholds:\n  tap-to-foreground: 10s\n").diagnostics
        #expect(lenient.map(\.ruleId) == ["LC-T07"])
    }

    @Test("an app's own SIGABRT line after its uncaught exception is the exception's ending: one finding")
    func exceptionThenAbort() throws {
        let found = try Self.analyze("""
        2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
        2025-03-01 10:00:00.950000+0100 MyApp[900:41001] *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'we should never make it here'
        Message from debugger: Terminated due to signal 6
        """).diagnostics
        #expect(found.map(\.ruleId) == ["LC-F02"])
        // A signal with a lifecycle callback of the process between it and the exception is its own.
        let apart = try Self.analyze("""
        2025-03-01 10:00:00.950000+0100 MyApp[900:41001] *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'we should never make it here'
        2025-03-01 10:00:01.000000+0100 MyApp[900:41001] -[SceneDelegate sceneDidEnterBackground:]
        Message from debugger: Terminated due to signal 6
        """).diagnostics
        #expect(apart.map(\.ruleId).sorted() == ["LC-F02", "LC-F05"])
    }

    @Test("a Console copy has no dates: the exception and RunningBoard's SIGABRT line 15 ms later are one ending by the clock")
    func consoleExceptionThenAbort() throws {
        let analysis = try Self.analyze("""
        default\t21:08:54.600254-0500\tkernel\t/private/var/containers/Bundle/Application/43CE9799/Jarvis.app/Jarvis[99896] ==> container
        default\t21:08:54.600708-0500\trunningboardd\tNow tracking process: [app<com.example.jarvis(BED36376)>:99896]
        default\t21:08:55.314742-0500\tJarvis\t*** Terminating app due to uncaught exception 'RCTFatalException', reason: 'Unhandled JS Exception'
        default\t21:08:55.329755-0500\trunningboardd\t[app<com.example.jarvis(BED36376)>:99896] termination reported by launchd (2, 6, 6)
        """)
        let session = try #require(analysis.sessions.first)
        #expect(analysis.sessions.count == 1)
        #expect(session.events.map(\.kind) == [.systemLaunch, .exception, .signal])
        #expect(session.repeatedEndings() == [2])
        #expect(analysis.diagnostics.map(\.ruleId) == ["LC-F02"])
    }

    @Test("the real Console copy: one launch by an icon tap, pid 99896, the exception and one SIGABRT ending, one finding of the death",
          .tags(.corpus), .needsCorpus)
    func realSigabrtLog() throws {
        let path = Repository.corpus("device-logs/ios17-icon-launch-foreground-sigabrt.console.log").path
        let analysis = Analysis.run(paths: [path], ingest: IngestOptions(jobs: 1), keepEvents: true)
        try #require(analysis.sessions.count == 1)
        let session = analysis.sessions[0]
        #expect(session.process == "MobileJarvisNative")
        #expect(session.pid == 99896)
        let launches = session.events.filter { $0.kind == .systemLaunch }
        #expect(launches.count == 1)
        #expect(launches.first?.details?.system?.trigger == "icon")
        #expect(launches.first?.details?.system?.intent == "foreground-interactive")
        let endings = session.events.indices.filter { SessionEnding.terminalKinds.contains(session.events[$0].kind) }
        #expect(endings.map { session.events[$0].kind } == [.exception, .signal])
        #expect(endings.last.map { session.events[$0].details?.signal } == "SIGABRT")
        // The SIGABRT line is the exception's ending, 15 ms after it on a clock without dates.
        #expect(session.repeatedEndings() == Set(endings.dropFirst()))
        #expect(session.endingFailure()?.kind == .exception)
        let deaths = analysis.diagnostics.filter { $0.severity == .fatal }
        #expect(deaths.map(\.ruleId) == ["LC-F02"], "\(deaths.map { "\($0.ruleId) \($0.line)" })")
        #expect(deaths.first?.line == 876)
        #expect(!analysis.diagnostics.contains { $0.ruleId == "LC-F05" || $0.ruleId.hasPrefix("LC-D") })
    }
}
