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

extension RecognizerFamily {
    // Each shape is a family of its own, so a line runs only the pattern its literal points to.
    static let killExited = RecognizerFamily("killExited")
    static let killTerminating = RecognizerFamily("killTerminating")
    static let killReported = RecognizerFamily("killReported")
    static let killMemorystatus = RecognizerFamily("killMemorystatus")
    static let killLaunchd = RecognizerFamily("killLaunchd")
    static let killForcedReport = RecognizerFamily("killForcedReport")
    static let killMemoryIssue = RecognizerFamily("killMemoryIssue")
    /// Kill lines of every shape: once one shape read a line, no other does (`Recognizer.settles`).
    static let kill: [RecognizerFamily] = [.killExited, .killTerminating, .killReported, .killMemorystatus, .killLaunchd, .killMemoryIssue,
                                           .killForcedReport]
}

// The triggers are the lines' fixed text around the process identity (`…>:812] Process exited:
// <`), so an app's own `Process exited early` or a daemon's other `Terminating with context` lines
// are not candidates. A pid that does not fit an Int is not a process's: no kill line.
extension Recognizer {
    /// `[app<com.example.comet>:812] Process exited: <RBSProcessExitContext| …>` (FrontBoard, iOS 15+)
    /// or `<FBProcessExitContext; watchdog ("…")>` (iOS 14).
    static let killExited: Recognizer = {
        let pattern = Pattern.builtIn(KillPatterns.identity + #" Process exited: <(?:RBSProcessExitContext\| (?<context>voluntary|unknown|specific, status:<RBSProcessExitStatus\| domain:(?<domainName>[a-z-]+)?\(?(?<domain>\d+)\)? code:(?:(?<codeName>[A-Za-z0-9_-]+)\()?(?<code>0x[0-9a-fA-F]+|\d+)\)?>)|FBProcessExitContext; (?<frontBoard>[a-z-]+)(?: \("(?<frontBoardReason>[^"]*)"\))?)"#)
        let bundleGroup = pattern.group("bundle"), pidGroup = pattern.group("pid"), context = pattern.group("context")
        let domainName = pattern.group("domainName"), domainGroup = pattern.group("domain"), codeName = pattern.group("codeName")
        let codeGroup = pattern.group("code"), frontBoard = pattern.group("frontBoard"), frontBoardReason = pattern.group("frontBoardReason")
        return Recognizer("kill: process exited", family: .killExited, triggers: ["] Process e|xited: <"], pattern: pattern,
                          settles: RecognizerFamily.kill) { c, m, r in
            guard let pid = m[pidGroup].flatMap({ Int($0) }) else { return .dismissed }
            let bundle = m[bundleGroup]
            if let fb = m[frontBoard] {
                let fbReason = m[frontBoardReason]
                // `<FBProcessExitContext; watchdog ("watchdog provision violated")>` (iOS 14).
                switch fb {
                case "watchdog": return .event(c.victim(.watchdog, r, bundle: bundle, pid: pid, reason: fbReason ?? "watchdog", code: "0x8badf00d"))
                case "voluntary", "user-quit", "force-quit": return .dismissed
                default: return .event(c.victim(.killed, r, bundle: bundle, pid: pid, reason: [fb, fbReason].compactMap { $0 }.joined(separator: ": ")))
                }
            }
            guard m[context]?.hasPrefix("specific") == true, let domain = m[domainGroup].flatMap({ Int($0) }), let value = m[codeGroup] else {
                return .dismissed
            }
            return c.exit(r, bundle: bundle, pid: pid, domain: domain, domainName: m[domainName], codeName: m[codeName], code: value)
        }
    }()

    /// RunningBoard's `[app<…>:812] Terminating with context: <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:…>`.
    static let killTerminating: Recognizer = {
        let pattern = Pattern.builtIn(KillPatterns.identity + #" Terminating with context: <RBSTerminateContext\|(?: domain:(?<domain>\d+))?(?: code:(?<code>0x[0-9A-Fa-f]+))?(?: explanation:(?<explanation>.*?))?(?: reportType:| maxTerminationResistance:| attrs:|>\s*$|$)"#)
        let bundleGroup = pattern.group("bundle"), pidGroup = pattern.group("pid"), codeGroup = pattern.group("code")
        let explanationGroup = pattern.group("explanation")
        return Recognizer("kill: terminating with context", family: .killTerminating, triggers: ["] Terminating |with context: <RBS"],
                          pattern: pattern, settles: RecognizerFamily.kill) { c, m, r in
            guard let pid = m[pidGroup].flatMap({ Int($0) }) else { return .dismissed }
            let bundle = m[bundleGroup]
            let code = m[codeGroup]?.lowercased()
            if code == "0xdeadfa11" || code == "0xfbfbfbfb" { return .dismissed }
            let explanation = m[explanationGroup]?.trimmed
            if code == "0x8badf00d" {
                // The explanation ends in `WatchdogCPUStatistics: ( "Elapsed total CPU time …", "Elapsed
                // application CPU time …" )`: kept apart as the CPU time, not in the reason.
                let stats = explanation?.range(of: " WatchdogCPUStatistics:")
                let reason = stats.map { String(explanation![..<$0.lowerBound]) } ?? explanation
                var e = c.victim(.watchdog, r, bundle: bundle, pid: pid, reason: reason ?? "watchdog", code: code)
                if var d = e.details, let x = explanation {
                    if let w = c.p.watchdogEvent(in: x, scratch: c.scratch) { d.watchdogEvent = w }
                    if let stats {
                        var list = x[stats.upperBound...].trimmed
                        if list.hasPrefix("(") { list.removeFirst() }
                        if list.hasSuffix(")") { list.removeLast() }
                        d.cpuTime = CrashEvents.cpuTime([list.replacingOccurrences(of: "\", \"", with: "\n")])
                    }
                    e.details = d
                }
                return .event(e)
            }
            let reason = [explanation, code.map { "code \($0)" }].compactMap { $0 }.joined(separator: ", ")
            return .event(c.victim(.killed, r, bundle: bundle, pid: pid, reason: reason.isEmpty ? "terminated by RunningBoard" : reason, code: code))
        }
    }()

    /// RunningBoard's `[app<…>:812] termination reported by launchd (NS, CODE, STATUS)`.
    static let killReported: Recognizer = {
        let pattern = Pattern.builtIn(KillPatterns.identity + #" termination reported by launchd \((?<namespace>\d+), (?<code>\d+), (?<status>\d+)\)"#)
        let bundleGroup = pattern.group("bundle"), pidGroup = pattern.group("pid")
        let namespaceGroup = pattern.group("namespace"), codeGroup = pattern.group("code")
        return Recognizer("kill: termination reported by launchd", family: .killReported,
                          triggers: ["] termination |reported by launchd ("], pattern: pattern, settles: RecognizerFamily.kill) { c, m, r in
            guard let pid = m[pidGroup].flatMap({ Int($0) }), let ns = m[namespaceGroup].flatMap({ Int($0) }),
                  let code = m[codeGroup].flatMap({ UInt64($0) }) else { return .declined }
            // (0, 0, status): the process exited by itself; the third number is its exit status.
            if ns == 0 { return .dismissed }
            let value = ns == 2 ? String(code) : (code < 0x10000 ? String(code) : "0x" + String(code, radix: 16))
            return c.exit(r, bundle: m[bundleGroup], pid: pid, domain: ns, domainName: nil, codeName: nil, code: value)
        }
    }()

    /// The kernel's `memorystatus: killing_specific_process pid 812 [Comet] (per-process-limit 100:8) 2750000KB`.
    static let killMemorystatus: Recognizer = {
        let pattern = Pattern.builtIn(#"(?<action>killing_(?:specific|top|idle|highwater)_process\w*) pid (?<pid>\d+) \[(?<process>[^\]]+)\](?: \((?<cause>[a-z-]+)[^)]*\))?(?: (?<kilobytes>\d+)KB)?"#)
        let action = pattern.group("action"), pidGroup = pattern.group("pid"), process = pattern.group("process")
        let cause = pattern.group("cause"), kilobytes = pattern.group("kilobytes")
        return Recognizer("kill: kernel memorystatus", family: .killMemorystatus, triggers: ["memorystatus: kil|ling_"],
                          pattern: pattern, settles: RecognizerFamily.kill) { c, m, r in
            guard let pid = m[pidGroup].flatMap({ Int($0) }) else { return .dismissed }
            // The kernel names the process (`[Comet]`), not its bundle.
            var e = c.victim(.jetsam, r, bundle: nil, pid: pid, process: m[process], reason: m[cause] ?? m[action] ?? "memorystatus kill")
            // A size too large for bytes in an Int is no size (the fuzzer wrote 2750008888888888880KB).
            if var d = e.details, let kb = m[kilobytes].flatMap({ Int($0) }), case let (bytes, false) = kb.multipliedReportingOverflow(by: 1024) {
                d.residentBytes = bytes
                e.details = d
            }
            return .event(e)
        }
    }()

    /// launchd's legacy `(UIKitApplication:com.example.comet[0x8b2f][812]) Service exited due to signal: Killed: 9`,
    /// also with RunningBoard's tag: `(UIKitApplication:com.example.comet[f025][rb-legacy][812]) Service exited due to SIGTRAP`.
    static let killLaunchd: Recognizer = {
        let pattern = Pattern.builtIn(#"\(UIKitApplication:(?<bundle>[^\[\s]+)\[[^\]]*\](?:\[[^\]\d][^\]]*\])*\[(?<pid>\d+)\]\).*?(?:Service exited due to (?:signal: )?(?<exitedDueTo>.+)|Exited: (?<exited>.+))$"#)
        let bundleGroup = pattern.group("bundle"), pidGroup = pattern.group("pid")
        let exitedDueTo = pattern.group("exitedDueTo"), exited = pattern.group("exited")
        return Recognizer("kill: legacy launchd exit", family: .killLaunchd, triggers: ["(UIKitAppl|ication:"], pattern: pattern,
                          settles: RecognizerFamily.kill) { c, m, r in
            guard let pid = m[pidGroup].flatMap({ Int($0) }) else { return .dismissed }
            let bundle = m[bundleGroup]
            let what = (m[exitedDueTo] ?? m[exited] ?? "").trimmed
            if what.isEmpty || what.lowercased().hasPrefix("exited with abnormal code") || what == "0" { return .dismissed }
            let signal = EventClassifier.signalName(in: what)
            if let signal, signal != "SIGKILL" {
                var e = c.victim(.signal, r, bundle: bundle, pid: pid, reason: what)
                e.details?.signal = signal
                return .event(e)
            }
            return .event(c.victim(.killed, r, bundle: bundle, pid: pid, reason: what))
        }
    }()

    /// FrontBoard's `Forcing crash report of <FBApplicationProcess: 0x…; Waypost; pid: 2231> (reason: 1, description:
    /// process-launch watchdog transgression: …)` (iOS 12 and earlier, before RunningBoard): the app is killed.
    static let killForcedReport: Recognizer = {
        let pattern = Pattern.builtIn(#"Forcing crash report of <FBApplicationProcess: [^;]*; (?<process>[^;]+); pid: (?<pid>\d+)> \(reason: \d+, description: (?<description>.*?)\)?\s*$"#)
        let process = pattern.group("process"), pidGroup = pattern.group("pid"), description = pattern.group("description")
        return Recognizer("kill: forced crash report", family: .killForcedReport, triggers: ["Forcing crash r|eport of <FBApplicationProcess"],
                          pattern: pattern, settles: RecognizerFamily.kill) { c, m, r in
            guard let pid = m[pidGroup].flatMap({ Int($0) }) else { return .dismissed }
            let reason = m[description]?.trimmed ?? "crash report forced"
            let lower = reason.lowercased()
            if lower.contains("watchdog") || lower.contains("8badf00d") {
                var e = c.victim(.watchdog, r, bundle: nil, pid: pid, process: m[process], reason: reason, code: "0x8badf00d")
                if var d = e.details, let w = c.p.watchdogEvent(in: reason, scratch: c.scratch) { d.watchdogEvent = w; e.details = d }
                return .event(e)
            }
            return .event(c.victim(.killed, r, bundle: nil, pid: pid, process: m[process], reason: reason))
        }
    }()

    /// Xcode's `Terminated due to memory issue`: the app's own line (the debugger's), no subject.
    static let killMemoryIssue = Recognizer("kill: memory issue (Xcode)", family: .killMemoryIssue,
                                            triggers: ["Terminated due to memory |issue"],
                                            pattern: .builtIn(#"^\s*(?:Message from debugger: )?Terminated due to memory issue\s*$"#)) { c, r in
        var d = EventDetails()
        d.terminationReason = "terminated due to memory issue"
        d.cause = .jetsam
        return c.event(.jetsam, r, details: d)
    }
}

extension EventClassifier {
    /// An exit status (`domain:NAME(N) code:NAME(V)`, or RunningBoard's numeric triple) as an event.
    func exit(_ r: RecordText, bundle: String?, pid: Int, domain: Int, domainName: String?, codeName: String?,
              code: String) -> Recognition {
        let lower = code.lowercased()
        switch domain {
        case 1:  // jetsam
            let reason = codeName ?? KillPatterns.jetsamCauses[Int(code) ?? -1] ?? "jetsam code \(code)"
            return .event(victim(.jetsam, r, bundle: bundle, pid: pid, reason: reason))
        case 2:  // signal
            let number = Int(code) ?? 0
            let name = codeName ?? DarwinSignal.names[number] ?? "signal \(code)"
            if number == 9 || name == "SIGKILL" { return .event(victim(.killed, r, bundle: bundle, pid: pid, reason: "SIGKILL")) }
            var e = victim(.signal, r, bundle: bundle, pid: pid, reason: name)
            e.details?.signal = name
            return .event(e)
        case 10:  // FrontBoard
            if lower == "0xdeadfa11" || lower == "0xfbfbfbfb" || codeName == "user-quit" || codeName == "force-quit" { return .dismissed }
            if lower == "0x8badf00d" || codeName == "watchdog" {
                return .event(victim(.watchdog, r, bundle: bundle, pid: pid, reason: "watchdog (0x8badf00d)", code: "0x8badf00d"))
            }
            return .event(victim(.killed, r, bundle: bundle, pid: pid, reason: [codeName, code].compactMap { $0 }.joined(separator: " "), code: code))
        default:
            let name = domainName ?? KillPatterns.namespaces[domain] ?? "domain \(domain)"
            return .event(victim(.killed, r, bundle: bundle, pid: pid, reason: "\(name) \([codeName, code].compactMap { $0 }.joined(separator: " "))", code: code))
        }
    }

    /// An event of `kind` whose subject is the process `pid` (not the line's own process).
    func victim(_ kind: EventKind, _ r: RecordText, bundle: String?, pid: Int, process: String? = nil,
                        reason: String, code: String? = nil) -> Event {
        var d = EventDetails()
        d.terminationReason = reason
        if let code, code.hasPrefix("0x") { d.terminationCode = code.lowercased() }
        d.cause = kind == .jetsam ? .jetsam : kind == .watchdog ? .watchdog : kind == .signal ? nil : .killed
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

/// What the kill lines share: the process identity, and the numbers their exit statuses use.
enum KillPatterns {
    /// `[app<BUNDLE(persona)>:PID]`: RunningBoard's and FrontBoard's identity of a process.
    static let identity = #"\[(?:app|application|xpcservice)<(?<bundle>[^<>()\s]+)(?:\((?:[^()]|\([^()]*\))*\))?>:(?<pid>\d+)\]"#

    static let namespaces: [Int: String] = [1: "jetsam", 2: "signal", 6: "dyld", 10: "frontboard", 15: "runningboard"]
    /// Kernel jetsam causes by number (`kMemorystatusKilled…`, xnu `kern_memorystatus.h`).
    static let jetsamCauses: [Int: String] = [
        1: "highwater", 2: "vnode-limit", 3: "vm-pageshortage", 4: "proc-thrashing", 5: "fc-thrashing",
        6: "per-process-limit", 7: "per-process-limit", 8: "disk-space-shortage", 9: "idle-exit", 10: "zone-map-exhaustion",
        11: "vm-compressor-thrashing", 12: "vm-compressor-space-shortage", 13: "low-swap",
    ]
}
