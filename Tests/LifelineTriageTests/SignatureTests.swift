import Foundation
import Testing
import TestSupport
import LifelineCore
@testable import LifelineTriage

/// Files and ingestion for the signature tests: this suite's fixtures (`Fixtures/signatures/`), the
/// shared corpus (`../shared/corpus/` next to the repository root) and the sample logs.
private enum SigFiles {
    static let corpus = Repository.corpus
    static let fixtures = Repository.tests("LifelineTriageTests", "Fixtures/signatures")
    static let sampleLogs = Repository.sampleLogs

    /// A path of the form `corpus/x`, `samples/x` or a fixture name.
    static func path(_ name: String) -> String {
        if name.hasPrefix("corpus/") { return corpus.appendingPathComponent(String(name.dropFirst(7))).path }
        if name.hasPrefix("samples/") { return sampleLogs.appendingPathComponent(String(name.dropFirst(8))).path }
        return fixtures.appendingPathComponent(name).path
    }

    /// All events of a file.
    static func events(atPath path: String) -> [Event] {
        Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [path]).events
    }

    /// The only failure or Main Thread Checker event of a file (nil when there is not exactly one).
    static func failureEvent(atPath path: String) -> Event? {
        let failures = events(atPath: path).filter { $0.kind.isFailure || $0.kind == .mainThreadChecker }
        return failures.count == 1 ? failures[0] : nil
    }

    /// Writes `text` to a temporary file named `name`, returns the events of the file's only failure
    /// or Main Thread Checker record.
    static func failureEvent(text: String, name: String = "input.log") -> Event? {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-signature-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8)) else { return nil }
        return failureEvent(atPath: file.path)
    }

    /// The signature of a file's only failure event.
    static func signature(_ name: String) -> Signature? {
        failureEvent(atPath: path(name)).flatMap(Signatures.failure)
    }

    /// The signature of a fixture after textual edits (another occurrence of the crash, or another crash).
    static func signature(_ name: String, replacing edits: [(String, String)]) throws -> Signature? {
        var text = try String(contentsOfFile: path(name), encoding: .utf8)
        for (old, new) in edits {
            precondition(text.contains(old), "\(name) does not contain \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return failureEvent(text: text, name: (name as NSString).lastPathComponent).flatMap(Signatures.failure)
    }

    /// An Xcode console header (`NSLog` shape).
    static let header = "2024-03-01 10:00:00.123456+0800 MyApp[1234:5678] "
}

// MARK: - mask

@Suite("Signatures: mask")
struct SignatureMaskTests {
    @Test("masks UUIDs, addresses, paths, quoted values and numbers; keeps identifiers", arguments: [
        ("*** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds [0 .. 2]",
         "*** -[__NSArrayM objectAtIndex:]: index <n> beyond bounds [<n> .. <n>]"),
        ("<UIWindowScene: 0x7f83aff06ff0; role: UIWindowSceneSessionRoleApplication>",
         "<UIWindowScene: <addr>; role: UIWindowSceneSessionRoleApplication>"),
        ("session 6C6E451F-E9E4-4F3E-BCA2-A7293FD113C3 restored, slice 82d13d98-219e-3040-b62a-07a297007a7c",
         "session <uuid> restored, slice <uuid>"),
        ("Could not load NIB in bundle: 'NSBundle </private/var/containers/Bundle/Application/X/App.app> (loaded)' with name 'Main'",
         "Could not load NIB in bundle: '<…>' with name '<…>'"),
        ("No such file at /Users/dev/Library/Caches/feed.json, giving up", "No such file at <path>, giving up"),
        ("UserInfo={NSFilePath=/var/mobile/Containers/Data/Application/0C1F/Documents/db.sqlite}",
         "UserInfo={NSFilePath=<path>}"),
        ("Info.plist configuration \"Default Configuration\" for UIWindowSceneSessionRoleApplication",
         "Info.plist configuration '<…>' for UIWindowSceneSessionRoleApplication"),
        ("The file “feed.json” couldn’t be opened.", "The file '<…>' couldn’t be opened."),
        ("‘Main’ storyboard and 'Launch Screen'", "'<…>' storyboard and '<…>'"),
        ("representation's delegateClass can't conform", "representation's delegateClass can't conform"),
        ("it 'never closes", "it 'never closes"),
        ("  a \t b\n\n  c  ", "a b c"),
        ("UIKit-3600.6.21 iPhone14,2 arm64 $s5MyApp14ViewControllerC objects[1]",
         "UIKit-<n> iPhone14,<n> arm64 $s5MyApp14ViewControllerC objects[<n>]"),
        ("Failed to terminate gracefully after 5.0s (12ms, 3MB, 71% CPU)",
         "Failed to terminate gracefully after <n>s (<n>ms, <n>MB, <n>% CPU)"),
        ("64bit x86_64 utf8 0x12zz", "64bit x86_64 utf8 0x12zz"),
        ("allowance of 19.96 seconds, offset -12", "allowance of <n> seconds, offset -<n>"),
        ("Trace/BPT trap: 5 and a / b", "Trace/BPT trap: <n> and a / b"),
        ("line one\n  line 2", "line one line <n>"),
        ("file:///Users/dev/a.txt and https://example.com/x?id=3", "file:<path> and https:<path>"),
        ("", ""),
    ])
    func masks(input: String, expected: String) {
        #expect(Signatures.mask(input) == expected)
    }

    @Test("mask is idempotent", arguments: [
        "*** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds [0 .. 2]",
        "Could not load NIB in bundle: 'NSBundle </private/var/App.app> (loaded)' with name 'Main'",
        "<UIWindowScene: 0x7f83aff06ff0> 6C6E451F-E9E4-4F3E-BCA2-A7293FD113C3 at /tmp/x 5.0s “q”",
    ])
    func idempotent(input: String) {
        let once = Signatures.mask(input)
        #expect(Signatures.mask(once) == once)
    }

    @Test("two occurrences of one exception reason mask to the same text")
    func sameTemplate() {
        #expect(Signatures.mask("*** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds [0 .. 2]")
                == Signatures.mask("*** -[__NSArrayM objectAtIndex:]: index 7 beyond bounds [0 .. 3]"))
        #expect(Signatures.mask("*** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds [0 .. 2]")
                != Signatures.mask("*** -[__NSArrayM removeObjectAtIndex:]: index 5 beyond bounds [0 .. 2]"))
    }
}

