// Fuzz target: event classification (EventClassifier.classify on one record). The first byte picks
// the record's format, the first line is the message and the other lines its continuation.
import LifelineCore

private let shared = EventClassifier()

@_cdecl("LLVMFuzzerTestOneInput")
public func lifelineFuzzClassify(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = buffer(data, size)
    guard let first = bytes.first else { return 0 }
    let format = LogFormat.allCases[Int(first) % LogFormat.allCases.count]
    let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let message = lines.isEmpty ? "" : lines.removeFirst()
    var record = RecordText(format: format, message: message, continuation: lines)
    record.pid = 42
    record.tid = 7
    record.process = "App"
    let lineCount = 1 + lines.count
    let event = shared.classify(record, file: "fuzz.log", at: .line(11), extent: lineCount)
    // A fresh classifier agrees with the reused one (no state leaks between records).
    let fresh = EventClassifier().classify(record, file: "fuzz.log", at: .line(11), extent: lineCount)
    require(event == fresh, "reused and fresh classifiers disagree: \(String(describing: event?.kind)) vs \(String(describing: fresh?.kind))")
    // The counting pass (detailed: false) finds the same kind.
    let quick = shared.classify(record, file: "fuzz.log", at: .line(11), extent: lineCount, detailed: false)
    require(quick?.kind == event?.kind, "detailed \(String(describing: event?.kind)) vs quick \(String(describing: quick?.kind))")
    if let event {
        require(event.position == .line(11) && event.extent == lineCount && event.file == "fuzz.log" && event.format == format,
                "event does not point at its record: \(event.file):\(event.position)+\(event.extent) \(event.format)")
        // The header fields are the logger's, kill lines included: the killed process is the subject.
        require(event.pid == 42 && event.tid == 7 && event.process == "App", "header fields were not taken from the record")
        if event.subject != nil {
            // A line about another process is a failure of that process or a step of the system's account
            // of it, never given the logger's pid (whether it
            // counts as a kill line also depends on the record's format: a report's record names its own process).
            // The system's lines about an app (its launch, states, who its pid is) are steps of that app's story.
            require((event.kind.isFailure || event.kind.family == "system") && event.ownPID == nil,
                    "a \(event.kind) event names a subject but is no failure or system step of it")
        }
    }
    return 0
}
