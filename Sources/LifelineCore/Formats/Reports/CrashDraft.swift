import Foundation

// MARK: - CrashDraft (format-independent intermediate)

/// A thread as read from either format.
struct CrashRawThread {
    /// Thread number (text) or position in `threads` (`.ips`).
    var index: Int
    /// Thread name that is not a dispatch queue.
    var name: String?
    /// Dispatch queue label.
    var queue: String?
    /// Marked as crashed (`Thread N Crashed:` / `"triggered": true`).
    var crashed = false
    /// Backtrace, innermost first.
    var frames: [CrashFrame] = []
    /// Per frame: known to be in the app's executable (`.ips` image index match). `nil` = decide by name.
    var appFlags: [Bool]?
}

/// A binary image range from `Binary Images:`.
struct CrashBinaryImage {
    /// First address of the image.
    var start: UInt64
    /// Last address of the image (inclusive).
    var end: UInt64
    /// Image name (leading `+` and architecture/version removed).
    var name: String
    /// Path on the device, when listed.
    var path: String?
}

/// Report under construction plus the raw material `finish` turns into the derived fields.
struct CrashDraft {
    /// Fields read directly from the input.
    var report: CrashReport
    /// All threads read.
    var threads: [CrashRawThread] = []
    /// The exception backtrace read.
    var lastExceptionBacktrace: [CrashFrame] = []
    /// Per exception-backtrace frame: known to be in the app's image (`.ips`).
    var lastExceptionAppFlags: [Bool]?
    /// Lines of `Binary Images:` of a text report, parsed only when needed.
    var imageLines: [Substring] = []
    /// `Path:` / `procPath`: the app executable's path.
    var processPath: String?
    /// Something crash-specific was seen (header, exception, thread backtrace).
    var foundCrashContent = false
    /// A text report's `Version:` value, split in `finish` once the OS version is known.
    var textVersion: String?
    /// Whole text a `*** Terminating app ...` line may be searched in when nothing better says it.
    var fallbackExceptionText: String?

    /// Starts from a report holding only its source.
    init(report: CrashReport) { self.report = report }

    /// The main dispatch queue's label.
    static let mainQueue = "com.apple.main-thread"

    /// Image names that denote the app's own executable.
    func appImageNames() -> Set<String> {
        var names = Set<String>()
        if let p = report.process { names.insert(p) }
        if let b = report.bundleID { names.insert(b) }
        if let path = processPath {
            if let last = path.split(separator: "/").last { names.insert(String(last)) }
        }
        // The executable and everything the app's bundle ships, by path.
        let bundle = processPath.flatMap(CrashText.bundleDirectory)
        for line in imageLines {
            guard let image = CrashText.binaryImage(line) else { continue }
            if image.path == processPath || CrashText.isInAppBundle(image.path, bundle: bundle) { names.insert(image.name) }
        }
        return names
    }

    /// Derives crashed-thread facts, lifecycle and app frames, the Objective-C exception and the
    /// watchdog verdict, and returns the finished report.
    mutating func finish(lifecycleSymbol: (String) -> Bool) -> CrashReport {
        var r = report

        // Address-only frames: find their image in Binary Images.
        let needsImages = (lastExceptionBacktrace + threads.flatMap(\.frames)).contains { $0.image == nil && $0.address != nil }
        if needsImages && !imageLines.isEmpty {
            let images = imageLines.compactMap(CrashText.binaryImage)
            func resolve(_ frames: inout [CrashFrame]) {
                for i in frames.indices where frames[i].image == nil {
                    guard let a = frames[i].address, let value = CrashText.hexValue(a) else { continue }
                    if let image = images.first(where: { $0.start <= value && value <= $0.end }) {
                        frames[i].image = image.name
                    }
                }
            }
            resolve(&lastExceptionBacktrace)
            for t in threads.indices { resolve(&threads[t].frames) }
        }

        // Crashed thread.
        if r.crashedThread == nil { r.crashedThread = threads.first(where: { $0.crashed })?.index }
        var crashed: CrashRawThread?
        if let c = r.crashedThread {
            crashed = threads.first(where: { $0.index == c })
            if let t = crashed {
                r.crashedThreadFrames = t.frames
                if r.crashedThreadName == nil { r.crashedThreadName = t.name }
                if r.crashedThreadQueue == nil { r.crashedThreadQueue = t.queue }
            }
            if r.crashedThreadQueue == CrashDraft.mainQueue {
                r.crashedThreadIsMain = true
            } else if threads.contains(where: { $0.index != c && $0.queue == CrashDraft.mainQueue }) {
                r.crashedThreadIsMain = false
            } else {
                r.crashedThreadIsMain = (c == 0)
            }
        }
        r.lastExceptionBacktrace = lastExceptionBacktrace

        // Lifecycle frames.
        var seen = Set<String>()
        for frame in lastExceptionBacktrace + r.crashedThreadFrames {
            guard let symbol = frame.symbol, lifecycleSymbol(symbol) else { continue }
            if seen.insert((frame.image ?? "") + "\u{0}" + symbol).inserted { r.lifecycleFrames.append(frame) }
        }

        // App frames.
        let names = appImageNames()
        func appFrames(_ frames: [CrashFrame], _ flags: [Bool]?) -> [CrashFrame] {
            frames.enumerated().compactMap { i, f in
                if let flags, i < flags.count, flags[i] { return f }
                if let image = f.image, names.contains(image) { return f }
                return nil
            }
        }
        r.appFrames = appFrames(lastExceptionBacktrace, lastExceptionAppFlags)
        if r.appFrames.isEmpty, let crashed { r.appFrames = appFrames(crashed.frames, crashed.appFlags) }

        // Objective-C exception.
        if r.exceptionName == nil {
            let asi = r.applicationSpecificInformation.joined(separator: "\n")
            if let found = CrashText.uncaughtException(in: asi) ?? fallbackExceptionText.flatMap(CrashText.uncaughtException(in:)) {
                r.exceptionName = found.name
                r.exceptionReason = found.reason
            }
        }

        // Watchdog.
        let texts = r.terminationReasons + r.applicationSpecificInformation
        let joined = texts.joined(separator: "\n")
        let lowered = Substring(joined.lowercased())
        r.isWatchdog = r.terminationCode == "0x8badf00d"
            || CrashText.find("watchdog transgression", in: lowered) != nil
            || CrashText.find("0x8badf00d", in: lowered) != nil
            || CrashText.find("8badf00d", in: Substring(r.exceptionCodes?.lowercased() ?? "")) != nil
        if r.isWatchdog { r.watchdogEvent = CrashText.watchdogEvent(in: joined) }
        if let v = textVersion, r.appVersion == nil {
            (r.appVersion, r.appBuild) = CrashDraft.versionAndBuild(v, osVersion: r.osVersion)
        }
        r.firstAppFrame = r.appFrames.first
        r.cause = CrashCauses.cause(of: r)
        return r
    }
}

