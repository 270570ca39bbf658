import Foundation

/// Expands the paths a user gave into inputs: files as given, directories walked recursively for
/// log-like files (sorted, so runs are reproducible), glob patterns the shell did not expand
/// (`'logs/**/*.log'` quoted, or from `--files-from`), `-` for standard input.
public enum InputExpansion {
    struct Input: Equatable {
        var path: String
        var error: String?
        /// Found in a directory walk and not read, with the reason (binary, not a log).
        var skipped: String?
    }

    /// An input file found by `files(_:archives:)`, with its size on disk for scheduling.
    public struct File: Sendable, Equatable {
        public var path: String
        public var size: Int64
        /// A tar archive (`.tar`, `.tar.gz`, `.tgz`): its log-like members are the inputs.
        public var isArchive: Bool
        /// Why it cannot be read (missing, permission denied, a directory that cannot be listed).
        public var error: String?
        /// Why a file found in a directory was not read (binary, not a log); nil when it is read.
        public var skipped: String?
    }

    /// The inputs `paths` name, each with its size; with `archives`, directories also yield the tar
    /// archives in them and archives given by name are marked as such. With `skipNonLogs`, files
    /// named in `paths` are taken as found in a directory walk (a listing made elsewhere, such as an
    /// object store's): one that is not a log by name or content is skipped, with the reason.
    public static func files(_ paths: [String], archives: Bool, skipNonLogs: Bool = false) -> [File] {
        expand(paths, archives: archives, skipNonLogs: skipNonLogs).map { input in
            var size: Int64 = 0
            if input.error == nil, input.path != "-", let a = try? FileManager.default.attributesOfItem(atPath: input.path) {
                size = (a[.size] as? NSNumber)?.int64Value ?? 0
            }
            return File(path: input.path, size: size, isArchive: archives && input.error == nil && TarArchive.hasArchiveName(input.path),
                        error: input.error, skipped: input.skipped)
        }
    }

    /// File name endings read when walking a directory (compressed variants included).
    static let logExtensions: Set<String> = ["log", "txt", "ips", "crash", "json", "ndjson", "jsonl", "md",
                                             "markdown", "syslog", "out", "err", "trace", "console", "text"]

    /// True when the name says the file is a log: a log extension, also rotated (`.log.1`,
    /// `system.log.0.gz`, `app.log.2.gz`). Other files in a walked directory are decided by content.
    public static func isLogLike(_ name: String) -> Bool {
        var n = name.lowercased()
        if n.hasPrefix(".") { return false }
        if n.hasSuffix(".gz") { n.removeLast(3) }
        // Rotation numbers: `.1`, `.0`, `.12`.
        while let dot = n.lastIndex(of: ".") {
            let suffix = n[n.index(after: dot)...]
            guard !suffix.isEmpty, suffix.allSatisfy({ $0.isASCII && $0.isNumber }) else { break }
            n = String(n[..<dot])
        }
        guard let dot = n.lastIndex(of: ".") else { return false }
        return logExtensions.contains(String(n[n.index(after: dot)...]))
    }

    /// Why a file found in a directory walk is not read, or nil when it is: decided by its first
    /// 64 KiB (decompressed when gzip), as the reader would sniff it. A file is read when the sniffer
    /// finds a log format in it (a header, a report, JSON log entries) or a line of it names an event
    /// (bare `print(#function)` output); it is skipped when it is binary or holds neither. A file
    /// that cannot be opened is read, so its error is reported where it is read.
    ///
    /// A document (`isDocument`) is read only when its head holds a log record (an event, as the
    /// reader finds it): prose that names a callback (`sceneDidBecomeActive(_:)` in a README) is not a log.
    static func skipReason(_ path: String, document: Bool = false) -> String? {
        let head: [UInt8]
        do { head = try ByteSources.prefix(of: path, count: FormatSniffer.sampleBytes) } catch { return nil }
        if head.isEmpty { return nil }
        let sniff = FormatSniffer.sniff(head, path: path)
        if let reason = sniff.binaryReason { return reason }
        if sniff.format != .print { return nil }
        if document {
            // Read the head as the reader would (a Markdown paste's records are found whatever
            // their quoting): a document with no event in it is prose.
            var reader = LiveReader(name: path, options: IngestOptions(jobs: 1))
            let events = reader.feed(head) + reader.finish().events
            return events.isEmpty ? "a document with no log records in it (name the file to read it anyway)" : nil
        }
        let classifier = EventClassifier()
        var lines = 0
        for line in head.split(separator: 10, omittingEmptySubsequences: true).prefix(2000) {
            lines += 1
            if classifier.startsEvent(String(decoding: line, as: UTF8.self)) { return nil }
        }
        let which = head.count < FormatSniffer.sampleBytes && lines < 2000 ? "its \(lines) lines" : "its first \(lines) lines"
        return "not a log: none of \(which) is in a log format Lifeline reads or names a lifecycle event (name the file to read it anyway)"
    }

