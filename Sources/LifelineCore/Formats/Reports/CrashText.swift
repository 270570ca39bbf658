import CLifelineScan
import Foundation

// MARK: - Helpers

/// Word lists used by the parser.
enum CrashLexicon {
    /// Substrings that mark a life-cycle symbol on their own.
    static let lifecycleTokens = [
        "FinishLaunching", "makeKeyAndVisible", "applicationDid", "applicationWill", "templateApplication",
        "configurationForConnecting", "CarInterfaceController", "_callInitializationDelegates",
        "_handleDelegateCallbacks", "_UICanvas", "_UISceneLifecycle",
    ]
    /// Scenes that are not UIKit scenes.
    static let foreignSceneTokens = ["SCNScene", "SKScene", "SceneKit", "RealityKit", "GKScene"]

    /// Keys of text report header lines (anything else that looks like `Key: value` is content).
    static let headerKeys: Set<String> = [
        "Incident Identifier", "CrashReporter Key", "Hardware Model", "Process", "Path", "Identifier",
        "Version", "Code Type", "Role", "Parent Process", "Responsible Process", "Coalition", "User ID",
        "Date/Time", "Launch Time", "OS Version", "Release Type", "Baseband Version", "Report Version",
        "Framework Version", "Anonymous UUID", "Sleep/Wake UUID", "Time Awake Since Boot", "Time Since Wake",
        "System Integrity Protection", "Beta Identifier", "Exception Type", "Exception Codes",
        "Exception Subtype", "Exception Note", "Exception Message", "Exception Reason", "Termination Reason",
        "Termination Description", "Termination Signal", "Terminating Process", "Triggered by Thread",
        "Crashed Thread", "Highlighted by Thread", "Application Specific Information",
        "Last Exception Backtrace", "Kernel Triage", "Binary Images", "VM Region Info",
        "Error Formulating Crash Report", "External Modification Warnings", "Physical Footprint",
        "Physical Footprint (peak)", "Extra Information", "Application Specific Backtrace 1",
        "Application Specific Signatures", "Thread State", "Backtrace not available", "EOF",
    ]
}

extension Character {
    /// ASCII 0-9.
    var crashIsDigit: Bool { ("0"..."9").contains(self) }
    /// White space, with an ASCII fast path.
    var crashIsSpace: Bool {
        if let a = asciiValue { return a == 0x20 || (0x09...0x0D).contains(a) }
        return isWhitespace
    }
    /// A line break, with an ASCII fast path.
    var crashIsNewline: Bool {
        if let a = asciiValue { return a == 0x0A || a == 0x0D || a == 0x0B || a == 0x0C }
        return isNewline
    }
    /// ASCII hex digit.
    var crashIsHexDigit: Bool { crashIsDigit || ("a"..."f").contains(self) || ("A"..."F").contains(self) }
}

/// Value coercions for JSONSerialization output.
enum CrashJSONValue {
    /// A string, or a number's decimal text.
    static func string(_ any: Any?) -> String? {
        switch any {
        case let s as String: return s
        case let n as NSNumber: return n.stringValue
        default: return nil
        }
    }

    /// An integer from a number or numeric string.
    static func int(_ any: Any?) -> Int? {
        switch any {
        case let n as NSNumber: return n.intValue
        case let i as Int: return i
        case let s as String: return Int(s)
        default: return nil
        }
    }

    /// An unsigned 64-bit value (negative numbers keep their bit pattern).
    static func uint64(_ any: Any?) -> UInt64? {
        switch any {
        case let n as NSNumber:
            let d = n.doubleValue
            if d < 0 { return UInt64(bitPattern: n.int64Value) }
            return n.uint64Value
        case let i as Int: return UInt64(bitPattern: Int64(i))
        default: return nil
        }
    }

    /// A Boolean from a JSON true/false (or a number).
    static func bool(_ any: Any?) -> Bool? {
        switch any {
        case let b as Bool: return b
        case let n as NSNumber: return n.boolValue
        default: return nil
        }
    }

    /// JSONSerialization's explanation of a failure.
    static func errorSummary(_ error: Error) -> String {
        let ns = error as NSError
        return (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
    }

    /// The character offset JSONSerialization names in its message ("around character 13").
    static func errorOffset(_ error: Error) -> Int? {
        let text = errorSummary(error)
        guard let range = CrashText.find("character ", in: Substring(text)) else { return nil }
        return Int(text[range.upperBound...].prefix(while: { $0.crashIsDigit }))
    }
}

/// String helpers for the text forms.
enum CrashText {
    /// Without surrounding white space (and a byte order mark).
    static func trim(_ s: Substring) -> Substring {
        var s = s
        while let f = s.first, f.crashIsSpace || f == "\u{FEFF}" { s = s.dropFirst() }
        while let l = s.last, l.crashIsSpace { s = s.dropLast() }
        return s
    }

