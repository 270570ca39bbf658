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
                literals.append(String(m.filter { $0 != "|" }))
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

    /// Calls `body` with the index (into `literals`) of every literal occurrence in `buffer`.
    public func forEachLiteral(in buffer: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Void) {
        guard let base = buffer.baseAddress else { return }
        var from = 0
        while from < buffer.count {
            var which: Int32 = 0
            let r = ll_anchor_find(set, base, buffer.count, from, &which)
            if r < 0 { break }
            body(Int(which))
            from = r + 1
        }
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
    ] + RecognizerTable.compiled.triggers)
}