// MARK: - Signature value

@Suite("Signatures: the Signature value")
struct SignatureValueTests {
    @Test("id is kind + the first 12 hex digits of FNV-1a 64 over kind, newline, key", arguments: [
        // Reference values computed independently (FNV-1a 64 of "a" is the published af63dc4c8601ec8c).
        (SignatureKind.signal, "SIGABRT", "signal-685510dd2499"),
        (SignatureKind.rule, "LC-S01 scene.didBecomeActive", "rule-3f66dacfb63d"),
        (SignatureKind.assertion, "-[UIApplication _runWithMainScene:transitionContext:completion:] | UIApplication.m:3741",
         "assertion-936b8e05da22"),
    ])
    func ids(kind: SignatureKind, key: String, id: String) {
        #expect(Signature(kind: kind, key: key, title: "whatever").id == id)
        #expect(SignatureHash.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
    }

    @Test("equality and hashing use kind and key, not the title")
    func equality() {
        let a = Signature(kind: .signal, key: "SIGABRT", title: "Signal SIGABRT")
        let b = Signature(kind: .signal, key: "SIGABRT", title: "Abort trap: 6")
        let c = Signature(kind: .crash, key: "SIGABRT", title: "Signal SIGABRT")
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a != c)
        #expect(a.id != c.id)
    }

    @Test("kinds: raw values, declaration order, Codable as raw value")
    func kinds() throws {
        #expect(SignatureKind.allCases.map(\.rawValue)
                == ["assertion", "exception", "fatal-error", "signal", "main-thread-checker", "main-thread-required", "crash", "watchdog", "killed", "hang", "resource", "slow-launch", "rule"])
        #expect(SignatureKind.allCases.sorted() == SignatureKind.allCases)
        #expect(SignatureKind.rule > .assertion && SignatureKind.crash < .watchdog)
        let data = try JSONEncoder().encode([SignatureKind.fatalError, .mainThreadChecker])
        #expect(String(decoding: data, as: UTF8.self) == #"["fatal-error","main-thread-checker"]"#)
        #expect(try JSONDecoder().decode([SignatureKind].self, from: data) == [.fatalError, .mainThreadChecker])
    }

    @Test("rule findings: id and callback in the key, name in the title")
    func rules() {
        let s = Signatures.rule(id: "LC-S01", name: "didBecomeActive without willEnterForeground", callback: "scene.didBecomeActive")
        #expect(s.kind == .rule)
        #expect(s.key == "LC-S01 scene.didBecomeActive")
        #expect(s.title == "LC-S01 didBecomeActive without willEnterForeground at scene.didBecomeActive")
        #expect(s.id == "rule-3f66dacfb63d")
        let none = Signatures.rule(id: "LC-A02", name: "no launch", callback: nil)
        #expect(none.key == "LC-A02 -")
        #expect(none.title == "LC-A02 no launch")
        #expect(s != Signatures.rule(id: "LC-S01", name: "didBecomeActive without willEnterForeground", callback: "scene.willResignActive"))
    }
}

// MARK: - Log events

/// One log record and the signature it must get.
struct SignatureCase: CustomTestStringConvertible, Sendable {
    var log: String
    var kind: SignatureKind
    var key: String
    var title: String? = nil
    var testDescription: String { String(log.prefix(70)) }
}