    /// Lines split at `\n`, `\r\n` or `\r` (byte scan; no line-break characters kept).
    static func lines(_ text: String) -> [Substring] {
        var out: [Substring] = []
        let u = text.utf8
        var start = u.startIndex
        var i = u.startIndex
        while i < u.endIndex {
            let b = u[i]
            if b == 0x0A || b == 0x0D {
                out.append(text[start..<i])
                var next = u.index(after: i)
                if b == 0x0D, next < u.endIndex, u[next] == 0x0A { next = u.index(after: next) }
                start = next
                i = next
            } else {
                i = u.index(after: i)
            }
        }
        out.append(text[start..<u.endIndex])
        return out
    }

    /// Words separated by ASCII white space (at most `limit`); a byte scan.
    static func words(_ s: Substring, limit: Int = .max) -> [Substring] {
        var out: [Substring] = []
        let u = s.utf8
        func space(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }
        var i = u.startIndex
        while i < u.endIndex, out.count < limit {
            while i < u.endIndex, space(u[i]) { i = u.index(after: i) }
            guard i < u.endIndex else { break }
            let start = i
            while i < u.endIndex, !space(u[i]) { i = u.index(after: i) }
            out.append(s[start..<i])
        }
        return out
    }

    /// Byte-level search for an ASCII `needle` in `hay` (first match, or last with `backwards`),
    /// avoiding Foundation's bridged `range(of:)`.
    static func find(_ needle: String, in hay: Substring, backwards: Bool = false) -> Range<String.Index>? {
        let n = Array(needle.utf8)
        let u = hay.utf8
        let offset: Int? = u.withContiguousStorageIfAvailable { search($0, n, backwards) }
            ?? Array(u).withUnsafeBufferPointer { search($0, n, backwards) }
        guard let offset else { return nil }
        let lower = u.index(u.startIndex, offsetBy: offset)
        return lower..<u.index(lower, offsetBy: n.count)
    }

    /// Whether `hay` (UTF-8 bytes) contains the ASCII `needle`.
    static func contains<Bytes: Collection<UInt8>>(_ hay: Bytes, _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        if let found = hay.withContiguousStorageIfAvailable({ search($0, n, false) != nil }) { return found }
        return Array(hay).withUnsafeBufferPointer { search($0, n, false) } != nil
    }

    /// Offset of `n` in `h` (the last one when `backwards`).
    static func search(_ h: UnsafeBufferPointer<UInt8>, _ n: [UInt8], _ backwards: Bool) -> Int? {
        guard !n.isEmpty, h.count >= n.count else { return nil }
        let first = n[0]
        let last = h.count - n.count
        func matches(_ p: Int) -> Bool {
            guard h[p] == first else { return false }
            for k in 1..<n.count where h[p + k] != n[k] { return false }
            return true
        }
        if backwards {
            var p = last
            while p >= 0 { if matches(p) { return p }; p -= 1 }
        } else {
            // libc's memmem (ll_find_bytes) instead of a byte-by-byte scan.
            let at = n.withUnsafeBufferPointer { ll_find_bytes(h.baseAddress, h.count, $0.baseAddress, n.count) }
            return at >= 0 ? at : nil
        }
        return nil
    }

    /// At most 60 characters, for messages.
    static func abbreviate(_ s: Substring) -> String {
        s.count > 60 ? String(s.prefix(60)) + "…" : String(s)
    }

    /// Number of `\n` bytes before `offset`.
    static func newlineCount(_ bytes: [UInt8], upTo offset: Int) -> Int {
        var n = 0
        for b in bytes[..<min(offset, bytes.count)] where b == UInt8(ascii: "\n") { n += 1 }
        return n
    }

    /// `0x` + lower-case hex without padding.
    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// The value of a `0x…` literal.
    static func hexValue<S: StringProtocol>(_ s: S) -> UInt64? {
        let t = s.lowercased()
        guard t.hasPrefix("0x") else { return nil }
        return UInt64(t.dropFirst(2), radix: 16)
    }

    /// `0x` followed by at least one hex digit and nothing else.
    static func isHexAddress<S: StringProtocol>(_ s: S) -> Bool {
        s.count > 2 && (s.hasPrefix("0x") || s.hasPrefix("0X")) && s.dropFirst(2).allSatisfy(\.crashIsHexDigit)
    }

