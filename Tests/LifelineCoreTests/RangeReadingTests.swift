import Foundation
import Testing
@testable import LifelineCore

/// Large files are read in ranges by several threads; the result must not depend on how the file
/// was cut or how many threads read it.
@Suite struct RangeReadingTests {
    /// ~1.5 MB of mixed records: single lines, multi-line exceptions, checker blocks, print lines.
    static let text: String = {
        let block = """
        2024-03-01 10:00:00.100000+0100 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]
        2024-03-01 10:00:00.180000+0100 MyApp[900:41001] Task <E1909D86-F6C8-4AFF-A567-65B59EFE0F22>.<37> now using Connection 10
        2024-03-01 10:00:00.181000+0100 MyApp[900:41001] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x106764000; role: UIWindowSceneSessionRoleApplication; activationState: UISceneActivationStateUnattached>
        sceneWillEnterForeground(_:)
        2024-03-01 10:00:00.310000+0100 MyApp[900:41001] *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'boom'
        *** First throw call stack:
        (
        \t0   CoreFoundation                      0x00000001110fafba __exceptionPreprocess + 242
        )
        libc++abi: terminating due to uncaught exception of type NSException
        =================================================================
        Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]
        PID: 900, TID: 52917, Thread name: (none), Queue name: com.example.sync, QoS: 0
        Backtrace:
        4   MyApp                               0x000000010313910c -[SyncEngine tick] + 72
        2024-03-01 10:05:00.000000+0100 MyApp[900:41001] -[SceneDelegate sceneWillResignActive:]

        """
        return String(repeating: block, count: 1500)
    }()

    static func run(_ options: IngestOptions) -> ([String], InputStats) {
        let r = ingest(text, options: options)
        return (r.events.map { "\($0.line) \($0.kind.rawValue) \($0.lineCount)" }, r.stats)
    }

    @Test("ranges read by one, two or three threads give what an unsplit read gives", arguments: [1, 2, 3])
    func rangesAgree(jobs: Int) {
        let whole = Self.run(IngestOptions(jobs: 1, rangeBytes: 1 << 40))
        let split = Self.run(IngestOptions(jobs: jobs, rangeBytes: 64 << 10))
        #expect(split.0 == whole.0)
        #expect(split.1.lines == whole.1.lines && split.1.records == whole.1.records
                && split.1.continuationLines == whole.1.continuationLines && split.1.nonLogLines == whole.1.nonLogLines)
        #expect(split.1.isBalanced, "\(split.1.balanceDescription)")
        #expect(whole.0.count == 6 * 1500)
    }

    /// Regression (found by `watch` and `analyze -` disagreeing with `analyze FILE` on 1 M lines
    /// of the mixed corpus): times written without a UTC offset take the offset the input wrote
    /// last; a range read on its own did not know it, so its first such times were off by the
    /// offset, and a session was cut in two where a range began.
    @Test("a time without an offset takes the input's last offset also where a range begins", arguments: [1, 2])
    func offsetAcrossRanges(jobs: Int) {
        var text = "2024-03-01 10:00:00.100000+0900 MyApp[900:41001] -[AppDelegate application:didFinishLaunchingWithOptions:]\n"
        for i in 0..<3000 {
            let callback = i % 2 == 0 ? "-[SceneDelegate sceneWillResignActive:]" : "-[SceneDelegate sceneDidBecomeActive:]"
            text += String(format: "2024-03-01 10:%02d:%02d.%03d MyApp[900:41001] %@\n", (i / 60) % 60, i % 60, i % 1000, callback)
        }
        func times(_ options: IngestOptions) -> [String] {
            ingest(text, options: options).events.map { "\($0.line) \($0.timestamp?.seconds ?? -1) \($0.timestamp?.offsetMinutes ?? -1)" }
        }
        let whole = times(IngestOptions(jobs: 1, rangeBytes: 1 << 40))
        let split = times(IngestOptions(jobs: jobs, rangeBytes: 32 << 10))
        #expect(whole.count == 3001)
        #expect(whole.dropFirst().allSatisfy { $0.hasSuffix(" 540") }, "the offset-less times take +09:00")
        #expect(split == whole)
    }

    /// `lifeline events` has the readers write the lines; with ranges renumbered when printed, they
    /// must be the lines the events themselves give, in the same order.
    @Test("lines written by the readers are the events' own lines", arguments: [EventLineStyle.jsonLines, .text])
    func encodedLinesAgree(style: EventLineStyle) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-enc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("split.log").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data(Self.text.utf8)))
        let expected = Ingester(options: IngestOptions(jobs: 1, rangeBytes: 1 << 40)).ingest(paths: [file]).events.map { e -> String in
            switch style {
            case .jsonLines: var w = JSONWriter(); e.write(to: &w); return String(decoding: w.bytes, as: UTF8.self)
            case .text: return e.textLine
            }
        }
        var options = IngestOptions(jobs: 2, rangeBytes: 64 << 10)
        options.encoding = style
        options.eventChunk = 100
        var bytes: [UInt8] = []
        var chunks = 0
        Ingester(options: options).run(paths: [file], onEvent: { _ in Issue.record("an event was handed over unwritten") },
                                       onEncoded: { encoded, offset in
            chunks += 1
            encoded.write(lineOffset: offset) { bytes.append(contentsOf: $0) }
        }, onInput: { _ in })
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "")
        #expect(Array(lines.dropLast()) == expected)
        #expect(chunks > 20, "the ranges were cut into chunks")
    }
}