@Suite("Signatures: log events")
struct SignatureLogEventTests {
    static let cases: [SignatureCase] = [
        // Assertions: method + file name:line, whatever the path.
        SignatureCase(log: "*** Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:], /BuildRoot/Library/Caches/com.apple.xbs/Sources/UIKit_Sim/UIKit-3600.6.21/UIApplication.m:3741",
                      kind: .assertion, key: "-[UIApplication _runWithMainScene:transitionContext:completion:] | UIApplication.m",
                      title: "Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:] (UIApplication.m, system source)"),
        // UIKit's own source (a file named after the method's class): the line is a variant, not the key.
        SignatureCase(log: "*** Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:], UIApplication.m:3741",
                      kind: .assertion, key: "-[UIApplication _runWithMainScene:transitionContext:completion:] | UIApplication.m"),
        SignatureCase(log: "*** Assertion failure in -[FBSSceneImpl initWithQueue:identifier:display:settings:clientSettings:], /BuildRoot/Library/Caches/com.apple.xbs/Sources/FrontBoardServices/FrontBoard-626.2/FrontBoardServices/FBSSceneImpl.m:114",
                      kind: .assertion, key: "-[FBSSceneImpl initWithQueue:identifier:display:settings:clientSettings:] | FBSSceneImpl.m"),
        // Uncaught exceptions: name + masked reason.
        SignatureCase(log: "*** Terminating app due to uncaught exception 'NSRangeException', reason: '*** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds [0 .. 2]'",
                      kind: .exception, key: "NSRangeException | *** -[__NSArrayM objectAtIndex:]: index <n> beyond bounds [<n> .. <n>]",
                      title: "NSRangeException: *** -[__NSArrayM objectAtIndex:]: index <n> beyond bounds [<n> .. <n>]"),
        SignatureCase(log: "*** Terminating app due to uncaught exception 'NSUnknownKeyException', reason: '[<UIWindowScene 0x7f83aff06ff0> valueForUndefinedKey:]: this class is not key value coding-compliant for the key delegate.window.'",
                      kind: .exception, key: "NSUnknownKeyException | [<UIWindowScene <addr>> valueForUndefinedKey:]: this class is not key value coding-compliant for the key delegate.window."),
        SignatureCase(log: "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: 'Could not find a storyboard named 'Main' in bundle NSBundle </private/var/containers/Bundle/Application/0B1C/Demo.app> (loaded)'",
                      kind: .exception, key: "NSInvalidArgumentException | Could not find a storyboard named '<…>' in bundle NSBundle <<path>> (loaded)"),
        SignatureCase(log: "libc++abi: terminating due to uncaught exception of type std::runtime_error: disk full after 3 retries",
                      kind: .exception, key: "std::runtime_error | disk full after <n> retries"),
        SignatureCase(log: "Ignored Exception: -[NSKeyedUnarchiver decodeObjectForKey:]: value for key 'root' was of unexpected class 'NSNull'",
                      kind: .exception, key: "(ignored) | -[NSKeyedUnarchiver decodeObjectForKey:]: value for key '<…>' was of unexpected class '<…>'",
                      title: "Ignored exception: -[NSKeyedUnarchiver decodeObjectForKey:]: value for key '<…>' was of unexpected class '<…>'"),
        // Swift traps: trap + masked message + file name:line.
        SignatureCase(log: "MyApp/SceneDelegate.swift:42: Fatal error: Unexpectedly found nil while unwrapping an Optional value",
                      kind: .fatalError, key: "Fatal error | Unexpectedly found nil while unwrapping an Optional value | SceneDelegate.swift:42",
                      title: "Fatal error: Unexpectedly found nil while unwrapping an Optional value (SceneDelegate.swift:42)"),
        SignatureCase(log: "Swift/ContiguousArrayBuffer.swift:600: Fatal error: Index out of range",
                      kind: .fatalError, key: "Fatal error | Index out of range | ContiguousArrayBuffer.swift:600"),
        SignatureCase(log: "Precondition failed: index 12 out of range: file /Users/dev/MyApp/Store.swift, line 88",
                      kind: .fatalError, key: "Precondition failed | index <n> out of range | Store.swift:88"),
        SignatureCase(log: "fatal error: unexpectedly found nil while unwrapping an Optional value",
                      kind: .fatalError, key: "Fatal error | unexpectedly found nil while unwrapping an Optional value | -"),
        SignatureCase(log: "MyApp/FeedLoader.swift:19: Fatal error: 'try!' expression unexpectedly raised an error: Error Domain=NSCocoaErrorDomain Code=260 \"The file “feed.json” couldn’t be opened because there is no such file.\" UserInfo={NSFilePath=/var/mobile/Containers/Data/Application/0C1F/Documents/feed.json}",
                      kind: .fatalError, key: "Fatal error | '<…>' expression unexpectedly raised an error: Error Domain=NSCocoaErrorDomain Code=<n> '<…>' UserInfo={NSFilePath=<path>} | FeedLoader.swift:19"),
        // Signals: names, Darwin numbering.
        SignatureCase(log: "Abort trap: 6", kind: .signal, key: "SIGABRT", title: "Signal SIGABRT"),
        SignatureCase(log: "Message from debugger: Terminated due to signal 9", kind: .signal, key: "SIGKILL"),
        SignatureCase(log: "Killed: 9", kind: .signal, key: "SIGKILL"),
        SignatureCase(log: "Segmentation fault: 11", kind: .signal, key: "SIGSEGV"),
        SignatureCase(log: "Bus error: 10", kind: .signal, key: "SIGBUS"),
        SignatureCase(log: "Trace/BPT trap: 5", kind: .signal, key: "SIGTRAP"),
        // Watchdog lines.
        SignatureCase(log: "Termination Description: SPRINGBOARD, scene-update watchdog transgression: com.example exhausted real (wall clock) time allowance of 10.00 seconds",
                      kind: .watchdog, key: "scene-update | scene-update watchdog transgression: com.example exhausted real (wall clock) time allowance of <n> seconds",
                      title: "Watchdog scene-update: scene-update watchdog transgression: com.example exhausted real (wall clock) time allowance of <n> seconds"),
    ]

