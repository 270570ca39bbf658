// Fuzz target: the readers of reports that are not crashes: DiagnosticReportParser (jetsam, CPU,
// disk-write and hang reports, stackshots, crash reports under any header) and MetricKitReader
// (MetricKit diagnostic payloads, in every shape apps save them).
import LifelineCore

@_cdecl("LLVMFuzzerTestOneInput")
public func lifelineFuzzReports(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(buffer(data, size))
    let text = String(decoding: bytes, as: UTF8.self)
    let lineCount = 1 + bytes.filter { $0 == 10 }.count

    let report = try? DiagnosticReportParser.parse(text)
    require(report == (try? DiagnosticReportParser.parse(text)), "DiagnosticReportParser is not deterministic")
    switch report {
    case .jetsam(let j):
        require(!j.processes.isEmpty || text.contains("processes"), "a jetsam report without a processes list")
    case .resource(let r):
        require(r.appFrames.allSatisfy { f in r.frames.contains(f) }, "an app frame is in no stack")
        require(r.frames.enumerated().allSatisfy { $0.offset == $0.element.index }, "frames are not numbered innermost first")
    default:
        break
    }

    let diagnostics: [MetricKitDiagnostic]?
    do { diagnostics = try MetricKitReader.read(bytes) } catch { diagnostics = nil }
    require(diagnostics == (try? MetricKitReader.read(bytes)), "MetricKitReader is not deterministic")
    for d in diagnostics ?? [] {
        require(d.line >= 1 && d.line <= lineCount, "diagnostic line \(d.line) outside 1…\(lineCount)")
        require(d.frames.count == d.appFlags.count, "frames and app flags differ in length")
    }
    return 0
}
