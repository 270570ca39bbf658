import Foundation
import LifelineCore

// MARK: - Text helpers

/// String normalization shared by the signature builders.
enum SignatureText {

    /// Collapsed white space, trimmed.
    /// The words of `s` (split on spaces and tabs) joined by one space.
    static func words(_ s: String) -> String {
        s.utf8.split(whereSeparator: { $0 == 32 || $0 == 9 }).map { Substring($0) }.joined(separator: " ")
    }

    static func collapse(_ s: String) -> String {
        // Byte by byte (a signature is built for every failure of a batch); Unicode white space
        // (U+0085, U+00A0, U+1680, U+2000…U+200A, U+2028, U+2029, U+202F, U+205F, U+3000) counts too.
        let bytes = Array(s.utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var space = false
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            var width = 0
            switch b {
            case 32, 9, 10, 11, 12, 13: width = 1
            case 0xC2 where i + 1 < bytes.count && (bytes[i + 1] == 0x85 || bytes[i + 1] == 0xA0): width = 2
            case 0xE1 where i + 2 < bytes.count && bytes[i + 1] == 0x9A && bytes[i + 2] == 0x80: width = 3
            case 0xE2 where i + 2 < bytes.count:
                let (x, y) = (bytes[i + 1], bytes[i + 2])
                if x == 0x80 && (y <= 0x8A || y == 0xA8 || y == 0xA9 || y == 0xAF) || x == 0x81 && y == 0x9F { width = 3 }
            case 0xE3 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && bytes[i + 2] == 0x80: width = 3
            default: break
            }
            if width > 0 {
                space = !out.isEmpty
                i += width
                continue
            }
            if space { out.append(32); space = false }
            out.append(b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// nil for an empty string.
    static func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }

    /// A title: one line, at most 200 characters (longer ones end in `…`).
    static func titleLine(_ s: String) -> String {
        let line = collapse(s)
        return line.utf8.count > 200 && line.count > 200 ? String(line.prefix(199)) + "…" : line
    }

    /// `File.m:12` from a source path and line; the file name alone without a line; nil without a file.
    /// A source file of Apple's, not the app's: a build path of Apple's (`/AppleInternal/`,
    /// `com.apple.xbs`, `/System/Library/`), or, with no path, a file named after a system class
    /// the method belongs to (`-[UITableView …]` in `UITableView.m`).
    static func isSystemSource(_ file: String?, method: String) -> Bool {
        guard let file, !file.isEmpty else { return false }
        if file.contains("/AppleInternal/") || file.contains("com.apple.xbs") || file.hasPrefix("/System/Library/") { return true }
        guard !file.contains("/") else { return false }
        let base = file.split(separator: ".").first.map(String.init) ?? file
        let prefixes = ["UI", "_UI", "NS", "_NS", "CP", "CA", "BS", "FB", "RBS", "UIKit"]
        guard prefixes.contains(where: { base.hasPrefix($0) && base.count > $0.count && base.dropFirst($0.count).first!.isUppercase }) else { return false }
        // The method's class is that file's class (or a category of it).
        let cls = method.drop { $0 == "-" || $0 == "+" || $0 == "[" }.prefix { $0 != " " && $0 != "(" }
        return cls == base || cls.hasPrefix(base)
    }

    static func location(_ file: String?, _ line: Int?) -> String? {
        guard let file = file.map(collapse), !file.isEmpty else { return nil }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return line.map { "\(name):\($0)" } ?? name
    }

    /// Runs of equal neighbours written once.
    static func distinctRuns(_ items: [String]) -> [String] {
        var out: [String] = []
        for item in items where out.last != item { out.append(item) }
        return out
    }

    // MARK: Symbols and images

    /// `0x` followed by at least one hex digit and nothing else.
    static func isHexAddress<S: StringProtocol>(_ s: S) -> Bool {
        s.count > 2 && (s.hasPrefix("0x") || s.hasPrefix("0X")) && s.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    /// The symbol of a frame's text after its address, without ` + offset`, a trailing source location
    /// (`(File.swift:12)`), an atos `(in Image)` part or ` [inlined]`; nil when unsymbolicated (empty,
    /// `???`, an address, or the image name itself as in `0x1000 + 123` / `MyApp + 123`).
    static func symbol(_ text: String, image: String?) -> String? {
        var s = collapse(text)
        var changed = true
        while changed {
            changed = false
            if s.hasSuffix(" [inlined]") { s = String(s.dropLast(" [inlined]".count)); changed = true }
            if s.hasSuffix(")"), let open = s.range(of: " (", options: .backwards) {
                let inner = s[open.upperBound..<s.index(before: s.endIndex)]
                if isSourceLocation(inner) || (inner.hasPrefix("in ") && !inner.dropFirst(3).contains(" ")) {
                    s = String(s[..<open.lowerBound]); changed = true
                }
            }
            if let plus = s.range(of: " + ", options: .backwards) {
                let offset = s[plus.upperBound...]
                if !offset.isEmpty, offset.allSatisfy(\.isASCIIDigit) || isHexAddress(offset) {
                    s = String(s[..<plus.lowerBound]); changed = true
                }
            }
        }
        if s.isEmpty || s == "???" || isHexAddress(s) { return nil }
        if let image, s == image { return nil }
        return s
    }

    /// `File.swift:12` or `File.swift:12:5` (a file name with an extension, then line numbers).
    private static func isSourceLocation(_ s: Substring) -> Bool {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, let file = parts.first, file.contains("."), !file.contains(" "),
              !file.hasPrefix("."), !file.hasSuffix(".") else { return false }
        return parts.dropFirst().allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
    }

    /// The process's own image: its name, or Xcode 16's `Name.debug.dylib` of debug builds.
    static func isImage(_ image: String, of process: String) -> Bool {
        image == process || image == process + ".debug.dylib"
    }

    /// Images of the OS: Apple frameworks and libraries, the dynamic linker, Xcode's diagnostic
    /// libraries, reverse-DNS `com.apple.*` bundles.
    static func isSystemImage(_ image: String) -> Bool {
        if systemImages.contains(image) { return true }
        for prefix in systemImagePrefixes where image.hasPrefix(prefix) { return true }
        return false
    }

    static let systemImages: Set<String> = [
        "UIKitCore", "UIKit", "Foundation", "CoreFoundation", "QuartzCore", "GraphicsServices", "FrontBoardServices",
        "BaseBoard", "BoardServices", "RunningBoardServices", "AppKit", "UIKitMacHelper", "SwiftUI", "SwiftUICore",
        "Combine", "CFNetwork", "CoreGraphics", "CoreText", "CoreData", "CoreServices", "CoreLocation", "CoreMotion",
        "CoreMedia", "CoreVideo", "CoreImage", "CoreAnimation", "Metal", "MetalKit", "AVFoundation", "AVFAudio",
        "AudioToolbox", "MediaToolbox", "WebKit", "JavaScriptCore", "MapKit", "Photos", "PhotosUI", "StoreKit",
        "UserNotifications", "CarPlay", "CloudKit", "Security", "Network", "ImageIO", "IOKit", "Accelerate",
        "AttributeGraph", "AccessibilityUtilities", "AXCoreUtilities", "UIAccessibility", "TextInput",
        "TextInputCore", "DocumentManager", "ContactsUI", "Contacts", "EventKit", "HealthKit", "SafariServices",
        "AuthenticationServices", "LocalAuthentication", "SceneKit", "SpriteKit", "RealityKit", "ARKit",
        "GameKit", "GameplayKit", "CoreML", "Vision", "NaturalLanguage", "Intents", "IntentsUI", "WidgetKit",
        "ActivityKit", "AppIntents", "Observation", "SwiftData", "OSLog", "os", "dyld", "dyld_sim",
    ]

    static let systemImagePrefixes = [
        "libsystem_", "libdispatch", "libMainThreadChecker", "libobjc", "libswift", "libc++", "libxpc",
        "libdyld", "libBacktraceRecording", "libRPAC", "libLogRedirect", "libViewDebuggerSupport",
        "libsqlite3", "libz.", "libicucore", "libnetwork", "liboah", "libclang_rt.", "com.apple.",
    ]

    /// Frames of the abort and throw machinery: in every crash of their kind, they say nothing about
    /// which problem it is.
    static let abortMachinery: Set<String> = [
        "__pthread_kill", "pthread_kill", "raise", "abort", "__abort", "abort_message", "__assert_rtn",
        "demangling_terminate_handler()", "_objc_terminate()", "std::__terminate(void (*)())", "std::terminate()",
        "__cxa_throw", "__cxa_rethrow", "objc_exception_throw", "objc_exception_rethrow", "__exceptionPreprocess",
        "_CFThrowFormattedException", "-[NSException raise]", "+[NSException raise:format:]",
        "+[NSException raise:format:arguments:]",
    ]

    // MARK: Signals and exception types

    /// What shells and the debugger print for a signal (`Abort trap: 6`).
    static let signalDescriptions: [String: String] = [
        "abort trap": "SIGABRT", "segmentation fault": "SIGSEGV", "bus error": "SIGBUS",
        "illegal instruction": "SIGILL", "trace/bpt trap": "SIGTRAP", "killed": "SIGKILL", "terminated": "SIGTERM",
        "floating point exception": "SIGFPE", "hangup": "SIGHUP", "interrupt": "SIGINT", "quit": "SIGQUIT",
        "bad system call": "SIGSYS", "broken pipe": "SIGPIPE", "alarm clock": "SIGALRM", "emt trap": "SIGEMT",
    ]

    /// `SIGABRT` from `SIGABRT`, `sigabrt`, `ABRT`, `6`, `Signal 6` or `Abort trap`; nil when empty.
    /// Unknown numbers become `signal N`; other text is returned upper-cased.
    static func signalName(_ raw: String) -> String? {
        var s = collapse(raw)
        if s.isEmpty { return nil }
        if s.lowercased().hasPrefix("signal ") { s = String(s.dropFirst("signal ".count)) }
        if let n = Int(s) { return DarwinSignal.names[n] ?? "signal \(n)" }
        if let name = signalDescriptions[s.lowercased()] { return name }
        let upper = s.uppercased()
        if upper.hasPrefix("SIG") { return upper }
        if DarwinSignal.names.values.contains("SIG" + upper) { return "SIG" + upper }
        return upper
    }

    /// The signal a shell or debugger line names (`Abort trap: 6`, `Terminated due to signal 9`).
    static func signalNameInDescription(_ text: String) -> String? {
        let t = collapse(text)
        if let r = t.range(of: "signal ", options: [.caseInsensitive, .backwards]) {
            let digits = t[r.upperBound...].prefix(while: \.isASCIIDigit)
            if let n = Int(digits) { return DarwinSignal.names[n] ?? "signal \(n)" }
        }
        if let colon = t.lastIndex(of: ":") {
            let description = t[..<colon].lowercased()
            for (words, name) in signalDescriptions where description.hasSuffix(words) { return name }
        }
        return nil
    }

    /// `EXC_CRASH (SIGABRT)` from the parsed type and signal (the text form writes them as one field, the
    /// `.ips` form as two); a bare signal type (`SIGSEGV`, PLCrashReporter) stays alone.
    static func exceptionType(_ type: String?, _ signal: String?) -> String? {
        var t = type.map(collapse).flatMap(nonEmpty)
        var sig = signal.flatMap { signalName($0) }
        if let whole = t, whole.hasSuffix(")"), let open = whole.lastIndex(of: "(") {
            let inner = String(whole[whole.index(after: open)..<whole.index(before: whole.endIndex)])
            t = nonEmpty(collapse(String(whole[..<open])))
            if sig == nil { sig = signalName(inner) }
        }
        if let tt = t, tt.uppercased().hasPrefix("SIG") || Int(tt) != nil {
            let asSignal = signalName(tt)
            if sig == nil || sig == asSignal { return asSignal }
        }
        switch (t, sig) {
        case let (t?, s?): return "\(t) (\(s))"
        case let (t?, nil): return t
        case let (nil, s?): return s
        case (nil, nil): return nil
        }
    }

    // MARK: Watchdog

    /// The part of a termination reason that names the problem: the first ` | `-separated part that is
    /// not a state or statistics line (`ProcessVisibility: …`, `WatchdogEvent: …`, `WatchdogCPUStatistics`
    /// and its quoted lines, a lone `(` or `)…`). A leading `Termination Description:` label (log lines)
    /// is dropped, an `RBSTerminateContext` is reduced to its code and explanation, and a leading
    /// `SPRINGBOARD, ` / `FRONTBOARD, ` namespace is dropped. Masked, with
    /// termination codes (hex values up to 32 bits, such as `0x8badf00d`) kept in lower case.
    static func watchdogHeadline(_ reason: String) -> String? {
        let parts = reason.components(separatedBy: " | ").map(collapse).filter { !$0.isEmpty }
        let headline = parts.first { !isWatchdogStateLine($0) } ?? parts.first
        guard var h = headline else { return nil }
        for label in ["Termination Description:", "Termination Reason:"] where h.hasPrefix(label) {
            h = collapse(String(h.dropFirst(label.count)))
        }
        if h.hasPrefix("<RBSTerminateContext") {
            var code: String?
            if let r = h.range(of: "code:") {
                let value = h[r.upperBound...].prefix { !$0.isWhitespace }
                if isHexAddress(value) || value.allSatisfy(\.isASCIIDigit) { code = String(value) }
            }
            var explanation = ""
            if let r = h.range(of: "explanation:") {
                explanation = String(h[r.upperBound...])
                if let end = explanation.range(of: " reportType:") { explanation = String(explanation[..<end.lowerBound]) }
                if explanation.hasSuffix(">") { explanation.removeLast() }
            }
            h = [code, nonEmpty(collapse(explanation))].compactMap { $0 }.joined(separator: " ")
        } else if let comma = h.range(of: ", "), h[..<comma.lowerBound].allSatisfy({ $0.isUppercase || $0 == "_" }),
                  !h[..<comma.lowerBound].isEmpty {
            h = String(h[comma.upperBound...])
        }
        return nonEmpty(mask(h, keepingCodes: true))
    }

    /// `Key: value` state lines and CPU statistics of a watchdog termination description.
    private static func isWatchdogStateLine(_ part: String) -> Bool {
        if part.hasPrefix("\"") || part.hasPrefix(")") || part == "(" { return true }
        guard let colon = part.firstIndex(of: ":") else { return false }
        let key = part[..<colon]
        return !key.isEmpty && key.first!.isUppercase && key.allSatisfy { $0.isLetter }
            && ["Process", "Watchdog", "Thermal", "Elapsed"].contains { key.hasPrefix($0) }
    }

    // MARK: Masking

    /// Number unit suffixes that do not prevent masking (`5.0s`, `12ms`, `3MB`).
    static let units: Set<String> = [
        "s", "ms", "us", "µs", "ns", "m", "min", "h", "d", "x", "b", "B", "kb", "KB", "kB", "mb", "MB", "gb", "GB",
        "KiB", "MiB", "GiB", "px", "pt", "Hz", "kHz", "MHz", "GHz",
    ]

    /// See `Signatures.mask`. With `keepingCodes`, hex values that fit in 32 bits are kept (lower case,
    /// without leading zeros): they are termination codes, not addresses.
    static func mask(_ text: String, keepingCodes: Bool) -> String {
        let s = Array(text.unicodeScalars)
        let n = s.count
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var i = 0

        func emit(_ piece: String) {
            if pendingSpace && !out.isEmpty { out.append(" ") }
            pendingSpace = false
            out.append(contentsOf: piece.unicodeScalars)
        }
        func emit(_ c: Unicode.Scalar) {
            if pendingSpace && !out.isEmpty { out.append(" ") }
            pendingSpace = false
            out.append(c)
        }

        while i < n {
            let c = s[i]
            if c.properties.isWhitespace {
                pendingSpace = true
                i += 1
                continue
            }
            let standsAlone = i == 0 || !isWordScalar(s[i - 1])
            if standsAlone, let end = quotedValueEnd(s, at: i) {
                emit("'<…>'")
                i = end
                continue
            }
            if standsAlone, let end = uuidEnd(s, at: i) {
                emit("<uuid>")
                i = end
                continue
            }
            if standsAlone, c == "0", let end = hexEnd(s, at: i) {
                if keepingCodes, let value = UInt64(String(String.UnicodeScalarView(s[(i + 2)..<end])), radix: 16),
                   value <= UInt64(UInt32.max) {
                    emit("0x" + String(value, radix: 16))
                } else {
                    emit("<addr>")
                }
                i = end
                continue
            }
            if c == "/", let end = pathEnd(s, at: i) {
                emit("<path>")
                i = end
                continue
            }
            if standsAlone, isDigit(c) {
                var j = i
                while j < n, isDigit(s[j]) { j += 1 }
                while j + 1 < n, s[j] == ".", isDigit(s[j + 1]) {
                    j += 1
                    while j < n, isDigit(s[j]) { j += 1 }
                }
                var k = j
                while k < n, isWordScalar(s[k]) { k += 1 }
                let suffix = String(String.UnicodeScalarView(s[j..<k]))
                if suffix.isEmpty || units.contains(suffix) {
                    emit("<n>" + suffix)
                    i = k
                } else {
                    // Digits that belong to a word (`64bit`): text.
                    emit(String(String.UnicodeScalarView(s[i..<k])))
                    i = k
                }
                continue
            }
            emit(c)
            i += 1
        }
        return String(out)
    }

    @inline(__always) static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 48 && c.value <= 57 }

    @inline(__always) static func isHexScalar(_ c: Unicode.Scalar) -> Bool {
        isDigit(c) || (c.value >= 65 && c.value <= 70) || (c.value >= 97 && c.value <= 102)
    }

    /// Letters, digits and `_`: what a masked token must not touch.
    @inline(__always) static func isWordScalar(_ c: Unicode.Scalar) -> Bool {
        c == "_" || isDigit(c) || c.properties.isAlphabetic
    }

    /// End (exclusive) of a quoted value opening at `i`, or nil.
    static func quotedValueEnd(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        let close: Unicode.Scalar
        switch s[i] {
        case "'": close = "'"
        case "\"": close = "\""
        case "\u{2018}": close = "\u{2019}"
        case "\u{201C}": close = "\u{201D}"
        default: return nil
        }
        var j = i + 1
        while j < s.count {
            let c = s[j]
            if c == "\n" || c == "\r" { return nil }
            if c == close, j + 1 == s.count || !isWordScalar(s[j + 1]) { return j + 1 }
            j += 1
        }
        return nil
    }

    /// End of an `8-4-4-4-12` UUID starting at `i`, or nil.
    static func uuidEnd(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        var j = i
        for (g, length) in [8, 4, 4, 4, 12].enumerated() {
            if g > 0 {
                guard j < s.count, s[j] == "-" else { return nil }
                j += 1
            }
            for _ in 0..<length {
                guard j < s.count, isHexScalar(s[j]) else { return nil }
                j += 1
            }
        }
        if j < s.count, isWordScalar(s[j]) { return nil }
        return j
    }

    /// End of a `0x…` hex value starting at `i`, or nil.
    static func hexEnd(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        guard i + 2 < s.count, s[i] == "0", s[i + 1] == "x" || s[i + 1] == "X", isHexScalar(s[i + 2]) else { return nil }
        var j = i + 2
        while j < s.count, isHexScalar(s[j]) { j += 1 }
        if j < s.count, isWordScalar(s[j]) { return nil }
        return j
    }

    /// Characters that may precede an absolute path.
    static let pathOpeners: Set<Unicode.Scalar> = ["(", "[", "<", "{", "=", ":", ",", "'", "\"", "`"]
    /// Characters that end a path.
    static let pathClosers: Set<Unicode.Scalar> = [")", "]", ">", "}", ",", ";", ":", "'", "\"", "`"]

    /// End of an absolute path starting at the `/` at `i`, or nil.
    static func pathEnd(_ s: [Unicode.Scalar], at i: Int) -> Int? {
        if i > 0 {
            let p = s[i - 1]
            guard p.properties.isWhitespace || pathOpeners.contains(p) else { return nil }
        }
        guard i + 1 < s.count else { return nil }
        let first = s[i + 1]
        guard isWordScalar(first) || first == "/" || first == "." || first == "~" || first == "-" || first == "@" else { return nil }
        var j = i + 1
        while j < s.count, !s[j].properties.isWhitespace, !pathClosers.contains(s[j]) { j += 1 }
        return j
    }
}