    @Test("each record gets its kind, key and title", arguments: cases)
    func signature(_ c: SignatureCase) throws {
        let event = try #require(SigFiles.failureEvent(text: SigFiles.header + c.log + "\n"))
        let s = try #require(Signatures.failure(event))
        #expect(s.kind == c.kind)
        #expect(s.key == c.key)
        if let title = c.title { #expect(s.title == title) }
        #expect(s.id.hasPrefix(c.kind.rawValue + "-") && s.id.count == c.kind.rawValue.count + 13)
    }

    @Test("occurrences that differ only in variable parts group together; different problems do not", arguments: [
        ("*** Terminating app due to uncaught exception 'NSRangeException', reason: '*** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds [0 .. 2]'",
         "*** Terminating app due to uncaught exception 'NSRangeException', reason: '*** -[__NSArrayM objectAtIndex:]: index 7 beyond bounds [0 .. 3]'", true),
        ("*** Terminating app due to uncaught exception 'NSRangeException', reason: '*** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds [0 .. 2]'",
         "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '*** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds [0 .. 2]'", false),
        ("*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[Foo bar]: unrecognized selector sent to instance 0x600000c04000'",
         "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[Foo bar]: unrecognized selector sent to instance 0x600003a1c2a0'", true),
        ("*** Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:], /BuildRoot/A/UIApplication.m:3741",
         "*** Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:], /Other/Root/UIApplication.m:3741", true),
        // Two UIKit builds put the same assertion at two lines of UIApplication.m: one problem (issue 17).
        ("*** Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:], UIApplication.m:3741",
         "*** Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:], UIApplication.m:3680", true),
        // In the app's own source the line is the problem's place.
        ("*** Assertion failure in -[XYZListController tableView:cellForRowAtIndexPath:], XYZListController.m:214",
         "*** Assertion failure in -[XYZListController tableView:cellForRowAtIndexPath:], XYZListController.m:230", false),
        ("MyApp/Store.swift:88: Fatal error: Index 4 out of range", "MyApp/Store.swift:88: Fatal error: Index 9 out of range", true),
        ("MyApp/Store.swift:88: Fatal error: Index out of range", "MyApp/Store.swift:88: Precondition failed: Index out of range", false),
        ("MyApp/Store.swift:88: Fatal error: Index out of range", "MyApp/Store.swift:91: Fatal error: Index out of range", false),
        ("Abort trap: 6", "Segmentation fault: 11", false),
        ("Killed: 9", "Message from debugger: Terminated due to signal 9", true),
    ])
    func grouping(a: String, b: String, same: Bool) throws {
        let ea = try #require(SigFiles.failureEvent(text: SigFiles.header + a + "\n"))
        let eb = try #require(SigFiles.failureEvent(text: SigFiles.header + b + "\n"))
        let sa = try #require(Signatures.failure(ea)), sb = try #require(Signatures.failure(eb))
        #expect((sa == sb) == same, "\(sa.key) vs \(sb.key)")
        #expect((sa.id == sb.id) == same)
    }

    @Test("Main Thread Checker: API + the first frame of the process's image, without address or offset")
    func mainThreadChecker() throws {
        let block = """
        2024-03-01 09:58:19.612087+0100 Field Notes[4821:918544] [reports] Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]
        PID: 4821, TID: 918544, Thread name: (none), Queue name: com.fieldnotes.sync, QoS: 25
        Backtrace:
        4   Field Notes                         0x0000000102a4c3f8 -[FNSyncEngine shouldDeferUploadForReason:] + 64
        5   Field Notes                         0x0000000102a4b9e0 __38-[FNSyncEngine scheduleUploadIfNeeded]_block_invoke + 120
        6   libdispatch.dylib                   0x0000000103c8c5a8 _dispatch_call_block_and_release + 32
        7   libdispatch.dylib                   0x0000000103c8e05c _dispatch_client_callout + 20

        """
        let e = try #require(SigFiles.failureEvent(text: block))
        let s = try #require(Signatures.failure(e))
        #expect(s.kind == .mainThreadChecker)
        #expect(s.key == "-[UIApplication applicationState] | Field Notes -[FNSyncEngine shouldDeferUploadForReason:]")
        #expect(s.title == "Main Thread Checker: -[UIApplication applicationState] from Field Notes -[FNSyncEngine shouldDeferUploadForReason:]")

        // The same report from another run (other pid, thread, addresses) groups with it.
        let again = block.replacingOccurrences(of: "4821", with: "5120").replacingOccurrences(of: "918544", with: "1002931")
            .replacingOccurrences(of: "0x0000000102a4", with: "0x0000000104b1")
        #expect(Signatures.failure(try #require(SigFiles.failureEvent(text: again))) == s)
    }

    @Test("Main Thread Checker frame choice", arguments: [
        // The process's image (here Xcode 16's debug dylib) wins over an earlier third-party framework frame.
        (SigFiles.header, "MyApp.debug.dylib $s5MyApp14ViewControllerC11viewDidLoadyyF"),
        // Without a process name: the first frame outside system images.
        ("", "PhotoKitBridge -[PKBImageLoader finish]"),
    ])
    func checkerFrameChoice(header: String, frame: String) throws {
        let block = """
        \(header)Main Thread Checker: UI API called on a background thread: -[UIView setNeedsLayout]
        PID: 812, TID: 99012, Thread name: (none), Queue name: com.apple.root.default-qos, QoS: 21
        Backtrace:
        3   libMainThreadChecker.dylib          0x0000000104e1f0a8 __ASSERT_API_MUST_BE_CALLED_FROM_MAIN_THREAD_FAILED__ + 352
        4   UIKitCore                           0x00000001853a52c0 -[UIView(Hierarchy) setNeedsLayout] + 28
        5   PhotoKitBridge                      0x00000001030a11c4 -[PKBImageLoader finish] + 40
        6   MyApp.debug.dylib                   0x0000000102f4e1a0 $s5MyApp14ViewControllerC11viewDidLoadyyF + 120
        7   libdispatch.dylib                   0x0000000103c8c5a8 _dispatch_call_block_and_release + 32

        """
        let e = try #require(SigFiles.failureEvent(text: block))
        let s = try #require(Signatures.failure(e))
        #expect(s.key == "-[UIView setNeedsLayout] | \(frame)")
    }

    @Test("only failures and Main Thread Checker reports have a failure signature")
    func otherKindsHaveNone() throws {
        let events = SigFiles.events(atPath: SigFiles.path("samples/xcode-console.log"))
            + SigFiles.events(atPath: SigFiles.path("samples/catalyst-reopen.log"))
        let signed: Set<EventKind> = [.assertion, .exception, .swiftFatalError, .signal, .crashReport, .watchdog, .mainThreadChecker]
        #expect(events.contains { signed.contains($0.kind) })
        #expect(events.contains { !signed.contains($0.kind) })
        #expect(events.contains { $0.kind == .offMainCompletion })
        for e in events {
            #expect((Signatures.failure(e) != nil) == signed.contains(e.kind), "\(e.kind) at line \(e.line)")
        }
    }
}

// MARK: - Events built field by field

/// An event with the given details (for normalization rules the log shapes do not reach).
private func sigEvent(_ kind: EventKind, process: String? = nil, message: String = "", _ fill: (inout EventDetails) -> Void) -> Event {
    var e = Event(file: "x", line: 1, format: .crash, kind: kind, message: message)
    e.process = process
    var d = EventDetails()
    fill(&d)
    e.details = d
    return e
}

@Suite("Signatures: normalization of event fields")
struct SignatureFieldTests {
    @Test("crash: PLCrashReporter bundle-id images and a bare signal type")
    func plcrashReporter() throws {
        let e = sigEvent(.crashReport, process: "Demo") { d in
            d.exceptionType = "SIGSEGV"
            d.signal = "SIGSEGV"
            d.bundleID = "com.example.demo"
            d.appFrames = [CrashFrame(index: 3, image: "com.example.demo", symbol: "-[DMOListController reload]", address: "0x0000000100004a2c"),
                           CrashFrame(index: 4, image: "com.example.demo", symbol: "-[DMOListController viewDidAppear:]", address: "0x0000000100004b10")]
        }
        let s = try #require(Signatures.failure(e))
        #expect(s.key == "SIGSEGV | Demo -[DMOListController reload] ; Demo -[DMOListController viewDidAppear:]")
        #expect(s.title == "SIGSEGV at Demo -[DMOListController reload]")
    }

