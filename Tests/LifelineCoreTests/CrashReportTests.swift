import Foundation
import Testing
import TestSupport
@testable import LifelineCore

/// Locates the shared corpus (`../shared/corpus/` next to the repository root) and this suite's
/// fixtures (`Fixtures/crash/` next to this file).
enum CrashFiles {
    static let testDirectory = Repository.tests("LifelineCoreTests")

    static func corpus(_ name: String) throws -> String {
        try String(contentsOf: Repository.corpus(name), encoding: .utf8)
    }

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: testDirectory.appendingPathComponent("Fixtures/crash/\(name)"), encoding: .utf8)
    }
}

private func crashSymbols(_ frames: [CrashFrame]) -> [String?] { frames.map(\.symbol) }

/// Expects `parse` to throw a `CrashReportError` and returns it.
private func crashParseError(_ text: String) -> CrashReportError? {
    do {
        _ = try CrashReportParser.parse(text)
        return nil
    } catch let error as CrashReportError {
        return error
    } catch {
        return nil
    }
}

@Suite("Crash reports: shared corpus", .tags(.corpus), .needsCorpus)
struct CrashReportCorpusTests {

    @Test("iOS 16 .ips (bug_type 309): assertion during launch inside scene-lifecycle frames")
    func ios16LaunchCrash() throws {
        let r = try CrashReportParser.parse(try CrashFiles.corpus("ios16-launch-crash.ips"))
        #expect(r.source == .ips)
        #expect(r.bugType == "309")
        #expect(r.truncated == false)
        #expect(r.process == "iOSCrashingTest")
        #expect(r.pid == 455)
        #expect(r.bundleID == "jp.mahdi.iOSCrashingTest")
        #expect(r.appVersion == "1.0")
        #expect(r.osVersion == "iPhone OS 16.0 (20A362)")
        #expect(r.timestamp == "2022-09-18 15:28:37.3451 +0900")
        #expect(r.incidentIdentifier == "356753AC-2172-45DC-977A-11F2328980D0")
        #expect(r.exceptionType == "EXC_BREAKPOINT")
        #expect(r.signal == "SIGTRAP")
        #expect(r.exceptionCodes == "0x0000000000000001, 0x000000018a98520c")
        #expect(r.terminationNamespace == "SIGNAL")
        #expect(r.terminationCode == "0x5")
        #expect(r.terminationReasons == ["Trace/BPT trap: 5"])
        #expect(r.isWatchdog == false)
        #expect(r.watchdogEvent == nil)
        #expect(r.exceptionName == nil)
        #expect(r.crashedThread == 0)
        #expect(r.crashedThreadIsMain == true)
        #expect(r.crashedThreadQueue == "com.apple.main-thread")
        #expect(r.lastExceptionBacktrace.isEmpty)

        #expect(r.crashedThreadFrames.count == 48)
        // Frame 0: libswiftCore base 6619975680 + imageOffset 229900 = 0x18a98520c (= exception code 2).
        #expect(r.crashedThreadFrames[0] == CrashFrame(index: 0, image: "libswiftCore.dylib",
                                                       symbol: "_assertionFailure(_:_:file:line:flags:)", address: "0x18a98520c",
                                                       imageUUID: "a49d560c-1323-3bfb-a7e8-762be0c1b2ef", imageBase: 6_619_975_680, arch: "arm64e"))
        #expect(r.crashedThreadFrames[2] == CrashFrame(index: 2, image: "iOSCrashingTest", symbol: nil, address: "0x1022364bc",
                                                       imageUUID: "82d13d98-219e-3040-b62a-07a297007a7c", imageBase: 4_330_815_488, arch: "arm64"))
        #expect(r.crashedThreadFrames[47].symbol == "start")

        // Life-cycle frames visible in the file (checked by hand): frames 11-20, 22-30 and 32.
        #expect(r.lifecycleFrames.map(\.index) == Array(11...20) + Array(22...30) + [32])
        let lifecycle = crashSymbols(r.lifecycleFrames).compactMap { $0 }
        #expect(lifecycle.first == "-[UIWindow _mainQueue_makeKeyAndVisible]")
        #expect(lifecycle.contains("-[UIApplication _runWithMainScene:transitionContext:completion:]"))
        #expect(lifecycle.contains("-[_UISceneLifecycleMultiplexer completeApplicationLaunchWithFBSScene:transitionContext:]"))
        #expect(lifecycle.contains("_UIScenePerformActionsWithLifecycleActionMask"))
        #expect(lifecycle.contains("-[UIScene scene:didUpdateWithDiff:transitionContext:completion:]"))
        #expect(lifecycle.contains("-[UIApplication workspace:didCreateScene:withTransitionContext:completion:]"))
        #expect(lifecycle.contains("-[UIApplicationSceneClientAgent scene:didInitializeWithEvent:completion:]"))
        #expect(!lifecycle.contains("+[BSAnimationSettings(UIKit) tryAnimatingWithSettings:fromCurrentState:actions:completion:]"))
        #expect(!lifecycle.contains("UIApplicationMain"))

        // The app's own unsymbolicated frames (imageIndex 1).
        #expect(r.appFrames.map(\.index) == [2, 3, 46])
        #expect(r.appFrames.allSatisfy { $0.image == "iOSCrashingTest" && $0.symbol == nil })
    }

    @Test("macOS PLCrashReporter text report: SIGSEGV on thread 0, no lifecycle frames")
    func plCrashReporter() throws {
        let r = try CrashReportParser.parse(try CrashFiles.corpus("macos-crash-report-plcrashreporter.crash"))
        #expect(r.source == .text)
        #expect(r.bugType == nil)
        #expect(r.process == "iTubeDownloader")
        #expect(r.pid == 590)
        #expect(r.bundleID == "com.AlphaSoft.iTubeDownloader")
        #expect(r.appVersion == nil)
        #expect(r.appBuild == "512")                     // PLCrashReporter writes CFBundleVersion alone
        #expect(r.osVersion == "Mac OS X 10.8.5 (12F45)")
        #expect(r.timestamp == "2014-07-16 00:25:09 +0000")
        #expect(r.exceptionType == "SIGSEGV")
        #expect(r.signal == "SIGSEGV")
        #expect(r.exceptionCodes == "SEGV_MAPERR at 0x8")
        #expect(r.terminationReasons.isEmpty)
        #expect(r.isWatchdog == false)
        #expect(r.crashedThread == 0)
        #expect(r.crashedThreadIsMain == true)
        #expect(r.crashedThreadQueue == nil)
        #expect(r.crashedThreadFrames.count == 27)
        #expect(r.crashedThreadFrames[0] == CrashFrame(index: 0, image: "com.apple.JavaScriptCore",
                                                       symbol: "JSValueIsString", address: "0x00007fff99d89d4b"))
        #expect(r.crashedThreadFrames[5].symbol == "-[XCDYouTubeVideoOperation connectionDidFinishLoading:]")
        #expect(r.crashedThreadFrames[26] == CrashFrame(index: 26, image: "libdyld.dylib", symbol: "start", address: "0x00007fff8f9e97e1"))
        #expect(r.lifecycleFrames.isEmpty)
        #expect(r.lastExceptionBacktrace.isEmpty)
        // The executable's only frame is on thread 14, but the crash is in a framework the app ships
        // (its Binary Images path is inside iTubeDownloader.app): that is the app's code.
        #expect(r.appFrames.map(\.index) == [1, 2, 3, 4, 5])
        #expect(r.firstAppFrame?.symbol == "-[XCDYouTubePlayerScript unscrambleSignature:]")
        #expect(r.cause == .badAccess)
    }
}

