// Fuzz target: every format parser. The format is forced by LIFELINE_FUZZ_FORMAT (a LogFormat raw
// value, or `auto` for detection); scripts/fuzz runs this binary once per format (ingest-<format>).
// The invariants are FuzzEntry.IngestResult.violations, which the regression tests replay too.
import LifelineCore
#if canImport(Glibc)
import Glibc
#endif

private let forcedFormat: LogFormat? = {
    guard let raw = getenv("LIFELINE_FUZZ_FORMAT").map({ String(cString: $0) }), raw != "auto", !raw.isEmpty else { return nil }
    guard let f = LogFormat(rawValue: raw) else {
        fputs("unknown LIFELINE_FUZZ_FORMAT \(raw)\n", stderr)
        exit(2)
    }
    return f
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func lifelineFuzzIngest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = buffer(data, size)
    let violations = FuzzEntry.ingest(bytes, format: forcedFormat).violations(of: bytes, forced: forcedFormat)
    require(violations.isEmpty, violations.joined(separator: "; "))
    return 0
}
