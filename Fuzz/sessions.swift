// Fuzz target: the session builder (SessionBuilder.build and SessionStream) on the events of the
// input (format detected).
import LifelineCore

@_cdecl("LLVMFuzzerTestOneInput")
public func lifelineFuzzSessions(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = buffer(data, size)
    let events = FuzzEntry.ingest(bytes, format: nil).events
    let sessions = SessionBuilder.build(events)
    check(sessions, events: events.count, what: "build")
    // Streaming in file order (no merge by time) also places every event exactly once, with short
    // pid-reuse gaps so that sessions are closed while events still arrive.
    var stream = SessionStream(options: SessionOptions(pidReuseGap: 1))
    var streamed: [ProcessSession] = []
    for e in events { streamed += stream.add(e) }
    streamed += stream.finish()
    require(stream.liveCount == 0, "\(stream.liveCount) sessions live after finish")
    check(streamed, events: events.count, what: "stream")
    // Sessions cut into parts of 4 events (the limit a day-long process reaches): still every
    // event once, and each part continues one released before it.
    var parts = SessionStream(options: SessionOptions(pidReuseGap: 1, maxEvents: 4))
    var cut: [ProcessSession] = []
    for e in events { cut += parts.add(e) }
    cut += parts.finish()
    check(cut, events: events.count, what: "parts")
    var released: Set<String> = []
    for s in cut {
        if let from = s.continuedFrom { require(released.contains(from), "parts: \(s.id) continues \(from), not released before it") }
        require(s.events.count <= 2 * 4, "parts: \(s.id) holds \(s.events.count) events")
        released.insert(s.id)
    }
    return 0
}

private func check(_ sessions: [ProcessSession], events: Int, what: String) {
    require(sessions.reduce(0) { $0 + $1.events.count } == events,
            "\(what): sessions hold \(sessions.reduce(0) { $0 + $1.events.count }) events, \(events) given")
    require(Set(sessions.map(\.id)).count == sessions.count, "\(what): session ids repeat")
    for s in sessions {
        require(!s.events.isEmpty, "\(what): empty session \(s.id)")
        for entry in s.app { require(entry.event >= 0 && entry.event < s.events.count, "\(what): app entry \(entry.event) of \(s.events.count)") }
        require(Set(s.scenes.map(\.id)).count == s.scenes.count, "\(what): scene ids repeat in \(s.id)")
        require(s.scenes.allSatisfy { !$0.id.isEmpty }, "\(what): a scene of \(s.id) has no id")
        for scene in s.scenes {
            for entry in scene.entries {
                require(entry.event >= 0 && entry.event < s.events.count, "\(what): scene entry \(entry.event) of \(s.events.count)")
            }
            if scene.isIndistinguishable {
                // Several scenes share the timeline: no one final state, and at least two of them.
                require(scene.finalState == .unknown && scene.sceneCount >= 2, "\(what): indistinguishable \(scene.id) has state \(scene.finalState) for \(scene.sceneCount) scenes")
                for entry in scene.entries[scene.indistinguishableFrom!...] {
                    require(entry.before == .unknown, "\(what): \(scene.id) claims a state before a callback it cannot attribute")
                }
            } else {
                require(scene.sceneCount == 1, "\(what): \(scene.id) counts \(scene.sceneCount) scenes without being indistinguishable")
                require(scene.finalState == (scene.entries.last?.after ?? scene.finalState), "\(what): final state of \(scene.id) is not its last state")
            }
        }
        if let tid = s.mainThread.tid { require(s.events.contains { $0.tid == tid }, "\(what): main thread \(tid) logged nothing") }
    }
}
