import ArgumentParser
import Foundation
import LifelineCore

@main
struct Lifeline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifeline",
        abstract: "Reads iOS, iPadOS, Mac Catalyst and CarPlay app logs and tells their lifecycle story.",
        discussion: """
        Exit status: 0 success, 1 findings at or above `analyze --fail-on`, 2 usage or configuration error, 3 an input could not be read.
        """,
        version: LifelineVersion.current,
        subcommands: [Analyze.self, Watch.self, Timeline.self, Graph.self, TriageCommand.self, ManifestCommand.self, Events.self, Formats.self, Rules.self])

    /// Usage errors exit with 2 (ArgumentParser's default is 64), as the README documents.
    static func main() {
        #if canImport(Glibc)
        // glibc raises its mmap threshold to the size of the largest block freed so far, so after the
        // first reader buffer (up to 1 MB) is freed, every later one comes from the heap, between
        // the events a session keeps: the freed buffers cannot be returned and the heap grows with
        // every file. Pinned at 128 KB, buffers are mapped and unmapped whole. Measured on the
        // 10,000-file set: analyze 1.2 GB -> 0.29 GB peak RSS (issue 12).
        pinMmapThreshold(128 << 10)
        #endif
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

#if canImport(Glibc)
/// `mallopt(M_MMAP_THRESHOLD, bytes)`: malloc.h is not part of Swift's Glibc module, so the
/// function is looked up by name (M_MMAP_THRESHOLD is -3 in glibc's malloc.h).
private func pinMmapThreshold(_ bytes: Int32) {
    typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
    _ = unsafeBitCast(symbol, to: MallOpt.self)(-3, bytes)
}
#endif
