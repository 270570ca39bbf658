import Foundation
import Testing
import TestSupport
@testable import LifelineCore

/// The system's account of an app (`Documentation/SystemEvents.md`): the lines of one launch are one
/// `system.launch`, states are events only when they change, SpringBoard's words are details of
/// RunningBoard's, the lines of one end are one ending, and every event is the app's, joined to the
/// app's own lines in one session per process.
@Suite struct SystemStoriesTests {
    /// A Console.app copy (no pid column) of an icon launch, in the shape of a real iOS 17 capture.
    static let consoleLaunch = """
        default\t10:00:00.100000-0500\tSpringBoard\tSBIconView touches began with event: <UITouchesEvent: 0x1> touches: {(
            <UITouch: 0x2> phase: Began; responder: <SBIconView: 0x3; bundleID: com.example.comet>
        )}
        default\t10:00:00.200000-0500\tSpringBoard\tAsked to bootstrap a new process with identity: app<com.example.comet(9F1C2D3E-0A1B-4C5D-8E9F-A0B1C2D3E4F5)>
        default\t10:00:00.201000-0500\tSpringBoard\tBootstrapping app<com.example.comet> with intent foreground-interactive
        default\t10:00:00.202000-0500\trunningboardd\tCreating and launching job for: app<com.example.comet(9F1C2D3E-0A1B-4C5D-8E9F-A0B1C2D3E4F5)>
        default\t10:00:00.203000-0500\tkernel\t/private/var/containers/Bundle/Application/5E0A6C1B-7F3D-4E2A-9B8C-1D2E3F4A5B6C/Comet.app/Comet[812] ==> container
        default\t10:00:00.204000-0500\trunningboardd\tNow tracking process: [app<com.example.comet(9F1C2D3E-0A1B-4C5D-8E9F-A0B1C2D3E4F5)>:812]
        default\t10:00:00.205000-0500\trunningboardd\tCalculated state for app<com.example.comet(9F1C2D3E-0A1B-4C5D-8E9F-A0B1C2D3E4F5)>: running-active (role: UserInteractiveFocal) (endowments: <private>)
        default\t10:00:00.206000-0500\tSpringBoard\t[app<com.example.comet>:812] Bootstrap success!
        default\t10:00:00.206500-0500\tSpringBoard\tReceived state update for 812 (app<com.example.comet(9F1C2D3E-0A1B-4C5D-8E9F-A0B1C2D3E4F5)>, running-active-Visible
        default\t10:00:00.207000-0500\tSpringBoard\t[app<com.example.comet>:812] Setting process task state to: Running
        default\t10:00:00.208000-0500\tSpringBoard\t[app<com.example.comet>:812] Setting process visibility to: Foreground
        default\t10:00:00.209000-0500\trunningboardd\tCalculated state for app<com.example.comet(9F1C2D3E-0A1B-4C5D-8E9F-A0B1C2D3E4F5)>: running-active (role: UserInteractiveFocal) (endowments: <private>)
        default\t10:00:00.210000-0500\tSpringBoard\tAsked to bootstrap a new process with identity: app<com.example.comet(9F1C2D3E-0A1B-4C5D-8E9F-A0B1C2D3E4F5)>
        default\t10:00:00.300000-0500\tSpringBoard\t[0x1:(FBSceneManager):sceneID:com.example.comet-default] Scene lifecycle state did change: Foreground
        default\t10:00:00.310000-0500\tSpringBoard\t[0x1:(FBSceneManager):sceneID:com.example.comet-default] Scene lifecycle state did change: Foreground
        default\t10:00:00.400000-0500\tComet\t-[SceneDelegate sceneDidBecomeActive:]
        default\t10:00:09.000000-0500\tComet\t*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'boom'
        default\t10:00:09.010000-0500\trunningboardd\t[app<com.example.comet(9F1C2D3E-0A1B-4C5D-8E9F-A0B1C2D3E4F5)>:812] termination reported by launchd (2, 6, 6)
        default\t10:00:09.020000-0500\trunningboardd\tCalculated state for app<com.example.comet(9F1C2D3E-0A1B-4C5D-8E9F-A0B1C2D3E4F5)>: none (role: None) (endowments: (null))
        default\t10:00:09.021000-0500\tSpringBoard\t[app<com.example.comet>:812] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:signal(2) code:SIGABRT(6)>>.
        default\t10:00:09.022000-0500\tSpringBoard\t[app<com.example.comet>:812] Setting process task state to: Not Running

        """

    static func kinds(_ events: [Event]) -> [String] { events.map { "\($0.line) \($0.kind.rawValue)" } }

