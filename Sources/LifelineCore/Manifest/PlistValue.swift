import Foundation

/// A property list value as a Swift tree (what `PropertyListSerialization` reads, without `Any`).
/// Dictionaries keep their keys in the order the XML file has them when it is known (binary
/// property lists have no order: their keys are sorted), so findings come out in file order.
public indirect enum PlistValue: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case integer(Int)
    case real(Double)
    case date(Date)
    case data(Int)
    case array([PlistValue])
    case dictionary(PlistDictionary)

    /// The value's type as the property list format names it (`string`, `boolean`, `dict`).
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .bool: return "boolean"
        case .integer: return "integer"
        case .real: return "real"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dict"
        }
    }

    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var array: [PlistValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var dictionary: PlistDictionary? { if case .dictionary(let d) = self { return d } else { return nil } }

    /// Converts what Foundation read. Keys of every dictionary are ordered by `order` (the XML
    /// file's order of each key path), falling back to sorting.
    static func from(_ value: Any, path: PlistKeyPath = PlistKeyPath(), order: [PlistKeyPath: Int] = [:]) -> PlistValue {
        // An NSNumber of 0 or 1 also casts to Bool: only a real Bool (`<true/>`) is a boolean.
        if type(of: value) == Bool.self, let b = value as? Bool { return .bool(b) }
        switch value {
        case let s as String: return .string(s)
        case let d as Date: return .date(d)
        case let d as Data: return .data(d.count)
        case let n as NSNumber:
            let type = String(cString: n.objCType)
            return type == "d" || type == "f" ? .real(n.doubleValue) : .integer(n.intValue)
        case let a as [Any]:
            return .array(a.enumerated().map { from($1, path: path.appending(index: $0), order: order) })
        case let d as [String: Any]:
            return dictionary(d, path: path, order: order)
        case let d as [AnyHashable: Any]:
            // A binary plist may have non-string keys (an Info.plist never does): each is named by
            // `keyName`, and of two that read the same the first in sorted order is kept, sorted by
            // name, type and value, so that no tie is left to the dictionary's hash order.
            var named: [String: Any] = [:]
            let ranked = d.map { (key: keyName($0.key.base), type: "\(type(of: $0.key.base))", value: "\(from($0.value))", raw: $0.value) }
                .sorted { ($0.key, $0.type, $0.value) < ($1.key, $1.type, $1.value) }
            for k in ranked where named[k.key] == nil { named[k.key] = k.raw }
            return dictionary(named, path: path, order: order)
        default:
            return .string("\(type(of: value))")
        }
    }

    /// The name of a non-string key: the text of a number, date or string, the bytes of data (in
    /// hex, the first 32), and the type of anything else. Never an object's description: a keyed archiver's UID describes
    /// itself with its address, which differs on every read (found by the `manifest` campaign).
    static func keyName(_ key: Any) -> String {
        switch key {
        case let s as String: return s
        case let d as Date: return "\(d)"
        case let d as Data: return "<" + d.prefix(32).map { String(format: "%02x", $0) }.joined() + (d.count > 32 ? "… \(d.count) bytes>" : ">")
        case let n as NSNumber: return n.stringValue
        default: return "<\(type(of: key))>"
        }
    }

    private static func dictionary(_ d: [String: Any], path: PlistKeyPath, order: [PlistKeyPath: Int]) -> PlistValue {
        let keys = d.keys.sorted { a, b in
            let x = order[path.appending(key: a)], y = order[path.appending(key: b)]
            switch (x, y) {
            case let (x?, y?): return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            default: return a < b
            }
        }
        return .dictionary(PlistDictionary(keys.map { ($0, from(d[$0]!, path: path.appending(key: $0), order: order)) }))
    }
}

/// A dictionary with its keys in order.
public struct PlistDictionary: Sendable, Hashable {
    public private(set) var entries: [(key: String, value: PlistValue)]

    public init(_ entries: [(String, PlistValue)]) { self.entries = entries.map { (key: $0.0, value: $0.1) } }

    public subscript(key: String) -> PlistValue? { entries.first { $0.key == key }?.value }
    public var keys: [String] { entries.map(\.key) }

    public static func == (a: PlistDictionary, b: PlistDictionary) -> Bool {
        a.entries.count == b.entries.count && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
    public func hash(into h: inout Hasher) {
        for e in entries { h.combine(e.key); h.combine(e.value) }
    }
}

/// Where a value sits in a property list: the keys and array indices from the root, written the
/// way PlistBuddy takes them (`:UIApplicationSceneManifest:UISceneConfigurations:…:0`), so a user
/// can paste it into `/usr/libexec/PlistBuddy -c "Print …"`.
public struct PlistKeyPath: Sendable, Hashable, CustomStringConvertible, Comparable {
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }
    public private(set) var steps: [Step]

    public init(_ steps: [Step] = []) { self.steps = steps }
    public init(keys: String...) { steps = keys.map { .key($0) } }

    public func appending(key: String) -> PlistKeyPath { PlistKeyPath(steps + [.key(key)]) }
    public func appending(index: Int) -> PlistKeyPath { PlistKeyPath(steps + [.index(index)]) }

    public var description: String {
        steps.map { step -> String in
            switch step {
            case .key(let k): return ":" + k
            case .index(let i): return ":\(i)"
            }
        }.joined()
    }

    public static func < (a: PlistKeyPath, b: PlistKeyPath) -> Bool { a.description < b.description }
}
