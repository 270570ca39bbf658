/// Events written to a spill file and read back whole (`TimeMerge` spills the queues of many
/// inputs): every field, so an event read back equals the one written.
extension Event: SpillCodable {
    public func encode(to w: inout SpillWriter) {
        w.string(file)
        position.encode(to: &w)
        w.int(extent)
        w.string(format.rawValue)
        w.string(kind.rawValue)
        w.bool(timestamp != nil)
        if let t = timestamp { t.encode(to: &w) }
        w.optional(process)
        w.optional(pid)
        w.bool(subject != nil)
        if let s = subject {
            w.optional(s.bundleID)
            w.optional(s.pid)
            w.optional(s.process)
        }
        w.bool(tid != nil)
        if let tid { w.uint(tid) }
        w.optional(level)
        w.optional(subsystem)
        w.optional(category)
        w.optional(className)
        w.optional(spelling)
        w.bool(scene != nil)
        if let s = scene {
            w.optional(s.sceneClass)
            w.optional(s.address)
            w.optional(s.persistentIdentifier)
            w.optional(s.role)
            w.optional(s.activationState)
        }
        w.string(message)
        w.bool(details != nil)
        if let d = details { d.encode(to: &w) }
    }

    public static func decode(from r: inout SpillReader) -> Event {
        let file = r.string(), position = InputPosition.decode(from: &r), extent = r.int()
        let format = LogFormat(rawValue: r.string()) ?? .print
        let kind = EventKind(r.string())
        let timestamp = r.bool() ? LogTimestamp.decode(from: &r) : nil
        let process = r.optionalString(), pid = r.optionalInt()
        let subject = r.bool() ? Subject(bundleID: r.optionalString(), pid: r.optionalInt(), process: r.optionalString()) : nil
        let tid = r.bool() ? r.uint() : nil
        let level = r.optionalString(), subsystem = r.optionalString(), category = r.optionalString()
        let className = r.optionalString(), spelling = r.optionalString()
        let scene = r.bool()
            ? SceneRef(sceneClass: r.optionalString(), address: r.optionalString(), persistentIdentifier: r.optionalString(),
                       role: r.optionalString(), activationState: r.optionalString())
            : nil
        var e = Event(file: file, position: position, extent: extent, format: format, kind: kind, message: r.string())
        e.timestamp = timestamp
        e.process = process
        e.pid = pid
        e.subject = subject
        e.tid = tid
        e.level = level
        e.subsystem = subsystem
        e.category = category
        e.className = className
        e.spelling = spelling
        e.scene = scene
        if r.bool() { e.details = EventDetails.decode(from: &r) }
        return e
    }
}

extension LogTimestamp {
    func encode(to w: inout SpillWriter) {
        w.string(iso)
        w.bool(seconds != nil)
        if let seconds { w.uint(seconds.bitPattern) }
        w.bool(hasOffset)
        w.bool(yearInferred)
        w.optional(offsetMinutes)
    }

    static func decode(from r: inout SpillReader) -> LogTimestamp {
        let iso = r.string()
        let seconds = r.bool() ? Double(bitPattern: r.uint()) : nil
        return LogTimestamp(iso: iso, seconds: seconds, hasOffset: r.bool(), yearInferred: r.bool(), offsetMinutes: r.optionalInt())
    }
}

extension SpillWriter {
    mutating func optional(_ b: Bool?) {
        uint(b.map { $0 ? 2 : 1 } ?? 0)
    }

    mutating func lines(_ l: [String]?) {
        bool(l != nil)
        guard let l else { return }
        uint(UInt64(l.count))
        for s in l { string(s) }
    }

    /// Positions as (kind, value) pairs: 0 a line, 1 a byte offset.
    mutating func positions(_ l: [InputPosition]?) {
        bool(l != nil)
        guard let l else { return }
        uint(UInt64(l.count))
        for p in l {
            switch p {
            case .line(let n): uint(0); int(n)
            case .byte(let o): uint(1); int(o)
            }
        }
    }
}

extension SpillWriter {
    mutating func frame(_ f: CrashFrame) {
        int(f.index)
        optional(f.image)
        optional(f.symbol)
        optional(f.address)
        optional(f.offset)
        optional(f.imageUUID)
        bool(f.imageBase != nil)
        if let b = f.imageBase { uint(b) }
        optional(f.arch)
        optional(f.file)
        optional(f.line)
    }

    mutating func frames(_ l: [CrashFrame]?) {
        bool(l != nil)
        guard let l else { return }
        uint(UInt64(l.count))
        for f in l { frame(f) }
    }

    /// 0 none, 1 frames, 2 lines.
    mutating func backtrace(_ b: Backtrace?) {
        switch b {
        case nil: uint(0)
        case .frames(let f)?: uint(1); frames(f)
        case .lines(let l)?: uint(2); lines(l)
        }
    }
}

extension SpillReader {
    mutating func frame() -> CrashFrame {
        let index = int(), image = optionalString(), symbol = optionalString(), address = optionalString(), offset = optionalInt()
        let uuid = optionalString()
        let base = bool() ? uint() : nil
        return CrashFrame(index: index, image: image, symbol: symbol, address: address, offset: offset, imageUUID: uuid,
                          imageBase: base, arch: optionalString(), file: optionalString(), line: optionalInt())
    }

    mutating func frames() -> [CrashFrame]? {
        guard bool() else { return nil }
        return (0..<uint()).map { _ in frame() }
    }

    mutating func backtrace() -> Backtrace? {
        switch uint() {
        case 1: return frames().map(Backtrace.frames)
        case 2: return lines().map(Backtrace.lines)
        default: return nil
        }
    }
}

extension SpillReader {
    mutating func optionalBool() -> Bool? {
        switch uint() { case 0: return nil; case 1: return false; default: return true }
    }

    mutating func lines() -> [String]? {
        guard bool() else { return nil }
        return (0..<uint()).map { _ in string() }
    }

    mutating func positions() -> [InputPosition]? {
        guard bool() else { return nil }
        return (0..<uint()).map { _ in uint() == 0 ? .line(int()) : .byte(int()) }
    }
}
