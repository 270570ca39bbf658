import Testing
@testable import LifelineCore

/// The classifier's table of recognizers (`RecognizerTable`): named groups, triggers in the
/// prefilter, every family with a recognizer, and the order that decides lines readable two ways.
@Suite struct RecognizerTableTests {
    static func classify(_ message: String) -> Event? {
        EventClassifier().classify(RecordText(format: .print, message: message), file: "t.log", at: .line(1), extent: 1)
    }

    // MARK: Named groups

    @Test("a pattern's named groups resolve to their numbers once, and a match reads them by name")
    func namedGroups() throws {
        let p = try Pattern(#"(?<key>\w+)(?:=(?<value>\d+))?(?: (?<note>.*))?"#)
        #expect(p.group(named: "key")?.number == 1)
        #expect(p.group(named: "value")?.number == 2)
        #expect(p.group(named: "note")?.number == 3)
        #expect(p.group(named: "missing") == nil)
        let scratch = MatchScratch()
        let read = p.firstMatch(in: "qos=25", scratch: scratch) { m in (m[p.group("key")], m[p.group("value")], m[p.group("note")]) }
        let (key, value, note) = try #require(read)
        #expect(key == "qos" && value == "25")
        #expect(note == nil)  // a group that took no part reads as nil
        #expect(p.firstMatch(in: "", scratch: scratch) { _ in true } == nil)
    }

    // MARK: The table

    /// Every family a file declares; a new family's file adds its member here.
    static let declaredFamilies: [RecognizerFamily] = [.mainThreadChecker, .thread, .assertion, .exception, .swiftTrap,
                                                        .watchdog, .signal, .configuration, .systemLaunch, .systemProcess,
                                                        .systemScene, .systemIdentity] + RecognizerFamily.kill

    @Test("every declared family has a recognizer, and the families fit the bitset")
    func everyFamilyHasARecognizer() {
        let compiled = RecognizerTable.compiled
        for family in Self.declaredFamilies {
            #expect(RecognizerTable.ordered.contains { $0.family == family }, "family \(family) has no recognizer")
            #expect(compiled.bit(of: family) != nil)
        }
        #expect(Set(compiled.families).count == compiled.families.count)
        #expect(compiled.families.count <= 64)
        #expect(Set(compiled.families) == Set(Self.declaredFamilies), "a family is used that this test does not know: add it above")
    }

    @Test("every recognizer has triggers, and each is in the prefilter: the anchors that pick candidate lines and the family search")
    func triggersInPrefilter() {
        let events = Set(AnchorSet.events.literals)
        let families = Set(RecognizerTable.compiled.anchors.literals)
        #expect(Set(RecognizerTable.ordered.map(\.name)).count == RecognizerTable.ordered.count, "recognizer names are unique")
        for r in RecognizerTable.ordered {
            #expect(!r.triggers.isEmpty, "\(r.name) has no trigger")
            for t in r.triggers {
                let literal = String(t.filter { $0 != "|" })
                #expect(events.contains(literal), "\(r.name): \(literal) is not an event anchor")
                #expect(families.contains(literal), "\(r.name): \(literal) puts up no family")
            }
        }
    }

    @Test("the prefilter's trigger order names only triggers of the table, each once")
    func triggerOrder() {
        let all = Set(RecognizerTable.ordered.flatMap(\.triggers))
        #expect(Set(RecognizerTable.triggerOrder).count == RecognizerTable.triggerOrder.count)
        for t in RecognizerTable.triggerOrder { #expect(all.contains(t), "\(t) is no recognizer's trigger") }
        #expect(Array(RecognizerTable.compiled.triggers.prefix(RecognizerTable.triggerOrder.count)) == RecognizerTable.triggerOrder)
        #expect(Set(RecognizerTable.compiled.triggers) == all)
    }

    @Test("the table's order, which decides lines that two recognizers could read")
    func order() {
        #expect(RecognizerTable.ordered.map(\.name) == [
            "Main Thread Checker report", "completion off the main thread",
            "kill: process exited", "kill: terminating with context", "kill: termination reported by launchd",
            "kill: kernel memorystatus", "kill: legacy launchd exit", "kill: memory issue (Xcode)", "kill: forced crash report",
            "system: launch step", "system: bootstrap success", "system: launch cause", "system: process state", "system: task state",
            "system: scene state", "system: identity",
            "assertion failure",
            "uncaught exception", "exception without its banner", "C++ termination",
            "Swift trap", "Swift trap, old spelling",
            "ignored exception",
            "watchdog termination", "signal",
            "main-thread requirement", "SwiftUI background publishing", "main-thread I/O",
            "no scene configuration", "scene delegate not loaded", "scene life cycle not adopted", "UIKit client bug",
        ])
    }

