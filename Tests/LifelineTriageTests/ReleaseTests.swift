import Foundation
import Testing
import LifelineCore
@testable import LifelineTriage

/// Text crash reports of one incident each, for release breakdowns.
enum Reports {
    static func text(app: String = "Orbit", bundle: String = "com.example.Orbit", version: String, os: String = "17.2 (21C62)",
                     device: String = "iPhone14,2", pid: Int = 812, symbol: String, minute: Int = 0) -> String {
        """
        Incident Identifier: 0C2A6F7E-4D1B-4B4B-9E8E-\(String(format: "%012d", pid * 100 + minute))
        Hardware Model:      \(device)
        Process:             \(app) [\(pid)]
        Path:                /private/var/containers/Bundle/Application/5B1D2C3E-0000-4000-8000-000000000001/\(app).app/\(app)
        Identifier:          \(bundle)
        Version:             \(version) (\(version.replacingOccurrences(of: ".", with: "")))
        Code Type:           ARM-64 (Native)
        OS Version:          iPhone OS \(os)
        Date/Time:           2024-03-01 10:\(String(format: "%02d", minute)):00.000 +0000

        Exception Type:  EXC_CRASH (SIGABRT)
        Triggered by Thread:  0

        Thread 0 name:  Dispatch queue: com.apple.main-thread
        Thread 0 Crashed:
        0   libsystem_kernel.dylib        0x00000001d8a3a2ec __pthread_kill + 8
        1   libsystem_c.dylib             0x00000001a4a1ba44 abort + 180
        2   \(app)                         0x0000000100f1c2a0 \(symbol) + 96
        3   UIKitCore                     0x000000019a3d1e9c -[UIViewController _sendViewDidLoadWithAppearanceProxyObjectTaggingEnabled] + 104

        """
    }
}

@Suite struct ReleaseTests {
    @Test("versions order as people read them", arguments: [
        ("2.9", "2.10"), ("2.1", "2.1.1"), ("1.0", "1.0b2"), ("1.0b2", "1.0b10"), ("9", "10"), ("iPhone OS 9.3", "iPhone OS 16.0"),
    ])
    func versionOrder(older: String, newer: String) {
        #expect(VersionOrder.less(older, newer))
        #expect(!VersionOrder.less(newer, older))
        #expect(!VersionOrder.less(older, older))
    }

    @Test("an OS version groups without its build")
    func osWithoutBuild() {
        #expect(Release.osVersion("iPhone OS 16.0 (20A362)") == "iPhone OS 16.0")
        #expect(Release.osVersion("macOS 15.5 (24F74)") == "macOS 15.5")
        #expect(Release.osVersion("iOS 17") == "iOS 17")
    }

    @Test("distributions and spreads merge associatively and commutatively")
    func mergeLaws() {
        func spread(_ rs: [Release]) -> ReleaseSpread {
            var s = ReleaseSpread()
            for r in rs { s.add(r) }
            return s
        }
        let a = spread([Release(app: "x", appVersion: "1.0", osVersion: "iOS 17", device: "iPhone14,2"), Release()])
        let b = spread([Release(app: "x", appVersion: "1.1"), Release(app: "y", appVersion: "1.0", device: "iPad13,1")])
        let c = spread([Release(app: "x", appVersion: "1.0", osVersion: "iOS 18")])
        func merged(_ parts: [ReleaseSpread]) -> ReleaseSpread {
            var m = ReleaseSpread()
            for p in parts { m.merge(p) }
            return m
        }
        var ab = a
        ab.merge(b)
        var bc = b
        bc.merge(c)
        #expect(merged([ab, c]) == merged([a, bc]))
        #expect(merged([a, b, c]) == merged([c, a, b]))
        let all = merged([a, b, c])
        #expect(all.versions.counts == ["1.0": 3, "1.1": 1])
        #expect(all.versions.unknown == 1)
        #expect(all.versionsByApp["x"]?.counts == ["1.0": 2, "1.1": 1])
        #expect(all.firstVersion == "1.0" && all.lastVersion == "1.1")
    }

