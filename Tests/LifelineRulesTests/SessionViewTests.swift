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
}