/// A device log read in ranges tells each app's launches, states and endings as one read does: a launch,
/// state or ending whose lines straddle a range's start is one event, and the app's executable, said
/// before, names its events in later ranges.
@Suite struct DeviceLogRangeTests {
    /// ~1.2 MB of system stories of 1,000 processes, each launch, state change and ending told by several lines.
    static let text: String = {
        var out = ""
        for i in 0..<1_000 {
            let pid = 2_000 + i, bundle = "com.example.app\(i % 7)", name = "App\(i % 7)"
            let id = "app<\(bundle)(9F1C2D3E-0A1B-4C5D-8E9F-A0B1C2D3E4F5)>"
            let t = String(format: "%02d:%02d:%02d", 10 + i / 3600, (i / 60) % 60, i % 60)
            out += """
            May 14 \(t) Phone SpringBoard(FrontBoard)[61] <Notice>: Asked to bootstrap a new process with identity: \(id)
            May 14 \(t) Phone SpringBoard(FrontBoard)[61] <Notice>: Bootstrapping app<\(bundle)> with intent foreground-interactive
            May 14 \(t) Phone kernel[0] <Notice>: /private/var/containers/Bundle/Application/5E0A/\(name).app/\(name)[\(pid)] ==> container
            May 14 \(t) Phone runningboardd(RunningBoard)[33] <Notice>: Now tracking process: [\(id):\(pid)]
            May 14 \(t) Phone runningboardd(RunningBoard)[33] <Notice>: Calculated state for \(id): running-active (role: UserInteractiveFocal)
            May 14 \(t) Phone SpringBoard(FrontBoard)[61] <Notice>: [app<\(bundle)>:\(pid)] Bootstrap success!
            May 14 \(t) Phone SpringBoard(FrontBoard)[61] <Notice>: [app<\(bundle)>:\(pid)] Setting process task state to: Running
            May 14 \(t) Phone runningboardd(RunningBoard)[33] <Notice>: Calculated state for \(id): running-active (role: UserInteractiveFocal)
            May 14 \(t) Phone runningboardd(RunningBoard)[33] <Notice>: [\(id):\(pid)] termination reported by launchd (2, 6, 6)
            May 14 \(t) Phone SpringBoard(FrontBoard)[61] <Notice>: [app<\(bundle)>:\(pid)] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:signal(2) code:SIGABRT(6)>>.
            May 14 \(t) Phone runningboardd(RunningBoard)[33] <Notice>: Calculated state for \(id): none (role: None)

            """
        }
        return out
    }()

    static func run(_ options: IngestOptions) -> [String] {
        ingest(text, name: "device.log", options: options).0.map {
            "\($0.line) \($0.kind.rawValue) \($0.subject?.pid ?? 0) \($0.subject?.process ?? "-") \($0.details?.system?.evidence?.count ?? 0)"
        }
    }

    @Test("ranges read by one, two or three threads give the events of one read", arguments: [1, 2, 3])
    func rangesAgree(jobs: Int) {
        let whole = Self.run(IngestOptions(jobs: 1, rangeBytes: 1 << 40))
        #expect(whole.count == 4_000)
        let split = Self.run(IngestOptions(jobs: jobs, rangeBytes: 64 << 10))
        #expect(split.count == whole.count)
        // Every event as one read gives it, its evidence included: a range reads the lines before it
        // for the stories left open there, and the lines after it for the stories it leaves open.
        #expect(split == whole)
    }
}
