import Foundation

/// One MetricKit diagnostic (`MXCrashDiagnostic`, `MXHangDiagnostic`, `MXCPUExceptionDiagnostic`,
/// `MXDiskWriteExceptionDiagnostic`, `MXAppLaunchDiagnostic`) as an app saved or uploaded it with
/// `jsonRepresentation()`.
///
/// Shapes read: one payload object, an array of payloads, an app's wrapper holding the payload
/// under `payload`, and a bare diagnostic (`callStackTree` + `diagnosticMetaData`). MetricKit
/// writes no symbols: a frame is a binary and an offset. Measurements (`hangDuration`,
/// `launchDuration`, `totalCPUTime`, `writesCaused`) are localised strings (`"9 sec"`, `"20 secs."`,
/// `"4,812 ms"`, `"2,717秒"`); they are kept as written and read as numbers where the unit is known.
public struct MetricKitDiagnostic: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case crash = "crashDiagnostics"
        case hang = "hangDiagnostics"
        case cpuException = "cpuExceptionDiagnostics"
        case diskWriteException = "diskWriteExceptionDiagnostics"
        case appLaunch = "appLaunchDiagnostics"
    }

    public var kind: Kind
    /// 1-based line of the diagnostic object in its file (1 when it cannot be told).
    public var line: Int
    /// The payload's window (`timeStampBegin`, `timeStampEnd`) as written.
    public var begin: String?
    public var end: String?
    public var appVersion: String?
    public var appBuild: String?
    public var osVersion: String?
    public var deviceModel: String?
    public var bundleID: String?
    public var pid: Int?
    /// Crash: Mach exception and signal as names (`EXC_CRASH`, `SIGABRT`), the code, the
    /// termination reason, and the Objective-C exception (iOS 17+).
    public var exceptionType: String?
    public var signal: String?
    public var exceptionCode: String?
    public var terminationReason: String?
    public var exceptionName: String?
    public var exceptionReason: String?
    /// `hangDuration`, `launchDuration`, `totalCPUTime` (+ `totalSampledTime`), `writesCaused` as written.
    public var measurement: String?
    public var sampledTime: String?
    /// The measurement in milliseconds, when it is a duration in a known unit.
    public var durationMilliseconds: Int?
    /// `hangType` (`Main Runloop Hang`).
    public var hangType: String?
    /// The attributed thread's stack (or the heaviest path of a sampled tree), innermost first.
    public var frames: [CrashFrame]
    /// Per frame of `frames`: it is in the app's own binary.
    public var appFlags: [Bool]
    /// The app's executable as the stacks show it (the binary `dyld` calls `main` in).
    public var appBinary: String?
}

