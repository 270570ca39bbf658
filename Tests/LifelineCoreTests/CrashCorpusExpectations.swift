/// What each real report in ../shared/corpus says, read by hand from the file (not by the parser).
struct CrashCorpusCase: Sendable, CustomStringConvertible {
    var file: String              // path relative to ../shared/corpus/, e.g. "crash-reports/013-...crash"
    var process: String?          // process / app name (ips: procName or header app_name/name; text: "Process:" name before [pid])
    var pid: Int?
    var bundleID: String?         // ips: bundleInfo.CFBundleIdentifier or header bundleID; text: "Identifier:"
    var appVersion: String?       // CFBundleShortVersionString / header app_version; text "Version:" the part before "(…)"
    var appBuild: String?         // CFBundleVersion / header build_version; text "Version:" the part inside "(…)"
    var osVersion: String?        // as written: ips header os_version (e.g. "iPhone OS 16.0 (20A362)"), text "OS Version:" value
    var deviceModel: String?      // ips body modelCode (e.g. "iPhone12,1"); text "Hardware Model:" value; nil when absent
    var incidentID: String?       // ips header incident_id / body incident; text "Incident Identifier:"
    var timestamp: String?        // crash time ISO-8601 with offset, fraction digits exactly as written, format "YYYY-MM-DDTHH:MM:SS.ffff+HH:MM"; ips: body captureTime (else header timestamp); text: "Date/Time:". nil if no offset/time given.
    var exceptionType: String?    // e.g. "EXC_CRASH", "EXC_BAD_ACCESS" (ips exception.type; text the word before "(SIG…)")
    var signal: String?           // e.g. "SIGABRT" (ips exception.signal; text inside parentheses)
    var terminationNamespace: String?  // ips termination.namespace; text "Termination Reason: NAMESPACE CODE"; nil if absent
    var crashedThread: Int?       // ips faultingThread / the thread with "triggered": true; text "Triggered by Thread:" / "Crashed Thread:"
    var crashedThreadIsMain: Bool?  // thread 0 / queue com.apple.main-thread
    var crashedThreadQueue: String? // dispatch queue of the crashed thread if written
    var crashedThreadName: String?  // thread name (not a queue) if written
    var hasLastExceptionBacktrace: Bool
    var exceptionName: String?    // uncaught NSException name if the report states one (asi, "*** Terminating app due to uncaught exception 'X'", exception reason fields); nil otherwise
    var firstAppFrameImage: String?   // image (binary) name of the first frame, innermost first, that belongs to the app's own binaries (the main executable or frameworks/dylibs shipped inside the app bundle, e.g. "Transit.debug.dylib"), taken from the Last Exception Backtrace when there is one, else from the crashed thread. Decide by the binary (image path inside the .app bundle / the main executable), NOT by symbol names.
    var firstAppFrameSymbol: String?  // its symbol as written, without the "+ offset" part; nil when unsymbolicated (only an address)
    var cause: String             // one of: "swiftTrap" (Swift runtime trap: _assertionFailure, swift_runtime_*, "Fatal error", swift_unexpectedError…), "uncaughtException" (NSException/C++ exception: objc_exception_throw / __cxa_throw / LEB / "Terminating app due to uncaught exception"), "watchdog" (0x8badf00d), "launchFailure" (dyld / DYLD namespace: library missing), "killed" (SIGKILL that is not a watchdog, e.g. 0xdead10cc), "badAccess" (EXC_BAD_ACCESS SIGSEGV/SIGBUS), "abort" (SIGABRT without an exception: C assert / abort()), "trap" (EXC_BREAKPOINT/SIGTRAP/EXC_BAD_INSTRUCTION not from Swift runtime, e.g. libc++ hardening assertion), "other"
    var description: String { file }
}

