import Testing
@testable import LifelineCore

/// Failure, threading and configuration messages of reference §4 and §5, as real tools print them.
@Suite struct FailureShapeTests {
    static let header = "2024-03-01 10:00:00.123456+0800 MyApp[1234:5678] "

    @Test("one record, one event, with its kind", arguments: [
        ("*** Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:], /BuildRoot/Library/Caches/com.apple.xbs/Sources/UIKit_Sim/UIKit-3600.6.21/UIApplication.m:3680", "failure.assertion"),
        ("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'we should never make it here'", "failure.exception"),
        ("libc++abi: terminating due to uncaught exception of type NSException", "failure.exception"),
        ("MyApp/SceneDelegate.swift:42: Fatal error: Unexpectedly found nil while unwrapping an Optional value", "failure.swiftFatalError"),
        ("RealmSwift/Util.swift:169: Fatal error: Incorrect actor executor assumption; Expected same executor as MainActor.", "failure.swiftFatalError"),
        ("fatal error: unexpectedly found nil while unwrapping an Optional value", "failure.swiftFatalError"),
        ("Precondition failed: index out of range", "failure.swiftFatalError"),
        ("Abort trap: 6", "failure.signal"),
        ("Message from debugger: Terminated due to signal 9", "failure.signal"),
        ("Termination Description: SPRINGBOARD, scene-update watchdog transgression: com.example exhausted real (wall clock) time allowance of 10.00 seconds", "failure.watchdog"),
        ("[reports] Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]", "thread.mainThreadChecker"),
        ("Ignored Exception: -[UINSApplicationDelegate applicationShouldHandleReopen:hasVisibleWindows:]_block_invoke: _createNewForegroundSceneWithCompletionHandler Completion handler arrived off the main thread.", "thread.offMainCompletion"),
        ("This application is modifying the autolayout engine from a background thread after the engine was accessed from the main thread.", "thread.mainThreadRequired"),
        ("-[UIApplication applicationState] must be used from main thread only", "thread.mainThreadRequired"),
        ("Publishing changes from background threads is not allowed; make sure to publish values from the main thread (via operators like receive(on:)) on model updates.", "thread.backgroundPublish"),
        ("This method should not be called on the main thread as it may lead to UI unresponsiveness.", "thread.mainThreadIO"),
        ("[SceneConfiguration] Info.plist contained no UIScene configuration dictionary (looking for configuration named \"(no name)\")", "config.sceneConfiguration"),
        ("[WindowScene] There is no scene delegate set. A scene delegate class must be specified to use a main storyboard file.", "config.sceneConfiguration"),
        ("CLIENT OF UIKIT REQUIRES UPDATE: This process does not adopt UIScene lifecycle. This will become an assert in a future version.", "config.sceneLifecycleNotAdopted"),
        ("`UIScene` lifecycle will soon be required. Failure to adopt will result in an assert in the future.", "config.sceneLifecycleNotAdopted"),
        ("BUG IN CLIENT OF UIKIT: Custom scene placements are not supported. Please use one of the system provided ones.", "config.uikitClientBug"),
    ])
    func shapes(message: String, kind: String) {
        let withHeader = ingest(Self.header + message + "\n")
        #expect(withHeader.events.map(\.kind.rawValue) == [kind], "\(message)")
        let bare = ingest("start\n" + message + "\n")
        #expect(bare.events.map(\.kind.rawValue) == [kind], "bare: \(message)")
    }

    @Test("pasted shapes: Markdown-escaped *** and an exception without its prefix", arguments: [
        ("**\\* Assertion failure in -[XYZListController tableView:cellForRowAtIndexPath:], XYZListController.m:214", ["failure.assertion"]),
        ("**\\* Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Invalid update: invalid number of rows in section 0.'", ["failure.exception"]),
        ("'NSGenericException', reason: 'Application does not implement CarPlay template application lifecycle methods in its scene delegate.'", ["failure.exception"]),
        // Not an exception: prose that quotes a reason.
        ("the reason: 'timeout' came back from the server", []),
    ])
    func pastedShapes(message: String, kinds: [String]) {
        let bare = ingest("start\n" + message + "\n")
        #expect(bare.events.map(\.kind.rawValue) == kinds, "\(message)")
        if kinds == ["failure.exception"], message.hasPrefix("'") {
            #expect(bare.events.first?.details?.exceptionName == "NSGenericException")
            #expect(bare.events.first?.details?.reason == "Application does not implement CarPlay template application lifecycle methods in its scene delegate.")
        }
    }

    // MARK: Banners whose `***` was lost

    static let unstarredException = "Terminating app due to uncaught exception 'NSGenericException', reason: 'Application does not implement CarPlay template application lifecycle methods in its scene delegate.'"
    static let unstarredAssertion = "Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:], UIApplication.m:3731"

