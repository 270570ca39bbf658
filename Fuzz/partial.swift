// Fuzz target: the reader of partial triage results (TriagePartial(json:name:)), which
// `lifeline triage merge` runs on files from other machines.
import Foundation
import LifelineTriage

@_cdecl("LLVMFuzzerTestOneInput")
public func lifelineFuzzPartial(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(buffer(data, size))
    guard let partial = try? TriagePartial(json: bytes, name: "fuzz.json") else { return 0 }
    // What it reads, it writes back the same way: a written partial reads back to the same text.
    let text = partial.json()
    guard let again = try? TriagePartial(json: Data(text.utf8), name: "again.json") else {
        require(false, "a partial it wrote does not read back")
        return 0
    }
    require(again.json() == text, "a partial does not survive writing and reading")
    // Merging with itself is defined (same settings) and counts twice.
    var twice = partial
    do { try twice.merge(partial) } catch { require(false, "a partial does not merge with itself: \(error)") }
    let once = partial.result, doubled = twice.result
    require(doubled.signatures.count == once.signatures.count, "merging with itself changed the signatures")
    for (a, b) in zip(once.signatures, doubled.signatures) {
        require(b.count == 2 * a.count, "merging with itself did not double \(a.signature.id)")
    }
    return 0
}
