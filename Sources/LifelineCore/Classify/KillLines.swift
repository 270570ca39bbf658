import Foundation

// Device-log lines that show an app killed or exiting without a crash report: SpringBoard's
// FrontBoard `Process exited:`, RunningBoard's `Terminating with context:` and `termination reported
// by launchd (NS, CODE, STATUS)`, the kernel's `memorystatus: killing_… pid N [name] (cause …)`,
// launchd's legacy `(UIKitApplication:…[pid]) Service exited due to …`, and Xcode's `Terminated
// due to memory issue`. The event is the victim's, not the logging daemon's: its subject names the
// killed app (pid, bundle ID, name), so it joins the app's own session.
//
// Not failures, so no event: a voluntary exit, a user's swipe-quit (`0xdeadfa11`), a force-quit by
// tooling (`0xfbfbfbfb`). A crash signal (SIGSEGV, SIGABRT, …) is a `failure.signal`: the crash
// report, when there is one, says more.

extension EventClassifier {
    /// The event of a kill line, or nil when `r` is not one (or is an exit that is not a failure).
    /// `families` says which shapes' literals the line holds: only their patterns run.
    func kill(_ r: RecordText, families f: FailureFamily) -> Event? {
        let m = r.message
        let k = KillPatterns.shared
        // A pid that does not fit an Int is not a process's: no kill line.
        if f.contains(.killExited), let g = k.processExited.firstMatch(in: m, scratch: scratch) {
            guard let pid = g[2].flatMap({ Int($0) }) else { return nil }
            let bundle = g[1]
            if let fb = g[8] {
                // `<FBProcessExitContext; watchdog ("watchdog provision violated")>` (iOS 14).
                switch fb {
                case "watchdog": return victim(.watchdog, r, bundle: bundle, pid: pid, reason: g[9] ?? "watchdog", code: "0x8badf00d")
                case "voluntary", "user-quit", "force-quit": return nil
                default: return victim(.killed, r, bundle: bundle, pid: pid, reason: [fb, g[9]].compactMap { $0 }.joined(separator: ": "))
                }
            }
            guard g[3]?.hasPrefix("specific") == true, let domain = g[5].flatMap({ Int($0) }), let value = g[7] else { return nil }
            return exit(r, bundle: bundle, pid: pid, domain: domain, domainName: g[4], codeName: g[6], code: value)
        }
        if f.contains(.killTerminating), let g = k.terminatingWithContext.firstMatch(in: m, scratch: scratch) {
            guard let pid = g[2].flatMap({ Int($0) }) else { return nil }
            let code = g[4]?.lowercased()
            if code == "0xdeadfa11" || code == "0xfbfbfbfb" { return nil }
            let explanation = g[5]?.trimmed
            if code == "0x8badf00d" {
                // The explanation ends in `WatchdogCPUStatistics: ( "Elapsed total CPU time …", "Elapsed
                // application CPU time …" )`: kept apart as the CPU time, not in the reason.
                let stats = explanation?.range(of: " WatchdogCPUStatistics:")
                let reason = stats.map { String(explanation![..<$0.lowerBound]) } ?? explanation
                var e = victim(.watchdog, r, bundle: g[1], pid: pid, reason: reason ?? "watchdog", code: code)
                if var d = e.details, let x = explanation {
                    if let w = p.watchdogEvent.firstMatch(in: x, scratch: scratch) { d.watchdogEvent = w[1] ?? w[2] }
                    if let stats {
                        var list = x[stats.upperBound...].trimmed
                        if list.hasPrefix("(") { list.removeFirst() }
                        if list.hasSuffix(")") { list.removeLast() }
                        d.cpuTime = CrashEvents.cpuTime([list.replacingOccurrences(of: "\", \"", with: "\n")])
                    }
                    e.details = d
                }
                return e
            }
            let reason = [explanation, code.map { "code \($0)" }].compactMap { $0 }.joined(separator: ", ")
            return victim(.killed, r, bundle: g[1], pid: pid, reason: reason.isEmpty ? "terminated by RunningBoard" : reason, code: code)
        }
        if f.contains(.killReported), let g = k.terminationReported.firstMatch(in: m, scratch: scratch),
           let pid = g[2].flatMap({ Int($0) }), let ns = g[3].flatMap({ Int($0) }), let code = g[4].flatMap({ UInt64($0) }) {
            // (0, 0, status): the process exited by itself; the third number is its exit status.
            if ns == 0 { return nil }
            let value = ns == 2 ? String(code) : (code < 0x10000 ? String(code) : "0x" + String(code, radix: 16))
            return exit(r, bundle: g[1], pid: pid, domain: ns, domainName: nil, codeName: nil, code: value)
        }
        if f.contains(.killMemorystatus), let g = k.memorystatusKill.firstMatch(in: m, scratch: scratch) {
            guard let pid = g[2].flatMap({ Int($0) }) else { return nil }
            // The kernel names the process (`[Comet]`), not its bundle.
            var e = victim(.jetsam, r, bundle: nil, pid: pid, process: g[3], reason: g[4] ?? g[1] ?? "memorystatus kill")
            if var d = e.details, let kb = g[5].flatMap({ Int($0) }) {
                d.residentBytes = kb * 1024
                e.details = d
            }
            return e
        }
        if f.contains(.killLaunchd), let g = k.legacyLaunchd.firstMatch(in: m, scratch: scratch) {
            guard let pid = g[2].flatMap({ Int($0) }) else { return nil }
            let what = (g[3] ?? g[4] ?? "").trimmed
            if what.isEmpty || what.lowercased().hasPrefix("exited with abnormal code") || what == "0" { return nil }
            let signal = Self.signalName(in: what)
            if let signal, signal != "SIGKILL" {
                var e = victim(.signal, r, bundle: g[1], pid: pid, reason: what)
                e.details?.signal = signal
                return e
            }
            return victim(.killed, r, bundle: g[1], pid: pid, reason: what)
        }
        if f.contains(.killMemoryIssue), k.memoryIssue.firstMatch(in: m, scratch: scratch) != nil {
            var d = EventDetails()
            d.terminationReason = "terminated due to memory issue"
            d.cause = "jetsam"
            return event(.jetsam, r, details: d)
        }
        return nil
    }