    /// The same line as bare print output, after an Xcode header, quoted in a Markdown paste
    /// (`> `) and standing alone in Markdown prose.
    static func inputs(_ line: String) -> [(name: String, file: String, text: String)] {
        [("print", "input.log", "start\n" + line + "\n"),
         ("xcode", "input.log", header + "start\n" + header + line + "\n"),
         ("markdown quote", "issue.md", "It crashes at launch:\n\n> " + line + "\n\nAny idea?\n"),
         ("markdown prose", "issue.md", "It crashes at launch with\n\n" + line + "\n\nAny idea?\n")]
    }

    @Test("an uncaught exception without its ***: one failure.exception with name and reason, in every input format")
    func unstarredException() throws {
        for input in Self.inputs(Self.unstarredException) {
            let r = ingest(input.text, name: input.file)
            #expect(r.events.map(\.kind) == [.exception], "\(input.name)")
            let d = try #require(r.events.first?.details, "\(input.name)")
            #expect(d.exceptionName == "NSGenericException", "\(input.name)")
            #expect(d.reason == "Application does not implement CarPlay template application lifecycle methods in its scene delegate.", "\(input.name)")
        }
        // After a logger's own prefix that is no header Lifeline knows.
        let prefixed = ingest("start\n[CrashReporter] 23:10:04 " + Self.unstarredException + "\n").events
        #expect(prefixed.map(\.kind) == [.exception])
        #expect(prefixed.first?.details?.exceptionName == "NSGenericException")
        // Its stack stays with it, as with the starred banner.
        let stacked = ingest(Self.unstarredException + "\n*** First throw call stack:\n(\n\t0   CoreFoundation   0x00000001110fafba __exceptionPreprocess + 242\n)\n").events
        #expect(stacked.map(\.kind) == [.exception])
        #expect(stacked.first?.details?.backtrace?.lines.first?.contains("__exceptionPreprocess") == true)
    }

    @Test("an assertion without its ***: one failure.assertion with method, file and line, in every input format")
    func unstarredAssertion() throws {
        for input in Self.inputs(Self.unstarredAssertion) {
            let r = ingest(input.text, name: input.file)
            #expect(r.events.map(\.kind) == [.assertion], "\(input.name)")
            let d = try #require(r.events.first?.details, "\(input.name)")
            #expect(d.method == "-[UIApplication _runWithMainScene:transitionContext:completion:]", "\(input.name)")
            #expect(d.sourceFile == "UIApplication.m", "\(input.name)")
            #expect(d.sourceLine == 3731, "\(input.name)")
        }
        // Without the file and line, and as a class method.
        let bare = ingest("start\nAssertion failure in +[XYZStore sharedStore]\n").events
        #expect(bare.map(\.kind) == [.assertion])
        #expect(bare.first?.details?.method == "+[XYZStore sharedStore]")
        #expect(bare.first?.details?.sourceLine == nil)
    }

    @Test("the starred banner is one event, also with the unstarred words in its record")
    func starredIsCountedOnce() {
        let text = Self.header + "*** Terminating app due to uncaught exception 'NSGenericException', reason: 'boom'\n"
            + "*** First throw call stack:\n(0x1b2b9980c 0x1b28c1fa4)\n"
            + "libc++abi: terminating due to uncaught exception of type NSException\n"
            + Self.header + "*** Assertion failure in -[UIApplication _run], UIApplication.m:1\n"
        let r = ingest(text)
        #expect(r.events.map(\.kind) == [.exception, .assertion])
        #expect(r.stats.events == 2)
        #expect(ingest("> **\\* Terminating app due to uncaught exception 'NSGenericException', reason: 'boom'\n", name: "issue.md").events.count == 1)
    }

    @Test("prose about an exception or an assertion is no event", arguments: [
        "Terminating app due to uncaught exception, see the attached crash log",
        "Terminating app due to uncaught exception 'NSGenericException' (no reason was printed)",
        "We saw Terminating app due to uncaught exception NSGenericException, reason: unknown",
        "The app keeps terminating due to uncaught exception of type NSException",
        "Assertion failure in the login flow, see FB12345",
        "Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:] happens after the update",
        "We hit an Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:], UIApplication.m:3731",
        "Assertion failure in UIApplication.m:3731",
    ])
    func proseIsNoEvent(_ line: String) {
        for input in Self.inputs(line) {
            let r = ingest(input.text, name: input.file)
            #expect(r.events.isEmpty, "\(input.name): \(r.events.map(\.kind))")
        }
    }

    @Test("an exception or assertion whose reason requires the main thread also gives thread.mainThreadRequired", arguments: [
        ("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Call must be made on main thread'", true),
        ("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: '-[UIView layoutIfNeeded] should only be called from the main thread'", true),
        ("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'threading violation: expected the main thread'", true),
        ("*** Terminating app due to uncaught exception 'NSGenericException', reason: 'Accessing UIApplication.applicationState requires the main thread'", true),
        ("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'UIApplication.registerForRemoteNotifications() must be used from main thread only'", true),
        ("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Modifications to the layout engine must not be performed from a background thread after it has been accessed from the main thread.'", true),
        ("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Invalid update: invalid number of rows in section 0.'", false),
        ("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'results are handed back to the main thread later'", false),
    ])
    func mainThreadReasons(message: String, requires: Bool) throws {
        let r = ingest(Self.header + message + "\n")
        #expect(r.events.map(\.kind.rawValue) == (requires ? ["failure.exception", "thread.mainThreadRequired"] : ["failure.exception"]))
        #expect(r.stats.events == r.events.count)
        if requires {
            let companion = try #require(r.events.last)
            #expect(companion.line == 1 && companion.pid == 1234 && companion.tid == 5678)
            #expect(companion.details?.exceptionName == r.events[0].details?.exceptionName)
            #expect(companion.details?.reason == r.events[0].details?.reason)
        }
        // The counting pass (--stats) counts both.
        let counted = ingest(Self.header + message + "\n", options: IngestOptions(jobs: 1, collectEvents: false))
        #expect(counted.stats.events == (requires ? 2 : 1))
    }