    static func expand(_ paths: [String], archives: Bool = false, skipNonLogs: Bool = false) -> [Input] {
        var result: [Input] = []
        let fm = FileManager.default
        for path in paths {
            if path == "-" { result.append(Input(path: "-")); continue }
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                if isPattern(path) {
                    let matches = matches(of: path)
                    if matches.isEmpty {
                        result.append(Input(path: path, error: "no file matches this pattern"))
                    } else {
                        result.append(contentsOf: expand(matches, archives: archives, skipNonLogs: skipNonLogs))
                    }
                    continue
                }
                result.append(Input(path: path, error: "no such file or directory"))
                continue
            }
            if !isDirectory.boolValue {
                if !fm.isReadableFile(atPath: path) {
                    result.append(Input(path: path, error: "permission denied"))
                } else if skipNonLogs {
                    result.append(found(path, name: URL(fileURLWithPath: path).lastPathComponent, archives: archives))
                } else {
                    result.append(Input(path: path))
                }
                continue
            }
            result.append(contentsOf: walk(path, archives: archives))
        }
        return result
    }

    /// Whether `path` holds glob syntax (`*`, `?`, `[`).
    static func isPattern(_ path: String) -> Bool { path.contains { $0 == "*" || $0 == "?" || $0 == "[" } }

    /// The paths `pattern` matches, sorted: glob(3), plus `**` for any number of directories
    /// (`logs/**/*.log` matches `logs/a.log` and `logs/x/y/a.log`).
    static func matches(of pattern: String) -> [String] {
        guard let star = pattern.range(of: "**") else {
            var g = glob_t()
            defer { globfree(&g) }
            guard glob(pattern, 0, nil, &g) == 0 else { return [] }
            var out: [String] = []
            for i in 0..<Int(g.gl_pathc) {
                if let p = g.gl_pathv[i] { out.append(String(cString: p)) }
            }
            return out.sorted()
        }
        // The directories before `**`, walked; every file below them tested against the pattern,
        // where `**/` may also match nothing and `*` may cross directories.
        var base = String(pattern[..<star.lowerBound])
        if base.hasSuffix("/") { base.removeLast() }
        let roots = base.isEmpty ? ["."] : (isPattern(base) ? matches(of: base) : [base])
        let loose = pattern.replacingOccurrences(of: "**", with: "*")
        let shallow = pattern.replacingOccurrences(of: "**/", with: "")
        var out = Set<String>()
        let fm = FileManager.default
        for root in roots {
            guard let names = fm.enumerator(atPath: root) else { continue }
            for case let relative as String in names {
                let full = base.isEmpty ? relative : root + "/" + relative
                var isDir: ObjCBool = false
                guard fm.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue else { continue }
                if fnmatch(loose, full, 0) == 0 || fnmatch(shallow, full, 0) == 0 { out.insert(full) }
            }
        }
        return out.sorted()
    }

    /// A regular file found in a walk: read when its name says log (or archive); otherwise its
    /// content decides (`syslog`, `device`, `console.out.old`), and a file not read says why.
    private static func found(_ path: String, name: String, archives: Bool) -> Input {
        if archives && TarArchive.hasArchiveName(name) { return Input(path: path) }
        // A document (a README beside the logs) is read only when it holds log records: a log
        // pasted into an issue or a Markdown file is one, prose about logs is not.
        if isLogLike(name) && !isDocument(name) { return Input(path: path) }
        // An app's Info.plist beside its logs is not a log: say where it goes instead.
        if name.lowercased().hasSuffix(".plist") {
            return Input(path: path, skipped: "a property list, not a log (an app's Info.plist goes to --manifest or `lifeline manifest`)")
        }
        if name.lowercased().hasSuffix(".ipa") {
            return Input(path: path, skipped: "an app archive, not a log (its Info.plist is read by --manifest or `lifeline manifest`)")
        }
        return Input(path: path, skipped: skipReason(path, document: isDocument(name)))
    }

    /// Markdown and other prose files (`README.md`, `NOTES.markdown`, `CHANGELOG.rst`): found in a
    /// walk, they are read only when their content holds log records.
    static func isDocument(_ name: String) -> Bool {
        var n = name.lowercased()
        if n.hasSuffix(".gz") { n.removeLast(3) }
        return [".md", ".markdown", ".rst", ".adoc"].contains { n.hasSuffix($0) }
    }

    /// Recursive walk that does not follow directory symlinks into loops.
    private static func walk(_ root: String, archives: Bool) -> [Input] {
        let fm = FileManager.default
        var files: [Input] = []
        var visited = Set<String>()
        var stack = [root]
        // Directory symlinks are followed after every real directory was walked, so a file is
        // listed under its real directory rather than through a link that loops back to it.
        var links: [String] = []
        while true {
            if stack.isEmpty { stack = links.sorted().reversed(); links = [] }
            guard let dir = stack.popLast() else { break }
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
                // Only directories and regular files: a FIFO, socket or device found in a walk
                // (`x.log` being a named pipe) would block the run or fail; given by name it is read.
                var st = stat(), lst = stat()
                guard stat(full, &st) == 0, lstat(full, &lst) == 0 else { continue }
                let type = st.st_mode & S_IFMT
                if type == S_IFDIR {
                    if lst.st_mode & S_IFMT == S_IFLNK { links.append(full) } else { stack.append(full) }
                } else if type == S_IFREG {
                    files.append(found(full, name: name, archives: archives))
                }
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}