    /// An exit status (`domain:NAME(N) code:NAME(V)`, or RunningBoard's numeric triple) as an event.
    private func exit(_ r: RecordText, bundle: String?, pid: Int, domain: Int, domainName: String?, codeName: String?,
                      code: String) -> Event? {
        let lower = code.lowercased()
        switch domain {
        case 1:  // jetsam
            let reason = codeName ?? KillPatterns.jetsamCauses[Int(code) ?? -1] ?? "jetsam code \(code)"
            return victim(.jetsam, r, bundle: bundle, pid: pid, reason: reason)
        case 2:  // signal
            let number = Int(code) ?? 0
            let name = codeName ?? DarwinSignal.names[number] ?? "signal \(code)"
            if number == 9 || name == "SIGKILL" { return victim(.killed, r, bundle: bundle, pid: pid, reason: "SIGKILL") }
            var e = victim(.signal, r, bundle: bundle, pid: pid, reason: name)
            e.details?.signal = name
            return e
        case 10:  // FrontBoard
            if lower == "0xdeadfa11" || lower == "0xfbfbfbfb" || codeName == "user-quit" || codeName == "force-quit" { return nil }
            if lower == "0x8badf00d" || codeName == "watchdog" {
                return victim(.watchdog, r, bundle: bundle, pid: pid, reason: "watchdog (0x8badf00d)", code: "0x8badf00d")
            }
            return victim(.killed, r, bundle: bundle, pid: pid, reason: [codeName, code].compactMap { $0 }.joined(separator: " "), code: code)
        default:
            let name = domainName ?? KillPatterns.namespaces[domain] ?? "domain \(domain)"
            return victim(.killed, r, bundle: bundle, pid: pid, reason: "\(name) \([codeName, code].compactMap { $0 }.joined(separator: " "))", code: code)
        }
    }

