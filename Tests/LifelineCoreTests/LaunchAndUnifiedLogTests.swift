import Foundation
import Testing
@testable import LifelineCore

/// Launch kinds from what a log shows, and the time fields of unifiedlog_iterator's JSON Lines.
@Suite struct LaunchKindTests {
    static let h = "2026-06-12 08:14:05.100000+0200 Ledger[1877:180644] "

    static func kind(_ lines: [(String, String)]) -> LaunchKind? {
        let text = lines.map { "2026-06-12 \($0.0)+0200 Ledger[1877:180644] \($0.1)" }.joined(separator: "\n") + "\n"
        let sessions = SessionBuilder.build(ingest(text).events)
        return sessions.first?.launchKind
    }

    @Test("a user launch, a restored session, a prewarm, background callbacks and a launch cut short")
    func kinds() {
        // New scene session configured, then foreground: the user.
        #expect(Self.kind([("08:14:05.100000", "-[AppDelegate application:didFinishLaunchingWithOptions:]"),
                           ("08:14:05.200000", "-[AppDelegate application:configurationForConnectingSceneSession:options:]"),
                           ("08:14:05.300000", "-[SceneDelegate scene:willConnectToSession:options:]"),
                           ("08:14:05.400000", "-[SceneDelegate sceneWillEnterForeground:]")]) == .user)
        // The app logs configurationForConnecting (for a later window), but not for this session: restored.
        #expect(Self.kind([("08:14:05.100000", "-[AppDelegate application:didFinishLaunchingWithOptions:]"),
                           ("08:14:05.300000", "-[SceneDelegate scene:willConnectToSession:options:]"),
                           ("08:14:05.400000", "-[SceneDelegate sceneWillEnterForeground:]"),
                           ("08:15:00.000000", "-[AppDelegate application:configurationForConnectingSceneSession:options:]")]) == .restore)
        // An app that never logs configurationForConnecting gives no evidence of a restore: the user.
        #expect(Self.kind([("08:14:05.100000", "-[AppDelegate application:didFinishLaunchingWithOptions:]"),
                           ("08:14:05.300000", "-[SceneDelegate scene:willConnectToSession:options:]"),
                           ("08:14:05.400000", "-[SceneDelegate sceneWillEnterForeground:]")]) == .user)
        // Events of the process long before its launch callbacks: prewarmed.
        #expect(Self.kind([("08:10:00.000000", "*** Assertion failure in -[LGStore warmUp], LGStore.m:12"),
                           ("08:14:05.100000", "-[AppDelegate application:didFinishLaunchingWithOptions:]"),
                           ("08:14:05.400000", "-[AppDelegate applicationDidBecomeActive:]")]) == .prewarm)
        // A background callback before anything came forward.
        #expect(Self.kind([("08:14:05.100000", "-[AppDelegate application:didFinishLaunchingWithOptions:]"),
                           ("08:14:05.200000", "-[AppDelegate application:performFetchWithCompletionHandler:]"),
                           ("08:14:05.400000", "-[SceneDelegate sceneWillEnterForeground:]")]) == .background)
        // Nothing in the foreground for longer than the launch watchdog allows a user launch.
        #expect(Self.kind([("08:14:05.100000", "-[AppDelegate application:didFinishLaunchingWithOptions:]"),
                           ("08:14:40.100000", "-[SceneDelegate sceneWillEnterForeground:]")]) == .background)
        // The trace ends before it shows: no kind.
        #expect(Self.kind([("08:14:05.100000", "-[AppDelegate application:didFinishLaunchingWithOptions:]")]) == nil)
    }
}

@Suite struct UnifiedLogEntryTests {
    @Test("time from `timestamp` (RFC 3339, Z), else from `time` (nanoseconds since 1970); empty strings are absent")
    func times() throws {
        let lines = [
            #"{"subsystem":"","thread_id":5321,"pid":744,"library":"/private/var/containers/Bundle/Application/9C1E/Petrichor.app/Petrichor","category":"","event_type":"Log","log_type":"Default","process":"/private/var/containers/Bundle/Application/9C1E/Petrichor.app/Petrichor","message":"-[SceneDelegate sceneDidBecomeActive:]","time":1.7778745021234568e18,"timestamp":"2026-05-04T06:01:42.123456768Z"}"#,
            #"{"subsystem":null,"thread_id":5321,"pid":744,"library":"","category":"","event_type":"Log","log_type":"Default","process":"/private/var/containers/Bundle/Application/9C1E/Petrichor.app/Petrichor","message":"-[SceneDelegate sceneWillResignActive:]","time":1.7778745021234568e18}"#,
        ]
        let r = ingest(lines.joined(separator: "\n") + "\n", name: "archive.jsonl")
        #expect(r.stats.format == .unifiedLog)
        #expect(r.events.map(\.kind.rawValue) == ["scene.didBecomeActive", "scene.willResignActive"])
        let first = try #require(r.events.first)
        #expect(first.process == "Petrichor" && first.pid == 744 && first.tid == 5321)
        #expect(first.subsystem == nil && first.category == nil)
        #expect(first.timestamp?.iso == "2026-05-04T06:01:42.123456768+00:00")
        // From `time`: the same second (python: datetime.utcfromtimestamp(1777874502.1234568)), to the microsecond.
        #expect(r.events[1].timestamp?.iso == "2026-05-04T06:01:42.123457+00:00")
        #expect(r.events[1].timestamp?.hasOffset == true)
        #expect(UnifiedLogEntry.timestamp(nanoseconds: 0).iso == "1970-01-01T00:00:00.000000+00:00")
    }
}
