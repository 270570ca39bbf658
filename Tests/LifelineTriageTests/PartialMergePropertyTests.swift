import Foundation
import Testing
import TestSupport
import LifelineCore
import LifelineRules
@testable import LifelineTriage

/// Merging partial results is associative and commutative on generated inputs: any split of the
/// same files into shards, merged in any order or tree (through JSON or in memory), gives the
/// partial of one run over all of them, byte for byte.
@Suite struct PartialMergePropertyTests {
    /// A log of one launch: lifecycle callbacks cut off at a random point, then a failure from a
    /// small vocabulary (so signatures recur across files), on a random day, app version and pid.
    static func log(_ rng: inout SeededBytes) -> String {
        let failures = [
            Logs.exception(index: rng.below(3) + 1, count: 0),
            "*** Assertion failure in -[ATListController reload], ATListController.m:\(40 + rng.below(2))",
            "Fatal error: Unexpectedly found nil while unwrapping an Optional value",
            "Main Thread Checker: UI API called on a background thread: -[UIView setNeedsLayout]",
            "-[SceneDelegate sceneDidBecomeActive:]",
        ]
        let steps = [Logs.launch, Logs.active, Logs.background][rng.below(3)]
        let messages = steps + (0..<rng.below(3)).map { _ in failures[rng.below(failures.count)] }
        return Logs.xcode(messages, pid: 100 + rng.below(50), day: 1 + rng.below(20))
    }

    static func partial(_ paths: [String]) -> TriagePartial {
        Triage.partial(paths: paths, options: TriageOptions(jobs: 1))
    }

    @Test("any shards, merged in any order or tree, give the partial of one run", arguments: [1, 2, 3, 4] as [UInt64])
    func mergeOrderAndGrouping(seed: UInt64) throws {
        let s = try Scratch(); defer { s.remove() }
        var rng = SeededBytes(state: seed)
        let files = try (0..<30).map { i in try s.write(String(format: "device-%02d.log", i), Self.log(&rng)) }
        let one = Self.partial(files)
        let whole = one.json(inputRows: true)
        // Not a trivial case: several signatures recur across the files, with sessions in states.
        #expect(one.result.signatures.count >= 4)
        #expect(one.result.signatures.contains { $0.count > 1 })

        var shuffled = files
        rng.shuffle(&shuffled)
        var cuts = Set<Int>()
        while cuts.count < 5 { cuts.insert(rng.below(files.count - 1) + 1) }
        let bounds = [0] + cuts.sorted() + [files.count]
        let parts = zip(bounds, bounds.dropFirst()).map { Self.partial(Array(shuffled[$0..<$1])) }

        func fold(_ ps: [TriagePartial]) throws -> TriagePartial {
            var m = ps[0]
            for p in ps.dropFirst() { try m.merge(p) }
            return m
        }
        // Left to right, right to left, a random order, and a random tree whose inner nodes go
        // through JSON (as `triage merge --partial` between machines does).
        var order = parts
        rng.shuffle(&order)
        var level = parts
        while level.count > 1 {
            rng.shuffle(&level)
            let a = level.removeLast(), b = level.removeLast()
            var m = a
            try m.merge(b)
            level.append(try TriagePartial(json: Data(m.json(inputRows: true).utf8), name: "node"))
        }
        for (name, merged) in [("left", try fold(parts)), ("right", try fold(parts.reversed())), ("shuffled", try fold(order)),
                               ("tree", level[0])] {
            #expect(merged.json(inputRows: true) == whole, "seed \(seed), \(name)")
        }
        // Without rows, the sums agree too, and the report is the same apart from the input list.
        let sums = try fold(parts.map { try TriagePartial(json: Data($0.json().utf8), name: "sums") })
        #expect(sums.json() == Self.partial(files).json())
    }
}
