// Shared by every fuzz target (compiled into each one by scripts/fuzz).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fails the run (libFuzzer saves the input as a crash artifact) when an invariant does not hold.
@inline(never)
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
             file: StaticString = #fileID, line: UInt = #line) {
    if !condition() {
        let text = "\n==fuzz invariant== \(file):\(line): \(message())\n"
        fputs(text, stderr)
        fflush(stderr)
        abort()
    }
}

/// Lines of `bytes` as the line reader counts them: separators, plus one for an unterminated last line.
func lineCount(_ bytes: UnsafeRawBufferPointer, separator: UInt8) -> Int {
    var n = 0
    for b in bytes where b == separator { n += 1 }
    if let last = bytes.last, last != separator { n += 1 }
    return n
}

/// The fuzz input as a buffer (libFuzzer may pass a null pointer for an empty input).
func buffer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
    guard let data, size > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(start: data, count: size)
}
