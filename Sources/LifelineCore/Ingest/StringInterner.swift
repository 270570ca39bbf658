/// Gives equal strings read by one reader the same storage. The fields that repeat on every event
/// of a log (process, subsystem, class name, selector, scene role, identifier and state) are then
/// held once per reader instead of once per event: a session that never ends keeps all its events,
/// and these copies were a quarter of what it held (issue 12).
///
/// Strings of up to 15 UTF-8 bytes are stored inline by Swift and pass through. The table stops
/// growing at `limit` entries, so a field that never repeats cannot make it grow with the input.
final class StringInterner {
    private var table: Set<String> = []
    private let limit: Int
    /// Strings replaced by an equal one already held (for tests).
    private(set) var hits = 0

    init(limit: Int = 4096) { self.limit = limit }

    func callAsFunction(_ s: String) -> String {
        guard s.utf8.count > 15 else { return s }
        if table.count < limit {
            let (inserted, member) = table.insert(s)
            if !inserted { hits += 1 }
            return member
        }
        if let i = table.firstIndex(of: s) {
            hits += 1
            return table[i]
        }
        return s
    }

    func callAsFunction(_ s: String?) -> String? {
        guard let s else { return nil }
        return self(s)
    }
}

extension Event {
    /// Replaces the repeating fields by the interner's equal strings.
    mutating func intern(_ intern: StringInterner) {
        if let v = process, v.utf8.count > 15 { process = intern(v) }
        if let v = level, v.utf8.count > 15 { level = intern(v) }
        if let v = subsystem, v.utf8.count > 15 { subsystem = intern(v) }
        if let v = category, v.utf8.count > 15 { category = intern(v) }
        if let v = className, v.utf8.count > 15 { className = intern(v) }
        if let v = spelling { spelling = intern(v) }
        if var s = scene {
            s.sceneClass = intern(s.sceneClass)
            s.address = intern(s.address)
            s.persistentIdentifier = intern(s.persistentIdentifier)
            s.role = intern(s.role)
            s.activationState = intern(s.activationState)
            scene = s
        }
    }
}
