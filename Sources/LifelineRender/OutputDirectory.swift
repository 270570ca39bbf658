import Foundation

/// Writes report files into a directory atomically: each file goes to a temporary file in the same
/// directory first and is renamed over the old one, so a reader never sees half a file and a run
/// that fails leaves the previous files intact. Only the named files are touched.
public struct OutputDirectory: Sendable {
    public let path: String

    /// Creates the directory (and its parents) when missing.
    public init(_ path: String) throws {
        self.path = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw OutputError(path: path, reason: "exists and is not a directory") }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw OutputError(path: path, reason: "cannot be created (\(error.localizedDescription))")
            }
        }
    }

    public func write(_ name: String, _ text: String) throws { try write(name, Array(text.utf8)) }

    public func write(_ name: String, _ bytes: [UInt8]) throws {
        precondition(!name.contains("/"), "output file names are plain names")
        let target = (path as NSString).appendingPathComponent(name)
        let temporary = (path as NSString).appendingPathComponent(".\(name).\(ProcessInfo.processInfo.processIdentifier).tmp")
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw OutputError(path: target, reason: "cannot be written")
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw OutputError(path: target, reason: "cannot be replaced (\(reason))")
        }
    }
}

public struct OutputError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