    @Test("crash: exception type and signal spellings agree", arguments: [
        ("EXC_CRASH", "SIGABRT"), ("EXC_CRASH (SIGABRT)", nil), ("EXC_CRASH", "6"), ("EXC_CRASH (SIGABRT)", "SIGABRT"), ("EXC_CRASH", "abrt"),
    ] as [(String, String?)])
    func typeSpellings(type: String, signal: String?) throws {
        let e = sigEvent(.crashReport) { d in
            d.exceptionType = type
            d.signal = signal
        }
        #expect(try #require(Signatures.failure(e)).key == "EXC_CRASH (SIGABRT) | -")
    }

    @Test("crash without app frames: the top frames outside the abort and throw machinery")
    func noAppFrames() throws {
        let e = sigEvent(.crashReport, process: "Demo") { d in
            d.exceptionType = "EXC_BAD_ACCESS"
            d.signal = "SIGSEGV"
            d.backtrace = .lines(["0 libsystem_kernel.dylib 0x1e9b4a42c __pthread_kill",
                           "1 libsystem_pthread.dylib 0x1fd5fac0c pthread_kill",
                           "2 libobjc.A.dylib 0x18b089020 objc_msgSend",
                           "3 libobjc.A.dylib 0x18b089020 objc_msgSend",
                           "4 UIKitCore 0x1a2f7a0dc -[UITableView _updateVisibleCellsNow:]",
                           "5 UIKitCore 0x1a2f7b3e8 -[UITableView layoutSubviews]",
                           "6 UIKitCore 0x1a2f7b3f0 -[UIView(CALayerDelegate) layoutSublayersOfLayer:]"])
        }
        #expect(try #require(Signatures.failure(e)).key
                == "EXC_BAD_ACCESS (SIGSEGV) | libobjc.A.dylib objc_msgSend ; UIKitCore -[UITableView _updateVisibleCellsNow:] ; UIKitCore -[UITableView layoutSubviews]")
    }

    @Test("frame text: offsets, source locations, [inlined] and unsymbolicated forms", arguments: [
        ("4   MyApp   0x0000000102f4e1a0 $s5MyApp14ViewControllerC11viewDidLoadyyF + 120", "MyApp", "$s5MyApp14ViewControllerC11viewDidLoadyyF"),
        ("3   MyApp  0x0000000102f4e1a0 -[ViewController foo] + 36", "MyApp", "-[ViewController foo]"),
        ("1 Atlas 0x100a3c4d4 FeedItem.identifier.getter + 20 (FeedItem.swift:31) [inlined]", "Atlas", "FeedItem.identifier.getter"),
        ("4 Atlas 0x100a2796c thunk for @escaping @callee_guaranteed () -> ()", "Atlas", "thunk for @escaping @callee_guaranteed () -> ()"),
        ("6 libc++abi.dylib 0x1fd2c1068 std::__terminate(void (*)()) + 16 (cxa_handlers.cpp:59)", "libc++abi.dylib", "std::__terminate(void (*)())"),
        ("2   Crashy   0x100052d10 0x10004c000 + 27920", "Crashy", nil),
        ("2   Crashy   0x100052d10 Crashy + 27920", "Crashy", nil),
        ("5   Field Notes   0x0000000102a4b9e0 __38-[FNSyncEngine scheduleUploadIfNeeded]_block_invoke + 120", "Field Notes", "__38-[FNSyncEngine scheduleUploadIfNeeded]_block_invoke"),
        ("7 MyApp 0x1000 main (in MyApp) (main.m:17)", "MyApp", "main"),
    ] as [(String, String?, String?)])
    func frames(line: String, image: String?, symbol: String?) throws {
        let f = try #require(CrashFrame(text: line).flatMap(SignatureFrame.init(frame:)))
        #expect(f.image == image)
        #expect(f.symbol == symbol)
    }

