import Foundation
import TestSupport
@testable import LifelineCore

/// Paths, the corpus and fixture listings: the test support home, under the name these tests know.
typealias Repo = Repository

/// A new empty directory under the temporary directory (`lifeline-PREFIX-UUID`); the caller removes it.
func scratchDirectory(_ prefix: String) -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-\(prefix)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

/// Ingests text written to a temporary file (`name` sets the extension, which matters for Markdown).
func ingest(_ text: String, name: String = "input.log", options: IngestOptions = IngestOptions(jobs: 1))
    -> (events: [Event], stats: InputStats) {
    ingest(bytes: Array(text.utf8), name: name, options: options)
}

func ingest(bytes: [UInt8], name: String = "input.log", options: IngestOptions = IngestOptions(jobs: 1))
    -> (events: [Event], stats: InputStats) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent(name)
    precondition(FileManager.default.createFile(atPath: file.path, contents: Data(bytes)), "cannot write \(file.path)")
    let r = Ingester(options: options).ingest(paths: [file.path])
    return (r.events, r.inputs[0])
}

extension InputStats {
    /// The accounting invariant, with the numbers in the failure message.
    var balanceDescription: String {
        "lines \(lines) = records \(records) + continuation \(continuationLines) + nonLog \(nonLogLines) + unrecognized \(unrecognizedLines)"
    }
}
