/// One shape of line the classifier knows beyond callbacks: a failure, a threading report, a UIKit
/// configuration message, a kill line. A value: the literals that put a line up for it, the family
/// it belongs to, a PCRE2 pattern whose groups are read by name, and the function that builds the
/// event (and its subject) from a match. A class: the classifier reads one per candidate line
/// without copying its fields.
///
/// The prefilter (`CompiledRecognizers.anchors`, SIMD) finds the triggers of every recognizer in a
/// line at once; a recognizer runs only when the line holds a trigger of its *family* (the triggers
/// of all its family's recognizers: a family's recognizers are put up together, as one group of
/// shapes). A line with no trigger runs no pattern at all. `RecognizerTable.ordered` says in which
/// order the recognizers are tried.
final class Recognizer: Sendable {
    /// What the recognizer finds (`uncaught exception`, `kill: process exited`), for tests and notes.
    let name: String
    let family: RecognizerFamily
    /// Literals of the line's fixed text; `|` marks where the prefilter's fingerprint window starts
    /// (`AnchorSet`). Recognizers may share one (`Assertion fail` is both an Objective-C assertion
    /// failure and a Swift `Assertion failed`). A message that always carries another trigger of its
    /// family needs none of its own (`autolayout engine from a background thread` → `background
    /// thread`; `Incorrect actor executor assumption` → `Fatal error`).
    let triggers: [String]
    let pattern: Pattern
    /// Families whose later recognizers no longer run once this one dismissed the line (matched it
    /// but made no event of it): a kill line tells of one process's end, so once one shape read it
    /// (a voluntary exit: no event), no other kill shape does.
    let settles: [RecognizerFamily]
    /// Builds the event from a match. Runs right after `pattern` matched the record's message, with
    /// the classifier's scratch holding the groups: read them (`Match`) before running any other
    /// pattern on that scratch.
    let build: @Sendable (EventClassifier, Match, RecordText) -> Recognition

    init(_ name: String, family: RecognizerFamily, triggers: [String], pattern: Pattern, settles: [RecognizerFamily] = [],
         build: @escaping @Sendable (EventClassifier, Match, RecordText) -> Recognition) {
        self.name = name
        self.family = family
        self.triggers = triggers
        self.pattern = pattern
        self.settles = settles
        self.build = build
    }

    /// A recognizer whose match alone is the event (no groups read).
    convenience init(_ name: String, family: RecognizerFamily, triggers: [String], pattern: Pattern,
         event build: @escaping @Sendable (EventClassifier, RecordText) -> Event) {
        self.init(name, family: family, triggers: triggers, pattern: pattern) { c, _, r in .event(build(c, r)) }
    }
}

/// What a recognizer made of a line its pattern matched.
enum Recognition {
    /// The line's event: the classifier stops here.
    case event(Event)
    /// The line is the recognizer's shape but tells of nothing to report (a voluntary exit, a
    /// user's swipe-quit): later recognizers of the families it `settles` do not run; others do.
    case dismissed
    /// Not the recognizer's after all (a number too large for an `Int`): the next one is tried.
    case declined
}

/// A group of recognizers put up together by their triggers, by name: named for the kind of line,
/// not for a failure (kill lines and, in time, system-side lifecycle lines are families too). Each
/// family's file declares its own (`static let exception = RecognizerFamily("exception")`); the
/// table gives each family that has a recognizer one bit of a `FamilySet`.
struct RecognizerFamily: Sendable, Hashable, CustomStringConvertible {
    let name: String
    init(_ name: String) { self.name = name }
    var description: String { name }
}

/// Families as bits, one per family of the table (`RecognizerTable`), in the order the table first
/// names them: which families' triggers a line holds, found with no allocation. 64 bits: room to grow.
struct FamilySet: OptionSet, Sendable, Hashable {
    let rawValue: UInt64
    init(rawValue: UInt64) { self.rawValue = rawValue }
}