extension CrashReportCorpusTests {
    @Test("every cut of the corpus .ips is a truncated report (or a header error), never a trap")
    func cutsOfIPS() throws {
        let text = try CrashFiles.corpus("ios16-launch-crash.ips")
        let headerEnd = try #require(text.firstIndex(of: "\n"))
        var cut = text.startIndex
        while cut < text.endIndex {
            let prefix = String(text[..<cut])
            if cut <= headerEnd {
                if !prefix.isEmpty {
                    let error = crashParseError(prefix)
                    #expect(error?.kind == .malformedJSON && error?.line == 1, "cut at \(prefix.count)")
                }
            } else {
                let r = try CrashReportParser.parse(prefix)
                #expect(r.truncated, "cut at \(prefix.count)")
                #expect(r.process == "iOSCrashingTest")
                #expect(r.bugType == "309")
            }
            cut = text.index(cut, offsetBy: 211, limitedBy: text.endIndex) ?? text.endIndex
        }
        #expect(try CrashReportParser.parse(text).truncated == false)
    }

    @Test("every line prefix of the corpus text report parses or is rejected cleanly")
    func cutsOfText() throws {
        let lines = try CrashFiles.corpus("macos-crash-report-plcrashreporter.crash").split(separator: "\n", omittingEmptySubsequences: false)
        for n in stride(from: 1, through: lines.count, by: 7) {
            let prefix = lines[..<n].joined(separator: "\n")
            do {
                let r = try CrashReportParser.parse(prefix)
                #expect(r.process == "iTubeDownloader")
                #expect(r.truncated == false)
            } catch let error as CrashReportError {
                #expect(error.kind == .notACrashReport, "\(n) lines")
            }
        }
    }
}

@Suite("Crash reports: fixtures")
struct CrashReportFixtureTests {

