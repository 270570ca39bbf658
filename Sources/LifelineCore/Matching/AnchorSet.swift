import Foundation
import CLifelineScan

/// A set of literals found together with the SIMD prefilter (`CLifelineScan`). Lines that contain
/// none of them cannot hold an event, so the ingester skips them without running any pattern.
public final class AnchorSet: @unchecked Sendable {
    let set: OpaquePointer
    public let literals: [String]

    /// `marked` literals may contain one `|` marking where the 3-byte fingerprint window starts
    /// (`"Terminating app"` would otherwise be found by its common `app`; `"|Terminating app"` uses `Ter`).
    public init(_ marked: [String]) {
        var literals: [String] = []
        var windows: [Int] = []
        for m in marked {
            if let bar = m.firstIndex(of: "|") {
                windows.append(m.utf8.distance(from: m.startIndex, to: bar))
                literals.append(m.replacingOccurrences(of: "|", with: ""))
            } else {
                windows.append(-1)
                literals.append(m)
            }
        }
        precondition(!literals.isEmpty && literals.allSatisfy { !$0.utf8.isEmpty && $0.utf8.count < 256 })
        self.literals = literals
        var cStrings = literals.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        let lengths = literals.map { $0.utf8.count }
        let made = cStrings.withUnsafeMutableBufferPointer { strings in
            lengths.withUnsafeBufferPointer { lens in
                windows.withUnsafeBufferPointer { wins in
                    strings.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: strings.count) {
                        ll_anchor_set_create_windows($0, lens.baseAddress, wins.baseAddress, literals.count)
                    }
                }
            }
        }
        set = made!
    }

    deinit { ll_anchor_set_destroy(set) }

    /// Offset of the first literal at or after `from`, or nil.
    @inline(__always)
    public func find(in buffer: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        guard let base = buffer.baseAddress else { return nil }
        let r = ll_anchor_find(set, base, buffer.count, from, nil)
        return r < 0 ? nil : r
    }

    /// The same search without SIMD, for tests.
    public func findScalar(in buffer: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        guard let base = buffer.baseAddress else { return nil }
        let r = ll_anchor_find_scalar(set, base, buffer.count, from, nil)
        return r < 0 ? nil : r
    }

    public static var simdAvailable: Bool { ll_anchor_simd_available() != 0 }

    /// Everything that can start an event somewhere in its text. Keep in step with the classifier:
    /// a spelling the classifier knows must contain one of these.
    public static let events = AnchorSet([
        // Callback spellings: selectors (`scene:`, `sceneDidBecomeActive:`), Swift (`scene(_:`),
        // `windowScene:`/`templateApplicationScene(`, scene descriptions and configuration messages.
        // `|` marks the 4-byte fingerprint window: bytes that are rare in logs and shared between
        // literals where possible (`eDid`, `ene:`, `hrea`), which keeps false candidates few: measured
        // on the benchmark corpus, 0.84 M per 100 MB, where windows at each literal's start gave 14 M.
        "sc|ene:", "sc|ene(", "scen|eDid", "scen|eWill", "Sc|ene:", "Sc|ene(",
        "applicat|ion:", "applicat|ion(", "applicatio|nDid", "applicatio|nWill", "application|Protected",
        "-[", "+[",
        "state|RestorationActivity", "preferred|WindowingControlStyle", "contentStyl|eDidChange",
        "instrumentClusterControlle|rDid",
    ] + failureLiterals)

    /// Literals of failures, threading reports and configuration messages: a record with none of
    /// them is only checked for callback spellings. Messages that always carry another literal need
    /// none of their own (`Publishing changes from background threads`, `autolayout engine from a
    /// background thread` → `background thread`; `Incorrect actor executor assumption` → `Fatal error`).
    static let failureLiterals = [
        "Assertion| fail",      // Objective-C assertion failure, Swift assertion failed
        "uncaught ex|ception", "|Terminating app", "Ignored Ex|ception",
        "F|atal error", "f|atal error", "Precondition| failed",
        "Main T|hread Checker", "main t|hread", "Main t|hread", "background t|hread",
        "watc|hdog", "8badf|00d", "8BADF|00D",
        "CLIENT OF |UIKIT", "|UIScene", "scene de|legate",
        "Abort |trap", "|Segmentation fault", "|Terminated due to signal", "BPT |trap", "|Bus error",
        "|Illegal instruction", "|Killed: ",
    ]

    public static let failures = AnchorSet(failureLiterals)
}
