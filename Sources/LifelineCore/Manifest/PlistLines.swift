import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The line of every key and value of an XML property list, by key path, read with Foundation's
/// `XMLParser` (libxml2): `PropertyListSerialization` gives values but no positions, and a finding
/// should name the line a user opens in an editor. Binary property lists have no lines.
struct PlistLines {
    /// The line of each value's key (in a dictionary) or of the value itself (in an array).
    var lines: [PlistKeyPath: Int] = [:]
    /// The order each key path appears in, for ordering dictionary keys as the file does.
    var order: [PlistKeyPath: Int] = [:]

    /// Reads `data`; a document the parser rejects yields what was read before the error.
    static func read(_ data: Data) -> PlistLines {
        let delegate = Locator()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        delegate.parser = parser
        _ = parser.parse()
        return delegate.found
    }

    private final class Locator: NSObject, XMLParserDelegate {
        weak var parser: XMLParser?
        var found = PlistLines()

        private enum Container {
            case dictionary(path: PlistKeyPath, pendingKey: String?, keyLine: Int?)
            case array(path: PlistKeyPath, next: Int)
        }
        private var stack: [Container] = []
        private var keyText: String?
        private var keyLine = 0
        private var count = 0
        private static let values: Set<String> = ["dict", "array", "string", "integer", "real", "true", "false", "date", "data"]

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let line = parser.lineNumber
            if name == "key" {
                keyText = ""
                keyLine = line
                return
            }
            guard Self.values.contains(name) else { return }
            var path = PlistKeyPath()
            var at = line
            switch stack.last {
            case .dictionary(let parent, let key?, let kl)?:
                path = parent.appending(key: key)
                at = kl ?? line
                stack[stack.count - 1] = .dictionary(path: parent, pendingKey: nil, keyLine: nil)
            case .dictionary?:
                return  // a value without a key: not a well-formed plist, nothing to place
            case .array(let parent, let next)?:
                path = parent.appending(index: next)
                stack[stack.count - 1] = .array(path: parent, next: next + 1)
            case nil:
                break
            }
            if found.lines[path] == nil {
                found.lines[path] = at
                found.order[path] = count
                count += 1
            }
            if name == "dict" { stack.append(.dictionary(path: path, pendingKey: nil, keyLine: nil)) }
            if name == "array" { stack.append(.array(path: path, next: 0)) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if keyText != nil { keyText! += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "key":
                if case .dictionary(let path, _, _)? = stack.last, let key = keyText {
                    stack[stack.count - 1] = .dictionary(path: path, pendingKey: key, keyLine: keyLine)
                }
                keyText = nil
            case "dict", "array":
                if !stack.isEmpty { stack.removeLast() }
            default:
                break
            }
        }
    }
}