    @Test("text iOS SIGABRT with an uncaught exception and a symbolicated Last Exception Backtrace")
    func textUncaughtException() throws {
        let r = try CrashReportParser.parse(try CrashFiles.fixture("ios-text-sigabrt-uncaught.crash"))
        #expect(r.source == .text)
        #expect(r.incidentIdentifier == "6A1F2C0E-3B4D-4E5F-8A9B-0C1D2E3F4A5B")
        #expect(r.process == "LifelineDemo")
        #expect(r.pid == 4242)
        #expect(r.bundleID == "com.example.LifelineDemo")
        #expect(r.appVersion == "2.1")
        #expect(r.appBuild == "7")
        #expect(r.osVersion == "iPhone OS 17.3.1 (21D61)")
        #expect(r.timestamp == "2024-03-02 09:14:07.5123 +0100")
        #expect(r.exceptionType == "EXC_CRASH")
        #expect(r.signal == "SIGABRT")
        #expect(r.terminationNamespace == "SIGNAL")
        #expect(r.terminationCode == "0x6")
        #expect(r.terminationReasons == ["Abort trap: 6"])
        #expect(r.exceptionName == "NSInvalidArgumentException")
        #expect(r.exceptionReason == "*** -[__NSPlaceholderDictionary initWithObjects:forKeys:count:]: attempt to insert nil object from objects[0]")
        #expect(r.applicationSpecificInformation.count == 2)
        #expect(r.applicationSpecificInformation.last == "abort() called")
        #expect(r.crashedThread == 0)
        #expect(r.crashedThreadIsMain == true)
        #expect(r.crashedThreadQueue == "com.apple.main-thread")
        #expect(r.crashedThreadFrames.count == 15)
        #expect(r.crashedThreadFrames[0] == CrashFrame(index: 0, image: "libsystem_kernel.dylib",
                                                       symbol: "__pthread_kill", address: "0x00000001e8b2e0dc"))

        #expect(r.lastExceptionBacktrace.count == 22)
        #expect(r.lastExceptionBacktrace[0].symbol == "__exceptionPreprocess")   // "(NSException.m:249)" stripped
        #expect(r.lastExceptionBacktrace[4] == CrashFrame(index: 4, image: "LifelineDemo",
                                                          symbol: "-[AppDelegate application:didFinishLaunchingWithOptions:]",
                                                          address: "0x0000000100a1c3f0"))
        #expect(r.lifecycleFrames.map(\.index) == Array(4...13))
        #expect(r.lifecycleFrames.first?.symbol == "-[AppDelegate application:didFinishLaunchingWithOptions:]")
        #expect(r.appFrames.map(\.symbol) == ["-[AppDelegate application:didFinishLaunchingWithOptions:]", "main"])
        #expect(r.isWatchdog == false)
    }

    @Test("text watchdog 0x8badf00d during scene-create")
    func textWatchdog() throws {
        let r = try CrashReportParser.parse(try CrashFiles.fixture("ios-text-watchdog-scene-create.crash"))
        #expect(r.process == "Lifeline Demo")
        #expect(r.pid == 812)
        #expect(r.exceptionType == "EXC_CRASH")
        #expect(r.signal == "SIGKILL")
        #expect(r.terminationNamespace == "SPRINGBOARD")
        #expect(r.terminationCode == "0x8badf00d")
        #expect(r.isWatchdog)
        #expect(r.watchdogEvent == "scene-create")
        #expect(r.terminationReasons.first == "SPRINGBOARD, scene-create watchdog transgression: com.example.lifeline-demo exhausted real (wall clock) time allowance of 19.96 seconds")
        #expect(r.terminationReasons.contains("WatchdogEvent: scene-create"))
        #expect(r.terminationReasons.contains("ProcessVisibility: Foreground"))
        #expect(r.terminationReasons.last == ")")
        #expect(!r.terminationReasons.contains(""))
        #expect(r.crashedThread == 0)
        #expect(r.crashedThreadIsMain == true)
        #expect(r.crashedThreadFrames.count == 20)
        // Image names with a space, symbol "0x… + n" means unsymbolicated.
        #expect(r.crashedThreadFrames[3] == CrashFrame(index: 3, image: "Lifeline Demo", symbol: nil, address: "0x0000000102b4c9a0"))
        #expect(crashSymbols(r.lifecycleFrames) == [
            "SceneDelegate.scene(_:willConnectTo:options:)",
            "@objc SceneDelegate.scene(_:willConnectTo:options:)",
            "-[UIApplication _connectUISceneFromFBSScene:transitionContext:]",
            "-[UIApplication workspace:didCreateScene:withTransitionContext:completion:]",
            "-[UIApplicationSceneClientAgent scene:didInitializeWithEvent:completion:]",
            "-[FBSSceneImpl _callOutQueue_agent_didCreateWithTransitionContext:completion:]",
            "__94-[FBSWorkspace client:handleCreateScene:withCompletion:]_block_invoke_2",
        ])
        #expect(r.appFrames.map(\.index) == [3, 4, 5, 18])
    }

    @Test(".ips watchdog (termination code 2343432205, scene-create)")
    func ipsWatchdog() throws {
        let r = try CrashReportParser.parse(try CrashFiles.fixture("ips-watchdog-scene-create.ips"))
        #expect(r.source == .ips)
        #expect(r.bugType == "309")
        #expect(r.process == "LifelineDemo")
        #expect(r.pid == 2101)
        #expect(r.bundleID == "com.example.LifelineDemo")
        #expect(r.appVersion == "2.1")
        #expect(r.timestamp == "2025-11-03 07:41:19.4471 +0100")
        #expect(r.osVersion == "iPhone OS 18.6.2 (22G100)")
        #expect(r.exceptionType == "EXC_CRASH")
        #expect(r.signal == "SIGKILL")
        #expect(r.terminationNamespace == "FRONTBOARD")
        #expect(r.terminationCode == "0x8badf00d")
        #expect(r.terminationReasons.count == 9)
        #expect(r.terminationReasons[0].contains("scene-create watchdog transgression"))
        #expect(r.isWatchdog)
        #expect(r.watchdogEvent == "scene-create")
        #expect(r.crashedThread == 0)
        #expect(r.crashedThreadIsMain == true)
        #expect(r.crashedThreadQueue == "com.apple.main-thread")
        #expect(r.crashedThreadFrames.count == 18)
        #expect(r.crashedThreadFrames[0] == CrashFrame(index: 0, image: "libsystem_kernel.dylib", symbol: "mach_msg2_trap", address: "0x1c4c3dc94",
                                                       imageUUID: "a5c1f0e2-7b3d-3c4e-9f10-2b3c4d5e6f70", imageBase: 7_596_134_400, arch: "arm64e"))
        // usedImages[3] has no "name": the image stays nil, the address is still known.
        #expect(r.crashedThreadFrames[10] == CrashFrame(index: 10, image: nil,
                                                        symbol: "-[FBSScene _callOutQueue_agent_didCreateWithTransitionContext:completion:]",
                                                        address: "0x1b162cd48",
                                                        imageUUID: "d2e3f4a5-b6c7-3d8e-9f0a-1b2c3d4e5f60", imageBase: 7_270_998_016, arch: "arm64e"))
        #expect(crashSymbols(r.lifecycleFrames) == [
            "SceneDelegate.scene(_:willConnectTo:options:)",
            "@objc SceneDelegate.scene(_:willConnectTo:options:)",
            "-[UIApplication _connectUISceneFromFBSScene:transitionContext:]",
            "-[UIApplication workspace:didCreateScene:withTransitionContext:completion:]",
            "-[UIApplicationSceneClientAgent scene:didInitializeWithEvent:completion:]",
            "-[FBSScene _callOutQueue_agent_didCreateWithTransitionContext:completion:]",
        ])
        #expect(r.appFrames.map(\.index) == [4, 5, 6, 16])
        #expect(r.appFrames[1] == CrashFrame(index: 5, image: "LifelineDemo", symbol: "SceneDelegate.scene(_:willConnectTo:options:)", address: "0x10498d4cc",
                                                imageUUID: "8e5b4c3d-2a1f-3e0d-9c8b-7a6f5e4d3c2b", imageBase: 4_371_693_568, arch: "arm64"))
    }

    @Test(".ips bug_type 109: JSON header line, legacy text body, single-line exception backtrace")
    func ipsLegacy109() throws {
        let r = try CrashReportParser.parse(try CrashFiles.fixture("ips-legacy-109.ips"))
        #expect(r.source == .ips)
        #expect(r.bugType == "109")
        #expect(r.truncated == false)
        #expect(r.process == "LifelineCar")
        #expect(r.pid == 377)
        #expect(r.bundleID == "com.example.LifelineCar")
        #expect(r.appVersion == "5.2")                   // iOS 14 text: `Version: build (version)`
        #expect(r.appBuild == "88")
        #expect(r.timestamp == "2020-10-05 18:22:40.8876 +0200")
        #expect(r.incidentIdentifier == "D4C3B2A1-0F9E-4D8C-B7A6-958473625140")
        #expect(r.exceptionType == "EXC_CRASH")
        #expect(r.signal == "SIGABRT")
        #expect(r.exceptionName == "NSGenericException")
        #expect(r.exceptionReason == "Application does not implement CarPlay template application lifecycle methods in its scene delegate.")
        #expect(r.crashedThread == 0)
        #expect(r.crashedThreadIsMain == true)

        #expect(r.lastExceptionBacktrace.count == 10)
        #expect(r.lastExceptionBacktrace.allSatisfy { $0.symbol == nil })
        #expect(r.lastExceptionBacktrace.map(\.address) == [
            "0x1a2b3c4d8", "0x1a1b2c3d4", "0x1a2f00010", "0x104e1c5a0", "0x104e1d000",
            "0x1b8012340", "0x1a5f0f000", "0x1a5e10000", "0x104e1b2c0", "0x1a29f1e00",
        ])
        // Images come from the Binary Images ranges; 0x1a2f00010 lies outside every listed image.
        #expect(r.lastExceptionBacktrace.map(\.image) == [
            "CoreFoundation", "libobjc.A.dylib", nil, "LifelineCar", "LifelineCar",
            "CarPlay", "UIKitCore", "UIKitCore", "LifelineCar", "libdyld.dylib",
        ])
        #expect(r.appFrames.map(\.index) == [3, 4, 8])
        #expect(crashSymbols(r.lifecycleFrames) == [
            "-[CPTemplateApplicationScene _deliverInterfaceControllerToDelegate]",
            "-[UIScene _emitSceneSettingsUpdateResponseForCompletion:afterSceneUpdateWork:]",
            "-[UIScene scene:didUpdateWithDiff:transitionContext:completion:]",
            "-[UIApplicationSceneClientAgent scene:handleEvent:withCompletion:]",
            "-[FBSScene updater:didUpdateSettings:withDiff:transitionContext:completion:]",
        ])
    }

    @Test("truncated .ips body: partial report from the header and the complete members")
    func truncatedIPS() throws {
        let r = try CrashReportParser.parse(try CrashFiles.fixture("ips-truncated.ips"))
        #expect(r.truncated)
        #expect(r.source == .ips)
        #expect(r.bugType == "309")
        #expect(r.process == "LifelineFeed")
        #expect(r.pid == 1733)
        #expect(r.bundleID == "com.example.LifelineFeed")
        #expect(r.appVersion == "4.0.3")
        #expect(r.osVersion == "iPhone OS 16.5 (20F66)")
        #expect(r.timestamp == "2023-06-12 21:05:44.1234 -0700")
        #expect(r.exceptionType == "EXC_BAD_ACCESS")
        #expect(r.signal == "SIGSEGV")
        #expect(r.exceptionSubtype == "KERN_INVALID_ADDRESS at 0x0000000000000010")
        #expect(r.terminationNamespace == "SIGNAL")
        #expect(r.terminationCode == "0xb")
        #expect(r.terminationReasons == ["Segmentation fault: 11"])
        #expect(r.crashedThread == 0)
        #expect(r.crashedThreadIsMain == true)
        // The first thread is complete; usedImages was never reached, so images and addresses are unknown.
        #expect(r.crashedThreadFrames.count == 6)
        #expect(r.crashedThreadFrames.allSatisfy { $0.image == nil && $0.address == nil })
        #expect(crashSymbols(r.lifecycleFrames) == [
            "-[SceneDelegate sceneDidBecomeActive:]",
            "-[UIScene _emitSceneSettingsUpdateResponseForCompletion:afterSceneUpdateWork:]",
            "-[UIScene scene:didUpdateWithDiff:transitionContext:completion:]",
        ])
    }

    @Test("header-only .ips (body missing) is a truncated report with the header's facts")
    func headerOnlyIPS() throws {
        let header = #"{"app_name":"Solo","timestamp":"2024-01-01 10:00:00.00 +0000","app_version":"1.2","bundleID":"com.example.solo","bug_type":"309","os_version":"iPhone OS 17.2 (21C62)","name":"Solo","incident_id":"00000000-1111-2222-3333-444444444444"}"#
        let r = try CrashReportParser.parse(header + "\n")
        #expect(r.truncated)
        #expect(r.process == "Solo")
        #expect(r.bundleID == "com.example.solo")
        #expect(r.appVersion == "1.2")
        #expect(r.timestamp == "2024-01-01 10:00:00.00 +0000")
        #expect(r.osVersion == "iPhone OS 17.2 (21C62)")
        #expect(r.incidentIdentifier == "00000000-1111-2222-3333-444444444444")
        #expect(r.crashedThread == nil)
        #expect(r.crashedThreadIsMain == nil)
    }

    @Test("every fixture's first line is recognised as the start of a crash report",
          arguments: ["ios-text-sigabrt-uncaught.crash", "ios-text-watchdog-scene-create.crash",
                      "ips-watchdog-scene-create.ips", "ips-legacy-109.ips", "ips-truncated.ips"])
    func fixtureStarts(name: String) throws {
        let text = try CrashFiles.fixture(name)
        let first = text.split(separator: "\n").first { !$0.allSatisfy(\.isWhitespace) }
        #expect(CrashReportParser.looksLikeStart(try #require(first)))
    }
}

