import ArgumentParser
import Foundation
import LifelineCore
import LifelineRender

/// Buffered standard output (events can be millions of lines).
final class StandardOutput {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(10)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `text` as it is (a whole rendering that ends with its own line break).
    func write(verbatim text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes bytes as they are (a piece of a longer document).
    func write(rawBytes: [UInt8]) {
        buffer.append(contentsOf: rawBytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes bytes as they are, from memory valid only during the call.
    func write(rawBuffer: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: rawBuffer)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes one line given as bytes (JSON written by `JSONWriter`).
    func write(bytes line: [UInt8]) {
        buffer.append(contentsOf: line)
        buffer.append(10)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        Terminal.writeAll(1, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}

enum Diagnostics {
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("lifeline: \(message)\n".utf8))
    }

    /// Says why an input was not read: it could not be (an error), or it was found in a directory
    /// and is not a log (skipped).
    static func unread(_ input: InputStats) {
        if let error = input.error { warn("\(input.path): \(error)") }
        if let reason = input.skipped { warn("\(input.path): skipped: \(reason)") }
        if input.error == nil && input.skipped == nil && input.lines == 0 { empty(input.path, bytes: input.bytes) }
    }

    /// An input that was read and held no line: said, though it is no error.
    static func empty(_ path: String, bytes: Int64) {
        warn("\(path): empty\(bytes == 0 ? " (0 bytes)" : ""): no lines to read")
    }
}

enum Terminal {
    /// Writes all of `bytes` to `fd` now, through interrupted and partial writes (a closed reader
    /// ends it: the rest is dropped).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { if errno == EINTR { continue }; break }
                offset += n
            }
        }
    }

    /// Columns of the terminal `fd` is on, or nil when it is not on one.
    static func columns(_ fd: Int32) -> Int? {
        var size = winsize()
        guard isatty(fd) != 0, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    static var colorAllowed: Bool {
        isatty(1) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }
}

/// The exit status for a failure while writing `--output` files: 2 when a file cannot be written
/// (or would overwrite an input), as for other errors in what the user asked for; 1 otherwise.
enum OutputFailure {
    static func exitCode(for error: Error) -> ExitCode { error is OutputError ? ExitCode(2) : ExitCode(1) }
}
