/// What ended a process or what a report flagged, as a postmortem names it first: the cause a crash
/// report gives (`swiftTrap` … `other`, decided by `CrashCauses`), or what a kill line, jetsam,
/// resource or MetricKit report says. Written as its raw value in JSON (`details.cause`).
public enum FailureCause: String, Sendable, CaseIterable, Codable {
    /// A Swift runtime trap: `_assertionFailure`, `Fatal error`, `swift_runtime_*`, a forced
    /// unwrap of nil or an out-of-range index in Swift code.
    case swiftTrap
    /// An uncaught Objective-C or C++ exception.
    case uncaughtException
    /// Killed by the system watchdog (`0x8badf00d`).
    case watchdog
    /// The process could not be launched: dyld could not load a library or symbol.
    case launchFailure
    /// Killed with SIGKILL for another reason (`0xdead10cc`, `0xc00010ff`, ...).
    case killed
    /// A memory access fault (`EXC_BAD_ACCESS`, SIGSEGV, SIGBUS).
    case badAccess
    /// `abort()` or a C assertion without an exception.
    case abort
    /// A trap instruction not raised by the Swift runtime (`EXC_BREAKPOINT`, `EXC_BAD_INSTRUCTION`).
    case trap
    /// Anything else a crash report shows.
    case other
    /// Killed for memory (a jetsam report or a `memorystatus` kill line).
    case jetsam
    /// The main thread did not respond (a hang report or MetricKit hang diagnostic).
    case hang
    /// Over the CPU resource limit.
    case cpuResource
    /// Over the disk write resource limit.
    case diskWriteResource
    /// A slow launch (a MetricKit app launch diagnostic).
    case slowLaunch

    /// The causes a crash report can give (`CrashReport.cause`).
    public static let crashCauses: [FailureCause] = [.swiftTrap, .uncaughtException, .watchdog, .launchFailure, .killed,
                                                      .badAccess, .abort, .trap, .other]
}