@Suite("Crash reports: errors")
struct CrashReportErrorTests {

    struct BadInput: CustomTestStringConvertible, Sendable {
        var label: String
        var text: String
        var kind: CrashReportError.Kind
        var line: Int?
        var testDescription: String { label }
    }

    static let header309 = #"{"app_name":"X","bug_type":"309","name":"X"}"#

    static let inputs: [BadInput] = [
        BadInput(label: "empty", text: "", kind: .notACrashReport, line: nil),
        BadInput(label: "blank lines", text: "\n  \n\t\n", kind: .notACrashReport, line: nil),
        BadInput(label: "prose", text: "\n\nhello world\nthis is not a crash report\n", kind: .notACrashReport, line: 3),
        BadInput(label: "NSLog lines", text: "2024-01-01 10:00:00.000 Demo[12:34] didFinishLaunching\n2024-01-01 10:00:00.100 Demo[12:34] sceneDidBecomeActive\n", kind: .notACrashReport, line: 1),
        BadInput(label: "binary-ish garbage", text: "\u{1}\u{2}\u{3}PK\u{3}\u{4}\u{0}\u{0}garbage", kind: .notACrashReport, line: 1),
        BadInput(label: "JSON without bug_type", text: "{\"eventMessage\":\"hi\",\"machTimestamp\":1}\n", kind: .notACrashReport, line: 1),
        BadInput(label: "broken header JSON", text: "{\"app_name\":\"X\",\"bug_type\":\"309\"\n{}\n", kind: .malformedJSON, line: 1),
        BadInput(label: "unsupported bug_type", text: "{\"bug_type\":\"298\",\"name\":\"jetsam\"}\n{}\n", kind: .unsupportedBugType, line: 1),
        BadInput(label: "mismatched bracket in body", text: header309 + "\n{\n  \"pid\" : 1,\n  \"threads\" : [{\"id\":1}}\n}\n", kind: .malformedJSON, line: 4),
        BadInput(label: "missing comma in body", text: header309 + "\n{\n  \"pid\" : 1\n  \"procName\" : \"X\"\n}\n", kind: .malformedJSON, line: 4),
    ]