    /// One line per recognizer, read by it (the kind it gives) and holding one of its own triggers.
    static let examples: [(recognizer: String, line: String, kind: EventKind)] = [
        ("Main Thread Checker report", "Main Thread Checker: UI API called on a background thread: -[UIApplication applicationState]", .mainThreadChecker),
        ("completion off the main thread", "Completion handler of -[SKStoreReviewController requestReview] arrived off the main thread", .offMainCompletion),
        ("kill: process exited", "[app<com.example.comet>:812] Process exited: <RBSProcessExitContext| specific, status:<RBSProcessExitStatus| domain:jetsam(1) code:per-process-limit(7)>>.", .jetsam),
        ("kill: terminating with context", "[app<com.example.comet>:845] Terminating with context: <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression: exhausted real (wall clock) time allowance of 10.00 seconds>", .watchdog),
        ("kill: termination reported by launchd", "[app<com.example.comet>:812] termination reported by launchd (2, 9, 9)", .killed),
        ("kill: kernel memorystatus", "memorystatus: killing_specific_process pid 812 [Comet] (per-process-limit 100:8) 2750000KB - memorystatus_available_pages: 31894", .jetsam),
        ("kill: legacy launchd exit", "(UIKitApplication:com.example.comet[0x8b2f][812]) Service exited due to signal: Segmentation fault: 11", .signal),
        ("kill: memory issue (Xcode)", "Message from debugger: Terminated due to memory issue", .jetsam),
        ("kill: forced crash report", "Forcing crash report of <FBApplicationProcess: 0x2812c7f00; Waypost; pid: 2231> (reason: 1, description: process-launch watchdog transgression: com.example.waypost exhausted real (wall clock) time allowance of 20.00 seconds)", .watchdog),
        ("system: launch step", "Bootstrapping app<com.example.comet> with intent foreground-interactive", .systemLaunchStep),
        ("system: bootstrap success", "[app<com.example.comet>:812] Bootstrap success!", .systemLaunchSuccess),
        ("system: launch cause", #"[FBSystemService][0x2e41] Received request to open "com.example.comet" from MobileSafari:431."#, .systemLaunchCause),
        ("system: process state", "Calculated state for app<com.example.comet(9F1C2D3E-0A1B-4C5D-8E9F-A0B1C2D3E4F5)>: running-suspended (role: None) (endowments: (null))", .systemProcessState),
        ("system: task state", "[app<com.example.comet>:812] Setting process task state to: Suspended", .systemTaskState),
        ("system: scene state", "[0x8681b9140:(FBSceneManager):sceneID:com.example.comet-default] Scene lifecycle state did change: Background", .systemSceneState),
        ("system: identity", "/private/var/containers/Bundle/Application/5E0A6C1B-7F3D-4E2A-9B8C-1D2E3F4A5B6C/Comet.app/Comet[812] ==> container", .systemIdentityStep),
        ("assertion failure", "*** Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:], UIApplication.m:3721", .assertion),
        ("uncaught exception", "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[Comet sky]: unrecognized selector'", .exception),
        ("exception without its banner", "'NSInternalInconsistencyException', reason: 'Invalid update'", .exception),
        ("C++ termination", "libc++abi: terminating due to uncaught exception of type std::runtime_error: boom", .exception),
        ("Swift trap", "Comet/SkyMap.swift:42: Fatal error: Unexpectedly found nil while unwrapping an Optional value", .swiftFatalError),
        ("Swift trap, old spelling", "fatal error: Index out of range", .swiftFatalError),
        ("ignored exception", "Ignored Exception: -[CometView layoutSubviews]: a view crashed while drawing", .exception),
        ("watchdog termination", "Termination Reason: FRONTBOARD 0x8badf00d", .watchdog),
        ("signal", "Message from debugger: Terminated due to signal 9", .signal),
        ("main-thread requirement", "-[UIApplication registerForRemoteNotifications] must be used from main thread only", .mainThreadRequired),
        ("SwiftUI background publishing", "Publishing changes from background threads is not allowed; make sure to publish values from the main thread", .backgroundPublish),
        ("main-thread I/O", "This method should not be called on the main thread as it may lead to UI unresponsiveness.", .mainThreadIO),
        ("no scene configuration", #"[SceneConfiguration] Info.plist contained no UIScene configuration dictionary (looking for configuration named "Default Configuration")"#, .sceneConfiguration),
        ("scene delegate not loaded", #"[SceneConfiguration] Encountered an error while loading the scene delegate: could not load class with name "CometSceneDelegate""#, .sceneConfiguration),
        ("scene life cycle not adopted", "CLIENT OF UIKIT REQUIRES UPDATE: This process does not adopt UIScene lifecycle. This will become an assert in a future version.", .sceneLifecycleNotAdopted),
        ("UIKit client bug", "BUG IN CLIENT OF UIKIT: The caller of UIApplication.beginBackgroundTask did not end it", .uikitClientBug),
    ]

    @Test("every recognizer has an example: read by it, and holding one of its own triggers")
    func examplesCoverTheTable() throws {
        #expect(Self.examples.map(\.recognizer) == RecognizerTable.ordered.map(\.name))
        for (name, line, kind) in Self.examples {
            let r = try #require(RecognizerTable.ordered.first { $0.name == name })
            #expect(r.triggers.contains { line.contains(String($0.filter { $0 != "|" })) }, "\(name): the example holds none of its triggers")
            #expect(r.pattern.firstMatch(in: line, scratch: MatchScratch()) != nil, "\(name): its pattern does not match its example")
            // No recognizer before it in the table reads the line.
            let before = RecognizerTable.ordered.prefix { $0.name != name }
            #expect(before.allSatisfy { $0.pattern.firstMatch(in: line, scratch: MatchScratch()) == nil || $0.family != r.family && !Self.putsUp(line, $0) },
                    "\(name): an earlier recognizer reads its example")
            #expect(Self.classify(line)?.kind == kind, "\(name): \(String(describing: Self.classify(line)?.kind))")
        }
    }

    /// Whether `line` holds a trigger of `r`'s family.
    static func putsUp(_ line: String, _ r: Recognizer) -> Bool {
        RecognizerTable.ordered.filter { $0.family == r.family }.flatMap(\.triggers)
            .contains { line.contains(String($0.filter { $0 != "|" })) }
    }

    // MARK: Precedence

    @Test("lines two recognizers could read go to the earlier one", arguments: [
        // RunningBoard's watchdog kill, not a watchdog line of the daemon's own: the event's subject is the app.
        ("[app<com.example.comet>:845] Terminating with context: <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression>", EventKind.watchdog, true),
        // launchd's `Killed: 9` is a kill line, not the signal line a shell prints.
        ("(UIKitApplication:com.example.comet[0x8b2f][812]) Service exited due to signal: Killed: 9", .killed, true),
        // An exception whose reason quotes a Swift trap stays the exception.
        ("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Fatal error: bad state'", .exception, false),
        // An exception whose reason states a main-thread requirement stays the exception.
        ("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'must be called from main thread only'", .exception, false),
        // Main Thread Checker's report names a background thread: it is the report.
        ("Main Thread Checker: UI API called on a background thread: -[UIView layoutIfNeeded] must be used from main thread only", .mainThreadChecker, false),
        // An exception whose reason quotes an assertion's words (no `***`, not at the start) stays the exception.
        ("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Assertion failure in -[UITableView _endCellAnimations], UITableView.m:2097'", .exception, false),
        // Banners whose `***` was lost are read by the same recognizers.
        ("Terminating app due to uncaught exception 'NSGenericException', reason: 'boom'", .exception, false),
        ("Assertion failure in -[UIApplication _runWithMainScene:transitionContext:completion:], UIApplication.m:3731", .assertion, false),
        // A failure that mentions UIScene is the failure, not a configuration message.
        ("*** Assertion failure in -[UIScene _setDelegate:], UIScene.m:912", .assertion, false),
    ])
    func precedence(_ line: String, _ kind: EventKind, _ hasSubject: Bool) throws {
        let e = try #require(Self.classify(line))
        #expect(e.kind == kind)
        #expect((e.subject != nil) == hasSubject)
    }

    @Test("a kill shape that reads a line as no failure ends the kill shapes, not the other recognizers")
    func dismissal() {
        // A voluntary exit: no event, and no other kill shape runs.
        #expect(Self.classify("[app<com.example.comet>:902] Process exited: <RBSProcessExitContext| voluntary>.") == nil)
        // A swipe-quit that also quotes an assertion: the kill shape dismisses it, the assertion is still read.
        let e = Self.classify("[app<com.example.comet>:871] Terminating with context: <RBSTerminateContext| domain:10 code:0xDEADFA11 explanation:*** Assertion failure in -[X y], X.m:1>")
        #expect(e?.kind == .assertion)
        #expect(e?.subject == nil)
    }

    @Test("a line with no trigger runs no recognizer: only callback spellings are looked for")
    func noTrigger() {
        "Sky map tiles decoded: 412 (zoom 14)".utf8.withContiguousStorageIfAvailable { buf in
            #expect(RecognizerTable.compiled.families(in: buf).isEmpty)
        }
        #expect(Self.classify("-[SceneDelegate sceneDidBecomeActive:]")?.kind == .sceneDidBecomeActive)
    }
}
