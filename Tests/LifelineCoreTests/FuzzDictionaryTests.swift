import Foundation
import Testing
import TestSupport
@testable import LifelineCore

/// The fuzz dictionaries (`Fuzz/Dictionaries/*.dict`, passed to libFuzzer with `-dict=` by
/// `scripts/fuzz`) stay readable and in step with the literals the readers look for.
@Suite struct FuzzDictionaryTests {
    static let directory = Repository.path("Fuzz/Dictionaries")

    static var names: [String] {
        Repository.fileNames(in: directory, extensions: ["dict"])
    }

    /// The literals of a dictionary, decoded; nil for a line libFuzzer would refuse
    /// (`ParseDictionaryFile`: `[name=]"…"` with `\\`, `\"` and `\xNN` escapes only).
    static func entries(_ name: String) throws -> [[UInt8]?] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n").compactMap { raw -> [UInt8]?? in
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { return .none }
            var body = Substring(line)
            if let eq = body.firstIndex(of: "="), !body.hasPrefix("\"") { body = body[body.index(after: eq)...] }
            guard body.count >= 2, body.first == "\"", body.last == "\"" else { return .some(nil) }
            let inner = Array(body.dropFirst().dropLast().utf8)
            var out: [UInt8] = []
            var i = 0
            while i < inner.count {
                let b = inner[i]
                if b == UInt8(ascii: "\"") { return .some(nil) }
                guard b == UInt8(ascii: "\\") else { out.append(b); i += 1; continue }
                guard i + 1 < inner.count else { return .some(nil) }
                switch inner[i + 1] {
                case UInt8(ascii: "\\"), UInt8(ascii: "\""): out.append(inner[i + 1]); i += 2
                case UInt8(ascii: "x"):
                    guard i + 3 < inner.count, let v = UInt8(String(decoding: inner[(i + 2)...(i + 3)], as: UTF8.self), radix: 16) else { return .some(nil) }
                    out.append(v); i += 4
                default: return .some(nil)
                }
            }
            return .some(out)
        }
    }

    @Test("every target's dictionary exists and every line is one libFuzzer reads")
    func readable() throws {
        #expect(Set(Self.names).isSuperset(of: ["ingest.dict", "classify.dict", "crash.dict", "reports.dict", "sniff.dict", "config.dict", "manifest.dict"]))
        for name in Self.names {
            let entries = try Self.entries(name)
            #expect(entries.count >= 20, "\(name) has \(entries.count) entries")
            #expect(entries.allSatisfy { $0 != nil && !$0!.isEmpty }, "\(name) has a line libFuzzer would refuse")
        }
    }

    @Test("the classifier's anchors are in the ingest and classify dictionaries", arguments: ["ingest.dict", "classify.dict"])
    func anchorsCovered(_ name: String) throws {
        let literals = Set(try Self.entries(name).compactMap { $0 })
        let missing = AnchorSet.events.literals.filter { !literals.contains(Array($0.utf8)) }
        #expect(missing.isEmpty, "add to Fuzz/Dictionaries/\(name): \(missing)")
    }
}
