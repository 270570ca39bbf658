import Foundation
import Testing
@testable import LifelineCore

/// Terminations without a crash report: jetsam and resource reports, MetricKit payloads and the
/// device-log lines that tell of a kill. Expected values are read by hand from the samples
/// (`SampleLogs/`, see its README) and from the lines below, not produced by the parser.
@Suite struct TerminationReportTests {
    static func read(_ name: String) -> (events: [Event], stats: InputStats) {
        let r = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [Repo.sampleLogs.appendingPathComponent(name).path])
        return (r.events, r.inputs[0])
    }

    // MARK: Reports

    @Test("jetsam report (bug_type 298): the killed app's row, its reason, footprint and state")
    func jetsamReport() throws {
        let (events, stats) = Self.read("jetsam-per-process-limit.ips")
        #expect(stats.format == .ips)
        #expect(events.count == 1)  // four other rows were not killed
        let e = try #require(events.first)
        #expect(e.kind == .jetsam)
        #expect(e.process == "Comet")
        #expect(e.pid == 812)
        #expect(e.line == 1 && e.lineCount == 157)
        let d = try #require(e.details)
        #expect(d.terminationReason == "per-process-limit")
        #expect(d.residentBytes == 171_875 * 16_384)
        #expect(d.largestProcess == "Comet")
        #expect(d.processStates == ["frontmost", "resume"])
        #expect(d.deviceModel == "iPhone15,4")
        #expect(d.osVersion == "iPhone OS 18.3.2 (22D82)")
        #expect(d.incidentID == "3C0E8B52-7A41-4F6D-9E13-B5D2A06F8C47")
        let ts = try #require(e.timestamp)
        #expect(ts.hasOffset && ts.offsetMinutes == 0)
    }

    @Test("CPU resource report (bug_type 202): usage, limit, duration and the app's heaviest frames")
    func cpuResourceReport() throws {
        let (events, _) = Self.read("cpu-resource.ips")
        let e = try #require(events.first)
        #expect(events.count == 1)
        #expect(e.kind == .resourceLimit)
        #expect(e.process == "Comet" && e.pid == 1207)
        let d = try #require(e.details)
        #expect(d.cause == .cpuResource)
        #expect(d.appVersion == "2.1" && d.appBuild == "214")
        #expect(d.bundleID == "com.example.comet")
        #expect(d.deviceModel == "iPhone15,4")
        #expect(d.durationMilliseconds == 176_400)
        #expect(d.cpuTime == "90 seconds cpu time over 176 seconds (51% cpu average)")
        #expect(d.resourceLimit?.contains("exceeding limit of 50% cpu over 180 seconds") == true)
        #expect(d.resourceLimit?.contains("action taken: none") == true)
        // The heaviest stack is written outermost first; the event holds it innermost first.
        #expect(d.backtrace?.lines.first?.contains("libsystem_m.dylib + 25432") == true)
        #expect(d.backtrace?.lines.last?.contains("libsystem_pthread.dylib + 3880") == true)
        #expect(d.appFrames?.count == 3)
        #expect(d.firstAppFrame?.text.hasSuffix("Comet + 601448") == true)
        #expect(e.timestamp?.hasOffset == true)
    }

    @Test("MetricKit payloads: one event per diagnostic, at its line, with its metadata and measurements")
    func metricKitPayload() throws {
        let (events, stats) = Self.read("metrickit-comet-2.1.json")
        #expect(stats.format == .metricKit)
        #expect(stats.isBalanced, "\(stats.balanceDescription)")
        #expect(events.map(\.kind) == [.crashReport, .crashReport, .resourceLimit, .resourceLimit, .slowLaunch])
        #expect(events.map(\.line) == [5, 105, 268, 340, 402])
        #expect(events.allSatisfy { $0.process == "Comet" && $0.details?.appVersion == "2.1" && $0.details?.appBuild == "214" })
        #expect(events.map(\.pid) == [1290, 1244, 1207, 1188, 1166])

        let segv = try #require(events[0].details)
        #expect(segv.exceptionType == "EXC_BAD_ACCESS" && segv.signal == "SIGSEGV")
        #expect(segv.firstAppFrame?.text.hasSuffix("Comet + 601448") == true)
        #expect(segv.timeWindow == "2026-03-14 00:00:00 – 2026-03-14 23:59:00")

        let abort = try #require(events[1].details)
        #expect(abort.exceptionType == "EXC_CRASH" && abort.signal == "SIGABRT")
        #expect(abort.exceptionName == "NSInvalidArgumentException")
        #expect(abort.reason == "*** -[__NSArrayM insertObject:atIndex:]: object cannot be nil")
        #expect(abort.terminationReason == "Namespace SIGNAL, Code 6 Abort trap: 6")
        // Crash stacks start at the crashing frame: kernel first, dyld last; the app's first frame
        // is the one above CoreFoundation's throw.
        #expect(abort.backtrace?.lines.first?.contains("libsystem_kernel.dylib + 37304") == true)
        #expect(abort.backtrace?.lines.last?.contains("dyld + 88732") == true)
        #expect(abort.firstAppFrame?.text.hasSuffix("Comet + 712944") == true)

        #expect(events[2].details?.cpuTime == "90 sec")
        #expect(events[2].details?.firstAppFrame?.text.hasSuffix("Comet + 601448") == true)
        #expect(events[3].message.contains("1,073.74 MB written"))
        #expect(events[3].details?.firstAppFrame?.text.hasSuffix("Comet + 744512") == true)
        // A launch stack starts at dyld: the innermost app frame is the deepest one.
        #expect(events[4].details?.durationMilliseconds == 5_320)
        #expect(events[4].details?.firstAppFrame?.text.hasSuffix("Comet + 104876") == true)

        let (older, _) = Self.read("metrickit-comet-2.0.json")
        #expect(older.map(\.kind) == [.crashReport, .hang])
        #expect(older[1].details?.durationMilliseconds == 4_210)
        #expect(older[1].details?.firstAppFrame?.text.hasSuffix("Comet + 652008") == true)
    }

    @Test("a MetricKit payload cut short names the line where the file ends, and its lines stay accounted for")
    func metricKitCut() throws {
        let whole = try String(contentsOf: Repo.sampleLogs.appendingPathComponent("metrickit-comet-2.1.json"), encoding: .utf8)
        let lines = whole.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = lines.prefix(150).joined(separator: "\n") + "\n"
        let (events, stats) = ingest(cut, name: "payload.json")
        #expect(events.isEmpty)
        #expect(stats.format == .metricKit)
        #expect(stats.isBalanced, "\(stats.balanceDescription)")
        #expect(stats.lines == 150)
        let note = try #require(stats.notes.first { $0.severity == .error })
        #expect(note.line == 150)
        #expect(note.message.contains("MetricKit") && note.message.contains("cut short"))
    }

    @Test("JSON that is not a report is not taken for one", arguments: [
        "{\n  \"name\": \"lifeline-site\",\n  \"version\": \"1.0.0\",\n  \"scripts\": { \"build\": \"vite build\" },\n  \"dependencies\": { \"vite\": \"^5.0.0\" }\n}\n",
        "[{\"id\": 1, \"callStack\": \"main\"}, {\"id\": 2}]\n",
        "{\"compilerOptions\": {\"target\": \"es2020\", \"strict\": true}}\n",
    ])
    func notAReport(json: String) {
        let (events, stats) = ingest(json, name: "package.json")
        #expect(events.isEmpty)
        #expect(stats.format != .metricKit && stats.format != .ips && stats.format != .crash)
        #expect(!stats.notes.contains { $0.severity == .error })
        #expect(stats.isBalanced)
    }

    // MARK: Kill lines

    struct KillLine: CustomTestStringConvertible, Sendable {
        var label: String
        var line: String
        var kind: EventKind?
        var pid: Int? = nil
        var reason: String? = nil
        var watchdogEvent: String? = nil
        var testDescription: String { label }
    }

    static let killLines: [KillLine] = [
        KillLine(label: "kernel memorystatus kill",
                 line: "Mar 14 09:41:27 Noahs-iPhone kernel[0] <Notice>: memorystatus: killing_specific_process pid 812 [Comet] (per-process-limit 100:8) 2750000KB - memorystatus_available_pages: 31894",
                 kind: .jetsam, pid: 812, reason: "per-process-limit"),
        KillLine(label: "kernel idle exit",
                 line: "Mar 14 09:41:27 Noahs-iPhone kernel[0] <Notice>: memorystatus: killing_idle_process pid 377 [Comet] (vm-pageshortage 5) 48112KB - memorystatus_available_pages: 2911",
                 kind: .jetsam, pid: 377, reason: "vm-pageshortage"),
        KillLine(label: "RunningBoard termination reported (jetsam namespace)",
                 line: "Mar 14 09:41:27 Noahs-iPhone runningboardd(RunningBoard)[33] <Notice>: [app<com.example.comet>:812] termination reported by launchd (1, 7, 0)",
                 kind: .jetsam, pid: 812, reason: "per-process-limit"),
        KillLine(label: "RunningBoard termination reported (SIGKILL)",
                 line: "Mar 14 09:41:27 Noahs-iPhone runningboardd(RunningBoard)[33] <Notice>: [app<com.example.comet(501)>:812] termination reported by launchd (2, 9, 9)",
                 kind: .killed, pid: 812, reason: "SIGKILL"),
        KillLine(label: "RunningBoard termination reported (SIGSEGV)",
                 line: "Mar 14 09:41:27 Noahs-iPhone runningboardd(RunningBoard)[33] <Notice>: [app<com.example.comet>:812] termination reported by launchd (2, 11, 11)",
                 kind: .signal, pid: 812, reason: "SIGSEGV"),
        KillLine(label: "RunningBoard voluntary exit",
                 line: "Mar 14 09:43:19 Noahs-iPhone runningboardd(RunningBoard)[33] <Notice>: [app<com.example.comet>:902] termination reported by launchd (0, 0, 0)",
                 kind: nil),
        KillLine(label: "FrontBoard exit, jetsam",
                 line: "Mar 14 09:41:27 Noahs-iPhone SpringBoard(FrontBoard)[58] <Notice>: [app<com.example.comet>:812] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:jetsam(1) code:per-process-limit(7)>>.",
                 kind: .jetsam, pid: 812, reason: "per-process-limit"),
        KillLine(label: "FrontBoard exit, watchdog",
                 line: "Mar 14 09:42:07 Noahs-iPhone SpringBoard(FrontBoard)[58] <Notice>: [app<com.example.comet>:845] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:frontboard(10) code:watchdog(0x8BADF00D)>>.",
                 kind: .watchdog, pid: 845),
        KillLine(label: "FrontBoard exit, user quit",
                 line: "Mar 14 09:42:47 Noahs-iPhone SpringBoard(FrontBoard)[58] <Notice>: [app<com.example.comet>:871] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:frontboard(10) code:user-quit(0xDEADFA11)>>.",
                 kind: nil),
        KillLine(label: "FrontBoard exit, voluntary",
                 line: "Mar 14 09:43:19 Noahs-iPhone SpringBoard(FrontBoard)[58] <Notice>: [app<com.example.comet>:902] Process exited: <RBSProcessExitContext| voluntary>.",
                 kind: nil),
        KillLine(label: "FrontBoard exit, iOS 14 watchdog context",
                 line: "Mar 14 09:42:07 Noahs-iPhone SpringBoard(FrontBoard)[58] <Notice>: [application<com.example.comet>:845] Process exited: <FBProcessExitContext; watchdog (\"watchdog provision violated\")>.",
                 kind: .watchdog, pid: 845, reason: "watchdog provision violated"),
        KillLine(label: "RunningBoard terminate, scene-update watchdog",
                 line: "Mar 14 09:42:07 Noahs-iPhone runningboardd(RunningBoard)[33] <Notice>: [app<com.example.comet>:845] Terminating with context: <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression: app<com.example.comet>:845 exhausted real (wall clock) time allowance of 15.00 seconds ProcessVisibility: Background ProcessState: Running WatchdogEvent: scene-update WatchdogVisibility: Background WatchdogCPUStatistics: ( \"Elapsed total CPU time (seconds): 14.210 (user 11.020, system 3.190), 47% CPU\" ) reportType:CrashLog maxTerminationResistance:Interactive>",
                 kind: .watchdog, pid: 845, watchdogEvent: "scene-update"),
        KillLine(label: "RunningBoard terminate, user quit",
                 line: "Mar 14 09:42:47 Noahs-iPhone runningboardd(RunningBoard)[33] <Notice>: [app<com.example.comet>:871] Terminating with context: <RBSTerminateContext| domain:10 code:0xDEADFA11 explanation:[FBSceneManager] user quit from app switcher reportType:None maxTerminationResistance:NonInteractive>",
                 kind: nil),
        KillLine(label: "legacy launchd, Killed: 9",
                 line: "Mar 14 09:41:27 Noahs-iPhone com.apple.xpc.launchd[1] <Notice>: (UIKitApplication:com.example.comet[0x8b2f][812]) Service exited due to signal: Killed: 9",
                 kind: .killed, pid: 812),
        KillLine(label: "legacy launchd, Segmentation fault",
                 line: "Mar 14 09:41:27 Noahs-iPhone com.apple.xpc.launchd[1] <Notice>: (UIKitApplication:com.example.comet[0x8b2f][812]) Service exited due to signal: Segmentation fault: 11",
                 kind: .signal, pid: 812),
        KillLine(label: "a line that only mentions a kill is not one",
                 line: "Mar 14 09:41:27 Noahs-iPhone Comet[812] <Notice>: Process exited: the helper finished its sync",
                 kind: nil),
    ]

    @Test("device-log kill lines become the killed app's failure", arguments: killLines)
    func killLine(_ c: KillLine) throws {
        let (events, _) = ingest(c.line + "\n", name: "device.log")
        guard let kind = c.kind else {
            #expect(events.isEmpty, "\(events.map(\.kind))")
            return
        }
        let e = try #require(events.first)
        #expect(events.count == 1)
        #expect(e.kind == kind)
        // The event is the victim's (its subject), not the logging daemon's, which stays the logger.
        #expect(e.subject?.pid == c.pid)
        #expect(e.ownPID == nil)
        #expect(!["kernel", "runningboardd", "SpringBoard", "com.apple.xpc.launchd"].contains(e.attributedProcess ?? ""))
        #expect(e.details?.reportedPID == nil, "reportedPID is Main Thread Checker's field")
        #expect(e.isKillLine)
        if let reason = c.reason { #expect(e.details?.terminationReason?.contains(reason) == true, "\(e.details?.terminationReason ?? "-")") }
        if let w = c.watchdogEvent { #expect(e.details?.watchdogEvent == w) }
        if kind == .signal { #expect(e.details?.signal != nil) }
    }

    @Test("one kill told by three lines ends its launch once; a later launch starts its own session")
    func repeatedEndings() throws {
        let r = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [
            Repo.sampleLogs.appendingPathComponent("device-kills.log").path,
            Repo.sampleLogs.appendingPathComponent("jetsam-per-process-limit.ips").path,
        ])
        let sessions = SessionBuilder.build(r.events)
        #expect(sessions.map(\.pid) == [812, 845, 871, 902])
        let first = sessions[0]
        #expect(first.files.count == 2)  // the jetsam report joined the log's launch
        let endings = first.events.indices.filter { SessionEnding.terminalKinds.contains(first.events[$0].kind) }
        // The kernel's, RunningBoard's and FrontBoard's lines are one ending (the first, with the others
        // as its evidence: `SystemStories`); the report is the second.
        #expect(endings.count == 2)
        #expect(first.events[endings[0]].details?.system?.evidence?.count == 2)
        #expect(first.repeatedEndings() == Set(endings.dropFirst()))
        let ending = try #require(first.endingFailure())
        #expect(ending.kind == .jetsam)
        #expect(ending.state == "foregroundActive")
        #expect(sessions[1].endingFailure()?.kind == .watchdog)
        #expect(sessions[1].endingFailure()?.state == "background")
        #expect(sessions[1].repeatedEndings().isEmpty)  // its two kill lines are one event
        #expect(sessions[2].endingFailure() == nil)  // swipe-quit
        #expect(sessions[3].endingFailure() == nil)  // voluntary exit
    }
}
