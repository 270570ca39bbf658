// Fuzz target: the crash report parser (CrashReportParser.parse), .ips and text reports.
import LifelineCore

@_cdecl("LLVMFuzzerTestOneInput")
public func lifelineFuzzCrash(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = buffer(data, size)
    let text = String(decoding: bytes, as: UTF8.self)
    let first: CrashReport?
    do { first = try CrashReportParser.parse(text) } catch { first = nil }
    // Deterministic.
    let second = try? CrashReportParser.parse(text)
    require(first == second, "parse is not deterministic")
    guard let r = first else { return 0 }
    for f in r.crashedThreadFrames + r.lastExceptionBacktrace + r.lifecycleFrames {
        require(f.index >= 0, "negative frame index \(f.index)")
    }
    if let t = r.crashedThread { require(t >= 0, "negative crashed thread \(t)") }
    if let p = r.pid { require(p >= 0, "negative pid \(p)") }
    // Lifecycle frames come from the crashed thread or the exception backtrace.
    for f in r.lifecycleFrames {
        require((r.crashedThreadFrames + r.lastExceptionBacktrace).contains(f), "lifecycle frame \(f) is in no backtrace")
    }
    return 0
}