extension CrashCorpusCase {
    static let all: [CrashCorpusCase] = [
        // ios16-launch-crash.ips — ips JSON v2, full one-line header (line 1: app_name, app_version "1.0",
        // build_version "1", bundleID, os_version, incident_id). Body: modelCode L8, captureTime L16,
        // incident L17, pid L18, procName L25, bundleInfo L27, exception L34 (EXC_BREAKPOINT/SIGTRAP),
        // termination L35 (namespace SIGNAL), faultingThread L38, threads[0] "triggered":true L39 with
        // queue com.apple.main-thread. No asi, no lastExceptionBacktrace. Crashed-thread frames 0–1 are
        // libswiftCore.dylib `_assertionFailure(_:_:file:line:flags:)`; frame 2 is imageIndex 1 =
        // iOSCrashingTest (…/iOSCrashingTest.app/iOSCrashingTest) with no "symbol" key (unsymbolicated).
        CrashCorpusCase(
            file: "ios16-launch-crash.ips",
            process: "iOSCrashingTest",
            pid: 455,
            bundleID: "jp.mahdi.iOSCrashingTest",
            appVersion: "1.0",
            appBuild: "1",
            osVersion: "iPhone OS 16.0 (20A362)",
            deviceModel: "iPhone14,2",
            incidentID: "356753AC-2172-45DC-977A-11F2328980D0",
            timestamp: "2022-09-18T15:28:37.3451+09:00",
            exceptionType: "EXC_BREAKPOINT",
            signal: "SIGTRAP",
            terminationNamespace: "SIGNAL",
            crashedThread: 0,
            crashedThreadIsMain: true,
            crashedThreadQueue: "com.apple.main-thread",
            crashedThreadName: nil,
            hasLastExceptionBacktrace: false,
            exceptionName: nil,
            firstAppFrameImage: "iOSCrashingTest",
            firstAppFrameSymbol: nil,
            cause: "swiftTrap"
        ),

        // macos-crash-report-plcrashreporter.crash — PLCrashReporter-style text (DevMate; "Framework Version:"
        // L10, "Report Version: 106" L11). The file starts at "Hardware Model: MacBookPro5,3" (L1): there is
        // no Incident Identifier line. Process L2, Identifier L4, Version L5 "512" (no parentheses),
        // Date/Time L8 (no fraction digits), OS Version L9, Exception Type L12 "SIGSEGV" (a bare signal, no
        // Mach exception word, so exceptionType is the value as written), Exception Codes L13
        // "SEGV_MAPERR at 0x8", Crashed Thread L14 "0"; "Thread 0 Crashed:" L15 has no queue/name.
        // Version: PLCrashReporter writes a bare "Version:" as the app's CFBundleVersion (it only adds
        // "marketing (build)" when a marketing version exists), so "512" is taken as the build, not the
        // marketing version. First app frame: L16 frame 0 is com.apple.JavaScriptCore; L17 frame 1
        // "ch.pitaya.xcdyoutubekit" — Binary Images maps that id to
        // iTubeDownloader.app/Contents/Frameworks/XCDYouTubeKit.framework/…/XCDYouTubeKit (inside the app
        // bundle). The frame column writes the bundle id, not the file name "XCDYouTubeKit"; the id is
        // kept as written.
        CrashCorpusCase(
            file: "macos-crash-report-plcrashreporter.crash",
            process: "iTubeDownloader",
            pid: 590,
            bundleID: "com.AlphaSoft.iTubeDownloader",
            appVersion: nil,
            appBuild: "512",
            osVersion: "Mac OS X 10.8.5 (12F45)",
            deviceModel: "MacBookPro5,3",
            incidentID: nil,
            timestamp: "2014-07-16T00:25:09+00:00",
            exceptionType: "SIGSEGV",
            signal: "SIGSEGV",
            terminationNamespace: nil,
            crashedThread: 0,
            crashedThreadIsMain: true,
            crashedThreadQueue: nil,
            crashedThreadName: nil,
            hasLastExceptionBacktrace: false,
            exceptionName: nil,
            firstAppFrameImage: "ch.pitaya.xcdyoutubekit",
            firstAppFrameSymbol: "-[XCDYouTubePlayerScript unscrambleSignature:]",
            cause: "badAccess"
        ),

        // crash-reports/002 — ips JSON v2, header L1 (app_name SnapClone, app_version "1.0.0",
        // build_version "3", bundleID com.davidvanstory.ephemeralart, os_version, incident_id).
        // Body: modelCode L8 "iPad13,16", captureTime L16, incident L18, pid L19, procName L27,
        // bundleInfo L29, exception L46 (EXC_CRASH/SIGABRT), termination L47 (SIGNAL), asi L48
        // (libsystem_c.dylib "abort() called" only — no exception name), faultingThread L49 = 6,
        // threads[6] "triggered":true L50 with queue com.meta.react.turbomodulemanager.queue (also
        // legacyInfo L218). No lastExceptionBacktrace, but the crashed thread is
        // objc_exception_rethrow → __cxa_rethrow → std::__terminate → _objc_terminate → abort, i.e. an
        // uncaught Objective-C exception rethrown from a TurboModule call, so cause is uncaughtException
        // (not "abort"). First app frame: frame 9 imageIndex 0 = SnapClone (main executable), no symbol.
        CrashCorpusCase(
            file: "crash-reports/002-snapclone-ios18-5-ipad-sigabrt-turbomodule-queue.ips",
            process: "SnapClone",
            pid: 63364,
            bundleID: "com.davidvanstory.ephemeralart",
            appVersion: "1.0.0",
            appBuild: "3",
            osVersion: "iPhone OS 18.5 (22F76)",
            deviceModel: "iPad13,16",
            incidentID: "F722746C-F30A-4CE9-A436-9FB8608B8CEE",
            timestamp: "2025-06-26T01:53:55.4079-07:00",
            exceptionType: "EXC_CRASH",
            signal: "SIGABRT",
            terminationNamespace: "SIGNAL",
            crashedThread: 6,
            crashedThreadIsMain: false,
            crashedThreadQueue: "com.meta.react.turbomodulemanager.queue",
            crashedThreadName: nil,
            hasLastExceptionBacktrace: false,
            exceptionName: nil,
            firstAppFrameImage: "SnapClone",
            firstAppFrameSymbol: nil,
            cause: "uncaughtException"
        ),

        // crash-reports/005 — ips JSON v2, header L1 (app_name MatchTalk, app_version "1.1.3",
        // build_version "30", bundleID com.gkhnkyhns.matchtalk, os_version "iPhone OS 26.1 (23B85)").
        // Body: modelCode L8, captureTime L16, incident L18, pid L19, procName L27, bundleInfo L29,
        // exception L48 (EXC_CRASH/SIGABRT), termination L49 (SIGNAL), asi L50 ("abort() called" only),
        // lastExceptionBacktrace L51, faultingThread L52 = 8, threads[8] "triggered":true L53 with queue
        // expo.controller.errorRecoveryQueue (legacyInfo L446). No exception name/reason anywhere.
        // LEB: __exceptionPreprocess, objc_exception_throw, __exceptionPreprocess, then imageIndex 0 =
        // MatchTalk (main executable) without symbol. (The crashed thread also has an unsymbolicated
        // MatchTalk frame inside the terminate handler; the LEB one is used as specified.)
        CrashCorpusCase(
            file: "crash-reports/005-matchtalk-ios26-1-sigabrt-leb-expo-recovery-queue.ips",
            process: "MatchTalk",
            pid: 27589,
            bundleID: "com.gkhnkyhns.matchtalk",
            appVersion: "1.1.3",
            appBuild: "30",
            osVersion: "iPhone OS 26.1 (23B85)",
            deviceModel: "iPhone14,7",
            incidentID: "C7E81EDC-E353-415F-B1D4-6A3C172227C6",
            timestamp: "2025-12-30T23:17:49.8933+03:00",
            exceptionType: "EXC_CRASH",
            signal: "SIGABRT",
            terminationNamespace: "SIGNAL",
            crashedThread: 8,
            crashedThreadIsMain: false,
            crashedThreadQueue: "expo.controller.errorRecoveryQueue",
            crashedThreadName: nil,
            hasLastExceptionBacktrace: true,
            exceptionName: nil,
            firstAppFrameImage: "MatchTalk",
            firstAppFrameSymbol: nil,
            cause: "uncaughtException"
        ),

        // crash-reports/008 — ips JSON v2 from the iOS simulator on a Mac: header L1 os_version is the
        // host's "macOS 15.5 (24F74)" (app_name Runner, app_version "3.0.0", build_version "2",
        // bundleID com.digital.payments). Body: modelCode L8 "MacBookAir10,1" (the host Mac),
        // captureTime L15, incident L17, pid L18, procName L26, bundleInfo L28, exception L47
        // (EXC_CRASH/SIGABRT), termination L48 namespace "DYLD", indicator "Library missing",
        // "Library not loaded: /usr/lib/swift/libswiftWebKit.dylib" referenced from
        // flutter_inappwebview_ios.framework, details "(terminated at launch; ignore backtrace)";
        // faultingThread L50 = 0, threads[0] "triggered":true L51 has no queue/name (legacyInfo
        // threadTriggered {} L711). Thread 0 is the main thread (nothing else runs at launch).
        // Crashed-thread frames are dyld and an unnamed image (index 55, dyld_sim) only — no app frame.
        CrashCorpusCase(
            file: "crash-reports/008-xpay-iossim-macos15-dyld-library-missing-at-launch.ips",
            process: "Runner",
            pid: 48406,
            bundleID: "com.digital.payments",
            appVersion: "3.0.0",
            appBuild: "2",
            osVersion: "macOS 15.5 (24F74)",
            deviceModel: "MacBookAir10,1",
            incidentID: "60CA55C7-9DD3-42B7-8870-631B0BFC0284",
            timestamp: "2025-08-03T06:21:19.2758+05:30",
            exceptionType: "EXC_CRASH",
            signal: "SIGABRT",
            terminationNamespace: "DYLD",
            crashedThread: 0,
            crashedThreadIsMain: true,
            crashedThreadQueue: nil,
            crashedThreadName: nil,
            hasLastExceptionBacktrace: false,
            exceptionName: nil,
            firstAppFrameImage: nil,
            firstAppFrameSymbol: nil,
            cause: "launchFailure"
        ),

        // crash-reports/009 — ips JSON v2, simulator under XCTest: header L1 (app_name Transit,
        // app_version "5.17.10", build_version "0", bundleID com.transitapp.TransitX, os_version host
        // "macOS 15.2 (24C101)"). Body: modelCode L8 "MacBookPro18,3", captureTime L15, incident L17,
        // pid L18, procName L26, exception L46 (EXC_BREAKPOINT/SIGTRAP), termination L47 (SIGNAL),
        // faultingThread L50 = 13; threads array L51 — thread 13 is "triggered":true with no queue and
        // no name. No LEB, no asi. Crashed-thread frame 0 is an "inline":true pseudo-frame in
        // Transit.debug.dylib (…/Transit.app/Transit.debug.dylib) whose "symbol" is the libc++
        // hardening message "*/Xcode-16.2.0.app/…/c++/v1/vector:1393: assertion __n < size() failed:
        // vector[] index out of bounds\n" (a __builtin_verbose_trap reason, not a function); frame 1
        // (same image and offset) is the real function `std::__1::vector<…>::operator[]`, which is what
        // an expert reports as the first app symbol. Cause: libc++ assertion trap, not Swift → "trap".
        CrashCorpusCase(
            file: "crash-reports/009-transit-iossim-xctest-exc-breakpoint-thread13.ips",
            process: "Transit",
            pid: 27589,
            bundleID: "com.transitapp.TransitX",
            appVersion: "5.17.10",
            appBuild: "0",
            osVersion: "macOS 15.2 (24C101)",
            deviceModel: "MacBookPro18,3",
            incidentID: "6D7FEBB5-F462-49B5-B498-6D5C30B8212A",
            timestamp: "2025-02-01T18:45:54.0676-05:00",
            exceptionType: "EXC_BREAKPOINT",
            signal: "SIGTRAP",
            terminationNamespace: "SIGNAL",
            crashedThread: 13,
            crashedThreadIsMain: false,
            crashedThreadQueue: nil,
            crashedThreadName: nil,
            hasLastExceptionBacktrace: false,
            exceptionName: nil,
            firstAppFrameImage: "Transit.debug.dylib",
            firstAppFrameSymbol: "std::__1::vector<transitLib::StopAndOptionalEntranceInfos, std::__1::allocator<transitLib::StopAndOptionalEntranceInfos>>::operator[][abi:se180100](unsigned long)",
            cause: "trap"
        ),

        // crash-reports/010 — ips JSON v2 for the macOS CLI /bin/sleep: header L1 (app_name "sleep",
        // app_version "" and build_version "" — empty strings, read as absent; no bundleID key;
        // os_version "macOS 12.1 (21C52)"). Body has no bundleInfo. modelCode L9 "MacBookPro15,1",
        // captureTime L17, incident L18, pid L20, procName L23, exception L37 (EXC_BAD_ACCESS/SIGSEGV,
        // KERN_INVALID_ADDRESS at 0x0), termination L38 (SIGNAL), faultingThread L41 = 0, threads[0]
        // "triggered":true L42 with queue com.apple.main-thread. Frames: 0 = unnamed image at 0,
        // 1 = libsystem_c nanosleep, 2 = imageIndex 2 "sleep" (/bin/sleep, the main executable) with no
        // symbol, 3 = dyld start.
        CrashCorpusCase(
            file: "crash-reports/010-pycrashreport-macos12-sleep-sigsegv-main-queue.ips",
            process: "sleep",
            pid: 10277,
            bundleID: nil,
            appVersion: nil,
            appBuild: nil,
            osVersion: "macOS 12.1 (21C52)",
            deviceModel: "MacBookPro15,1",
            incidentID: "051760D9-97FF-475F-8B61-B0FDFB04D484",
            timestamp: "2022-01-06T15:09:22.6192+02:00",
            exceptionType: "EXC_BAD_ACCESS",
            signal: "SIGSEGV",
            terminationNamespace: "SIGNAL",
            crashedThread: 0,
            crashedThreadIsMain: true,
            crashedThreadQueue: "com.apple.main-thread",
            crashedThreadName: nil,
            hasLastExceptionBacktrace: false,
            exceptionName: nil,
            firstAppFrameImage: "sleep",
            firstAppFrameSymbol: nil,
            cause: "badAccess"
        ),

        // crash-reports/013 — iOS 13.5 text report. Incident Identifier L1, Hardware Model L3, Process L4,
        // Identifier L6, Version L7 "1 (1.0)", Date/Time L14, OS Version L16, Exception Type L21
        // "EXC_CRASH (SIGABRT)", no Termination Reason line, Triggered by Thread L24 "0", L26 "Thread 0
        // name:  Dispatch queue: com.apple.main-thread". No ASI, no LEB. Version: pre-iOS-15 text reports
        // write "CFBundleVersion (CFBundleShortVersionString)" (cf. 016 "158 (1.0.4)", 017 "44 (1.4.4)";
        // iOS 15+ and macOS write "short (build)"), so marketing = "1.0", build = "1" (Xcode defaults).
        // Crashed thread: __pthread_kill, pthread_kill, abort, err + 0, then L32 frame 4 icdab_planets
        // "0x104544000 + 20720" (unsymbolicated; main executable per Binary Images L123). C assert → abort.
        CrashCorpusCase(
            file: "crash-reports/013-book-planets-ios13-5-assert-sigabrt-main.crash",
            process: "icdab_planets",
            pid: 33416,
            bundleID: "www.perivalebluebell.icdab-planets",
            appVersion: "1.0",
            appBuild: "1",
            osVersion: "iPhone OS 13.5 (17F75)",
            deviceModel: "iPod9,1",
            incidentID: "8597368E-5745-4E04-A754-7D606A681741",
            timestamp: "2020-10-03T15:41:04.7995+01:00",
            exceptionType: "EXC_CRASH",
            signal: "SIGABRT",
            terminationNamespace: nil,
            crashedThread: 0,
            crashedThreadIsMain: true,
            crashedThreadQueue: "com.apple.main-thread",
            crashedThreadName: nil,
            hasLastExceptionBacktrace: false,
            exceptionName: nil,
            firstAppFrameImage: "icdab_planets",
            firstAppFrameSymbol: nil,
            cause: "abort"
        ),

        // crash-reports/014 — iOS 14.2 beta text report. Incident Identifier L1, Hardware Model L3,
        // Process L4, Identifier L6, Version L7 "1 (1.0)" (pre-iOS-15 order "build (marketing)", see 013),
        // Date/Time L14, OS Version L16, Exception Type L21 "EXC_BAD_ACCESS (SIGSEGV)", Termination
        // Reason L30 "Namespace SIGNAL, Code 0xb", Triggered by Thread L32 "0", L34 "Thread 0 name:
        // Dispatch queue: com.apple.main-thread". First frame L36 is icdab_ptr
        // "nextInterestingJumpToFunc + 24056 (ViewController.m:26)" → symbol without offset/source.
        CrashCorpusCase(
            file: "crash-reports/014-book-ptr-ios14-2-sigsegv.crash",
            process: "icdab_ptr",
            pid: 2125,
            bundleID: "perivalebluebell.com.icdab-ptr",
            appVersion: "1.0",
            appBuild: "1",
            osVersion: "iPhone OS 14.2 (18B5061e)",
            deviceModel: "iPhone12,1",
            incidentID: "DA9FE0C7-6127-4660-A214-5DF5D432DBD9",
            timestamp: "2020-10-14T23:09:20.9645+01:00",
            exceptionType: "EXC_BAD_ACCESS",
            signal: "SIGSEGV",
            terminationNamespace: "SIGNAL",
            crashedThread: 0,
            crashedThreadIsMain: true,
            crashedThreadQueue: "com.apple.main-thread",
            crashedThreadName: nil,
            hasLastExceptionBacktrace: false,
            exceptionName: nil,
            firstAppFrameImage: "icdab_ptr",
            firstAppFrameSymbol: "nextInterestingJumpToFunc",
            cause: "badAccess"
        ),

        // crash-reports/015 — iOS 14.2 beta text report. Incident Identifier L1, Hardware Model L3,
        // Process L4, Identifier L6, Version L7 "1 (1.0)" (pre-iOS-15 order, see 013), Date/Time L14,
        // OS Version L16, Exception Type L21 "EXC_BREAKPOINT (SIGTRAP)", Termination Reason L24
        // "Namespace SIGNAL, Code 0x5", Triggered by Thread L26 "0", L28 main-thread queue.
        // Frames 0–2 (L30–32) libswiftCore.dylib closures in `_assertionFailure` → swiftTrap; first app
        // frame L33 icdab_wrap "PlanetViewController.imageDownloaded(_:) + 48548 (PlanetViewController.swift:0)".
        CrashCorpusCase(
            file: "crash-reports/015-book-wrap-ios14-2-swift-unwrap-exc-breakpoint.crash",
            process: "icdab_wrap",
            pid: 623,
            bundleID: "www.perivalebluebell.icdab-wrap",
            appVersion: "1.0",
            appBuild: "1",
            osVersion: "iPhone OS 14.2 (18B5061e)",
            deviceModel: "iPhone12,1",
            incidentID: "50D14323-1973-4F61-AE29-8FBEC6285A1B",
            timestamp: "2020-10-12T10:34:15.6423+01:00",
            exceptionType: "EXC_BREAKPOINT",
            signal: "SIGTRAP",
            terminationNamespace: "SIGNAL",
            crashedThread: 0,
            crashedThreadIsMain: true,
            crashedThreadQueue: "com.apple.main-thread",
            crashedThreadName: nil,
            hasLastExceptionBacktrace: false,
            exceptionName: nil,
            firstAppFrameImage: "icdab_wrap",
            firstAppFrameSymbol: "PlanetViewController.imageDownloaded(_:)",
            cause: "swiftTrap"
        ),

        // crash-reports/016 — iOS 10.3.1 text report. Incident Identifier L1, Hardware Model L3, Process L4,
        // Identifier L6 "com.onem.adhoc", Version L7 "158 (1.0.4)" (pre-iOS-15 order: build 158,
        // marketing 1.0.4), Date/Time L14, OS Version L16, Exception Type L19 "EXC_CRASH (SIGKILL)",
        // Termination Reason L22 "Namespace SPRINGBOARD, Code 0xdead10cc" (file lock held while
        // suspended — a kill, not the 0x8badf00d watchdog), Triggered by Thread L23 "0", L25 "Thread 0
        // name:" is empty (no queue/name). First app frame L34 "OneMessenger … main + 88 (main.m:16)".
        // No Binary Images section; OneMessenger is the main executable per Path L5.
        CrashCorpusCase(
            file: "crash-reports/016-book-onemessenger-ios10-dead10cc-not-watchdog.crash",
            process: "OneMessenger",
            pid: 10627,
            bundleID: "com.onem.adhoc",
            appVersion: "1.0.4",
            appBuild: "158",
            osVersion: "iPhone OS 10.3.1 (14E304)",
            deviceModel: "iPhone9,4",
            incidentID: "A176CFB8-6BB7-4515-A4A2-82D2B962E097",
            timestamp: "2017-05-10T17:37:48.6201-07:00",
            exceptionType: "EXC_CRASH",
            signal: "SIGKILL",
            terminationNamespace: "SPRINGBOARD",
            crashedThread: 0,
            crashedThreadIsMain: true,
            crashedThreadQueue: nil,
            crashedThreadName: nil,
            hasLastExceptionBacktrace: false,
            exceptionName: nil,
            firstAppFrameImage: "OneMessenger",
            firstAppFrameSymbol: "main",
            cause: "killed"
        ),

        // crash-reports/017 — iOS 13.3 text report. Incident Identifier L1, Hardware Model L3, Process L4
        // "get [1737]", Identifier L6, Version L7 "44 (1.4.4)" (pre-iOS-15 order: build 44, marketing
        // 1.4.4), Date/Time L16, OS Version L18, Exception Type L23 "EXC_BAD_ACCESS (SIGSEGV)", no
        // Termination Reason line, Triggered by Thread L31 "27", L379 "Thread 27 name:" empty, L380
        // "Thread 27 Crashed:". Thread 27 frames (L381–395) are libEmbeddedSystemAUs, AudioToolbox,
        // libAudioToolboxUtility, CoreFoundation, AVFAudio, libsystem_pthread — no frame in "get"
        // (the only app image, Binary Images L499), so no app frame.
        CrashCorpusCase(
            file: "crash-reports/017-book-adventure-ios13-3-sigsegv-thread27.crash",
            process: "get",
            pid: 1737,
            bundleID: "com.soul.merge.cat.cute.simulator.adventure.get",
            appVersion: "1.4.4",
            appBuild: "44",
            osVersion: "iPhone OS 13.3 (17C54)",
            deviceModel: "iPhone12,1",
            incidentID: "692E5696-6994-4FB3-B42D-C9317D956EE7",
            timestamp: "2019-12-26T09:54:15.6806+03:00",
            exceptionType: "EXC_BAD_ACCESS",
            signal: "SIGSEGV",
            terminationNamespace: nil,
            crashedThread: 27,
            crashedThreadIsMain: false,
            crashedThreadQueue: nil,
            crashedThreadName: nil,
            hasLastExceptionBacktrace: false,
            exceptionName: nil,
            firstAppFrameImage: nil,
            firstAppFrameSymbol: nil,
            cause: "badAccess"
        ),

        // crash-reports/018 — iPhone OS 4.3.1 legacy text report. Incident Identifier L1, Hardware Model L3
        // "iPad1,1", Process L4 "XBMC [5693]", Identifier L6 "XBMC", Version L7 "??? (???)" (unknown →
        // nil/nil), Date/Time L11 (3 fraction digits), OS Version L12, Exception Type L15
        // "EXC_BAD_ACCESS (SIGBUS)", no Termination Reason, "Crashed Thread:  4" L17, "Thread 4 Crashed:"
        // L79 with no name line. Frames 0–13 dyld/libdyld (dlopen); L94 frame 14 XBMC
        // "SoLoader::Load() (SoLoader.cpp:57)" — no "+ offset", source location dropped. XBMC is the
        // main executable (Binary Images L116).
        CrashCorpusCase(
            file: "crash-reports/018-book-xbmc-ios4-sigbus-crashed-thread4.crash",
            process: "XBMC",
            pid: 5693,
            bundleID: "XBMC",
            appVersion: nil,
            appBuild: nil,
            osVersion: "iPhone OS 4.3.1 (8G4)",
            deviceModel: "iPad1,1",
            incidentID: "396B3641-5F74-4B01-9E62-FE24A2C12E92",
            timestamp: "2011-04-10T11:52:44.575+02:00",
            exceptionType: "EXC_BAD_ACCESS",
            signal: "SIGBUS",
            terminationNamespace: nil,
            crashedThread: 4,
            crashedThreadIsMain: false,
            crashedThreadQueue: nil,
            crashedThreadName: nil,
            hasLastExceptionBacktrace: false,
            exceptionName: nil,
            firstAppFrameImage: "XBMC",
            firstAppFrameSymbol: "SoLoader::Load()",
            cause: "badAccess"
        ),

        // crash-reports/021 — iOS 18.5 text report (modern "short (build)" order). Incident Identifier L1,
        // Hardware Model L3, Process L4, Identifier L6, Version L7 "1.0.0 (13)", Date/Time L13,
        // OS Version L15, Exception Type L20 "EXC_CRASH (SIGABRT)", Termination Reason L22
        // "SIGNAL 6 Abort trap: 6" (namespace SIGNAL), Triggered by Thread L25 "10", ASI L27–28 only
        // "abort() called" (no exception name), Last Exception Backtrace L31, L103 "Thread 10 name:
        // Dispatch queue: expo.controller.errorRecoveryQueue", L104 "Thread 10 Crashed:". LEB frame 3
        // (L35) EatFitByMax "0x102388000 + 311840" (unsymbolicated main executable).
        CrashCorpusCase(
            file: "crash-reports/021-eatfit-ios18-5-sigabrt-leb-thread10.crash",
            process: "EatFitByMax",
            pid: 8520,
            bundleID: "com.eatfitbymax.app",
            appVersion: "1.0.0",
            appBuild: "13",
            osVersion: "iPhone OS 18.5 (22F76)",
            deviceModel: "iPhone14,5",
            incidentID: "009A639D-3E82-471A-B4D5-031D099DA1F5",
            timestamp: "2025-07-19T18:17:39.9499+02:00",
            exceptionType: "EXC_CRASH",
            signal: "SIGABRT",
            terminationNamespace: "SIGNAL",
            crashedThread: 10,
            crashedThreadIsMain: false,
            crashedThreadQueue: "expo.controller.errorRecoveryQueue",
            crashedThreadName: nil,
            hasLastExceptionBacktrace: true,
            exceptionName: nil,
            firstAppFrameImage: "EatFitByMax",
            firstAppFrameSymbol: nil,
            cause: "uncaughtException"
        ),

        // crash-reports/025 — macOS-style report (Report Version 11) of an iOS 9.2 simulator app. No
        // Incident Identifier (L13 "Anonymous UUID" is not one) and no Hardware Model (ASI L32 says
        // "Device: iPhone 5", not a model code). Process L1, Identifier L3 "TableSearch" as written (Binary
        // Images L103 shows the real bundle id com.example.apple-samplecode.TableSearch), Version L4 "1.3"
        // with no "(build)" part → appVersion only, Date/Time L10, OS Version L11 (host Mac), Crashed
        // Thread L22 "0  Dispatch queue: com.apple.main-thread", Exception Type L24 "EXC_CRASH (SIGABRT)",
        // no Termination Reason, ASI L29 "*** Terminating app due to uncaught exception
        // 'NSInvalidArgumentException', reason: '-[NSFileManager stringWithFormat:]: unrecognized
        // selector…'". "Application Specific Backtrace 1" L34 is the macOS-layout exception backtrace →
        // counted as the LEB; its first app frame L49 "14 TableSearch … main + 145".
        CrashCorpusCase(
            file: "crash-reports/025-idb-iossim-ios9-uncaught-exception-in-asi.crash",
            process: "TableSearch",
            pid: 37083,
            bundleID: "TableSearch",
            appVersion: "1.3",
            appBuild: nil,
            osVersion: "Mac OS X 10.11.3 (15D21)",
            deviceModel: nil,
            incidentID: nil,
            timestamp: "2016-03-15T08:26:41.996+00:00",
            exceptionType: "EXC_CRASH",
            signal: "SIGABRT",
            terminationNamespace: nil,
            crashedThread: 0,
            crashedThreadIsMain: true,
            crashedThreadQueue: "com.apple.main-thread",
            crashedThreadName: nil,
            hasLastExceptionBacktrace: true,
            exceptionName: "NSInvalidArgumentException",
            firstAppFrameImage: "TableSearch",
            firstAppFrameSymbol: "main",
            cause: "uncaughtException"
        ),
    ]
}