    @Test("watchdog headlines: RBS contexts and namespaces reduced, codes kept", arguments: [
        ("<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:[app<com.campusdoit.app>:40401] Failed to terminate gracefully after 5.0s | ProcessVisibility: Unknown | ProcessState: Running | WatchdogEvent: process-exit | WatchdogVisibility: Background | WatchdogCPUStatistics: ( | \"Elapsed total CPU time (seconds): 2.250 (user 2.250, system 0.000), 11% CPU\", | ) reportType:CrashLog maxTerminationResistance:Interactive>",
         "process-exit", "process-exit | 0x8badf00d [app<com.campusdoit.app>:<n>] Failed to terminate gracefully after <n>s"),
        ("SPRINGBOARD, scene-create watchdog transgression: com.example.lifeline-demo exhausted real (wall clock) time allowance of 19.96 seconds | ProcessVisibility: Foreground | WatchdogEvent: scene-create",
         "scene-create", "scene-create | scene-create watchdog transgression: com.example.lifeline-demo exhausted real (wall clock) time allowance of <n> seconds"),
        ("<RBSTerminateContext| domain:10 code:0x000000008BADF00D explanation:scene-update watchdog transgression: app<com.example.demo>:77 exhausted real (wall clock) time allowance of 10.00 seconds reportType:CrashLog maxTerminationResistance:Interactive>",
         "scene-update", "scene-update | 0x8badf00d scene-update watchdog transgression: app<com.example.demo>:<n> exhausted real (wall clock) time allowance of <n> seconds"),
    ] as [(String, String?, String)])
    func watchdogHeadlines(reason: String, event: String?, key: String) throws {
        let e = sigEvent(.watchdog) { d in
            d.terminationReason = reason
            d.watchdogEvent = event
        }
        #expect(try #require(Signatures.failure(e)).key == key)
    }

    @Test("events without details still get a signature from their message")
    func noDetails() throws {
        let e = Event(file: "x", line: 1, format: .print, kind: .signal, message: "Segmentation fault: 11")
        #expect(try #require(Signatures.failure(e)).key == "SIGSEGV")
        let a = Event(file: "x", line: 1, format: .print, kind: .assertion, message: "*** Assertion failure in foo() at 0x1f00")
        #expect(try #require(Signatures.failure(a)).key == "*** Assertion failure in foo() at <addr> | -")
    }
}

// MARK: - Crash reports: .ips and text

/// One crash seen as an `.ips` file and as a text report, and the signature both must get.
struct CrashPair: CustomTestStringConvertible, Sendable {
    var ips: String
    var text: String
    var kind: SignatureKind
    var key: String
    var title: String
    var testDescription: String { "\(ips) / \(text)" }
}

@Suite("Signatures: crash reports")
struct SignatureCrashReportTests {
    static let pairs: [CrashPair] = [
        // The shared corpus .ips (Swift assertion in unsymbolicated app code during launch) and the text
        // form of the same crash.
        CrashPair(ips: "corpus/ios16-launch-crash.ips", text: "ios16-launch-crash.crash", kind: .crash,
                  key: "EXC_BREAKPOINT (SIGTRAP) | libswiftCore.dylib _assertionFailure(_:_:file:line:flags:) ; iOSCrashingTest ??? ; UIKitCore -[UIViewController _sendViewDidLoadWithAppearanceProxyObjectTaggingEnabled]",
                  title: "EXC_BREAKPOINT (SIGTRAP) at libswiftCore.dylib _assertionFailure(_:_:file:line:flags:)"),
        // An uncaught NSInvalidArgumentException during launch (the .ips of SampleLogs/exception-launch.crash).
        CrashPair(ips: "kiln-exception-launch.ips", text: "kiln-exception-launch.crash", kind: .crash,
                  key: "EXC_CRASH (SIGABRT) | NSInvalidArgumentException: *** -[__NSPlaceholderDictionary initWithObjects:forKeys:count:]: attempt to insert nil object from objects[<n>] | Kiln -[KLNAnalytics startWithLaunchOptions:] ; Kiln -[AppDelegate application:didFinishLaunchingWithOptions:] ; Kiln main",
                  // Titles are cut at 200 characters.
                  title: String("EXC_CRASH (SIGABRT): NSInvalidArgumentException: *** -[__NSPlaceholderDictionary initWithObjects:forKeys:count:]: attempt to insert nil object from objects[<n>] at Kiln -[KLNAnalytics startWithLaunchOptions:]".prefix(199)) + "…"),
        // SIGSEGV on a background queue in Swift code, with an inlined frame.
        CrashPair(ips: "atlas-sigsegv-sync.ips", text: "atlas-sigsegv-sync.crash", kind: .crash,
                  key: "EXC_BAD_ACCESS (SIGSEGV) | Atlas FeedItem.identifier.getter ; Atlas FeedStore.merge(_:into:) ; Atlas closure #1 in FeedSyncEngine.apply(_:)",
                  title: "EXC_BAD_ACCESS (SIGSEGV) at Atlas FeedItem.identifier.getter"),
        // A FRONTBOARD 0x8badf00d scene-update watchdog kill.
        CrashPair(ips: "tidewater-watchdog-scene-update.ips", text: "tidewater-watchdog-scene-update.crash", kind: .watchdog,
                  key: "scene-update | 0x8badf00d scene-update watchdog transgression: app<com.example.tidewater(<uuid>)>:<n> exhausted real (wall clock) time allowance of <n> seconds",
                  title: "Watchdog scene-update: 0x8badf00d scene-update watchdog transgression: app<com.example.tidewater(<uuid>)>:<n> exhausted real (wall clock) time allowance of <n> seconds"),
    ]