/// Reads MetricKit diagnostic payloads.
public enum MetricKitReader {
    /// True when the start of a file (its first few kilobytes) is a MetricKit diagnostic payload.
    public static func looksLikePayload(_ head: [UInt8]) -> Bool {
        guard let first = head.first(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }), first == 123 || first == 91 else { return false }
        // Byte searches: the sniffer asks this of every input's first 16 KiB.
        func has(_ key: String) -> Bool { CrashText.contains(head, key) }
        let keys = MetricKitDiagnostic.Kind.allCases.map { "\"\($0.rawValue)\"" } + ["\"diagnosticMetaData\"", "\"callStackTree\""]
        return keys.contains(where: has) && (has("\"timeStampBegin\"") || has("\"diagnosticMetaData\"") || has("\"callStackTree\""))
            && !has("\"bug_type\"")
    }

    /// The diagnostics of a file, in order (payload, then kind as written, then position).
    /// - Throws: `CrashReportError` when the JSON is malformed or holds no diagnostic.
    public static func read(_ bytes: [UInt8]) throws -> [MetricKitDiagnostic] {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(bytes)) } catch {
            let shape = CrashJSONShape.scan(bytes)
            var line: Int? = nil
            if case .invalid(let offset) = shape.status { line = 1 + CrashText.newlineCount(bytes, upTo: offset) }
            // Cut short: the file ends inside the JSON, so that is where to look.
            if shape.status == .truncated { line = 1 + CrashText.newlineCount(bytes, upTo: bytes.count) - (bytes.last == 10 ? 1 : 0) }
            let what = shape.status == .truncated ? "cut short at the end of the file (no diagnostic read)"
                : "malformed (\(CrashJSONValue.errorSummary(error)))"
            throw CrashReportError(kind: .malformedJSON, message: "the MetricKit payload's JSON is \(what)", line: line)
        }
        let payloads: [[String: Any]]
        if let list = object as? [Any] {
            payloads = list.compactMap { ($0 as? [String: Any]).map(unwrap) }
        } else if let dict = object as? [String: Any] {
            payloads = [unwrap(dict)]
        } else {
            payloads = []
        }
        let lines = DiagnosticLines(bytes)
        var out: [MetricKitDiagnostic] = []
        for (p, payload) in payloads.enumerated() {
            // A bare diagnostic is a payload of one crash/hang/… whose kind its metadata tells.
            let groups: [(MetricKitDiagnostic.Kind, [Any])]
            if payload["diagnosticMetaData"] != nil {
                groups = [(bareKind(payload), [payload])]
            } else {
                groups = MetricKitDiagnostic.Kind.allCases.compactMap { k in (payload[k.rawValue] as? [Any]).map { (k, $0) } }
            }
            var found: [MetricKitDiagnostic] = []
            for (kind, items) in groups {
                for (i, item) in items.enumerated() {
                    guard let d = item as? [String: Any] else { continue }
                    var diagnostic = read(d, kind: kind, payload: payload)
                    diagnostic.line = lines.line(payload: payloads.count > 1 ? p : nil, key: kind.rawValue, index: i)
                        ?? (payload["diagnosticMetaData"] != nil ? 1 : 1)
                    found.append(diagnostic)
                }
            }
            // The app's binary, when one stack shows it, names it in every diagnostic of the payload.
            if let binary = found.lazy.compactMap(\.appBinary).first {
                for i in found.indices where found[i].appBinary == nil {
                    found[i].appBinary = binary
                    found[i].appFlags = found[i].frames.map { $0.image == binary }
                }
            }
            out += found
        }
        guard !out.isEmpty else {
            throw CrashReportError(kind: .notACrashReport, message: "the JSON holds no MetricKit diagnostic (crashDiagnostics, hangDiagnostics, cpuExceptionDiagnostics, diskWriteExceptionDiagnostics or appLaunchDiagnostics)", line: 1)
        }
        return out.sorted { $0.line < $1.line }
    }

    /// An app's upload wrapper (`{"payload": {…}}`) unwrapped.
    static func unwrap(_ d: [String: Any]) -> [String: Any] {
        if d["diagnosticMetaData"] == nil, MetricKitDiagnostic.Kind.allCases.allSatisfy({ d[$0.rawValue] == nil }),
           let inner = d["payload"] as? [String: Any] {
            return inner
        }
        return d
    }

    static func bareKind(_ d: [String: Any]) -> MetricKitDiagnostic.Kind {
        let m = d["diagnosticMetaData"] as? [String: Any] ?? [:]
        if m["hangDuration"] != nil || d["hangType"] != nil { return .hang }
        if m["totalCPUTime"] != nil { return .cpuException }
        if m["writesCaused"] != nil { return .diskWriteException }
        if m["launchDuration"] != nil { return .appLaunch }
        return .crash
    }

    static func read(_ d: [String: Any], kind: MetricKitDiagnostic.Kind, payload: [String: Any]) -> MetricKitDiagnostic {
        let m = d["diagnosticMetaData"] as? [String: Any] ?? [:]
        func s(_ key: String) -> String? { CrashJSONValue.string(m[key]).flatMap { $0.isEmpty ? nil : $0 } }
        var r = MetricKitDiagnostic(kind: kind, line: 1, frames: [], appFlags: [])
        r.begin = CrashJSONValue.string(payload["timeStampBegin"])
        r.end = CrashJSONValue.string(payload["timeStampEnd"])
        r.appVersion = s("appVersion")
        r.appBuild = s("appBuildVersion")
        r.osVersion = s("osVersion")
        r.deviceModel = s("deviceType")
        r.bundleID = s("bundleIdentifier")
        r.pid = CrashJSONValue.int(m["pid"]).flatMap { $0 >= 0 ? $0 : nil }
        if let t = CrashJSONValue.int(m["exceptionType"]) { r.exceptionType = machExceptions[t] ?? "exception type \(t)" }
        if let sig = CrashJSONValue.int(m["signal"]) { r.signal = DarwinSignal.names[sig] ?? "signal \(sig)" }
        r.exceptionCode = CrashJSONValue.int(m["exceptionCode"]).map(String.init)
        r.terminationReason = s("terminationReason")
        let objc = (m["objectiveCexceptionReason"] ?? m["objectiveCExceptionReason"] ?? m["exceptionReason"]) as? [String: Any]
        if let objc {
            r.exceptionName = CrashJSONValue.string(objc["exceptionName"]) ?? CrashJSONValue.string(objc["exceptionType"])
            r.exceptionReason = CrashJSONValue.string(objc["composedMessage"]) ?? CrashJSONValue.string(objc["formatString"])
        }
        switch kind {
        case .crash: break
        case .hang: r.measurement = s("hangDuration")
        case .appLaunch: r.measurement = s("launchDuration")
        case .cpuException:
            r.measurement = s("totalCPUTime")
            r.sampledTime = s("totalSampledTime")
        case .diskWriteException: r.measurement = s("writesCaused")
        }
        if kind != .diskWriteException { r.durationMilliseconds = r.measurement.flatMap(milliseconds) }
        r.hangType = CrashJSONValue.string(d["hangType"])
        let tree = d["callStackTree"] as? [String: Any] ?? (d["callStacks"] != nil ? d : [:])
        let stacks = (tree["callStacks"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        let paths = stacks.map { Stack(path: heaviestPath($0)) }
        let attributed = stacks.firstIndex { CrashJSONValue.bool($0["threadAttributed"]) == true } ?? (paths.isEmpty ? nil : 0)
        let innermostFirstByDefault = kind == .crash && majorOS(r.osVersion).map { $0 <= 16 } ?? false
        r.appBinary = paths.lazy.compactMap { $0.binaryCalledByDyld() }.first
        if let a = attributed {
            let frames = paths[a].innermostFirst(fallback: innermostFirstByDefault)
            r.frames = frames.enumerated().map { i, f in
                CrashFrame(index: i, image: f.binary, symbol: nil, address: f.address.map { "0x" + String($0, radix: 16) }, offset: f.offset)
            }
            r.appFlags = frames.map { r.appBinary != nil && $0.binary == r.appBinary }
        }
        return r
    }

    /// One node of a call stack tree, on the path followed.
    struct Node {
        var binary: String?
        var address: UInt64?
        var offset: Int?
        var samples: Int
    }

    /// A path from the root of a stack to a leaf, in the tree's order.
    struct Stack {
        var path: [Node]

        static let entryBinaries: Set<String> = ["dyld", "libdyld.dylib", "libsystem_pthread.dylib"]

        /// The frames innermost first: the end where `dyld` or the thread entry sits is the
        /// outermost; when neither end shows it, `fallback` says whether the root is innermost.
        func innermostFirst(fallback rootIsInnermost: Bool) -> [Node] {
            let rootIsEntry = path.first.flatMap(\.binary).map(Self.entryBinaries.contains) ?? false
            let leafIsEntry = path.last.flatMap(\.binary).map(Self.entryBinaries.contains) ?? false
            if rootIsEntry && !leafIsEntry { return path.reversed() }
            if leafIsEntry && !rootIsEntry { return path }
            return rootIsInnermost ? path : path.reversed()
        }

        /// The binary `dyld`'s `start` calls: the app's executable (where `main` is).
        func binaryCalledByDyld() -> String? {
            let outermostFirst = innermostFirst(fallback: true).reversed()
            var previous: String?
            for node in outermostFirst {
                if let p = previous, p == "dyld" || p == "libdyld.dylib" {
                    guard let b = node.binary, !Self.entryBinaries.contains(b) else { return nil }
                    return b
                }
                previous = node.binary
            }
            return nil
        }
    }

    /// From the root, at each level the most sampled frame (the first on a tie), to a leaf.
    static func heaviestPath(_ stack: [String: Any]) -> [Node] {
        var out: [Node] = []
        var level = (stack["callStackRootFrames"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        while !level.isEmpty, out.count < 4096 {
            var best = level[0]
            var bestSamples = CrashJSONValue.int(best["sampleCount"]) ?? 0
            for f in level.dropFirst() {
                let n = CrashJSONValue.int(f["sampleCount"]) ?? 0
                if n > bestSamples { best = f; bestSamples = n }
            }
            let address = CrashJSONValue.uint64(best["address"])
            var offset = CrashJSONValue.uint64(best["offsetIntoBinaryTextSegment"])
            // iOS 14/15 and macOS 12 wrote the image's load address here, not the offset.
            if let o = offset, let a = address, o > 0xFFFF_FFFF || o > a { offset = a >= o ? a - o : nil }
            out.append(Node(binary: CrashJSONValue.string(best["binaryName"]) ?? CrashJSONValue.string(best["binaryUUID"]),
                            address: address, offset: offset.flatMap { Int(exactly: $0) }, samples: bestSamples))
            level = (best["subFrames"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        }
        return out
    }

    static func majorOS(_ os: String?) -> Int? {
        guard let os else { return nil }
        let digits = os.drop { !$0.isNumber }.prefix { $0.isNumber }
        return Int(digits)
    }

    /// `"9 sec"`, `"20 secs."`, `"4,812 ms"`, `"3.2 sec"`, `"1.5 min"`, `"2,717秒"`, `"1,530毫秒"`.
    static func milliseconds(_ s: String) -> Int? {
        var number = ""
        var rest = Substring(s)
        while let c = rest.first, c.isNumber || c == "," || c == "." || c == " " {
            if c != "," && c != " " { number.append(c) }
            rest = rest.dropFirst()
        }
        guard let value = Double(number) else { return nil }
        let unit = rest.trimmingCharacters(in: .whitespaces).lowercased()
        let scale: Double
        if unit.hasPrefix("ms") || unit.hasPrefix("毫秒") { scale = 1 }
        else if unit.hasPrefix("sec") || unit.hasPrefix("s") && unit.count <= 2 || unit.hasPrefix("秒") { scale = 1000 }
        else if unit.hasPrefix("min") || unit.hasPrefix("分") { scale = 60_000 }
        else { return nil }
        return Int(rounding: value * scale)
    }

    static let machExceptions: [Int: String] = [
        1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 4: "EXC_EMULATION", 5: "EXC_SOFTWARE",
        6: "EXC_BREAKPOINT", 7: "EXC_SYSCALL", 8: "EXC_MACH_SYSCALL", 9: "EXC_RPC_ALERT", 10: "EXC_CRASH",
        11: "EXC_RESOURCE", 12: "EXC_GUARD", 13: "EXC_CORPSE_NOTIFY",
    ]

}

/// Where each diagnostic object starts in the file: a scan of the JSON's structure (strings,
/// nesting) that notes the line of every object in a `…Diagnostics` array. JSONSerialization keeps
/// array order but says nothing of lines; this says only that.
struct DiagnosticLines {
    private var starts: [String: Int] = [:]

    init(_ bytes: [UInt8]) {
        let kinds = Set(MetricKitDiagnostic.Kind.allCases.map(\.rawValue))
        var line = 1
        var depth = 0
        var inString = false, escaped = false
        var stringStart = 0
        var lastString: String?
        var topIndex = -1            // element of a top-level array (the payload), if the file is one
        var topIsArray = false
        // Open arrays of diagnostics: the depth of their elements, key, element count.
        var open: [(depth: Int, key: String, count: Int)] = []
        var pendingKey: String?
        for (i, b) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if b == 92 { escaped = true } else if b == 34 {
                    inString = false
                    lastString = String(decoding: bytes[(stringStart + 1)..<i], as: UTF8.self)
                }
                if b == 10 { line += 1 }
                continue
            }
            switch b {
            case 10: line += 1
            case 34: inString = true; stringStart = i
            case 58: pendingKey = lastString  // `:` after a key
            case 91:  // `[`
                depth += 1
                if depth == 1 { topIsArray = true }
                if let k = pendingKey, kinds.contains(k) { open.append((depth + 1, k, 0)) }
                pendingKey = nil
            case 123:  // `{`
                depth += 1
                if depth == 2 && topIsArray { topIndex += 1 }
                if let last = open.last, last.depth == depth {
                    let payload = topIsArray ? topIndex : -1
                    starts["\(payload)\u{0}\(last.key)\u{0}\(last.count)"] = line
                    open[open.count - 1].count += 1
                }
                pendingKey = nil
            case 93, 125:  // `]`, `}`
                if b == 93, let last = open.last, last.depth == depth + 1 { open.removeLast() }
                depth -= 1
                pendingKey = nil
            case 44: pendingKey = nil
            default: break
            }
        }
    }

    /// The line of element `index` of array `key` in payload `payload` (nil for a lone payload).
    func line(payload: Int?, key: String, index: Int) -> Int? {
        starts["\(payload ?? -1)\u{0}\(key)\u{0}\(index)"]
    }
}
