import Foundation
import LifelineCore

/// One input `lifeline watch` reads: standard input or a pipe until it ends, or a file followed by
/// name as `tail -F` does (read from its start, then what is appended; after a rotation the new
/// file from its start; after a truncation the file again from its start).
public final class LiveSource {
    public let path: String
    private let options: IngestOptions
    public private(set) var reader: LiveReader
    private var fd: Int32
    /// A regular file followed by name (else a stream: standard input, a pipe, a FIFO).
    public let followsFile: Bool
    private var device: UInt64 = 0
    private var inode: UInt64 = 0
    private var offset: Int64 = 0
    /// Monotonic time of the last bytes read, and whether the reader was told it went idle since.
    public private(set) var lastData = 0.0
    public private(set) var idled = true
    /// The last read stopped because there was nothing more to read (a file's end, a stream with
    /// nothing waiting), not at its limit: only then can the input go idle. A file read in full
    /// reads (the reader behind the file) is never idle, however long a round takes.
    public private(set) var caughtUp = false
    public private(set) var ended = false
    /// Inputs finished so far (a rotated or truncated file ends one reading of it).
    public private(set) var finishedStats: [InputStats] = []
    /// Bytes one read takes (a stream is read once per wake-up).
    public static let readSize = 1 << 16
    private var buffer = [UInt8](repeating: 0, count: LiveSource.readSize)
    /// The clock of `lastData` (monotonic seconds; a test's own clock).
    private let clock: () -> Double
    /// Where problems of the input go (the executable prints them on standard error).
    private let warn: (String) -> Void
    /// The first bytes of the file as read (up to `fingerprintLength`): when they change, the file
    /// was overwritten in place, even with content longer than what was read (which `tail -F`
    /// cannot tell from an append), and it is read again from its start.
    private var fingerprint: [UInt8] = []
    static let fingerprintLength = 256

    /// Opens `path` (`-`: standard input). `clock` times the input's pauses; `warn` hears about an
    /// input that is not read (binary data, UTF-16 text).
    public init(path: String, options: IngestOptions, clock: @escaping () -> Double = LiveAnalysis.monotonic,
                warn: @escaping (String) -> Void = { _ in }) throws {
        self.path = path
        self.options = options
        self.clock = clock
        self.warn = warn
        reader = LiveReader(name: path == "-" ? "-" : path, options: options)
        if path == "-" {
            fd = 0
            followsFile = false
            return
        }
        fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw LiveSourceError("\(path): cannot open: \(String(cString: strerror(errno)))") }
        var st = stat()
        fstat(fd, &st)
        if (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw LiveSourceError("\(path): a directory; watch follows files (lifeline analyze reads directories)")
        }
        followsFile = (st.st_mode & S_IFMT) == S_IFREG
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }

    /// The descriptor to wait on with poll (streams only; files are read on a timer).
    public var pollDescriptor: Int32? { followsFile || ended ? nil : fd }

    /// The input turned out not to be readable text (binary data, UTF-16): said once, on standard error.
    private var refusalReported = false
    private func reportRefusal() {
        guard !refusalReported, let reason = reader.refusal else { return }
        refusalReported = true
        warn("\(path): \(reason): not read")
    }

    /// Reads what is there now, at most `limit` bytes; hands each completed event to `event`.
    /// Returns the bytes read. A stream that reached its end is finished.
    @discardableResult
    public func read(limit: Int = 1 << 20, event: (Event) -> Void) -> Int {
        guard !ended else { return 0 }
        var total = 0
        caughtUp = false
        while total < limit {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, $0.count) }
            if n > 0 {
                if followsFile && fingerprint.count < Self.fingerprintLength && offset == Int64(fingerprint.count) {
                    fingerprint += buffer[0..<min(n, Self.fingerprintLength - fingerprint.count)]
                }
                total += n
                offset += Int64(n)
                for e in buffer.withUnsafeBytes({ reader.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) { event(e) }
                if !followsFile { caughtUp = true; break }  // a stream: one read per wake-up keeps the latency low
                continue
            }
            caughtUp = true
            if n < 0 && (errno == EAGAIN || errno == EINTR) { break }
            // End of input (0), or an error: a stream ends; a followed file waits for more.
            if !followsFile { finish(event: event) }
            break
        }
        if total > 0 {
            lastData = clock()
            idled = false
        }
        reportRefusal()
        return total
    }

    /// Nothing arrived for the idle time: the open record is complete.
    public func idle(event: (Event) -> Void) {
        idled = true
        for e in reader.idle() { event(e) }
        reportRefusal()
    }

    /// A followed file: starts over when the name now points at another file (rotation) or the
    /// file got shorter than what was read (truncation). The rest of a rotated file is read first.
    public func checkRotation(event: (Event) -> Void) {
        guard followsFile, !ended else { return }
        var st = stat()
        guard stat(path, &st) == 0 else { return }  // moved away and not yet recreated: keep the old one
        if UInt64(st.st_dev) != device || UInt64(st.st_ino) != inode {
            read(limit: Int.max, event: event)
            let next = open(path, O_RDONLY | O_NONBLOCK)
            guard next >= 0 else { return }
            close(fd)
            fd = next
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
            restart(event: event)
        } else if Int64(st.st_size) < offset || !fingerprintHolds() {
            lseek(fd, 0, SEEK_SET)
            restart(event: event)
        }
    }

    /// The file still begins with the bytes read from its start.
    private func fingerprintHolds() -> Bool {
        guard !fingerprint.isEmpty else { return true }
        var now = [UInt8](repeating: 0, count: fingerprint.count)
        let n = now.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, 0) }
        return n < 0 || (n == fingerprint.count && now == fingerprint)
    }

    /// Ends this reading of the input and starts a new one (same name, lines from 1).
    private func restart(event: (Event) -> Void) {
        let (events, stats) = reader.finish()
        for e in events { event(e) }
        finishedStats.append(stats)
        reader = LiveReader(name: path, options: options)
        offset = 0
        fingerprint = []
    }

    /// The input ended (a stream's end, or the run stopped): the last record is read too.
    public func finish(event: (Event) -> Void) {
        guard !ended else { return }
        ended = true
        let (events, stats) = reader.finish()
        for e in events { event(e) }
        reportRefusal()
        finishedStats.append(stats)
        if fd > 0 { close(fd) }
    }
}

/// An input `watch` cannot follow (missing, a directory).
public struct LiveSourceError: Error, CustomStringConvertible {
    public let description: String
    init(_ d: String) { description = d }
}
