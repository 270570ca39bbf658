import Testing
@testable import LifelineCore

/// An event names its subject (the app a line is about) apart from the process that logged it, and
/// sessions route it by the subject: a kill line logged by SpringBoard, RunningBoard or the kernel
/// joins the killed app's session, never the daemon's.
@Suite struct SubjectRoutingTests {
    static let app = """
        Mar 14 09:40:58 Noahs-iPhone SpringBoard(FrontBoard)[58] <Notice>: -[SBMainWorkspace applicationDidFinishLaunching:]
        Mar 14 09:40:59 Noahs-iPhone Comet[812] <Notice>: -[AppDelegate application:didFinishLaunchingWithOptions:]
        Mar 14 09:40:59 Noahs-iPhone Comet[812] <Notice>: -[SceneDelegate sceneDidBecomeActive:]

        """

    @Test("a kill line keeps its logger's header and names the killed app as its subject")
    func killLineSubject() throws {
        let line = "Mar 14 09:41:27 Noahs-iPhone SpringBoard(FrontBoard)[58] <Notice>: [app<com.example.comet>:812] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:jetsam(1) code:per-process-limit(7)>>.\n"
        let (events, _) = ingest(line, name: "device.log")
        let e = try #require(events.first)
        #expect(e.kind == .jetsam)
        #expect(e.process == "SpringBoard(FrontBoard)" || e.process == "SpringBoard")
        #expect(e.pid == 58)
        #expect(e.subject == Subject(bundleID: "com.example.comet", pid: 812))
        #expect(e.details?.reportedPID == nil)
        // Outputs print the event as the killed app's, as they always did.
        #expect(e.ownPID == nil && e.ownTID == nil && e.attributedProcess == nil)
        #expect(e.jsonLine.contains(#""reportedPID":812"#) && e.jsonLine.contains(#""bundleID":"com.example.comet""#))
        #expect(!e.jsonLine.contains(#""pid":"#))
    }

    @Test("a kernel kill line whose size overflows bytes still kills, with no size (fuzz: classify campaign)")
    func memorystatusOverflowingSize() throws {
        let line = "memorystatus: killing_specific_process pid 812 [Comet] (per-process-limit 200:8) 2750008888888888880KB - memorystatus_available_pages: 31894\n"
        let e = try #require(ingest(line, name: "device.log").0.first)
        #expect(e.kind == .jetsam && e.subject?.pid == 812)
        #expect(e.details?.residentBytes == nil)
    }

    @Test("the kernel's kill line names the process by name too")
    func memorystatusSubject() throws {
        let line = "Mar 14 09:41:27 Noahs-iPhone kernel[0] <Notice>: memorystatus: killing_specific_process pid 812 [Comet] (per-process-limit 100:8) 2750000KB - memorystatus_available_pages: 31894\n"
        let e = try #require(ingest(line, name: "device.log").0.first)
        #expect(e.process == "kernel" && e.pid == 0)
        #expect(e.subject == Subject(pid: 812, process: "Comet"))
        #expect(e.attributedProcess == "Comet")
    }

    @Test("kill lines of every daemon join the killed app's session, not their logger's", arguments: [
        "Mar 14 09:41:27 Noahs-iPhone kernel[0] <Notice>: memorystatus: killing_specific_process pid 812 [Comet] (per-process-limit 100:8) 2750000KB - memorystatus_available_pages: 31894",
        "Mar 14 09:41:27 Noahs-iPhone runningboardd(RunningBoard)[33] <Notice>: [app<com.example.comet>:812] termination reported by launchd (1, 7, 0)",
        "Mar 14 09:41:27 Noahs-iPhone SpringBoard(FrontBoard)[58] <Notice>: [app<com.example.comet>:812] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:jetsam(1) code:per-process-limit(7)>>.",
    ])
    func killLineJoinsAppSession(_ kill: String) throws {
        let (events, _) = ingest(Self.app + kill + "\n", name: "device.log")
        let sessions = SessionBuilder.build(events)
        let comet = try #require(sessions.first { $0.pid == 812 })
        #expect(comet.events.last?.kind == .jetsam)
        #expect(comet.events.last?.subject?.pid == 812)
        #expect(comet.endingFailure()?.kind == .jetsam)
        for s in sessions where s.pid != 812 { #expect(!s.events.contains { $0.kind.isFailure }, "\(s.process ?? "-")") }
    }

    @Test("the subject travels through the spill")
    func spillRoundTrip() throws {
        let line = "Mar 14 09:41:27 Noahs-iPhone kernel[0] <Notice>: memorystatus: killing_specific_process pid 812 [Comet] (per-process-limit 100:8) 2750000KB - memorystatus_available_pages: 31894\n"
        let e = try #require(ingest(line, name: "device.log").0.first)
        var w = SpillWriter()
        e.encode(to: &w)
        let back = w.bytes.withUnsafeBufferPointer { buffer in
            var r = SpillReader(buffer)
            return Event.decode(from: &r)
        }
        #expect(back == e)
        #expect(back.subject == Subject(pid: 812, process: "Comet"))
    }
}