    /// "0x8BADF00D", "0x000000008badf00d", "2343432205" → "0x8badf00d"; anything else lower-cased.
    static func normalizedCode<S: StringProtocol>(_ s: S) -> String {
        let t = s.trimmingCharacters(in: .whitespaces)
        if let v = hexValue(t) { return hex(v) }
        if let v = UInt64(t) { return hex(v) }
        if let v = Int64(t) { return hex(UInt64(bitPattern: v)) }
        return t.lowercased()
    }

    /// `Key: value` for a known header key.
    static func headerField(_ line: Substring) -> (String, Substring)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let key = String(trim(line[..<colon]))
        guard CrashLexicon.headerKeys.contains(key) else { return nil }
        return (key, trim(line[line.index(after: colon)...]))
    }

    /// "Name [123]" → ("Name", 123); without a pid → (trimmed text, nil).
    static func processAndPID(_ value: Substring) -> (String?, Int?) {
        let v = trim(value)
        guard v.hasSuffix("]"), let open = v.lastIndex(of: "[") else { return (v.isEmpty ? nil : String(v), nil) }
        let digits = v[v.index(after: open)..<v.index(before: v.endIndex)]
        let name = trim(v[..<open])
        guard let pid = Int(trim(digits)), !name.isEmpty else { return (String(v), nil) }
        return (String(name), pid)
    }

    /// "EXC_CRASH (SIGABRT)" → ("EXC_CRASH", "SIGABRT"); "SIGSEGV" → ("SIGSEGV", "SIGSEGV").
    static func exceptionTypeAndSignal(_ value: Substring) -> (String?, String?) {
        let v = trim(value)
        if v.isEmpty { return (nil, nil) }
        if v.hasSuffix(")"), let open = v.lastIndex(of: "(") {
            let type = trim(v[..<open])
            let signal = trim(v[v.index(after: open)..<v.index(before: v.endIndex)])
            return (type.isEmpty ? nil : String(type), signal.isEmpty ? nil : String(signal))
        }
        let type = String(v)
        return (type, type.hasPrefix("SIG") ? type : nil)
    }

    /// Reads `Namespace X, Code Y rest` or `X <code> rest` (`SIGNAL 5 Trace/BPT trap: 5`,
    /// `FRONTBOARD 2343432205`); any other text becomes a reason.
    static func readTerminationReason(_ value: Substring, into r: inout CrashReport) {
        var v = trim(value)
        if v.isEmpty { return }
        var namespace: Substring?
        var rest: Substring
        if v.hasPrefix("Namespace ") {
            v = v.dropFirst("Namespace ".count)
            guard let comma = v.firstIndex(of: ",") else {
                r.terminationNamespace = r.terminationNamespace ?? String(trim(v))
                return
            }
            namespace = trim(v[..<comma])
            rest = trim(v[v.index(after: comma)...])
            if rest.hasPrefix("Code ") { rest = trim(rest.dropFirst("Code ".count)) }
        } else {
            let word = v.prefix(while: { !$0.crashIsSpace })
            let after = trim(v.dropFirst(word.count))
            let code = after.prefix(while: { !$0.crashIsSpace })
            let isUpperWord = !word.isEmpty && word.allSatisfy({ $0.isUppercase || $0 == "_" || $0.crashIsDigit })
            if isUpperWord, !code.isEmpty, isHexAddress(code) || code.allSatisfy(\.crashIsDigit) {
                namespace = word
                rest = after
            } else {
                r.terminationReasons += descriptionParts(v)
                return
            }
        }
        let code = rest.prefix(while: { !$0.crashIsSpace && $0 != "," })
        if r.terminationNamespace == nil, let namespace { r.terminationNamespace = String(namespace) }
        if r.terminationCode == nil, !code.isEmpty { r.terminationCode = normalizedCode(code) }
        let tail = trim(rest.dropFirst(code.count))
        if !tail.isEmpty { r.terminationReasons += descriptionParts(tail) }
    }

    /// Splits `a | b | c` (and continuation lines starting with `|`) into trimmed, non-empty parts.
    static func descriptionParts(_ value: Substring) -> [String] {
        var pieces: [Substring] = []
        var rest = value[...]
        while let sep = find(" | ", in: rest) {
            pieces.append(rest[..<sep.lowerBound])
            rest = rest[sep.upperBound...]
        }
        pieces.append(rest)
        return pieces.compactMap { part in
            var p = trim(part)
            while p.first == "|" { p = trim(p.dropFirst()) }
            while p.last == "|" { p = trim(p.dropLast()) }
            return p.isEmpty ? nil : String(p)
        }
    }