    @Test("one launch, one state per change, one scene state per change, one ending: each the app's")
    func consoleStory() throws {
        let (events, stats) = ingest(Self.consoleLaunch, name: "device.txt")
        #expect(Self.kinds(events) == ["4 system.launch", "9 system.processState", "16 system.sceneState", "18 scene.didBecomeActive",
                                       "19 failure.exception", "20 failure.signal", "21 system.processState"])
        #expect(stats.events == events.count)
        let launch = events[0]
        #expect(launch.subject == Subject(bundleID: "com.example.comet", pid: 812, process: "Comet"))
        #expect(launch.process == "SpringBoard", "the logger stays the logger")
        let d = try #require(launch.details?.system)
        #expect(d.intent == "foreground-interactive")
        #expect(d.trigger == "icon")
        #expect(d.tapTime?.hasPrefix("10:00:00.1") == true)
        #expect(d.evidence == [.line(5), .line(7), .line(8), .line(10)])  // not RunningBoard's job creation (line 6)
        let state = try #require(events[1].details?.system)
        #expect(state.state == "running-active" && state.role == "UserInteractiveFocal")
        #expect(state.taskState == "Running" && state.visibility == "Foreground")
        #expect(state.evidence == [.line(12), .line(13), .line(14)])
        #expect(events[2].details?.system?.sceneID == "sceneID:com.example.comet-default")
        #expect(events[2].details?.system?.state == "foreground")
        // RunningBoard's and SpringBoard's lines of the SIGABRT are one ending.
        #expect(events[5].details?.system?.evidence == [.line(22)])
        #expect(events[6].details?.system?.evidence == [.line(23)])
        #expect(events[6].details?.system?.state == "none" && events[6].details?.system?.taskState == "Not Running")
        // The JSON names the app, not the daemon.
        #expect(launch.jsonLine.contains(#""bundleID":"com.example.comet""#) && launch.jsonLine.contains(#""reportedPID":812"#))
        #expect(launch.jsonLine.contains(#""evidence":[5,7,8,10]"#))
    }

    @Test("a Console copy without pids gives one session for the app's lines and the system's")
    func oneSession() throws {
        let (events, _) = ingest(Self.consoleLaunch, name: "device.txt")
        let sessions = SessionBuilder.build(events)
        #expect(sessions.count == 1)
        let s = try #require(sessions.first)
        #expect(s.process == "Comet" && s.pid == 812 && s.bundleID == "com.example.comet")
        #expect(s.launchSeen && s.launchKind == .user)
        #expect(s.events.count == 7)
        let contexts = s.systemContexts()
        #expect(contexts[3].sceneState == "foreground" && contexts[3].isForeground)
        #expect(contexts[6].processState == "running-active")
    }

    @Test("counting (events --stats) counts what the stories make")
    func countingMatches() {
        var options = IngestOptions(jobs: 1)
        options.collectEvents = false
        let counted = ingest(Self.consoleLaunch, name: "device.txt", options: options).1
        #expect(counted.events == 7)
    }

    @Test("a relaunch after the process is gone is a launch again; a tap on a running app is none")
    func relaunch() {
        let text = """
            Mar 14 09:40:58 Phone SpringBoard(FrontBoard)[58] <Notice>: Bootstrapping application<com.example.comet> with intent foreground-interactive
            Mar 14 09:40:58 Phone runningboardd(RunningBoard)[33] <Notice>: Now tracking process: [application<com.example.comet>:812]
            Mar 14 09:40:58 Phone SpringBoard(FrontBoard)[58] <Notice>: [application<com.example.comet>:812] Bootstrap success!
            Mar 14 09:41:10 Phone SpringBoard(FrontBoard)[58] <Notice>: SBIconView touches began with event: <UITouchesEvent: 0x1>; responder: <SBIconView: 0x3; bundleID: com.example.comet>
            Mar 14 09:41:20 Phone runningboardd(RunningBoard)[33] <Notice>: Calculated state for application<com.example.comet>: none (role: None)
            Mar 14 09:42:00 Phone SpringBoard(FrontBoard)[58] <Notice>: Bootstrapping application<com.example.comet> with intent background
            Mar 14 09:42:00 Phone SpringBoard(FrontBoard)[58] <Notice>: [application<com.example.comet>:845] Bootstrap success!

            """
        let (events, _) = ingest(text, name: "device.log")
        #expect(Self.kinds(events) == ["1 system.launch", "5 system.processState", "6 system.launch"])
        #expect(events[0].details?.system?.trigger == nil, "the tap came after the launch")
        #expect(events[2].details?.system?.trigger == nil, "a tap 50 s before is not this launch's trigger")
        #expect(events[2].subject?.pid == 845 && events[2].details?.system?.intent == "background")
        let sessions = SessionBuilder.build(events)
        #expect(sessions.map(\.pid) == [812, 845])
        #expect(sessions.last?.launchKind == .background)
    }

    @Test("SpringBoard's word alone (no RunningBoard) is a process state of its own; repeated, it is none")
    func springBoardAlone() {
        let text = """
            2026-02-17 19:42:06.934408+0100 0x3a0d     Default     0x0                  57     0    SpringBoard: Bootstrapping com.example.waypost with intent foreground-interactive
            2026-02-17 19:42:06.988215+0100 0x3a0d     Default     0x0                  57     0    SpringBoard: Application process state changed for com.example.waypost: <SBApplicationProcessState: 0x2807a4f20; pid: 2231; taskState: Running; visibility: Unknown>
            2026-02-17 19:42:08.988215+0100 0x3a0d     Default     0x0                  57     0    SpringBoard: Application process state changed for com.example.waypost: <SBApplicationProcessState: 0x2807a4f20; pid: 2231; taskState: Running; visibility: Unknown>
            2026-02-17 19:42:09.702577+0100 0x3a0d     Default     0x0                  57     0    SpringBoard: Application process state changed for com.example.waypost: <SBApplicationProcessState: 0x2807a6b60; pid: 2231; taskState: Running; visibility: Foreground>

            """
        let (events, _) = ingest(text, name: "show.log")
        #expect(Self.kinds(events) == ["1 system.launch", "2 system.processState", "4 system.processState"])
        #expect(events[0].subject?.pid == 2231, "the launch learns its pid from SpringBoard's summary")
        #expect(events[2].details?.system?.visibility == "Foreground" && events[2].details?.system?.state == nil)
    }

    @Test("the app choice: Apple's apps are counted, not followed, unless named")
    func appSelection() {
        #expect(AppSelection.default.follows(bundleID: "com.example.comet", process: nil))
        #expect(!AppSelection.default.follows(bundleID: "com.apple.mobilenotes", process: "MobileNotes"))
        #expect(AppSelection.default.follows(bundleID: nil, process: "Comet"), "a process that logs itself is followed")
        let named = AppSelection(names: ["MobileNotes"])
        #expect(named.follows(bundleID: "com.apple.mobilenotes", process: "MobileNotes"))
        #expect(!named.follows(bundleID: "com.example.comet", process: "Comet"))
        #expect(AppSelection(names: ["COM.EXAMPLE.COMET"]).follows(bundleID: "com.example.comet", process: nil))
        #expect(AppSelection(all: true).follows(bundleID: "com.apple.springboard", process: nil))
    }

    @Test("a manifest's executable names an app the system tells of only by bundle")
    func manifestExecutable() throws {
        let text = """
            Mar 14 09:40:58 Phone SpringBoard(FrontBoard)[58] <Notice>: Bootstrapping application<com.example.comet> with intent foreground-interactive
            Mar 14 09:40:58 Phone SpringBoard(FrontBoard)[58] <Notice>: [application<com.example.comet>:812] Bootstrap success!

            """
        var options = IngestOptions(jobs: 1)
        options.executables = ["com.example.comet": "Comet"]
        let (events, _) = ingest(text, name: "device.log", options: options)
        #expect(events.first?.subject == Subject(bundleID: "com.example.comet", pid: 812, process: "Comet"))
        let (plain, _) = ingest(text, name: "device.log")
        #expect(plain.first?.subject?.process == nil)
        #expect(SessionBuilder.build(plain).first?.process == "com.example.comet", "without a name, the session goes by its bundle")
    }

    @Test("an executable whose name has spaces names its app (the kernel's container line)")
    func executableWithSpaces() {
        let text = """
            Mar 14 09:40:58 Phone SpringBoard(FrontBoard)[58] <Notice>: Bootstrapping app<com.example.juniper> with intent foreground-interactive
            Mar 14 09:40:58 Phone kernel[0] <Notice>: /private/var/containers/Bundle/Application/5E0A6C1B/Juniper Notes.app/Juniper Notes[812] ==> container
            Mar 14 09:40:58 Phone SpringBoard(FrontBoard)[58] <Notice>: [app<com.example.juniper>:812] Bootstrap success!

            """
        let (events, _) = ingest(text, name: "device.log")
        #expect(events.count == 1)
        #expect(events.first?.subject == Subject(bundleID: "com.example.juniper", pid: 812, process: "Juniper Notes"))
    }

    @Test("the real iOS 17 capture: one session of MobileJarvisNative, one launch, one SIGABRT ending", .needsCorpus)
    func corpusDeviceLog() throws {
        let path = Repository.corpus.appendingPathComponent("device-logs/ios17-icon-launch-foreground-sigabrt.console.log").path
        let r = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [path])
        #expect(r.inputs.first?.isBalanced == true)
        let sessions = SessionBuilder.build(r.events)
        #expect(sessions.count == 1)
        let s = try #require(sessions.first)
        #expect(s.process == "MobileJarvisNative" && s.pid == 99896 && s.bundleID == "com.hightowerai.MobileJarvisNative")
        let launches = s.events.filter { $0.kind == .systemLaunch }
        #expect(launches.count == 1)
        #expect(launches.first?.details?.system?.trigger == "icon")
        #expect(launches.first?.details?.system?.intent == "foreground-interactive")
        #expect(s.events.filter { $0.kind == .systemProcessState }.compactMap { $0.details?.system?.state } == ["running-active", "none"])
        #expect(s.events.filter { $0.kind == .systemSceneState }.compactMap { $0.details?.system?.state } == ["foreground"])
        #expect(s.events.filter { $0.kind == .exception }.count == 1)
        #expect(s.events.filter { $0.kind == .signal }.count == 1, "termination reported by launchd and Process exited are one ending")
        #expect(s.launchKind == .user)
    }
}