    @Test("text after a complete body is reported at its line, not taken for the body")
    func trailingText() throws {
        let r = try CrashReportParser.parse(Self.header309 + "\n{\n  \"pid\" : 1\n}\nxyz\n")
        #expect(r.pid == 1)
        #expect(r.trailingTextLine == 5)
    }

    @Test("garbage and malformed input throw CrashReportError", arguments: inputs)
    func rejects(input: BadInput) {
        let error = crashParseError(input.text)
        #expect(error?.kind == input.kind, "\(String(describing: error))")
        #expect(error?.line == input.line, "\(String(describing: error))")
        #expect(!(error?.message.isEmpty ?? true))
    }

    @Test("error description carries the line")
    func description() {
        let e = CrashReportError(kind: .malformedJSON, message: "bad", line: 7)
        #expect(e.description == "line 7: bad")
        #expect(CrashReportError(kind: .notACrashReport, message: "no").description == "no")
    }
}

@Suite("Crash reports: details")
struct CrashReportDetailTests {

    /// A minimal text report around the given lines.
    static func textReport(_ body: String) -> String {
        """
        Incident Identifier: 11111111-2222-3333-4444-555555555555
        Process:             Demo [77]
        Identifier:          com.example.demo

        \(body)
        """
    }

    @Test("looksLikeStart", arguments: [
        (#"{"app_name":"A","bug_type":"309"}"#, true),
        (#"  {"bug_type":"109","name":"A"}  "#, true),
        (#"{"bug_type":"298"}"#, true),
        (#"{"eventMessage":"x"}"#, false),
        (#"{"bug_type":"309""#, false),
        ("Incident Identifier: 6A1F2C0E-3B4D-4E5F-8A9B-0C1D2E3F4A5B", true),
        ("Hardware Model:      MacBookPro5,3", true),
        ("Process:         iTubeDownloader [590]", true),
        ("Process:         My App [12]", true),
        ("Process:         iTubeDownloader", false),
        ("Process: [590]", false),
        ("2024-01-01 10:00:00.000 Demo[12:34] hello", false),
        ("", false),
    ])
    func looksLikeStart(line: String, expected: Bool) {
        #expect(CrashReportParser.looksLikeStart(Substring(line)) == expected)
    }

    @Test("defaultLifecycleSymbol", arguments: [
        ("-[AppDelegate application:didFinishLaunchingWithOptions:]", true),
        ("AppDelegate.application(_:willFinishLaunchingWithOptions:)", true),
        ("-[AppDelegate applicationDidBecomeActive:]", true),
        ("AppDelegate.applicationWillTerminate(_:)", true),
        ("AppDelegate.application(_:configurationForConnecting:options:)", true),
        ("-[SceneDelegate scene:willConnectToSession:options:]", true),
        ("SceneDelegate.sceneDidEnterBackground(_:)", true),
        ("-[CarPlaySceneDelegate templateApplicationScene:didConnectInterfaceController:]", true),
        ("-[UIWindow _mainQueue_makeKeyAndVisible]", true),
        ("-[UIWindow makeKeyAndVisible]", true),
        ("-[_UISceneLifecycleMultiplexer completeApplicationLaunchWithFBSScene:transitionContext:]", true),
        ("-[UIApplication _callInitializationDelegatesWithActions:forCanvas:payload:fromOriginatingProcess:]", true),
        ("-[_UICanvas scene:didUpdateWithDiff:transitionContext:completion:]", true),
        ("-[AppDelegate application:didConnectCarInterfaceController:toWindow:]", true),
        ("-[SCNSceneRenderer renderAtTime:]", false),
        ("-[SKScene update:]", false),
        ("UIApplicationMain", false),
        ("-[UIApplication _run]", false),
        ("-[XCDYouTubeVideoOperation connectionDidFinishLoading:]", false),
        ("-[UIWindowAccessibility _orderFrontWithoutMakingKey]", false),
        ("__pthread_kill", false),
    ])
    func lifecyclePredicate(symbol: String, expected: Bool) {
        #expect(CrashReportParser.defaultLifecycleSymbol(symbol) == expected)
    }

    @Test("Exception Type splits into type and signal", arguments: [
        ("EXC_CRASH (SIGABRT)", "EXC_CRASH", "SIGABRT"),
        ("EXC_BAD_ACCESS (SIGSEGV)", "EXC_BAD_ACCESS", "SIGSEGV"),
        ("SIGSEGV", "SIGSEGV", "SIGSEGV"),
        ("00000020", "00000020", nil),
    ] as [(String, String, String?)])
    func exceptionType(value: String, type: String, signal: String?) throws {
        let r = try CrashReportParser.parse(Self.textReport("Exception Type:  \(value)\n"))
        #expect(r.exceptionType == type)
        #expect(r.signal == signal)
    }

    @Test("Termination Reason forms", arguments: [
        ("Termination Reason: Namespace SPRINGBOARD, Code 0x8badf00d", "SPRINGBOARD", "0x8badf00d", [String]()),
        ("Termination Reason: Namespace SPRINGBOARD, Code 0x8BADF00D", "SPRINGBOARD", "0x8badf00d", []),
        ("Termination Reason: Namespace SIGNAL, Code 6 Abort trap: 6", "SIGNAL", "0x6", ["Abort trap: 6"]),
        ("Termination Reason: SIGNAL 5 Trace/BPT trap: 5", "SIGNAL", "0x5", ["Trace/BPT trap: 5"]),
        ("Termination Reason: FRONTBOARD 2343432205 \n<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression: app<com.example.demo>:77 exhausted real (wall clock) time allowance of 10.00 seconds\nProcessVisibility: Foreground\nWatchdogEvent: scene-update\n) reportType:CrashLog maxTerminationResistance:Interactive>",
         "FRONTBOARD", "0x8badf00d",
         ["<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression: app<com.example.demo>:77 exhausted real (wall clock) time allowance of 10.00 seconds",
          "ProcessVisibility: Foreground", "WatchdogEvent: scene-update", ") reportType:CrashLog maxTerminationResistance:Interactive>"]),
    ] as [(String, String, String, [String])])
    func terminationReason(line: String, namespace: String, code: String, reasons: [String]) throws {
        let r = try CrashReportParser.parse(Self.textReport("Exception Type:  EXC_CRASH (SIGKILL)\n\(line)\nTriggered by Thread:  0\n"))
        #expect(r.terminationNamespace == namespace)
        #expect(r.terminationCode == code)
        #expect(r.terminationReasons == reasons)
        #expect(r.isWatchdog == (code == "0x8badf00d"))
        #expect(r.crashedThread == 0)
    }

    @Test("Termination Description spread over ' | ' continuation lines is one field")
    func multiLineDescription() throws {
        let r = try CrashReportParser.parse(Self.textReport("""
            Exception Type:  EXC_CRASH (SIGKILL)
            Termination Reason: Namespace SPRINGBOARD, Code 0x8badf00d
            Termination Description: SPRINGBOARD, scene-update watchdog transgression: com.example.demo exhausted real (wall clock) time allowance of 10.00 seconds
             | ProcessVisibility: Foreground
             | ProcessState: Running
             | WatchdogEvent: scene-update
            Triggered by Thread:  0
            """))
        #expect(r.terminationReasons == [
            "SPRINGBOARD, scene-update watchdog transgression: com.example.demo exhausted real (wall clock) time allowance of 10.00 seconds",
            "ProcessVisibility: Foreground", "ProcessState: Running", "WatchdogEvent: scene-update",
        ])
        #expect(r.isWatchdog)
        #expect(r.watchdogEvent == "scene-update")
        #expect(r.crashedThread == 0)
    }

    @Test("watchdog event from the transgression text when no WatchdogEvent part exists")
    func watchdogEventFromText() throws {
        let r = try CrashReportParser.parse(Self.textReport("""
            Exception Type:  EXC_CRASH (SIGKILL)
            Termination Reason: Namespace SPRINGBOARD, Code 0x8badf00d
            Termination Description: SPRINGBOARD, scene-create watchdog transgression
            """))
        #expect(r.watchdogEvent == "scene-create")
    }

    @Test("Crashed Thread vs Triggered by Thread, and main-ness of a background crash", arguments: [
        ("Crashed Thread:  3", 3),
        ("Triggered by Thread:  3", 3),
        ("Crashed Thread:        3  Dispatch queue: com.example.worker", 3),
    ])
    func crashedThreadHeader(header: String, expected: Int) throws {
        let r = try CrashReportParser.parse(Self.textReport("""
            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
            \(header)

            Thread 0 name:  Dispatch queue: com.apple.main-thread
            Thread 0:
            0   libsystem_kernel.dylib        \t0x00000001b3a2e0dc mach_msg_trap + 8

            Thread 3 name:  Dispatch queue: com.example.worker
            Thread 3 Crashed:
            0   libobjc.A.dylib               \t0x0000000198ef1234 objc_msgSend + 32
            1   Demo                          \t0x0000000100a1c3f0 -[Worker run] + 44
            """))
        #expect(r.crashedThread == expected)
        #expect(r.crashedThreadIsMain == false)
        #expect(r.crashedThreadQueue == "com.example.worker")
        #expect(r.crashedThreadFrames.map(\.symbol) == ["objc_msgSend", "-[Worker run]"])
        #expect(r.appFrames.map(\.symbol) == ["-[Worker run]"])
    }

    @Test("a crashed thread found only from 'Thread N Crashed:' with a thread name")
    func crashedFromThreadHeader() throws {
        let r = try CrashReportParser.parse(Self.textReport("""
            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)

            Thread 2 name:  com.example.render
            Thread 2 Crashed:
            0   Demo                          0x0000000100a1c3f0 render() + 44
            """))
        #expect(r.crashedThread == 2)
        #expect(r.crashedThreadName == "com.example.render")
        #expect(r.crashedThreadQueue == nil)
        #expect(r.crashedThreadIsMain == false)
    }

    @Test("macOS 12+ 'Thread 0 Crashed::  Dispatch queue:' header")
    func macOSDoubleColonHeader() throws {
        let r = try CrashReportParser.parse(Self.textReport("""
            Exception Type:        EXC_CRASH (SIGABRT)

            Thread 0 Crashed::  Dispatch queue: com.apple.main-thread
            0   libsystem_kernel.dylib        \t       0x1a2b3c4d0 __pthread_kill + 8
            1   AppKit                        \t       0x1b2c3d4e0 -[NSApplication _crashOnException:] + 240

            Thread 1:: com.apple.NSEventThread
            0   libsystem_kernel.dylib        \t       0x1a2b3c000 mach_msg2_trap + 8
            """))
        #expect(r.crashedThread == 0)
        #expect(r.crashedThreadQueue == "com.apple.main-thread")
        #expect(r.crashedThreadIsMain == true)
        #expect(r.crashedThreadFrames.count == 2)
        #expect(r.crashedThreadFrames[1].address == "0x1b2c3d4e0")
    }

    @Test("frame lines: tabs or spaces, spaced image names, unsymbolicated forms", arguments: [
        ("0   libsystem_kernel.dylib        \t0x00000001b3a2e0dc __pthread_kill + 8",
         CrashFrame(index: 0, image: "libsystem_kernel.dylib", symbol: "__pthread_kill", address: "0x00000001b3a2e0dc")),
        ("12  UIKitCore                         0x00000001a2e9bc14 UIApplicationMain + 340",
         CrashFrame(index: 12, image: "UIKitCore", symbol: "UIApplicationMain", address: "0x00000001a2e9bc14")),
        ("3   My Great App                  \t0x0000000100052d10 0x10004c000 + 27920",
         CrashFrame(index: 3, image: "My Great App", symbol: nil, address: "0x0000000100052d10")),
        ("4   Crashy                        \t0x100052d10 Crashy + 27920",
         CrashFrame(index: 4, image: "Crashy", symbol: nil, address: "0x100052d10")),
        ("5   Demo                          \t       0x102c22cd4 ExpoAppDelegate.application(_:didFinishLaunchingWithOptions:) + 176 (ExpoAppDelegate.swift:40)",
         CrashFrame(index: 5, image: "Demo", symbol: "ExpoAppDelegate.application(_:didFinishLaunchingWithOptions:)", address: "0x102c22cd4")),
        ("6   ???                           \t0x0000000000000000 0x0 + 0",
         CrashFrame(index: 6, image: nil, symbol: nil, address: "0x0000000000000000")),
        ("7   Demo                          \t0x0000000100a1c3f0 closure #1 in Model.load() + 20 [inlined]",
         CrashFrame(index: 7, image: "Demo", symbol: "closure #1 in Model.load()", address: "0x0000000100a1c3f0")),
    ])
    func frameLines(line: String, expected: CrashFrame) throws {
        let r = try CrashReportParser.parse(Self.textReport("Exception Type:  EXC_CRASH (SIGABRT)\n\nThread 0 Crashed:\n\(line)\n"))
        #expect(r.crashedThreadFrames == [expected])
    }

    @Test("an exception reason that spans lines ends at the quote closing a line")
    func multiLineReason() throws {
        let r = try CrashReportParser.parse(Self.textReport("""
            Exception Type:  EXC_CRASH (SIGABRT)

            Application Specific Information:
            *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'first line with a 'quote' inside
            second line'
            abort() called
            """))
        #expect(r.exceptionName == "NSInternalInconsistencyException")
        #expect(r.exceptionReason == "first line with a 'quote' inside\nsecond line")
    }

    @Test("an uncaught-exception line outside Application Specific Information still counts")
    func exceptionOutsideASI() throws {
        let r = try CrashReportParser.parse(Self.textReport("""
            Exception Type:  EXC_CRASH (SIGABRT)
            Crashed Thread:  0

            2021-09-10 20:09:24.265590+0300 Example[65459:2363953] *** Terminating app due to uncaught exception 'NSGenericException', reason: 'Application does not implement CarPlay template application lifecycle methods in its scene delegate.'
            """))
        #expect(r.exceptionName == "NSGenericException")
        #expect(r.exceptionReason == "Application does not implement CarPlay template application lifecycle methods in its scene delegate.")
    }

    @Test("CRLF line endings")
    func crlf() throws {
        let text = Self.textReport("""
            Exception Type:  EXC_CRASH (SIGABRT)
            Triggered by Thread:  0

            Thread 0 name:  Dispatch queue: com.apple.main-thread
            Thread 0 Crashed:
            0   Demo                          \t0x0000000100a1c3f0 -[SceneDelegate sceneWillEnterForeground:] + 44
            """).replacingOccurrences(of: "\n", with: "\r\n")
        let r = try CrashReportParser.parse(text)
        #expect(r.process == "Demo")
        #expect(r.pid == 77)
        #expect(r.signal == "SIGABRT")
        #expect(r.crashedThreadIsMain == true)
        #expect(r.lifecycleFrames.map(\.symbol) == ["-[SceneDelegate sceneWillEnterForeground:]"])
    }

    @Test("a caller-supplied lifecycle predicate replaces the default")
    func customPredicate() throws {
        let text = try CrashFiles.fixture("ios-text-sigabrt-uncaught.crash")
        let r = try CrashReportParser.parse(text, lifecycleSymbol: { $0.hasPrefix("-[AppDelegate ") })
        #expect(crashSymbols(r.lifecycleFrames) == ["-[AppDelegate application:didFinishLaunchingWithOptions:]"])
    }

    @Test("lifecycle frames are de-duplicated across the exception backtrace and the crashed thread")
    func lifecycleDeduplication() throws {
        let frame = "-[AppDelegate application:didFinishLaunchingWithOptions:] + 212"
        let r = try CrashReportParser.parse(Self.textReport("""
            Exception Type:  EXC_CRASH (SIGABRT)
            Triggered by Thread:  0

            Last Exception Backtrace:
            0   CoreFoundation                \t0x00000001a0c3e69c __exceptionPreprocess + 164
            1   Demo                          \t0x0000000100a1c3f0 \(frame)

            Thread 0 Crashed:
            0   libsystem_kernel.dylib        \t0x00000001e8b2e0dc __pthread_kill + 8
            1   Demo                          \t0x0000000100a1c3f0 \(frame)
            2   UIKitCore                     \t0x00000001a2f0c8e0 -[UIApplication _runWithMainScene:transitionContext:completion:] + 856
            """))
        #expect(crashSymbols(r.lifecycleFrames) == [
            "-[AppDelegate application:didFinishLaunchingWithOptions:]",
            "-[UIApplication _runWithMainScene:transitionContext:completion:]",
        ])
        // Exception backtrace first for app frames.
        #expect(r.appFrames == [r.lastExceptionBacktrace[1]])
    }

    @Test(".ips JSON: exceptionReason, asi, lastExceptionBacktrace and a string termination code")
    func ipsExceptionFields() throws {
        let header = #"{"app_name":"Demo","bug_type":"309","name":"Demo","os_version":"iPhone OS 17.0 (21A329)","timestamp":"2023-10-01 12:00:00.00 +0000","bundleID":"com.example.demo","app_version":"3.1","slice_uuid":"aaaaaaaa-bbbb-3ccc-8ddd-eeeeeeeeeeee"}"#
        let body = """
        {
          "pid" : 901,
          "procName" : "Demo",
          "procPath" : "/private/var/containers/Bundle/Application/X/Demo.app/Demo",
          "exception" : {"codes":"0x0000000000000000, 0x0000000000000000","rawCodes":[0,0],"type":"EXC_CRASH","signal":"SIGABRT"},
          "termination" : {"flags":0,"code":"0x6","namespace":"SIGNAL","indicator":"Abort trap: 6"},
          "asi" : {"libsystem_c.dylib":["abort() called"],"CoreFoundation":["*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'from asi'"]},
          "exceptionReason" : {"arguments":[],"format_string":"x","name":"NSRangeException","type":"objc-exception","composed_message":"*** -[__NSArrayM objectAtIndex:]: index 3 beyond bounds [0 .. 1]","class":"NSException"},
          "lastExceptionBacktrace" : [{"imageOffset":100,"symbol":"__exceptionPreprocess","symbolLocation":164,"imageIndex":1},{"imageOffset":4096,"symbol":"-[AppDelegate application:didFinishLaunchingWithOptions:]","symbolLocation":20,"imageIndex":0}],
          "faultingThread" : 1,
          "threads" : [{"id":1,"queue":"com.apple.main-thread","frames":[]},{"id":2,"name":"worker","triggered":true,"frames":[{"imageOffset":8,"symbol":"__pthread_kill","symbolLocation":8,"imageIndex":2}]}],
          "usedImages" : [{"base":4294967296,"uuid":"AAAAAAAA-BBBB-3CCC-8DDD-EEEEEEEEEEEE","path":"/elsewhere/Demo","name":"Demo"},{"base":8589934592,"name":"CoreFoundation"},{"base":12884901888}]
        }
        """
        let r = try CrashReportParser.parse(header + "\n" + body)
        #expect(r.exceptionName == "NSRangeException")                 // exceptionReason wins over asi
        #expect(r.exceptionReason == "*** -[__NSArrayM objectAtIndex:]: index 3 beyond bounds [0 .. 1]")
        #expect(r.applicationSpecificInformation == [
            "*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'from asi'",
            "abort() called",
        ])
        #expect(r.terminationCode == "0x6")
        #expect(r.terminationReasons == ["Abort trap: 6"])
        #expect(r.crashedThread == 1)
        #expect(r.crashedThreadName == "worker")
        #expect(r.crashedThreadIsMain == false)                          // thread 0 carries the main queue
        #expect(r.crashedThreadFrames == [CrashFrame(index: 0, image: nil, symbol: "__pthread_kill", address: "0x300000008", imageBase: 12_884_901_888)])
        #expect(r.lastExceptionBacktrace.map(\.address) == ["0x200000064", "0x100001000"])
        #expect(r.lifecycleFrames.map(\.symbol) == ["-[AppDelegate application:didFinishLaunchingWithOptions:]"])
        // App image found by slice_uuid (its path differs from procPath).
        #expect(r.appFrames == [r.lastExceptionBacktrace[1]])
    }

    @Test(".ips: the asi text gives the exception when exceptionReason is absent")
    func ipsExceptionFromASI() throws {
        let text = #"{"bug_type":"309","name":"Demo"}"# + "\n" + """
        {"procName":"Demo","asi":{"CoreFoundation":["*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'Application windows are expected to have a root view controller at the end of application launch'"]},"faultingThread":0,"threads":[{"frames":[]}]}
        """
        let r = try CrashReportParser.parse(text)
        #expect(r.exceptionName == "NSInternalInconsistencyException")
        #expect(r.exceptionReason == "Application windows are expected to have a root view controller at the end of application launch")
        #expect(r.crashedThread == 0)
        #expect(r.crashedThreadIsMain == true)                           // thread 0, nothing says otherwise
    }

    @Test(".ips body cut right after a complete member is still truncated, not malformed")
    func cutAfterMember() throws {
        let text = #"{"bug_type":"309","name":"Demo"}"# + "\n{\n  \"pid\" : 5,\n  \"exception\" : {\"type\":\"EXC_CRASH\",\"signal\":\"SIGABRT\"}"
        let r = try CrashReportParser.parse(text)
        #expect(r.truncated)
        #expect(r.pid == 5)
        #expect(r.exceptionType == "EXC_CRASH")
        #expect(r.process == "Demo")
    }

    @Test("Binary Images in PLCrashReporter and macOS forms name address-only frames")
    func binaryImageForms() throws {
        let r = try CrashReportParser.parse("""
            Process:         iTubeDownloader [590]
            Path:            /Users/u/Desktop/iTubeDownloader.app/Contents/MacOS/iTubeDownloader
            Identifier:      com.AlphaSoft.iTubeDownloader
            Exception Type:  EXC_CRASH (SIGABRT)
            Crashed Thread:  0

            Last Exception Backtrace:
            (
            0x1017ff010 0x7fff99d89d4b
            0x104f8c100 0x500000000)

            Binary Images:
                   0x1017ff000 -        0x101885fff +com.AlphaSoft.iTubeDownloader (x86_64)  <7B639009-221F-3815-A7A3-657098146F8A> /Users/u/Desktop/iTubeDownloader.app/Contents/MacOS/iTubeDownloader
                0x7fff99d78000 -     0x7fff9a013fff  com.apple.JavaScriptCore (x86_64)  <FE3C5ADD-43D3-33C9-9150-8DCEFDA218E2> /System/Library/Frameworks/JavaScriptCore.framework/Versions/A/JavaScriptCore
                   0x104f8c000 - 0x104f9ffff com.example.Helper (1.0 - 1) <11111111-2222-3333-4444-555555555555> /Applications/Helper.app/Contents/MacOS/Helper
            """)
        #expect(r.lastExceptionBacktrace.map(\.address) == ["0x1017ff010", "0x7fff99d89d4b", "0x104f8c100", "0x500000000"])
        #expect(r.lastExceptionBacktrace.map(\.image) == ["com.AlphaSoft.iTubeDownloader", "com.apple.JavaScriptCore", "com.example.Helper", nil])
        #expect(r.appFrames.map(\.address) == ["0x1017ff010"])
    }

    @Test("a body-only .ips (no header line) is still read")
    func bodyOnlyIPS() throws {
        let r = try CrashReportParser.parse("""
            {
              "bug_type" : "309",
              "procName" : "Demo",
              "pid" : 3,
              "exception" : {"type":"EXC_BAD_ACCESS","signal":"SIGBUS"},
              "faultingThread" : 0,
              "threads" : [{"queue":"com.apple.main-thread","frames":[]}]
            }
            """)
        #expect(r.source == .ips)
        #expect(r.bugType == "309")
        #expect(r.process == "Demo")
        #expect(r.signal == "SIGBUS")
        #expect(r.crashedThreadIsMain == true)
    }

    @Test(".ips bug_type 109 with an empty body is a truncated report")
    func empty109() throws {
        let r = try CrashReportParser.parse(#"{"bug_type":"109","name":"Old","app_version":"1.0"}"# + "\n\n")
        #expect(r.truncated)
        #expect(r.bugType == "109")
        #expect(r.process == "Old")
        #expect(r.appVersion == "1.0")
    }
}