    static func fromCorpus(_ p: CrashPair) -> Bool { p.ips.hasPrefix("corpus/") }

    @Test("the .ips and the text report of one crash get the same signature", arguments: pairs.filter { !fromCorpus($0) })
    func pair(_ p: CrashPair) throws {
        let ipsEvent = try #require(SigFiles.failureEvent(atPath: SigFiles.path(p.ips)))
        let textEvent = try #require(SigFiles.failureEvent(atPath: SigFiles.path(p.text)))
        #expect(ipsEvent.format == .ips && textEvent.format == .crash)
        let a = try #require(Signatures.failure(ipsEvent))
        let b = try #require(Signatures.failure(textEvent))
        #expect(a.kind == p.kind)
        #expect(a.key == p.key)
        #expect(a.title == p.title)
        #expect(b.kind == a.kind && b.key == a.key && b.title == a.title && b.id == a.id, "text: \(b.key)")
    }

    @Test("the .ips of the shared corpus and the text report of that crash get the same signature", .tags(.corpus), .needsCorpus,
          arguments: pairs.filter(fromCorpus))
    func corpusPair(_ p: CrashPair) throws { try pair(p) }

    @Test("the hand-written SampleLogs text report groups with the .ips of the same crash")
    func sampleLogTextMatchesIPS() throws {
        let sample = try #require(SigFiles.signature("samples/exception-launch.crash"))
        let ips = try #require(SigFiles.signature("kiln-exception-launch.ips"))
        #expect(sample == ips, "\(sample.key)")
    }

    @Test("the SampleLogs watchdog .ips: scene-create with the 0x8badf00d code")
    func sampleWatchdog() throws {
        let s = try #require(SigFiles.signature("samples/watchdog-scene-create.ips"))
        #expect(s.kind == .watchdog)
        #expect(s.key == "scene-create | 0x8badf00d scene-create watchdog transgression: app<com.example.meridian(<uuid>)>:<n> exhausted real (wall clock) time allowance of <n> seconds")
    }

    @Test("different crashes get different signatures", .tags(.corpus), .needsCorpus)
    func allDistinct() throws {
        var names = Self.pairs.map(\.ips)
        names += ["samples/watchdog-scene-create.ips", "corpus/macos-crash-report-plcrashreporter.crash"]
        let signatures = try names.map { try #require(SigFiles.signature($0), "\($0)") }
        #expect(Set(signatures).count == names.count, "\(signatures.map(\.key))")
        #expect(Set(signatures.map(\.id)).count == names.count)
    }

    @Test("another occurrence of a crash (other device, pid, addresses, values) groups with it", arguments: [
        ("kiln-exception-launch.crash", [("7E2C9F04-1B6A-4D83-A5E7-3C90F18D2B64", "0D51B6A8-93E2-4C07-8F1A-52C9E7D04B36"),
                                         ("Kiln [2417]", "Kiln [5120]"), ("objects[1]", "objects[0]"),
                                         ("0x1029c", "0x104a1c"), ("iPhone14,5", "iPhone15,2"),
                                         ("iPhone OS 17.6.1 (21G93)", "iPhone OS 17.7 (21H16)")]),
        ("atlas-sigsegv-sync.ips", [("\"pid\" : 1733", "\"pid\" : 402"), ("\"base\" : 4305518592", "\"base\" : 4311023616"),
                                    ("KERN_INVALID_ADDRESS at 0x0000000000000010", "KERN_INVALID_ADDRESS at 0x0000000000000018")]),
        ("tidewater-watchdog-scene-update.crash", [("(9A1E5C37-4B80-4F26-A3D9-7E02C5B6F814)>:1288", "(0B7D4E21-6C95-4A38-B2F0-91E3D5A7C468)>:733"),
                                                   ("14.230", "12.004"), ("71% CPU", "60% CPU")]),
    ] as [(String, [(String, String)])])
    func sameCrashElsewhere(name: String, edits: [(String, String)]) throws {
        let original = try #require(SigFiles.signature(name))
        let other = try #require(try SigFiles.signature(name, replacing: edits))
        #expect(other == original, "\(other.key)")
    }

    @Test("a change in what identifies a crash gives another signature", arguments: [
        ("kiln-exception-launch.crash", [("-[KLNAnalytics startWithLaunchOptions:]", "-[KLNAnalytics flushPendingEvents]")]),
        ("kiln-exception-launch.crash", [("NSInvalidArgumentException", "NSGenericException")]),
        ("kiln-exception-launch.ips", [("attempt to insert nil object from", "attempt to remove nil object from")]),
        ("atlas-sigsegv-sync.ips", [("\"SIGSEGV\"", "\"SIGBUS\"")]),
        ("atlas-sigsegv-sync.crash", [("closure #1 in FeedSyncEngine.apply(_:)", "closure #2 in FeedSyncEngine.apply(_:)")]),
        ("tidewater-watchdog-scene-update.ips", [("scene-update", "scene-create")]),
    ] as [(String, [(String, String)])])
    func differentCrash(name: String, edits: [(String, String)]) throws {
        let original = try #require(SigFiles.signature(name))
        let other = try #require(try SigFiles.signature(name, replacing: edits))
        #expect(other != original, "\(other.key)")
        #expect(other.id != original.id)
    }
}

/// Issue 17, item 10: two UIKit builds put one assertion at two lines of UINSApplicationDelegate.m,
/// and triage showed two signatures whose titles, cut at a fixed width, looked the same.
@Suite("Signatures: system source lines are variants, titles keep what tells them apart")
struct SystemSourceVariantTests {
    static func assertion(_ method: String, _ file: String, _ line: Int) -> Event {
        sigEvent(.assertion, message: "*** Assertion failure in \(method), \(file):\(line)") {
            $0.method = method
            $0.sourceFile = file
            $0.sourceLine = line
        }
    }