extension CrashDraft {
    /// Fills what this draft lacks from another reading of the same incident (the translated text
    /// of a cut full report).
    mutating func absorb(_ other: CrashDraft) {
        let o = other.report
        func fill<T>(_ k: WritableKeyPath<CrashReport, T?>) { if report[keyPath: k] == nil { report[keyPath: k] = o[keyPath: k] } }
        fill(\.incidentIdentifier); fill(\.process); fill(\.pid); fill(\.bundleID); fill(\.appVersion); fill(\.appBuild)
        fill(\.osVersion); fill(\.deviceModel); fill(\.timestamp); fill(\.exceptionType); fill(\.signal)
        fill(\.exceptionCodes); fill(\.exceptionSubtype); fill(\.terminationNamespace); fill(\.terminationCode)
        fill(\.exceptionName); fill(\.exceptionReason); fill(\.crashedThread); fill(\.crashedThreadName); fill(\.crashedThreadQueue)
        if report.terminationReasons.isEmpty { report.terminationReasons = o.terminationReasons }
        if report.applicationSpecificInformation.isEmpty { report.applicationSpecificInformation = o.applicationSpecificInformation }
        if threads.isEmpty { threads = other.threads }
        if lastExceptionBacktrace.isEmpty {
            lastExceptionBacktrace = other.lastExceptionBacktrace
            lastExceptionAppFlags = other.lastExceptionAppFlags
        }
        if imageLines.isEmpty { imageLines = other.imageLines }
        if processPath == nil { processPath = other.processPath }
        foundCrashContent = foundCrashContent || other.foundCrashContent
    }
}

extension CrashDraft {
    /// A text report's `Version:` as (CFBundleShortVersionString, CFBundleVersion). iOS 15 and
    /// later (and macOS) write `1.0.0 (13)`, version then build; earlier iOS reports write the build
    /// first, `158 (1.0.4)`. A bare value is a build when it is a plain number (PLCrashReporter
    /// writes CFBundleVersion alone), else a version. `???` means unknown.
    static func versionAndBuild(_ value: String, osVersion: String?) -> (String?, String?) {
        func known(_ s: Substring) -> String? {
            let t = CrashText.trim(s)
            return t.isEmpty || t == "???" ? nil : String(t)
        }
        let v = Substring(value)
        guard v.hasSuffix(")"), let open = CrashText.find(" (", in: v, backwards: true) else {
            guard let bare = known(v) else { return (nil, nil) }
            return bare.allSatisfy(\.isNumber) ? (nil, bare) : (bare, nil)
        }
        let outer = known(v[..<open.lowerBound]), inner = known(v[open.upperBound..<v.index(before: v.endIndex)])
        if let os = osVersion, os.hasPrefix("iPhone OS ") || os.hasPrefix("iOS "),
           let major = Int(os.drop(while: { !$0.isNumber }).prefix(while: \.isNumber)), major < 15 {
            return (inner, outer)
        }
        return (outer, inner)
    }
}
