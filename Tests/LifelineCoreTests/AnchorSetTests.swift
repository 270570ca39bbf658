import Testing
import TestSupport
@testable import LifelineCore

/// The SIMD prefilter must find exactly what a plain search finds.
@Suite struct AnchorSetTests {
    static func naiveFirst(_ literals: [String], in bytes: [UInt8], from: Int) -> Int? {
        let lits = literals.map { Array($0.replacingOccurrences(of: "|", with: "").utf8) }
        var best: Int? = nil
        for l in lits where l.count <= bytes.count {
            var i = from
            while i + l.count <= bytes.count {
                if Array(bytes[i..<(i + l.count)]) == l { best = min(best ?? i, i); break }
                i += 1
            }
        }
        return best
    }

    @Test("every event literal is found at every alignment, in the SIMD and scalar paths")
    func everyLiteralEveryAlignment() {
        let set = AnchorSet.events
        for literal in set.literals {
            for offset in 0..<40 {
                let bytes = Array(String(repeating: "x", count: offset).utf8) + Array(literal.utf8) + Array(" tail of line".utf8)
                bytes.withUnsafeBufferPointer { b in
                    #expect(set.find(in: b) == offset, "\(literal) at \(offset)")
                    #expect(set.findScalar(in: b) == offset, "\(literal) at \(offset) (scalar)")
                }
            }
        }
    }

    @Test("random text: SIMD, scalar and naive search agree on the first match (and on where none is)")
    func randomAgreement() {
        var rng = SeededBytes(state: 42)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ:([-+]0123456789".utf8)
        let set = AnchorSet.events
        let marked = ["sc|ene:", "sc|ene(", "scen|eDid", "-[", "+[", "Assertion| fail", "main t|hread", "F|atal error"]
        for _ in 0..<300 {
            var bytes = (0..<Int(rng.next() % 400)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            if rng.next() % 2 == 0, !bytes.isEmpty {
                let lit = Array(marked[Int(rng.next() % UInt64(marked.count))].replacingOccurrences(of: "|", with: "").utf8)
                let at = Int(rng.next() % UInt64(bytes.count))
                bytes.insert(contentsOf: lit, at: at)
            }
            let from = bytes.isEmpty ? 0 : Int(rng.next() % UInt64(bytes.count))
            bytes.withUnsafeBufferPointer { b in
                let simd = set.find(in: b, from: from), scalar = set.findScalar(in: b, from: from)
                #expect(simd == scalar)
                #expect(simd == Self.naiveFirst(set.literals, in: bytes, from: from))
            }
        }
    }
}