    @Test("an assertion in a system framework's source is one signature whatever the line; the line is a variant")
    func systemLineIsAVariant() throws {
        let path = "/AppleInternal/BuildRoot/Library/Caches/com.apple.xbs/Sources/UIKitCore/UIKit-4069.36.2/UIKitMacHelper/App/UINSApplicationDelegate.m"
        let method = "-[UINSApplicationDelegate applicationShouldHandleReopen:hasVisibleWindows:]"
        let a = try #require(Signatures.failure(Self.assertion(method, path, 886)))
        let b = try #require(Signatures.failure(Self.assertion(method, path, 912)))
        #expect(a.id == b.id && a.title == b.title)
        #expect(a.title.hasSuffix("(UINSApplicationDelegate.m, system source)"))
        #expect(a.variant == "UINSApplicationDelegate.m:886" && b.variant == "UINSApplicationDelegate.m:912")
        // Without a path: a file named after the method's UIKit class is UIKit's.
        let t1 = try #require(Signatures.failure(Self.assertion("-[UITableView _dequeueReusableCellWithIdentifier:forIndexPath:usingPresentationValues:]", "UITableView.m", 8795)))
        let t2 = try #require(Signatures.failure(Self.assertion("-[UITableView _dequeueReusableCellWithIdentifier:forIndexPath:usingPresentationValues:]", "UITableView.m", 8811)))
        #expect(t1.id == t2.id && t1.variant == "UITableView.m:8795")
    }

    @Test("an assertion in the app's own source keeps its line: two lines are two problems")
    func appLineIsTheProblem() throws {
        let a = try #require(Signatures.failure(Self.assertion("-[XYZListController tableView:cellForRowAtIndexPath:]", "XYZListController.m", 214)))
        let b = try #require(Signatures.failure(Self.assertion("-[XYZListController tableView:cellForRowAtIndexPath:]", "XYZListController.m", 230)))
        #expect(a.id != b.id && a.variant == nil)
        #expect(a.title.hasSuffix("(XYZListController.m:214)"))
        // A UI-prefixed file of the app's that is not the method's class is the app's.
        let c = try #require(Signatures.failure(Self.assertion("-[XYZListController reload]", "UIHelpers.m", 12)))
        #expect(c.variant == nil && c.title.hasSuffix("(UIHelpers.m:12)"))
    }

    @Test("variants are counted, merged through partials and shown in every report")
    func variantsAreCounted() throws {
        var tally = TriageTally()
        let path = "/AppleInternal/Library/Caches/com.apple.xbs/Sources/UIKitCore/UINSApplicationDelegate.m"
        for line in [912, 912, 886] {
            let e = Self.assertion("-[UINSApplicationDelegate applicationShouldHandleReopen:hasVisibleWindows:]", path, line)
            tally.record(Signatures.failure(e)!, Occurrence(file: "x", line: line, time: nil, excerpt: ""), session: "x#P\(line)",
                         phase: .foregroundActive, severity: .error, release: Release())
        }
        let stats = try #require(tally.signatures.values.first)
        #expect(tally.signatures.count == 1 && stats.count == 3)
        #expect(stats.rankedVariants.map(\.value) == ["UINSApplicationDelegate.m:912", "UINSApplicationDelegate.m:886"])
        #expect(TriageText.variantLine(stats) == "variants: UINSApplicationDelegate.m:912 ×2, UINSApplicationDelegate.m:886 ×1")
    }

    @Test("a title cut to the terminal's width keeps its (file:line) end")
    func clippedTitlesStayApart() {
        let a = "Assertion failure in -[UINSApplicationDelegate applicationShouldHandleReopen:hasVisibleWindows:] (UINSApplicationDelegate.m:886)"
        let b = "Assertion failure in -[UINSApplicationDelegate applicationShouldHandleReopen:hasVisibleWindows:] (UINSApplicationDelegate.m:912)"
        let (x, y) = (clipTitle(a, 80), clipTitle(b, 80))
        #expect(x.count == 80 && y.count == 80 && x != y)
        #expect(x.hasSuffix("… (UINSApplicationDelegate.m:886)"), "\(x)")
        #expect(clipTitle("short", 80) == "short")
    }
}

/// A triage example at a byte offset of a binary input survives a partial result written and read back (issue 29).
@Suite struct OccurrencePositionTests {
    @Test("an example's line or byte offset is written to a partial result and read back")
    func partialRoundTrip() throws {
        for o in [Occurrence(file: "a.log", line: 12, time: nil, excerpt: "x"),
                  Occurrence(file: "b.tracev3", position: .byte(4096), time: nil, excerpt: "y")] {
            var w = JSONWriter()
            TriagePartial.write(o, to: &w)
            let back = TriagePartial.occurrence(try JSONSerialization.jsonObject(with: Data(w.text.utf8)))
            #expect(back == o)
        }
        #expect(Occurrence(file: "b.tracev3", position: .byte(4096), time: nil, excerpt: "").place == "b.tracev3:@0x1000")
    }
}