    /// An event of `kind` whose subject is the process `pid` (not the line's own process).
    private func victim(_ kind: EventKind, _ r: RecordText, bundle: String?, pid: Int, process: String? = nil,
                        reason: String, code: String? = nil) -> Event {
        var d = EventDetails()
        d.terminationReason = reason
        if let code, code.hasPrefix("0x") { d.terminationCode = code.lowercased() }
        d.cause = kind == .jetsam ? "jetsam" : kind == .watchdog ? "watchdog" : kind == .signal ? nil : "killed"
        var e = event(kind, r, details: d)
        // The process name is not the bundle id's last part (`com.example.comet` is `Comet`): the
        // event joins the app's session by pid, and the session's name comes from the app's lines.
        if detailed { e.subject = Subject(bundleID: bundle, pid: pid, process: process) }
        return e
    }

    /// The signal a launchd exit text names: `SIGSEGV`, `Segmentation fault: 11`, `Killed: 9`.
    static func signalName(in text: String) -> String? {
        if let r = text.range(of: "SIG") {
            let name = text[r.lowerBound...].prefix { $0.isLetter || $0.isNumber }
            if name.count > 3 { return String(name) }
        }
        guard let colon = text.lastIndex(of: ":"), let n = Int(text[text.index(after: colon)...].trimmed) else { return nil }
        return DarwinSignal.names[n]
    }
}

/// The patterns of kill lines, compiled once.
final class KillPatterns: Sendable {
    static let shared = KillPatterns()
    /// `[app<BUNDLE(persona)>:PID]`: RunningBoard's and FrontBoard's identity of a process.
    static let identity = #"\[(?:app|application|xpcservice)<([^<>()\s]+)(?:\((?:[^()]|\([^()]*\))*\))?>:(\d+)\]"#
    let processExited = Pattern.builtIn(identity + #" Process exited: <(?:RBSProcessExitContext\| (voluntary|unknown|specific, status:<RBSProcessExitStatus\| domain:([a-z-]+)?\(?(\d+)\)? code:(?:([A-Za-z0-9_-]+)\()?(0x[0-9a-fA-F]+|\d+)\)?>)|FBProcessExitContext; ([a-z-]+)(?: \("([^"]*)"\))?)"#)
    let terminatingWithContext = Pattern.builtIn(identity + #" Terminating with context: <RBSTerminateContext\|(?: domain:(\d+))?(?: code:(0x[0-9A-Fa-f]+))?(?: explanation:(.*?))?(?: reportType:| maxTerminationResistance:| attrs:|>\s*$|$)"#)
    let terminationReported = Pattern.builtIn(identity + #" termination reported by launchd \((\d+), (\d+), (\d+)\)"#)
    let memorystatusKill = Pattern.builtIn(#"(killing_(?:specific|top|idle|highwater)_process\w*) pid (\d+) \[([^\]]+)\](?: \(([a-z-]+)[^)]*\))?(?: (\d+)KB)?"#)
    let legacyLaunchd = Pattern.builtIn(#"\(UIKitApplication:([^\[\s]+)\[[^\]]*\]\[(\d+)\]\).*?(?:Service exited due to (?:signal: )?(.+)|Exited: (.+))$"#)
    let memoryIssue = Pattern.builtIn(#"^\s*(?:Message from debugger: )?Terminated due to memory issue\s*$"#)

    static let namespaces: [Int: String] = [1: "jetsam", 2: "signal", 6: "dyld", 10: "frontboard", 15: "runningboard"]
    /// Kernel jetsam causes by number (`kMemorystatusKilled…`, xnu `kern_memorystatus.h`).
    static let jetsamCauses: [Int: String] = [
        1: "highwater", 2: "vnode-limit", 3: "vm-pageshortage", 4: "proc-thrashing", 5: "fc-thrashing",
        6: "per-process-limit", 7: "per-process-limit", 8: "disk-space-shortage", 9: "idle-exit", 10: "zone-map-exhaustion",
        11: "vm-compressor-thrashing", 12: "vm-compressor-space-shortage", 13: "low-swap",
    ]
}
