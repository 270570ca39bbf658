import Foundation
import Testing
@testable import LifelineCore

/// Costs that must grow with the events, not with the history a session has accumulated
/// (issue 12). Each test counts work, never wall time.
@Suite struct ScalingTests {
    /// The shape: a long-lived iPad app connects a new scene object (new address, new
    /// persistent identifier) again and again, never logs a disconnect, and logs its activations
    /// without an address in between.
    static func manyWindows(_ scenes: Int) -> [Event] {
        var lines: [String] = ["2025-03-01 10:00:00.000000+0100 Atlas[77:1] -[AppDelegate application:didFinishLaunchingWithOptions:]"]
        for n in 1...scenes {
            let t = String(format: "10:%02d:%02d.%06d", (n / 60) % 60, n % 60, n)
            let addr = String(format: "0x1%08x", n * 0x1000)
            let pid = String(format: "%08X-3B9E-4A05-9E6D-2C51B0A7F316", n)
            lines.append("2025-03-01 \(t)+0100 Atlas[77:1] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: \(addr); role: UIWindowSceneSessionRoleApplication; persistentIdentifier: \(pid); activationState: UISceneActivationStateUnattached>")
            lines.append("2025-03-01 \(t)+0100 Atlas[77:1] -[SceneDelegate sceneDidBecomeActive:] <UIWindowScene: \(addr); role: UIWindowSceneSessionRoleApplication>")
            lines.append("2025-03-01 \(t)+0100 Atlas[77:1] -[SceneDelegate sceneWillResignActive:]")
            lines.append("2025-03-01 \(t)+0100 Atlas[77:1] -[SceneDelegate sceneDidBecomeActive:]")
        }
        return ingest(lines.joined(separator: "\n") + "\n", name: "many-windows.log").events
    }

    static func tracked(_ events: [Event]) -> SceneTracker {
        var tracker = SceneTracker()
        for i in events.indices where SceneState.isSceneEvent(events[i].kind) { tracker.add(events[i], index: i) }
        return tracker
    }

    @Test("scene lookup examines a bounded number of lives per event, however many scenes stay live")
    func sceneLookupDoesNotScanLiveScenes() {
        let small = Self.tracked(Self.manyWindows(200))
        let large = Self.tracked(Self.manyWindows(2_000))
        // Every connect makes a new object; the unaddressed callbacks cannot be told apart and go
        // to one life of their class.
        #expect(small.count == 201 && large.count == 2_001)
        // A scan of the live scenes per event would make 2,000 scenes cost 100× 200 scenes.
        #expect(large.probes <= 11 * small.probes)
        #expect(large.probes <= 3 * 4 * 2_000)
    }

    @Test("a scene that reconnects finds its earlier lives by persistent identifier, not by a walk of all lives")
    func previousLivesByIdentifier() {
        var text = "2025-03-01 10:00:00.000000+0100 Atlas[77:1] -[AppDelegate application:didFinishLaunchingWithOptions:]\n"
        for (n, pid) in ["AAAA", "BBBB", "AAAA", "CCCC", "AAAA"].enumerated() {
            text += "2025-03-01 10:00:0\(n).000000+0100 Atlas[77:1] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x10\(n)000; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: \(pid); activationState: UISceneActivationStateUnattached>\n"
            text += "2025-03-01 10:00:0\(n).500000+0100 Atlas[77:1] -[SceneDelegate sceneDidDisconnect:] <UIWindowScene: 0x10\(n)000>\n"
        }
        let session = SessionBuilder.build(ingest(text, name: "reconnect.log").events)[0]
        #expect(session.scenes.map(\.previousLives) == [[], [], ["S1"], [], ["S1", "S3"]])
    }

    @Test("copying an event shares its fields; changing a copy leaves the original as it was")
    func eventCopiesAreValues() {
        var a = Event(file: "a.log", line: 1, format: .xcode, kind: EventKind("scene.didBecomeActive"), message: "m")
        a.className = "SceneDelegate"
        var b = a
        b.line = 2
        b.className = "Other"
        #expect(a.line == 1 && a.className == "SceneDelegate" && b.line == 2 && b.className == "Other")
        #expect(a != b)
        b.line = 1
        b.className = "SceneDelegate"
        #expect(a == b)
        #expect(EventKind("scene.didBecomeActive") == a.kind && a.kind.family == "scene" && a.kind.isLifecycleCallback)
    }
}
