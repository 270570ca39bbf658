import Foundation

/// The line of every key and value of an XML property list, by key path. `PropertyListSerialization`
/// gives values but no positions, and a finding should name the line a user opens in an editor.
///
/// Written by hand rather than with Foundation's `XMLParser`: on Linux its delegate callbacks trap
/// on documents the property list parser accepts (a processing instruction without data, invalid
/// UTF-8 in a comment, an attribute name or a processing instruction's target; found by the
/// `manifest` fuzz target, swift-corelibs-foundation #5534). The locator runs only on bytes that
/// `PropertyListSerialization` has already read, so it needs to know the plist vocabulary, not to
/// validate XML: tags, comments, processing instructions, the DOCTYPE (with an internal subset),
/// CDATA sections, and the five predefined entities and character references in key text.
/// Lines are counted at LF, CRLF and a lone CR. Binary property lists have no lines.
struct PlistLines {
    /// The line of each value's key (in a dictionary) or of the value itself (in an array).
    var lines: [PlistKeyPath: Int] = [:]
    /// The order each key path appears in, for ordering dictionary keys as the file does.
    var order: [PlistKeyPath: Int] = [:]

    private enum Container {
        case dictionary(path: PlistKeyPath, pendingKey: String?, keyLine: Int?)
        case array(path: PlistKeyPath, next: Int)
    }

    private static let values: Set<String> = ["dict", "array", "string", "integer", "real", "true", "false", "date", "data"]

