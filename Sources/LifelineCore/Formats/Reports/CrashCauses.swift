import Foundation

/// Decides what ended a process from a finished report (`CrashReport.Cause`).
///
/// The order matters: a watchdog kill is SIGKILL too, a Swift trap on ARM is `EXC_BREAKPOINT`, and
/// an uncaught exception ends in `abort()`.
enum CrashCauses {
    static func cause(of r: CrashReport) -> CrashReport.Cause {
        if r.isWatchdog { return .watchdog }
        if isLaunchFailure(r) { return .launchFailure }
        let top = Array(r.crashedThreadFrames.prefix(8))
        if top.contains(where: { isSwiftRuntimeFrame($0) }) || mentionsSwiftFatalError(r) { return .swiftTrap }
        if !r.lastExceptionBacktrace.isEmpty || r.exceptionName != nil
            || top.contains(where: { f in f.symbol.map { exceptionThrowSymbols.contains($0) } ?? false }) {
            return .uncaughtException
        }
        let type = r.exceptionType ?? "", signal = r.signal ?? ""
        if signal == "SIGKILL" { return .killed }
        if type == "EXC_BAD_ACCESS" || signal == "SIGSEGV" || signal == "SIGBUS" { return .badAccess }
        if type == "EXC_BREAKPOINT" || type == "EXC_BAD_INSTRUCTION" || signal == "SIGTRAP" || signal == "SIGILL" {
            // Swift's checks compile to a trap instruction inside the app's own Swift code.
            if let first = top.first, let symbol = first.symbol, isSwiftSymbol(symbol),
               first.image == r.firstAppFrame?.image, first.index == r.firstAppFrame?.index {
                return .swiftTrap
            }
            return .trap
        }
        if signal == "SIGABRT" { return .abort }
        return .other
    }

    static let exceptionThrowSymbols: Set<String> = [
        "objc_exception_throw", "objc_exception_rethrow", "__cxa_throw", "__cxa_rethrow", "-[NSException raise]",
    ]

    static func isLaunchFailure(_ r: CrashReport) -> Bool {
        if r.terminationNamespace == "DYLD" { return true }
        let texts = r.terminationReasons + r.applicationSpecificInformation
        return texts.contains { $0.hasPrefix("Library not loaded") || $0.hasPrefix("Symbol not found")
            || $0.contains("dyld: Library not loaded") || $0.contains("dyld: Symbol not found") }
    }

    /// Frames of the Swift runtime's failure paths.
    static func isSwiftRuntimeFrame(_ f: CrashFrame) -> Bool {
        guard let symbol = f.symbol else { return false }
        if symbol.contains("_assertionFailure") || symbol.contains("_fatalErrorMessage")
            || symbol.hasPrefix("swift_runtime") || symbol.contains("swift::fatalError")
            || symbol.hasPrefix("swift_unexpectedError") || symbol.contains("swift_dynamicCastFailure")
            || symbol.hasPrefix("swift_deletedMethodError") {
            return true
        }
        return false
    }

    static func mentionsSwiftFatalError(_ r: CrashReport) -> Bool {
        (r.applicationSpecificInformation + r.terminationReasons).contains {
            $0.contains("Fatal error:") || $0.contains("Swift runtime failure") || $0.hasPrefix("Fatal error")
        }
    }

    /// A demangled Swift symbol (`Type.method(_:)`, `closure #1 in …`) or a mangled one (`$s…`).
    static func isSwiftSymbol(_ s: String) -> Bool {
        if s.hasPrefix("$s") || s.hasPrefix("_$s") || s.hasPrefix("closure #") || s.contains(" in closure #") { return true }
        if s.hasPrefix("-[") || s.hasPrefix("+[") { return false }
        return s.contains("(") && (s.contains("_:") || s.contains(":)") || s.contains("()")) && s.contains(".")
    }
}
