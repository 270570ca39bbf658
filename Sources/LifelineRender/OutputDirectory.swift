import Foundation

/// Writes report files into a directory atomically: each file goes to a temporary file in the same
/// directory first and is renamed over the old one, so a reader never sees half a file and a run
/// that fails leaves the previous files intact. Only the named files are touched, and never one
/// of the run's inputs (a log named `report.html` in the output directory stays as it is).
public struct OutputDirectory: Sendable {
    public let path: String
    /// Device and inode of every input file: a file that is one of them is never replaced.
    private let inputs: Set<FileID>

    struct FileID: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64

        init?(_ path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }
    }

    /// Creates the directory (and its parents) when missing. `inputs` are the files the run reads
    /// (as given or found in directories): writing over one of them is refused.
    public init(_ path: String, inputs: [String] = []) throws {
        self.path = path
        self.inputs = Set(inputs.compactMap(FileID.init))
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
        if let id = FileID(target), inputs.contains(id) {
            throw OutputError(path: target, reason: "is one of the inputs; it is not overwritten (write the report elsewhere)")
        }
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

extension OutputDirectory {
    /// Removes the file `name` (one the run wrote and no longer reports); a missing file, or one of
    /// the inputs, is left as it is.
    public func remove(_ name: String) {
        precondition(!name.contains("/"), "output file names are plain names")
        let target = (path as NSString).appendingPathComponent(name)
        if let id = FileID(target), inputs.contains(id) { return }
        unlink(target)
    }
}

public struct OutputError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
