import Foundation
import Testing
@testable import LifelineCore

/// Sessions, scene timelines, states and the main thread (issue 3 §1, lifecycle reference §1–§4).
@Suite struct SessionBuilderTests {
    static func sessions(_ text: String, name: String = "trace.log") -> [ProcessSession] {
        SessionBuilder.build(ingest(text, name: name).events)
    }

    static func states(_ s: SceneTimeline, in session: ProcessSession) -> [String] {
        s.entries.map { "\(session.events[$0.event].kind.rawValue):\($0.before.rawValue)->\($0.after.rawValue)" }
    }

    /// Reference Appendix A1: cold launch, home, return, swipe-kill.
    static let a1 = """
    2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
    2025-03-01 10:00:00.180000+0100 MyApp[900:41001] -[AppDelegate application:configurationForConnectingSceneSession:options:]
    2025-03-01 10:00:00.181000+0100 MyApp[900:41001] -[SceneDelegate scene:willConnectToSession:options:]
    2025-03-01 10:00:00.300000+0100 MyApp[900:41001] -[SceneDelegate sceneWillEnterForeground:]
    2025-03-01 10:00:00.310000+0100 MyApp[900:41001] -[SceneDelegate sceneDidBecomeActive:]
    2025-03-01 10:05:00.000000+0100 MyApp[900:41001] -[SceneDelegate sceneWillResignActive:]
    2025-03-01 10:05:00.400000+0100 MyApp[900:41001] -[SceneDelegate sceneDidEnterBackground:]
    2025-03-01 10:06:00.000000+0100 MyApp[900:41001] -[SceneDelegate sceneWillEnterForeground:]
    2025-03-01 10:06:00.050000+0100 MyApp[900:41001] -[SceneDelegate sceneDidBecomeActive:]
    2025-03-01 10:07:00.000000+0100 MyApp[900:41001] -[SceneDelegate sceneWillResignActive:]
    2025-03-01 10:07:00.200000+0100 MyApp[900:41001] -[SceneDelegate sceneDidDisconnect:]

    """

