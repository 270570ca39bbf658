import Foundation

/// A microstackshot report: the system sampled a process that used too much CPU (bug_type 202,
/// `Event: cpu usage`), dirtied too much disk (145, `Event: disk writes`), or whose main run loop
/// stopped answering (228 and others, `Event: hang`, `Timed Out Runloop Hang`). A JSON header line,
/// then a text body of `Key: value` lines and the heaviest stack. The process may live on:
/// `Action taken: none` is the usual case.
public struct ResourceReport: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case cpu, diskWrites, hang, other
    }

    public var kind: Kind
    /// `Event:` as written (`cpu usage`, `disk writes`, `Timed Out Runloop Hang`).
    public var event: String
    public var bugType: String?
    public var incidentIdentifier: String?
    public var process: String?
    public var pid: Int?
    public var bundleID: String?
    public var appVersion: String?
    public var appBuild: String?
    public var osVersion: String?
    public var deviceModel: String?
    /// `Date/Time:` (the start of the episode), else the header's time.
    public var timestamp: String?
    /// The line that says what was used: `CPU: 90 seconds cpu time over 156 seconds (58% cpu
    /// average), exceeding limit of 50% cpu over 180 seconds`, `Writes: …`, a hang's `Reason:`.
    public var usage: String?
    /// `Action taken:` (`none`, `Process killed`, …).
    public var action: String?
    /// `Duration:` in milliseconds.
    public var durationMilliseconds: Int?
    /// The heaviest stack of the target process (of its main thread for a hang), innermost first.
    public var frames: [CrashFrame]
    /// Frames in the app's own binary (by name, path or the binary's UUID), innermost first.
    public var appFrames: [CrashFrame]

    /// True when a text body is a microstackshot report: it says which `Event:` it samples and
    /// which `Command:` it is about.
    static func isBody(_ lines: ArraySlice<Substring>) -> Bool {
        var event = false, command = false
        for l in lines.prefix(60) {
            let t = CrashText.trim(l)
            if t.hasPrefix("Event:") { event = true }
            if t.hasPrefix("Command:") { command = true }
        }
        return event && command
    }

    /// Reads the text body under an `.ips` header (or alone).
    static func read(lines: ArraySlice<Substring>, header: [String: Any]) -> ResourceReport {
        var r = ResourceReport(kind: .other, event: "", frames: [], appFrames: [])
        r.bugType = CrashJSONValue.string(header["bug_type"])
        r.incidentIdentifier = CrashJSONValue.string(header["incident_id"])
        r.process = CrashJSONValue.string(header["app_name"]) ?? CrashJSONValue.string(header["name"])
        r.bundleID = CrashJSONValue.string(header["bundleID"])
        r.appVersion = CrashJSONValue.string(header["app_version"])
        r.appBuild = CrashJSONValue.string(header["build_version"])
        r.osVersion = CrashJSONValue.string(header["os_version"])
        r.timestamp = CrashJSONValue.string(header["timestamp"])
        let appUUID = CrashJSONValue.string(header["slice_uuid"])?.uppercased()
        var path: String?
        var inStack = false, stackDone = false
        var outermostFirst: [(image: String?, symbol: String?, address: String?, offset: Int?)] = []
        for raw in lines {
            let t = CrashText.trim(raw)
            if inStack {
                if t.isEmpty { inStack = false; stackDone = true; continue }
                if let f = stackFrame(t) { outermostFirst.append(f) }
                continue
            }
            if !stackDone, t.hasPrefix("Heaviest stack for the") {
                inStack = true
                continue
            }
            guard let colon = t.firstIndex(of: ":") else { continue }
            let key = t[..<colon], value = CrashText.trim(t[t.index(after: colon)...])
            guard !value.isEmpty else { continue }
            switch key {
            case "Event": r.event = String(value)
            case "Command": r.process = r.process ?? String(value)
            case "PID": r.pid = r.pid ?? Int(value)
            case "Identifier": r.bundleID = r.bundleID ?? String(value)
            case "Version":
                if r.appVersion == nil { (r.appVersion, r.appBuild) = CrashDraft.versionAndBuild(String(value), osVersion: nil) }
            case "OS Version": r.osVersion = r.osVersion ?? String(value).replacingOccurrences(of: "(Build ", with: "(")
            case "Hardware model", "Hardware Model", "Model": r.deviceModel = r.deviceModel ?? String(value)
            case "Date/Time": r.timestamp = String(value)
            case "Incident Identifier": r.incidentIdentifier = r.incidentIdentifier ?? String(value)
            case "Path": path = path ?? String(value)
            case "CPU", "Writes", "Wakeups": r.usage = r.usage ?? "\(key): \(value)"
            case "Reason": r.usage = r.usage ?? String(value)
            case "Action taken": r.action = String(value)
            case "Duration": r.durationMilliseconds = r.durationMilliseconds ?? seconds(value).flatMap { Int(rounding: $0 * 1000) }
            default: break
            }
        }
        let lower = r.event.lowercased()
        r.kind = lower.contains("cpu") ? .cpu : lower.contains("disk write") ? .diskWrites : lower.contains("hang") ? .hang : .other
        let executable = path.flatMap { $0.split(separator: "/").last.map(String.init) }
        let appNames = Set([r.process, executable].compactMap { $0 })
        let innermostFirst = Array(outermostFirst.reversed())
        for (i, f) in innermostFirst.enumerated() {
            var image = f.image
            var isApp = image.map { appNames.contains($0) } ?? false
            if let img = image, img.hasPrefix("<"), img.hasSuffix(">") {
                let uuid = img.dropFirst().dropLast().uppercased()
                if uuid == appUUID { isApp = true; image = executable ?? r.process ?? img }
            }
            let frame = CrashFrame(index: i, image: image, symbol: f.symbol, address: f.address, offset: f.offset)
            r.frames.append(frame)
            if isApp { r.appFrames.append(frame) }
        }
        return r
    }

    /// `27  ??? (Orbit + 352120) [0x10464df78]`, `98  -[Foo bar] + 12 (UIKitCore + 11745396) [0x…]`,
    /// `*98  ??? (<UUID> + 4970440) [0x…] (blocked by …)`.
    static func stackFrame(_ t: Substring) -> (image: String?, symbol: String?, address: String?, offset: Int?)? {
        var rest = t.drop { $0 == "*" }
        guard let first = rest.first, first.isNumber else { return nil }
        rest = rest.drop { $0.isNumber }
        rest = rest.drop { $0 == " " }
        guard let open = rest.range(of: " ("), let close = rest[open.upperBound...].range(of: ") [") else { return nil }
        var symbol: Substring? = rest[..<open.lowerBound]
        if let s = symbol, s == "???" { symbol = nil }
        if let s = symbol, let plus = s.range(of: " + ", options: .backwards) { symbol = s[..<plus.lowerBound] }
        let inside = rest[open.upperBound..<close.lowerBound]
        let plus = inside.range(of: " + ", options: .backwards)
        let image = plus.map { inside[..<$0.lowerBound] } ?? inside
        let offset = plus.flatMap { Int(inside[$0.upperBound...]) }
        let afterBracket = rest[close.upperBound...]
        let address = afterBracket.prefix { $0 != "]" }
        return (image.isEmpty ? nil : String(image), symbol.map(String.init), address.isEmpty ? nil : String(address), offset)
    }

    /// `155.81s`, `9.89 s`, `2 sec`.
    static func seconds(_ s: Substring) -> Double? {
        let number = s.prefix { $0.isNumber || $0 == "." }
        return Double(number)
    }
}
