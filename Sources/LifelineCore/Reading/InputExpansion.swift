import Foundation

/// Expands the paths a user gave into inputs: files as given, directories walked recursively for
/// log-like files (sorted, so runs are reproducible), `-` for standard input.
enum InputExpansion {
    struct Input: Equatable {
        var path: String
        var error: String?
    }

    /// File name endings read when walking a directory (compressed variants included).
    static let logExtensions: Set<String> = ["log", "txt", "ips", "crash", "json", "ndjson", "jsonl", "md",
                                             "markdown", "syslog", "out", "err", "trace", "console", "text"]

    static func isLogLike(_ name: String) -> Bool {
        var n = name.lowercased()
        if n.hasPrefix(".") { return false }
        if n.hasSuffix(".gz") { n.removeLast(3) }
        guard let dot = n.lastIndex(of: ".") else { return false }
        return logExtensions.contains(String(n[n.index(after: dot)...]))
    }

    static func expand(_ paths: [String]) -> [Input] {
        var result: [Input] = []
        let fm = FileManager.default
        for path in paths {
            if path == "-" { result.append(Input(path: "-")); continue }
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                result.append(Input(path: path, error: "no such file or directory"))
                continue
            }
            if !isDirectory.boolValue {
                result.append(fm.isReadableFile(atPath: path) ? Input(path: path) : Input(path: path, error: "permission denied"))
                continue
            }
            result.append(contentsOf: walk(path))
        }
        return result
    }

    /// Recursive walk that does not follow directory symlinks into loops.
    private static func walk(_ root: String) -> [Input] {
        let fm = FileManager.default
        var files: [Input] = []
        var visited = Set<String>()
        var stack = [root]
        while let dir = stack.popLast() {
            guard let resolved = realpath(dir, nil) else { continue }
            let real = String(cString: resolved)
            free(resolved)
            if !visited.insert(real).inserted { continue }
            guard let names = try? fm.contentsOfDirectory(atPath: dir) else {
                files.append(Input(path: dir, error: "cannot list directory"))
                continue
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let full = dir.hasSuffix("/") ? dir + name : dir + "/" + name
                var isDir: ObjCBool = false
                guard fm.fileExists(atPath: full, isDirectory: &isDir) else { continue }
                if isDir.boolValue { stack.append(full) } else if isLogLike(name) { files.append(Input(path: full)) }
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}