    /// What a `Thread N …` line says.
    enum ThreadHeaderKind { case name(Substring), start(crashed: Bool, rest: Substring?), state }

    /// Recognises `Thread N name: x`, `Thread N:`, `Thread N Crashed:`, `Thread N Crashed:: x`,
    /// `Thread N:: x` and `Thread N crashed with ... Thread State`.
    static func threadHeader(_ line: Substring) -> (number: Int, kind: ThreadHeaderKind)? {
        var s = line.dropFirst("Thread ".count)
        let digits = s.prefix(while: { $0.crashIsDigit })
        guard let n = Int(digits) else { return nil }
        s = s.dropFirst(digits.count)
        if s.hasPrefix(" name:") { return (n, .name(trim(s.dropFirst(" name:".count)))) }
        if s.hasPrefix(" crashed with") || s.hasPrefix(" Crashed with") { return (n, .state) }
        var crashed = false
        if s.hasPrefix(" Crashed") { crashed = true; s = s.dropFirst(" Crashed".count) }
        guard s.hasPrefix(":") else { return nil }
        s = s.dropFirst()
        if s.hasPrefix(":") { s = s.dropFirst() }
        let rest = trim(s)
        return (n, .start(crashed: crashed, rest: rest.isEmpty ? nil : rest))
    }

    /// `Dispatch queue: x` sets the queue, anything else the name.
    static func assignNameOrQueue(_ value: Substring, to thread: inout CrashRawThread) {
        let v = trim(value)
        if v.hasPrefix("Dispatch queue:") {
            thread.queue = String(trim(v.dropFirst("Dispatch queue:".count)))
        } else if !v.isEmpty {
            thread.name = String(v)
        }
    }

    /// A backtrace line: `N  image  0xADDR  symbol + offset` (tabs or spaces; image may contain spaces).
    static func frame(_ line: Substring) -> CrashFrame? {
        let digits = line.prefix(while: { $0.crashIsDigit })
        guard let index = Int(digits) else { return nil }
        let afterIndex = line.dropFirst(digits.count)
        guard let sep = afterIndex.first, sep.crashIsSpace else { return nil }
        let tokens = words(afterIndex)
        guard tokens.count >= 2, let k = tokens.indices.dropFirst().first(where: { isHexAddress(tokens[$0]) }) else { return nil }
        let imageText = trim(afterIndex[tokens[0].startIndex..<tokens[k - 1].endIndex])
        let image: String? = (imageText.isEmpty || imageText == "???") ? nil : String(imageText)
        let address = tokens[k]
        let rest = trim(afterIndex[address.endIndex...])
        return CrashFrame(index: index, image: image, symbol: symbol(rest, image: image), address: String(address))
    }

    /// Strips `+ offset`, a trailing `(file:line)` and `[inlined]`; nil when unsymbolicated.
    static func symbol(_ rest: Substring, image: String?) -> String? {
        var s = trim(rest)
        if s.hasSuffix("[inlined]") { s = trim(s.dropLast("[inlined]".count)) }
        if let plus = find(" + ", in: s, backwards: true) {
            let after = s[plus.upperBound...]
            if let f = after.first, f.crashIsDigit { s = trim(s[..<plus.lowerBound]) }
        }
        // A source location after the symbol (`SoLoader::Load() (SoLoader.cpp:57)`) is not part of it.
        if s.hasSuffix(")"), let open = find(" (", in: s, backwards: true) {
            let location = s[open.upperBound..<s.index(before: s.endIndex)]
            if let colon = location.lastIndex(of: ":"), location[..<colon].contains("."),
               !location[location.index(after: colon)...].isEmpty,
               location[location.index(after: colon)...].allSatisfy(\.crashIsDigit) {
                s = trim(s[..<open.lowerBound])
            }
        }
        if s.isEmpty || s == "???" { return nil }
        if isHexAddress(s) { return nil }
        if let image, s == image { return nil }
        return String(s)
    }

    /// The bundle directory of an app executable path, with its trailing slash:
    /// `/var/containers/Bundle/Application/ID/My.app/My` gives `/var/containers/Bundle/Application/ID/My.app/`.
    static func bundleDirectory(_ executablePath: String) -> String? {
        // A nested app (a watch app, an app clip) belongs to the outermost bundle.
        guard let outer = executablePath.range(of: ".app/") else { return nil }
        return String(executablePath[..<outer.upperBound])
    }

