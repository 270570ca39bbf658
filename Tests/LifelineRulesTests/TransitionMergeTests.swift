import Foundation
import Testing
import TestSupport
import LifelineCore
@testable import LifelineRules

/// Transition tallies are summaries that merge: any order and grouping of the same parts gives the
/// same value (what partial results from many machines need), and the typical duration read from
/// the buckets stays close to the exact median.
@Suite struct TransitionMergeTests {
    static func stats(_ values: [(String, Int, Double?)]) -> TransitionStats {
        var s = TransitionStats()
        for (file, line, d) in values { s.add(file: file, position: .line(line), duration: d) }
        return s
    }

    @Test("merging is associative and commutative, whatever the shards", arguments: [1, 2, 3, 4, 5])
    func mergeOrder(seed: UInt64) {
        var rng = SeededBytes(state: seed)
        let values: [(String, Int, Double?)] = (0..<5000).map { i in
            let d: Double? = rng.unit() < 0.1 ? nil : (rng.unit() < 0.05 ? 0 : exp2(rng.unit() * 30 - 15))
            return ("f\(rng.next() % 40).log", Int(rng.next() % 1000) + 1, d)
        }
        let whole = Self.stats(values)
        // Shards of random sizes, merged left to right, right to left, and as a tree.
        var cuts = Set<Int>()
        while cuts.count < 7 { cuts.insert(Int(rng.next() % UInt64(values.count - 1)) + 1) }
        let bounds = [0] + cuts.sorted() + [values.count]
        let parts = zip(bounds, bounds.dropFirst()).map { Self.stats(Array(values[$0..<$1])) }
        var left = TransitionStats(), right = TransitionStats()
        for p in parts { left.merge(p) }
        for p in parts.reversed() { right.merge(p) }
        var level = parts
        while level.count > 1 {
            level = stride(from: 0, to: level.count, by: 2).map { i in
                var m = level[i]
                if i + 1 < level.count { m.merge(level[i + 1]) }
                return m
            }
        }
        for merged in [left, right, level[0]] {
            #expect(merged == whole)
            #expect(merged.typicalDuration == whole.typicalDuration)
        }
    }

    @Test("the typical duration is within 2.2% of the exact median")
    func medianAccuracy() throws {
        var rng = SeededBytes(state: 42)
        for _ in 0..<20 {
            let values = (0..<(1 + Int(rng.next() % 999))).map { _ in exp2(rng.unit() * 20 - 10) }
            let s = Self.stats(values.map { ("a.log", 1, $0) })
            let sorted = values.sorted()
            let exact = sorted[(sorted.count + 1) / 2 - 1]
            let typical = try #require(s.typicalDuration)
            #expect(abs(typical - exact) / exact <= 0.022, "\(typical) vs \(exact)")
        }
        #expect(Self.stats([("a.log", 1, 0), ("a.log", 2, 0), ("a.log", 3, 5)]).typicalDuration == 0)
        #expect(Self.stats([("a.log", 1, nil)]).typicalDuration == nil)
    }
}