    @Test("assertion details: method, file and line")
    func assertionDetails() {
        let e = ingest(Self.header + "*** Assertion failure in -[FBSSceneImpl initWithQueue:identifier:display:settings:clientSettings:], /BuildRoot/FBSSceneImpl.m:114\n").events.first
        #expect(e?.details?.method == "-[FBSSceneImpl initWithQueue:identifier:display:settings:clientSettings:]")
        #expect(e?.details?.sourceFile == "/BuildRoot/FBSSceneImpl.m")
        #expect(e?.details?.sourceLine == 114)
    }

    @Test("an uncaught exception keeps its stack and the lines after it in one record")
    func exceptionRecord() {
        let text = Self.header + "*** Terminating app due to uncaught exception 'NSGenericException', reason: 'Application does not implement CarPlay template application lifecycle methods in its scene delegate.'\n"
            + "*** First throw call stack:\n(\n\t0   CoreFoundation                      0x00000001110fafba __exceptionPreprocess + 242\n\t1   libobjc.A.dylib                     0x0000000110f9c135 objc_exception_throw + 48\n)\n"
            + "libc++abi: terminating due to uncaught exception of type NSException\n"
            + Self.header + "next\n"
        let r = ingest(text)
        #expect(r.events.map(\.kind) == [.exception])
        let d = r.events[0].details
        #expect(d?.exceptionName == "NSGenericException")
        #expect(d?.reason == "Application does not implement CarPlay template application lifecycle methods in its scene delegate.")
        #expect(d?.backtrace?.lines.first?.contains("__exceptionPreprocess") == true)
        #expect(r.events[0].lineCount == 7)
        #expect(r.stats.records == 2 && r.stats.continuationLines == 6, "\(r.stats.balanceDescription)")
    }

    @Test("a multi-line exception reason is joined")
    func multiLineReason() {
        let r = ingest("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'first line\nsecond line'\n*** First throw call stack:\n(0x1b2b9980c 0x1b28c1fa4)\n")
        #expect(r.events.first?.details?.reason == "first line\nsecond line")
    }

    @Test("Main Thread Checker blocks: API, PID, TID, thread, queue, QoS and frames")
    func checkerBlock() {
        let text = """
        =================================================================
        Main Thread Checker: UI API called on a background thread: -[UIViewController presentedViewController]
        PID: 16941, TID: 3137868, Thread name: (none), Queue name: com.apple.photos.accessCallbacks, QoS: 0
        Backtrace:
        4   STPopup                             0x000000010313910c -[UIViewController(STPopup) st_presentedViewController] + 72
        5   PhotosUI                            0x000000020383bdd8 51E602DA-1E0B-3CA1-8DE6-43DD423F795D + 56792

        """
        let r = ingest(text)
        #expect(r.events.map(\.kind) == [.mainThreadChecker])
        let d = r.events.first?.details
        #expect(d?.api == "-[UIViewController presentedViewController]")
        #expect(d?.reportedPID == 16941)
        #expect(d?.threadName == nil)
        #expect(d?.queueName == "com.apple.photos.accessCallbacks")
        #expect(d?.qos == 0)
        #expect(d?.backtrace?.lines.count == 2)
        #expect(r.events.first?.line == 2)
        #expect(r.stats.nonLogLines == 1 && r.stats.continuationLines == 4, "\(r.stats.balanceDescription)")
    }

    @Test("the queue name survives stdout spliced into it")
    func splicedQueue() {
        let text = Self.header + "[reports] Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]\nPID: 1234, TID: 99, Thread name: (none), Queue name: NSOperationQueue 0x7f8685ca3840 (QOS: UNSPECTest Case 'testExample' started.\nIFIED), QoS: 0\nBacktrace:\n"
        let d = ingest(text).events.first?.details
        #expect(d?.qos == 0)
        #expect(d?.queueName?.hasPrefix("NSOperationQueue 0x7f8685ca3840") == true)
    }

    @Test("the configuration name is kept")
    func configurationName() {
        let e = ingest(Self.header + "[SceneConfiguration] Info.plist contained no UIScene configuration dictionary (looking for configuration named \"Default Configuration\")\n").events.first
        #expect(e?.details?.configurationName == "Default Configuration")
        #expect(e?.category == "SceneConfiguration")
    }
}
