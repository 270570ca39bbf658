import LifelineCore
import LifelineRules

// The tests read text inputs, whose records have lines: these name the line of a position the way the tests
// compare them (-1 would mark a byte offset, which no text input gives).
extension Event {
    public var line: Int { position.line ?? -1 }
    public var lineCount: Int { extent }
}

extension InputNote {
    public var line: Int? { position.map { $0.line ?? -1 } }
}

extension Diagnostic {
    public var line: Int { position.line ?? -1 }
}

extension RelatedLocation {
    public var line: Int { position.line ?? -1 }
}