    @Test("a clean launch: one session, one scene, every state before and after")
    func cleanLaunch() throws {
        let s = Self.sessions(Self.a1)
        #expect(s.count == 1)
        let p = try #require(s.first)
        #expect(p.id == "P1" && p.pid == 900 && p.process == "MyApp" && p.launchSeen && !p.beginsMidSession && !p.endsAbruptly)
        #expect(p.scenes.count == 1)
        let scene = p.scenes[0]
        #expect(!scene.beginsMidLife && scene.finalState == .disconnected && scene.delegateClass == "SceneDelegate")
        #expect(Self.states(scene, in: p) == [
            "scene.willConnect:unattached->unattached", "scene.willEnterForeground:unattached->foregroundInactive",
            "scene.didBecomeActive:foregroundInactive->foregroundActive", "scene.willResignActive:foregroundActive->foregroundInactive",
            "scene.didEnterBackground:foregroundInactive->background", "scene.willEnterForeground:background->foregroundInactive",
            "scene.didBecomeActive:foregroundInactive->foregroundActive", "scene.willResignActive:foregroundActive->foregroundInactive",
            "scene.didDisconnect:foregroundInactive->disconnected",
        ])
        #expect(p.app.map(\.after) == [.launched])
        #expect(p.mainThread.tid == 41001 && p.mainThread.supportingCallbacks == 11 && p.mainThread.conflicts.isEmpty)
    }

    @Test("a trace that begins mid-life starts in an unknown state and says so")
    func midSession() throws {
        let p = try #require(Self.sessions("""
        2025-03-01 10:00:00.310000+0100 MyApp[900:41001] -[SceneDelegate sceneDidBecomeActive:]
        2025-03-01 10:05:00.000000+0100 MyApp[900:41001] -[SceneDelegate sceneWillResignActive:]

        """).first)
        #expect(p.beginsMidSession && !p.launchSeen && p.endsAbruptly)
        #expect(p.scenes[0].beginsMidLife)
        #expect(p.scenes[0].entries.first?.before == .unknown)
        #expect(p.scenes[0].entries.first?.after == .foregroundActive)
    }

    @Test("a lifecycle callback on another thread is a conflict, reported with the main thread's evidence")
    func offMainCallback() throws {
        let p = try #require(Self.sessions("""
        2025-03-01 10:00:00.100000+0100 MyApp[901:52001] -[AppDelegate application:didFinishLaunchingWithOptions:]
        2025-03-01 10:00:00.200000+0100 MyApp[901:52001] -[SceneDelegate scene:willConnectToSession:options:]
        2025-03-01 10:00:00.300000+0100 MyApp[901:52917] -[AppDelegate applicationDidBecomeActive:]
        2025-03-01 10:00:00.400000+0100 MyApp[901:52001] [reports] Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]
        PID: 901, TID: 52917, Thread name: (none), Queue name: com.example.sync, QoS: 0

        """).first)
        #expect(p.mainThread.tid == 52001)
        #expect(p.mainThread.conflicts.map(\.position) == [.line(3)])
        #expect(p.mainThread.evidence.map(\.kind) == [.lifecycleCallback, .mainThreadCheckerReport])
        #expect(p.mainThread.evidence.last?.tid == 52917 && p.mainThread.evidence.last?.isMain == false)
    }

    @Test("a checker report naming the inferred main thread is a conflict")
    func checkerOnMain() throws {
        let p = try #require(Self.sessions("""
        2025-03-01 10:00:00.100000+0100 MyApp[901:52001] -[AppDelegate application:didFinishLaunchingWithOptions:]
        2025-03-01 10:00:00.400000+0100 MyApp[901:52001] [reports] Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]
        PID: 901, TID: 52001, Thread name: (none), Queue name: com.example.sync, QoS: 0

        """).first)
        #expect(p.mainThread.conflicts.map(\.kind) == [.mainThreadCheckerReport])
    }

    @Test("launch markers split sessions without pids; willFinish then didFinish is one launch")
    func printLaunches() {
        let s = Self.sessions("""
        application(_:willFinishLaunchingWithOptions:)
        application(_:didFinishLaunchingWithOptions:)
        scene(_:willConnectTo:options:)
        sceneDidBecomeActive(_:)
        application(_:didFinishLaunchingWithOptions:)
        scene(_:willConnectTo:options:)

        """)
        #expect(s.map(\.events.count) == [4, 2])
        #expect(s.map(\.id) == ["P1", "P2"])
        #expect(s.allSatisfy { $0.pid == nil && $0.launchSeen })
    }

    @Test("a connection logged before didFinishLaunching stays in the launch it belongs to")
    func connectBeforeLaunchIsOneSession() {
        let s = Self.sessions("""
        2025-03-01 10:00:00.100000+0100 MyApp[901:52001] -[SceneDelegate scene:willConnectToSession:options:]
        2025-03-01 10:00:00.200000+0100 MyApp[901:52001] -[AppDelegate application:didFinishLaunchingWithOptions:]

        """)
        #expect(s.count == 1)
    }

    @Test("pids split sessions; a reused pid after a long silence is a new launch")
    func pids() {
        let s = Self.sessions("""
        2025-03-01 10:00:00.100000+0100 MyApp[900:1] -[SceneDelegate sceneDidBecomeActive:]
        2025-03-01 10:00:00.200000+0100 Other[901:2] -[SceneDelegate sceneDidBecomeActive:]
        2025-03-01 10:00:01.100000+0100 MyApp[900:1] -[SceneDelegate sceneWillResignActive:]
        2025-03-02 09:00:00.100000+0100 MyApp[900:1] -[SceneDelegate sceneDidBecomeActive:]

        """)
        #expect(s.map { "\($0.process!)[\($0.pid!)]:\($0.events.count)" } == ["MyApp[900]:2", "Other[901]:1", "MyApp[900]:1"])
    }

    @Test("print lines between NSLog lines belong to the process the file logged last")
    func printBetweenNSLog() throws {
        let p = Self.sessions("""
        2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[SceneDelegate sceneWillResignActive:]
        sceneDidEnterBackground(_:)
        2025-03-01 10:00:01.100000+0100 MyApp[900:41001] -[SceneDelegate sceneWillEnterForeground:]

        """)
        #expect(p.count == 1)
        #expect(p[0].scenes.count == 1)
        #expect(p[0].scenes[0].entries.map(\.after) == [.foregroundInactive, .background, .foregroundInactive])
    }

    @Test("scenes by address; callbacks without one go to the only live scene of their class")
    func multiWindow() throws {
        let p = try #require(Self.sessions("""
        2025-03-01 10:00:00.100000+0100 MyApp[900:1] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: AAAA-1; activationState: UISceneActivationStateUnattached>
        2025-03-01 10:00:00.200000+0100 MyApp[900:1] -[SceneDelegate sceneWillEnterForeground:]
        2025-03-01 10:00:00.300000+0100 MyApp[900:1] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0xB2; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: BBBB-2; activationState: UISceneActivationStateUnattached>
        2025-03-01 10:00:00.400000+0100 MyApp[900:1] -[SceneDelegate sceneDidBecomeActive:] <UIWindowScene: 0xB2; role: UIWindowSceneSessionRoleApplication; activationState: UISceneActivationStateForegroundInactive>
        2025-03-01 10:00:00.500000+0100 MyApp[900:1] -[SceneDelegate sceneDidDisconnect:] <UIWindowScene: 0xA1; role: UIWindowSceneSessionRoleApplication; activationState: UISceneActivationStateBackground>
        2025-03-01 10:00:00.600000+0100 MyApp[900:1] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0xC3; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: AAAA-1; activationState: UISceneActivationStateUnattached>

        """).first)
        #expect(p.scenes.map(\.address) == ["0xA1", "0xB2", "0xC3"])
        #expect(p.scenes[0].entries.count == 3)      // willConnect, the unaddressed willEnterForeground, disconnect
        #expect(p.scenes[0].finalState == .disconnected)
        #expect(p.scenes[1].finalState == .foregroundActive)
        #expect(p.scenes[2].previousLives == ["S1"])  // the same UISceneSession, reconnected
    }

    @Test("CarPlay callbacks form their own scene with its role; the phone scene stays apart")
    func carPlay() throws {
        let p = try #require(Self.sessions("""
        2025-03-01 10:00:00.100000+0100 Nav[900:1] -[AppDelegate application:didFinishLaunchingWithOptions:]
        2025-03-01 10:00:00.200000+0100 Nav[900:1] -[CarPlaySceneDelegate templateApplicationScene:didConnectInterfaceController:]
        2025-03-01 10:00:00.300000+0100 Nav[900:1] -[SceneDelegate scene:willConnectToSession:options:]
        2025-03-01 10:00:00.400000+0100 Nav[900:1] -[CarPlaySceneDelegate templateApplicationScene:didDisconnectInterfaceController:]

        """).first)
        #expect(p.scenes.count == 2)
        let cp = try #require(p.scenes.first { $0.isCarPlay })
        #expect(cp.role == "CPTemplateApplicationSceneSessionRoleApplication")
        #expect(cp.entries.map(\.after) == [.connected, .disconnected])
        #expect(!cp.beginsMidLife)
    }

    @Test("two files of one device are merged by time, each keeping its order")
    func mergeFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        2025-03-01 10:00:00.100000+0100 MyApp[900:1] -[AppDelegate application:didFinishLaunchingWithOptions:]
        2025-03-01 10:00:00.300000+0100 MyApp[900:1] -[SceneDelegate sceneWillEnterForeground:]

        """.write(to: dir.appendingPathComponent("a.log"), atomically: true, encoding: .utf8)
        try """
        2025-03-01 10:00:00.200000+0100 MyApp[900:1] -[SceneDelegate scene:willConnectToSession:options:]
        2025-03-01 10:00:00.400000+0100 MyApp[900:1] -[SceneDelegate sceneDidBecomeActive:]

        """.write(to: dir.appendingPathComponent("b.log"), atomically: true, encoding: .utf8)
        let events = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [dir.path]).events
        let s = SessionBuilder.build(events)
        #expect(s.count == 1)
        #expect(s[0].events.map(\.kind.rawValue) == ["app.didFinishLaunching", "scene.willConnect", "scene.willEnterForeground", "scene.didBecomeActive"])
        #expect(s[0].files.count == 2)
    }

    @Test("every sample log builds sessions whose timelines cover every scene event")
    func samples() {
        for file in SampleLogsTests.sampleFiles {
            let events = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [Repo.sampleLogs.appendingPathComponent(file).path]).events
            let sessions = SessionBuilder.build(events)
            #expect(sessions.reduce(0) { $0 + $1.events.count } == events.count, "\(file)")
            for p in sessions {
                let covered = p.scenes.reduce(0) { $0 + $1.entries.count }
                #expect(covered == p.events.filter { SceneState.isSceneEvent($0.kind) }.count, "\(file) \(p.id)")
            }
        }
    }

    @Test("the Xcode console sample: one process, main thread from the callbacks, checker thread apart")
    func xcodeSample() throws {
        let events = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [Repo.sampleLogs.appendingPathComponent("xcode-console.log").path]).events
        let p = try #require(SessionBuilder.build(events).first)
        #expect(p.pid == 4821 && p.mainThread.tid == 918273)
        #expect(p.mainThread.evidence.contains { $0.kind == .mainThreadCheckerReport && $0.tid == 918544 && !$0.isMain })
    }
}