    /// Whether an image at `path` is shipped in the app: inside `bundle` when it is known, else in
    /// some `.app` that is not part of the system (a simulator runtime or `/System`).
    static func isInAppBundle(_ path: String?, bundle: String?) -> Bool {
        guard let path, !path.isEmpty else { return false }
        if let bundle { return path.hasPrefix(bundle) }
        guard path.contains(".app/") else { return false }
        return !(path.hasPrefix("/System/") || path.hasPrefix("/usr/") || path.contains("/RuntimeRoot/")
                 || path.hasPrefix("/Applications/Xcode") || path.contains("/Xcode.app/"))
    }

    /// `0xSTART - 0xEND [+]name [arch|(version)] <uuid> path`.
    static func binaryImage(_ line: Substring) -> CrashBinaryImage? {
        let parts = words(line, limit: 4)
        guard parts.count >= 4, let start = hexValue(parts[0]), parts[1] == "-", let end = hexValue(parts[2]) else { return nil }
        var rest = trim(line[parts[2].endIndex...])
        var path: String?
        if let lt = find(" <", in: rest) ?? (rest.hasPrefix("<") ? rest.startIndex..<rest.index(after: rest.startIndex) : nil) {
            if let gt = rest[lt.upperBound...].firstIndex(of: ">") {
                let p = trim(rest[rest.index(after: gt)...])
                path = p.isEmpty ? nil : String(p)
            }
            rest = trim(rest[..<lt.lowerBound])
        }
        if rest.first == "+" { rest = trim(rest.dropFirst()) }
        if rest.hasSuffix(")"), let open = find(" (", in: rest, backwards: true) {
            rest = trim(rest[..<open.lowerBound])
        } else if let space = rest.lastIndex(of: " ") {
            let arch = rest[rest.index(after: space)...]
            if ["arm64", "arm64e", "arm64_32", "armv7", "armv7s", "armv7k", "x86_64", "x86_64h", "i386", "unknown-arch"].contains(String(arch)) {
                rest = trim(rest[..<space])
            }
        }
        guard !rest.isEmpty, rest != "???" else { return nil }
        return CrashBinaryImage(start: start, end: end, name: String(rest), path: path)
    }

    /// Finds `*** Terminating app due to uncaught exception 'NAME', reason: 'REASON'`; the reason
    /// runs to the first `'` that ends a line (it may span lines).
    static func uncaughtException(in text: String) -> (name: String, reason: String?)? {
        let marker = "Terminating app due to uncaught exception '"
        guard let m = find(marker, in: Substring(text)) else { return nil }
        let afterName = text[m.upperBound...]
        guard let nameEnd = afterName.firstIndex(of: "'") else { return nil }
        let name = String(afterName[..<nameEnd])
        let tail = afterName[afterName.index(after: nameEnd)...]
        guard tail.hasPrefix(", reason: '") else { return (name, nil) }
        let reasonStart = tail.index(tail.startIndex, offsetBy: ", reason: '".count)
        let reasonText = tail[reasonStart...]
        var i = reasonText.startIndex
        while let quote = reasonText[i...].firstIndex(of: "'") {
            var j = reasonText.index(after: quote)
            while j < reasonText.endIndex, reasonText[j] == " " || reasonText[j] == "\t" { j = reasonText.index(after: j) }
            if j == reasonText.endIndex || reasonText[j].crashIsNewline {
                return (name, String(reasonText[..<quote]))
            }
            i = reasonText.index(after: quote)
        }
        let lineEnd = reasonText.firstIndex(where: \.crashIsNewline) ?? reasonText.endIndex
        return (name, String(reasonText[..<lineEnd]))
    }

    /// `WatchdogEvent: x`, else the word before "watchdog transgression", else "failed to x".
    static func watchdogEvent(in text: String) -> String? {
        func word(from s: Substring) -> String? {
            let w = s.prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            return w.isEmpty ? nil : String(w)
        }
        let text = Substring(text)
        if let r = find("WatchdogEvent:", in: text) {
            if let w = word(from: trim(text[r.upperBound...])) { return w }
        }
        let lowered = Substring(text.lowercased())
        if let r = find(" watchdog transgression", in: lowered) {
            let before = lowered[..<r.lowerBound]
            let w = before.reversed().prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            if !w.isEmpty { return String(w.reversed()) }
        }
        if let r = find("failed to ", in: text) {
            let w = word(from: text[r.upperBound...])
            if let w, w.hasPrefix("scene-") { return w }
        }
        return nil
    }
}
