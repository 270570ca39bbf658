// Fuzz target: the Info.plist reader (ManifestReader.parse on the bytes as a property list, and
// ManifestReader.readArchive when they start with the zip magic, as an .ipa), and the views of a
// manifest read: roles, configurations, their lines, the summary, the delegate classes expanded.
import Foundation
import LifelineCore

@_cdecl("LLVMFuzzerTestOneInput")
public func lifelineFuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = buffer(data, size)
    // libxml2 ends a line at LF, CR LF or a lone CR; a line it names is at most one past the last
    // line break (the end of the document, where an error may be found).
    var lines = 1
    for (i, b) in bytes.enumerated() where b == 0x0A || (b == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A)) {
        lines += 1
    }

    let first = FuzzEntry.manifest(bytes)
    let second = FuzzEntry.manifest(bytes)
    require(first.count == second.count, "read \(first.count) ways, then \(second.count)")
    for (read, again) in zip(first, second) {
        let how = read.archive ? "readArchive" : "parse"
        switch (read.result, again.result) {
        case (.success(let m), .success(let n)):
            require(same(m, n), "\(how) read the same bytes into two different manifests:\n\(m)\n\(n)")
            check(read, m, lines: lines)
        case (.failure(let e), .failure(let f)):
            guard let e = e as? ManifestError else {
                require(false, "\(how) threw \(type(of: e)), not a ManifestError: \(e)")
                return 0
            }
            require(!e.message.isEmpty, "\(how) threw a ManifestError without a message: \(e)")
            if read.archive {
                require(e.path.hasPrefix(FuzzEntry.archivePath), "\(how) error names \(e.path), not \(FuzzEntry.archivePath)")
            } else {
                require(e.path == FuzzEntry.manifestPath, "\(how) error names \(e.path), not \(FuzzEntry.manifestPath)")
                // An archive's errors may name lines of its Info.plist; a plist's name its own.
                if let l = e.line { require(l >= 1 && l <= lines, "\(how) error at line \(l) of \(lines): \(e)") }
            }
            require((f as? ManifestError) == e, "\(how) threw \(e), then \(f)")
        case (.success, .failure(let f)):
            require(false, "\(how) read the bytes, then threw \(f)")
        case (.failure(let e), .success):
            require(false, "\(how) threw \(e), then read the bytes")
        }
    }
    return 0
}

private func check(_ read: FuzzEntry.ManifestRead, _ m: SceneManifest, lines: Int) {
    let how = read.archive ? "readArchive" : "parse"
    require(read.configurationLines.count == read.configurationCount, "\(how): lines of \(read.configurationLines.count) of \(read.configurationCount) configurations")
    for l in read.configurationLines {
        guard let l else { continue }
        // An .ipa's manifest keeps key paths only: its lines would be lines of the archive member.
        require(!read.archive, "\(how): a line (\(l)) for a manifest inside an archive")
        require(l >= 1 && l <= lines, "\(how): a configuration at line \(l) of \(lines)")
    }
    for (l, path) in m.lines.map({ ($0.value, $0.key) }) where l < 1 || l > lines {
        require(false, "\(how): \(path) at line \(l) of \(lines)")
    }
    require(!read.summaryLines.isEmpty, "\(how): no summary line")
    for x in read.expansions {
        require(!x.unexpanded.contains("PRODUCT_MODULE_NAME"), "\(how): $(PRODUCT_MODULE_NAME) left in \(x.value) with a product module")
    }
    if m.sceneManifest == nil { require(read.roleCount == 0 && read.configurationCount == 0, "\(how): roles without a scene manifest") }
}

/// `==` of two manifests, except that a NaN (`<real>nan</real>`, a binary plist's NaN date)
/// equals a NaN: reading the same bytes twice must give the same tree.
private func same(_ a: SceneManifest, _ b: SceneManifest) -> Bool {
    if a == b { return true }
    return a.source == b.source && a.file == b.file && a.member == b.member && a.format == b.format
        && a.container == b.container && a.lines == b.lines && a.productModule == b.productModule
        && same(.dictionary(a.root), .dictionary(b.root))
}

private func same(_ a: PlistValue, _ b: PlistValue) -> Bool {
    func equal(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
    switch (a, b) {
    case let (.real(x), .real(y)): return equal(x, y)
    case let (.date(x), .date(y)): return equal(x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate)
    case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case let (.dictionary(x), .dictionary(y)):
        return x.entries.count == y.entries.count && zip(x.entries, y.entries).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
    default: return a == b
    }
}
