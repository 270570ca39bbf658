import Foundation
import TestSupport

/// Finds and runs the `lifeline` executable built next to the test bundle.
enum CLI {
    struct Result { var status: Int32; var stdout: String; var stderr: String }

    static var repositoryRoot: URL { Repository.root }

    static var executable: URL {
        // The test bundle lives in .build/<config>/; the executable is beside it.
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("lifeline")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        for config in ["debug", "release"] {
            let candidate = repositoryRoot.appendingPathComponent(".build/\(config)/lifeline")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return repositoryRoot.appendingPathComponent(".build/debug/lifeline")
    }

    static func run(_ arguments: [String], stdin: Data? = nil, in directory: URL? = nil) throws -> Result {
        try run(program: executable, arguments, stdin: stdin, in: directory)
    }

    /// Runs `program` (another tool the tests drive: a script, python) the same way.
    /// `environment` adds to (or replaces in) the tests' own environment.
    static func run(program: URL, _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil,
                    environment: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = program
        p.arguments = arguments
        p.currentDirectoryURL = directory ?? repositoryRoot
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        env["NO_COLOR"] = "1"
        env.merge(environment) { $1 }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input = Pipe()
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting, so a large output cannot block the child.
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errBox.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
