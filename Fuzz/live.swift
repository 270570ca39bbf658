// Fuzz target: LiveReader, which `lifeline watch` feeds with whatever pieces a pipe or a growing
// file delivers, closing the open record whenever input pauses (idle).
import Foundation
import LifelineCore

@_cdecl("LLVMFuzzerTestOneInput")
public func lifelineFuzzLive(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = buffer(data, size)
    var reader = LiveReader(name: "fuzz.log", options: IngestOptions(jobs: 1))
    var events: [Event] = []
    // Pieces of 1 to 64 bytes, their lengths taken from the input itself; a pause after every
    // piece whose first byte is odd.
    var i = 0
    while i < bytes.count {
        let n = min(bytes.count - i, Int(bytes[i] % 64) + 1)
        let piece = UnsafeRawBufferPointer(rebasing: bytes[i..<(i + n)])
        events += reader.feed(piece)
        if bytes[i] & 1 == 1 { events += reader.idle() }
        i += n
    }
    let (last, stats) = reader.finish()
    events += last
    // Every line is accounted for, and every event points at one of them.
    require(stats.lines >= 0 && stats.lines <= lineCount(bytes, separator: 10) + lineCount(bytes, separator: 13),
            "\(stats.lines) lines counted")
    for e in events {
        require((e.position.line ?? 0) >= 1 && (e.position.line ?? 0) <= max(stats.lines, 1), "an event at \(e.position.phrase) of \(stats.lines) lines")
    }
    // Finishing twice adds nothing.
    require(reader.finish().events.isEmpty, "events after the end")
    return 0
}
