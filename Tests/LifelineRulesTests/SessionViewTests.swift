import Foundation
import Testing
import LifelineCore
@testable import LifelineRules

/// The view answers from tables built once per session; its answers must be the session's own.
@Suite struct SessionViewTests {
    @Test("context(at:) of the view equals the session's for every event of every sample",
          arguments: StreamingAnalysisTests.files)
    func contextsAgree(file: String) {
        let path = StreamingAnalysisTests.root.appendingPathComponent(file).path
        let events = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [path]).events
        for session in SessionBuilder.build(events) {
            let view = SessionView(session)
            for i in session.events.indices {
                let fromView = view.context(at: i), fromSession = session.context(at: i)
                #expect(fromView.scene?.id == fromSession.scene?.id && fromView.state == fromSession.state,
                        "\(file) \(session.id) event \(i)")
            }
        }
    }

    @Test("indices(of:) lists the events of a kind in order, and of several kinds merged in order")
    func indicesByKind() {
        let log = """
        -[AppDelegate application:didFinishLaunchingWithOptions:]
        -[SceneDelegate scene:willConnectToSession:options:]
        -[SceneDelegate sceneWillEnterForeground:]
        -[SceneDelegate sceneDidBecomeActive:]
        -[SceneDelegate sceneWillResignActive:]
        -[SceneDelegate sceneDidBecomeActive:]
        """
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-view-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("print.log")
        precondition(FileManager.default.createFile(atPath: file.path, contents: Data((log + "\n").utf8)))
        let events = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [file.path]).events
        let view = SessionView(SessionBuilder.build(events)[0])
        let active = EventKind("scene.didBecomeActive"), resign = EventKind("scene.willResignActive")
        #expect(view.indices(of: active) == [3, 5])
        #expect(view.indices(of: active, resign) == [3, 4, 5])
        #expect(view.indices(of: EventKind("scene.didDisconnect")).isEmpty)
        #expect(view.firstActive == 3)
        #expect(view.sceneSteps.map(\.kind.rawValue) == ["scene.willConnect", "scene.willEnterForeground", "scene.didBecomeActive",
                                                 "scene.willResignActive", "scene.didBecomeActive"])
    }

    @Test("a Console.app launch that crosses midnight: its duration and the timeline's times are small and positive")
    func launchAcrossMidnight() throws {
        func row(_ time: String, _ message: String) -> String { "default\t\(time)-0500\tLantern\tUIKitCore\t\(message)" }
        let log = [
            row("23:59:59.500000", "-[AppDelegate application:didFinishLaunchingWithOptions:]"),
            row("23:59:59.700000", "-[SceneDelegate scene:willConnectToSession:options:]"),
            row("23:59:59.900000", "-[SceneDelegate sceneWillEnterForeground:]"),
            row("00:00:00.250000", "-[SceneDelegate sceneDidBecomeActive:]"),
            row("00:00:02.000000", "-[SceneDelegate sceneWillResignActive:]"),
        ].joined(separator: "\n") + "\n"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("console.txt")
        precondition(FileManager.default.createFile(atPath: file.path, contents: Data(log.utf8)))
        let events = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [file.path]).events
        let session = try #require(SessionBuilder.build(events).first)
        let launch = try #require(TimelineReport.launchToFirstActive(session))
        #expect(abs(launch - 0.75) < 1e-6)
        let view = SessionView(session)
        #expect(view.secondsSinceLaunch(3).map { abs($0 - 0.75) < 1e-6 } == true)
        let times = TimelineReport.rows(session).compactMap(\.seconds).map { ($0 * 1000).rounded() / 1000 }
        #expect(times == [0, 0.2, 0.4, 0.75, 2.5])
        #expect(TimelineReport.timeInStates(session).first?.states.allSatisfy { $0.1 >= 0 } == true)
    }
}
