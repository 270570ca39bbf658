import LifelineCore
import LifelineRules

// The tests read text inputs, whose records have lines: these name the line of a position the way the tests
// compare them (-1 would mark a byte offset, which no text input gives).
extension Event {
    var line: Int { position.line ?? -1 }
    var lineCount: Int { extent }
}

extension InputNote {
    var line: Int? { position.map { $0.line ?? -1 } }
}

extension Diagnostic {
    var line: Int { position.line ?? -1 }
}

extension RelatedLocation {
    var line: Int { position.line ?? -1 }
}