    static func read(_ data: Data) -> PlistLines {
        let bytes = [UInt8](data)
        var found = PlistLines()
        var stack: [Container] = []
        var line = 1
        var i = 0
        var count = 0
        var keyText: [UInt8]? = nil
        var keyLine = 0
        let n = bytes.count

        /// Advances `i` over bytes up to and including `end`, counting lines; false when not found.
        func skip(past end: [UInt8]) -> Bool {
            while i < n {
                if bytes[i] == end[0], i + end.count <= n, Array(bytes[i..<i + end.count]) == end {
                    for b in bytes[i..<i + end.count] where b == 10 { line += 1 }
                    i += end.count
                    return true
                }
                advance()
            }
            return false
        }
        func advance() {
            if bytes[i] == 10 || (bytes[i] == 13 && (i + 1 >= n || bytes[i + 1] != 10)) { line += 1 }
            i += 1
        }
        func startValue(_ name: String, selfClosing: Bool, at tagLine: Int) {
            guard values.contains(name) else { return }
            var path = PlistKeyPath()
            var at = tagLine
            switch stack.last {
            case .dictionary(let parent, let key?, let kl)?:
                path = parent.appending(key: key)
                at = kl ?? tagLine
                stack[stack.count - 1] = .dictionary(path: parent, pendingKey: nil, keyLine: nil)
            case .dictionary?:
                return  // a value without a key: nothing to place
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
            guard !selfClosing else { return }
            if name == "dict" { stack.append(.dictionary(path: path, pendingKey: nil, keyLine: nil)) }
            if name == "array" { stack.append(.array(path: path, next: 0)) }
        }

        while i < n {
            guard bytes[i] == UInt8(ascii: "<") else {
                if keyText != nil { keyText!.append(bytes[i]) }
                advance()
                continue
            }
            let rest = bytes[i...]
            if rest.starts(with: Array("<!--".utf8)) {
                if !skip(past: Array("-->".utf8)) { break }
                continue
            }
            if rest.starts(with: Array("<![CDATA[".utf8)) {
                let start = i + 9
                i = start
                let before = i
                if !skip(past: Array("]]>".utf8)) { break }
                if keyText != nil { keyText! += bytes[before..<(i - 3)] }
                continue
            }
            if rest.starts(with: Array("<?".utf8)) {
                if !skip(past: Array("?>".utf8)) { break }
                continue
            }
            if rest.starts(with: Array("<!".utf8)) {
                // A DOCTYPE, whose internal subset ([…]) may hold `>`.
                var depth = 0
                while i < n {
                    let b = bytes[i]
                    advance()
                    if b == UInt8(ascii: "[") { depth += 1 }
                    if b == UInt8(ascii: "]") { depth -= 1 }
                    if b == UInt8(ascii: ">") && depth <= 0 { break }
                }
                continue
            }
            // A tag: `<name …>`, `<name …/>` or `</name>`.
            let tagLine = line
            i += 1
            let closing = i < n && bytes[i] == UInt8(ascii: "/")
            if closing { i += 1 }
            let nameStart = i
            while i < n, ![UInt8(ascii: ">"), UInt8(ascii: "/"), 32, 9, 10, 13].contains(bytes[i]) { i += 1 }
            let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
            var selfClosing = false
            while i < n, bytes[i] != UInt8(ascii: ">") {
                if bytes[i] == UInt8(ascii: "/") { selfClosing = true } else if bytes[i] != 32 && bytes[i] != 9 && bytes[i] != 10 && bytes[i] != 13 { selfClosing = false }
                advance()
            }
            if i < n { i += 1 }
            if closing {
                switch name {
                case "key":
                    if case .dictionary(let path, _, _)? = stack.last, let text = keyText {
                        stack[stack.count - 1] = .dictionary(path: path, pendingKey: decodeEntities(text), keyLine: keyLine)
                    }
                    keyText = nil
                case "dict", "array":
                    if !stack.isEmpty { stack.removeLast() }
                default:
                    break
                }
            } else if name == "key" {
                keyText = []
                keyLine = tagLine
                if selfClosing {
                    if case .dictionary(let path, _, _)? = stack.last {
                        stack[stack.count - 1] = .dictionary(path: path, pendingKey: "", keyLine: tagLine)
                    }
                    keyText = nil
                }
            } else {
                startValue(name, selfClosing: selfClosing, at: tagLine)
            }
        }
        return found
    }

    /// Key text with `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` and `&#…;` / `&#x…;` resolved.
    static func decodeEntities(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semi) <= 10 else {
                out.append("&")
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semi]
            let named = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"][String(entity)]
            var scalar: Unicode.Scalar?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if entity.hasPrefix("#") {
                scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
            }
            if let named { out += named } else if let scalar { out.unicodeScalars.append(scalar) } else { out += rest[amp...semi] }
            rest = rest[rest.index(after: semi)...]
        }
        out += rest
        return out
    }

    /// Where an XML property list that Foundation refused first goes wrong: the line of the first
    /// tag that does not close what is open (a message with a line helps more than none).
    static func firstError(_ data: Data) -> (line: Int, message: String)? {
        let bytes = [UInt8](data)
        var open: [(name: String, line: Int)] = []
        var line = 1
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 10 || (b == 13 && (i + 1 >= n || bytes[i + 1] != 10)) { line += 1 }
            guard b == UInt8(ascii: "<"), i + 1 < n else { i += 1; continue }
            let next = bytes[i + 1]
            if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") { i += 1; continue }
            var j = i + 1
            let closing = next == UInt8(ascii: "/")
            if closing { j += 1 }
            let start = j
            while j < n, ![UInt8(ascii: ">"), UInt8(ascii: "/"), 32, 9, 10, 13].contains(bytes[j]) { j += 1 }
            let name = String(decoding: bytes[start..<j], as: UTF8.self)
            var end = j
            while end < n, bytes[end] != UInt8(ascii: ">") { end += 1 }
            let selfClosing = end > 0 && end < n && bytes[end - 1] == UInt8(ascii: "/")
            if closing {
                guard let last = open.last else { return (line, "</\(name)> closes nothing") }
                guard last.name == name else { return (line, "</\(name)> where </\(last.name)> (opened at line \(last.line)) was expected") }
                open.removeLast()
            } else if !selfClosing {
                open.append((name, line))
            }
            i += 1
        }
        if let last = open.last { return (last.line, "<\(last.name)> is never closed") }
        return nil
    }
}
