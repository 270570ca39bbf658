import Foundation

/// A manifest that cannot be read, with the path it was read from.
public struct ManifestError: Error, CustomStringConvertible, Equatable, Sendable {
    public var path: String
    public var line: Int?
    public var message: String

    public init(path: String, line: Int? = nil, _ message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(message)" }
}

/// Reads an `Info.plist` for `lifeline manifest` and `--manifest`: an XML or binary property list,
/// a built `.app` directory (`Info.plist`, or `Contents/Info.plist` for a Mac app), or an `.ipa`
/// (a zip archive with `Payload/<name>.app/Info.plist`).
public enum ManifestReader {
    /// Property lists larger than this are refused: an Info.plist is kilobytes.
    public static let maxBytes = 16 << 20

    public static func read(path: String, productModule: String? = nil) throws -> SceneManifest {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ManifestError(path: path, "no such file or directory")
        }
        if isDirectory.boolValue {
            let candidates = ["Info.plist", "Contents/Info.plist"].map { (path as NSString).appendingPathComponent($0) }
            guard let plist = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0) }) else {
                throw ManifestError(path: path, "a directory without an Info.plist (looked for Info.plist and Contents/Info.plist)")
            }
            return try parse(readFile(plist), file: plist, source: path, container: .app, productModule: productModule)
        }
        let data = try readFile(path)
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || path.lowercased().hasSuffix(".ipa") {
            return try readArchive(path: path, productModule: productModule)
        }
        return try parse(data, file: path, source: path, container: inBundle(path) ? .app : .file, productModule: productModule)
    }

    /// A plist named by its path inside an `.app` (`MyApp.app/Info.plist`) is a built one.
    static func inBundle(_ path: String) -> Bool {
        let parts = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        return parts.dropLast().suffix(2).contains { $0.hasSuffix(".app") }
    }

    static func readFile(_ path: String) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ManifestError(path: path, "cannot be read (permission denied?)") }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maxBytes + 1)) ?? Data()
        if data.count > maxBytes { throw ManifestError(path: path, "larger than \(maxBytes >> 20) MB: not an Info.plist") }
        return data
    }

    /// The `Info.plist` of the app in an `.ipa`'s `Payload/` folder, read through libzip
    /// (`ZipArchive`): a corrupt or cut member is an error naming the archive and the member, and no
    /// member is read past `maxBytes`, whatever size the archive declares for it.
    static func readArchive(path: String, productModule: String?) throws -> SceneManifest {
        let archive: ZipArchive
        do { archive = try ZipArchive(path: path) } catch {
            throw ManifestError(path: path, "not a readable zip archive (an .ipa is one): \(error)")
        }
        let plists = archive.members.filter { m in
            let parts = m.path.split(separator: "/", omittingEmptySubsequences: false)
            return m.isFile && parts.count == 3 && parts[0] == "Payload" && parts[1].hasSuffix(".app") && parts[2] == "Info.plist"
        }.sorted { $0.path < $1.path }
        guard let entry = plists.first else {
            throw ManifestError(path: path, "no Payload/<name>.app/Info.plist in the archive")
        }
        let tooLarge = "\(entry.path) is larger than \(maxBytes >> 20) MB: not an Info.plist"
        guard entry.size <= UInt64(maxBytes) else { throw ManifestError(path: path, tooLarge) }
        let bytes: [UInt8]
        do {
            bytes = try archive.read(entry, limit: maxBytes)
        } catch is ZipArchive.LimitExceeded {
            throw ManifestError(path: path, tooLarge)
        } catch {
            throw ManifestError(path: path, "\(entry.path) cannot be extracted: \(error)")
        }
        var manifest = try parse(Data(bytes), file: path, source: path, container: .ipa, productModule: productModule, label: "\(path) (\(entry.path))")
        manifest.member = entry.path
        // Lines inside an archive member cannot be opened next to the finding: key paths only.
        manifest.lines = [:]
        return manifest
    }

    /// Parses property list bytes. `label` names the input in messages (default: `file`).
    public static func parse(_ data: Data, file: String, source: String, container: SceneManifest.Container,
                             productModule: String? = nil, label: String? = nil) throws -> SceneManifest {
        let name = label ?? file
        let format: SceneManifest.Format
        if data.starts(with: Array("bplist".utf8)) {
            format = .binary
        } else if looksLikeXML(data) {
            format = .xml
        } else {
            throw ManifestError(path: name, "not a property list: neither XML (<?xml …> / <plist>) nor binary (bplist00)")
        }
        if format == .binary, let refusal = BinaryPlistCheck.refusal(data) { throw ManifestError(path: name, refusal) }
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            if format == .binary { throw ManifestError(path: name, "the binary property list is damaged or truncated") }
            let located = PlistLines.firstError(data)
            throw ManifestError(path: name, line: located?.line, "not a valid XML property list" + (located.map { ": \($0.message)" } ?? ""))
        }
        let lines = format == .xml ? PlistLines.read(data) : PlistLines()
        guard case .dictionary(let root) = PlistValue.from(value, order: lines.order) else {
            let kind = PlistValue.from(value).typeName
            throw ManifestError(path: name, "the property list is \(kind == "array" ? "an" : "a") \(kind), not a dict: an Info.plist is a dictionary of keys")
        }
        return SceneManifest(source: source, file: file, member: nil, format: format, container: container, root: root,
                             lines: lines.lines, productModule: productModule)
    }

    static func looksLikeXML(_ data: Data) -> Bool {
        var head = data.prefix(256)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        let text = String(decoding: head, as: UTF8.self).drop { $0.isWhitespace }
        return text.hasPrefix("<?xml") || text.hasPrefix("<plist") || text.hasPrefix("<!DOCTYPE plist")
    }
}