/// Rows that name their process but not its pid (some Console.app layouts) join that process.
@Suite struct PidlessRowTests {
    static let console = """
    default\t10:00:00.100000+0100\tMyApp\tFoundation\t-[AppDelegate application:didFinishLaunchingWithOptions:]
    default\t10:00:00.200000+0100\tMyApp\tFoundation\t-[SceneDelegate scene:willConnectToSession:options:]

    """

    @Test("pid-less rows, then rows of the same process with its pid: one session that learns the pid")
    func learnsPid() throws {
        let events = ingest(Self.console, name: "console.txt").events + ingest("""
        2025-03-01 10:00:00.300000+0100 MyApp[900:41001] -[SceneDelegate sceneWillEnterForeground:]
        2025-03-01 10:00:00.310000+0100 MyApp[900:41001] -[SceneDelegate sceneDidBecomeActive:]

        """, name: "xcode.log").events
        let s = SessionBuilder.build(events)
        #expect(s.count == 1)
        #expect(s.first?.pid == 900 && s.first?.files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["console.txt", "xcode.log"])
        #expect(s.first?.scenes.first?.finalState == .foregroundActive)
        // The Console.app rows' times of day cannot be set against the Xcode lines' dates: the
        // session's durations use the dated times only.
        #expect(s.first?.events.map { $0.timestamp?.seconds == nil } == [true, true, false, false])
    }

    @Test("a pid-bearing relaunch after pid-less rows is a new session")
    func relaunch() {
        let events = ingest(Self.console, name: "console.txt").events + ingest("""
        2025-03-01 10:01:00.000000+0100 MyApp[950:52001] -[AppDelegate application:didFinishLaunchingWithOptions:]

        """, name: "xcode.log").events
        let s = SessionBuilder.build(events)
        #expect(s.map(\.pid) == [nil, 950])
        #expect(s[1].earlier.previous?.session == "P1" && s[0].earlier.previous == nil)
    }

    @Test("pid-less rows after a session with a pid join it")
    func joinsExisting() {
        let events = ingest("""
        2025-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]

        """, name: "xcode.log").events + ingest("""
        default\t10:00:00.200000+0100\tMyApp\tFoundation\t-[SceneDelegate scene:willConnectToSession:options:]

        """, name: "console.txt").events
        let s = SessionBuilder.build(events)
        #expect(s.count == 1 && s.first?.pid == 900 && s.first?.scenes.count == 1)
    }
}