    @Test("a crash first seen in 2.1 is new in 2.1 when 2.0 ran without it; versions of another app do not count")
    func newInVersion() throws {
        let dir = try Scratch()
        defer { dir.remove() }
        try dir.write("a-2.0.crash", Reports.text(version: "2.0", symbol: "ProfileViewController.viewDidLoad()"))
        try dir.write("a-2.1.crash", Reports.text(version: "2.1", device: "iPad13,16", symbol: "ProfileViewController.viewDidLoad()", minute: 1))
        try dir.write("b-2.1.crash", Reports.text(version: "2.1", symbol: "FeedStore.reload()", minute: 2))
        try dir.write("b-2.1-again.crash", Reports.text(version: "2.1", os: "18.0 (22A3354)", symbol: "FeedStore.reload()", minute: 3))
        try dir.write("other-1.0.crash", Reports.text(app: "Comet", bundle: "com.example.Comet", version: "1.0", pid: 900, symbol: "Comet.start()"))
        try dir.write("other-3.0.crash", Reports.text(app: "Comet", bundle: "com.example.Comet", version: "3.0", pid: 901, symbol: "Comet.stop()"))
        let r = TriageTests.triage([dir.path])
        let profile = try #require(r.signatures.first { $0.signature.title.contains("ProfileViewController") })
        let feed = try #require(r.signatures.first { $0.signature.title.contains("FeedStore") })
        let stop = try #require(r.signatures.first { $0.signature.title.contains("Comet.stop") })
        let start = try #require(r.signatures.first { $0.signature.title.contains("Comet.start") })
        #expect(profile.releases.firstVersion == "2.0" && profile.releases.lastVersion == "2.1")
        #expect(r.newInVersion(profile) == nil)
        #expect(r.newInVersion(feed) == "2.1")
        #expect(feed.releases.osVersions.counts == ["iPhone OS 17.2": 1, "iPhone OS 18.0": 1])
        #expect(profile.releases.devices.counts == ["iPhone14,2": 1, "iPad13,16": 1])
        #expect(r.newInVersion(stop) == "3.0", "Comet 1.0 ran without it")
        #expect(r.newInVersion(start) == nil, "the oldest Comet version seen")
        #expect(r.sessionReleases.versions.counts == ["2.0": 1, "2.1": 3, "1.0": 1, "3.0": 1])

        let byVersion = r.groups(by: .version)
        #expect(byVersion.map(\.value) == ["3.0", "2.1", "2.0", "1.0"])
        let v21 = try #require(byVersion.first { $0.value == "2.1" })
        #expect(v21.sessions == 3)
        #expect(v21.signatures.map(\.count) == [2, 1])
        #expect(v21.signatures.first?.signature.signature.id == feed.signature.id)

        let json = try #require(try JSONSerialization.jsonObject(with: Data(TriageJSON.render(r, groupBy: .device).utf8)) as? [String: Any])
        let sigs = try #require(json["signatures"] as? [[String: Any]])
        let feedJSON = try #require(sigs.first { $0["id"] as? String == feed.signature.id })
        #expect(feedJSON["newInVersion"] as? String == "2.1")
        #expect(feedJSON["firstVersion"] as? String == "2.1")
        #expect((feedJSON["appVersions"] as? [[String: Any]])?.first?["count"] as? Int == 2)
        let groups = try #require(json["groups"] as? [[String: Any]])
        #expect(groups.map { $0["value"] as? String } == ["iPhone14,2", "iPad13,16"])
        #expect(groups.allSatisfy { $0["by"] as? String == "device" })

        let text = TriageText.render(r, width: 200, groupBy: .version)
        #expect(text.contains("[new in 2.1]"))
        #expect(text.contains("app version 2.1: 3 sessions, 3 occurrences"))
        #expect(text.contains("app 2.1 ×1, 2.0 ×1"))
    }

    @Test("a log line takes the release of a report in its own session; without one it is unknown")
    func sessionRelease() throws {
        let dir = try Scratch()
        defer { dir.remove() }
        try dir.write("console.log", Logs.xcode(Logs.active + [Logs.exception(index: 3, count: 2)]))
        let r = TriageTests.triage([dir.path])
        let s = try #require(r.signatures.first)
        #expect(s.releases.versions.unknown == s.count)
        #expect(r.groups(by: .version).map(\.value) == [nil])
        #expect(TriageText.releaseLine(s) == nil)
    }
}
