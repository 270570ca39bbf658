import Foundation
import LifelineRules

/// A previous run's JSON report, read back to tell new signatures from recurring and gone ones.
public struct Baseline: Sendable {
    public var path: String
    public var signatures: [BaselineSignature]

    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads a report written by `lifeline triage --format json` (only `signatures[].id` is
    /// required; kind, title, severity and count are kept for the gone list when present).
    public static func load(path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Error(description: "\(path): cannot read the baseline (\(FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"))")
        }
        return try parse(data, path: path)
    }

    public static func parse(_ data: Data, path: String) throws -> Baseline {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw Error(description: "\(path): not JSON (\(error.localizedDescription)); a baseline is a previous `lifeline triage --format json` report")
        }
        guard let doc = object as? [String: Any], let list = doc["signatures"] as? [Any] else {
            throw Error(description: "\(path): no \"signatures\" array; a baseline is a previous `lifeline triage --format json` report")
        }
        var out: [BaselineSignature] = []
        for (i, item) in list.enumerated() {
            guard let s = item as? [String: Any], let id = s["id"] as? String else {
                throw Error(description: "\(path): signatures[\(i)] has no \"id\"")
            }
            out.append(BaselineSignature(id: id, kind: s["kind"] as? String ?? "", title: s["title"] as? String ?? "",
                                         severity: s["severity"] as? String ?? "", count: (s["count"] as? NSNumber)?.intValue ?? 0))
        }
        return Baseline(path: path, signatures: out)
    }
}

extension TriageResult {
    /// Marks each signature new or recurring against `baseline`, and lists the baseline's
    /// signatures this run did not see as gone.
    public mutating func compare(with baseline: Baseline) {
        let before = Set(baseline.signatures.map(\.id))
        let now = Set(signatures.map(\.signature.id))
        var status: [String: BaselineStatus] = [:]
        for s in signatures { status[s.signature.id] = before.contains(s.signature.id) ? .recurring : .new }
        self.baseline = status
        var seen = Set<String>()
        gone = baseline.signatures.filter { !now.contains($0.id) && seen.insert($0.id).inserted }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.id < $1.id }
    }

    /// New signatures at or above `severity` (empty without a baseline), in rank order.
    public func newSignatures(atLeast severity: Severity = .note) -> [SignatureStats] {
        guard let baseline else { return [] }
        return signatures.filter { baseline[$0.signature.id] == .new && $0.severity >= severity }
    }

    /// One line per new signature, for a terminal: id, severity, title, count, example.
    public func newSignatureLines(atLeast severity: Severity = .note) -> [String] {
        newSignatures(atLeast: severity).map {
            "\($0.signature.id)  \($0.severity)  \(oneLine($0.signature.title))  ×\(grouped($0.count))  e.g. \($0.example.place)"
        }
    }
}
