/// Assigns scene events to scene objects and tracks each one's state, and the system's
/// (FrontBoard's) states of the same scenes beside them (`addSystem`).
///
/// Every lookup is a dictionary or set access: what an event costs does not depend on how many
/// scene objects the session has seen or still holds live (a long-lived iPad app that opens
/// thousands of windows and never logs a disconnect). `probes` counts the lives each lookup
/// examines, so a test can tell when a scan over all lives comes back.
struct SceneTracker {
    private struct Life {
        var timeline: SceneTimeline
        var state: SceneState
        var key: String
        /// FrontBoard's latest state of the scene.
        var systemState: SystemSceneState = .unknown
    }
    private var lives: [Life] = []
    /// Live (not disconnected) lives by key.
    private var liveByKey: [String: Int] = [:]
    /// Disconnected lives by address (or CarPlay role): a later event for that object (other than a
    /// new connection) belongs to it, arriving in the `disconnected` state.
    private var disconnectedByKey: [String: Int] = [:]
    /// Live lives that are not CarPlay scenes: all of them, those with no delegate class, and those
    /// of each delegate class (where a callback that names no address may belong).
    private var liveNonCarPlay: Set<Int> = []
    private var liveUnclassed: Set<Int> = []
    private var liveByClass: [String: Set<Int>] = [:]
    /// Lives by persistent identifier, in the order they learned it.
    private var livesByPersistentID: [String: [Int]] = [:]
    /// Lives examined by lookups (for tests: it grows with events, not with events × lives).
    private(set) var probes = 0
    /// The life each FrontBoard scene identifier's states go to.
    private var livesBySceneID: [String: Int] = [:]
    /// Lives of the system's states only (`TimelineSource.system`) whose scene exists (its last
    /// system state is not `none`): a scene the app's callbacks may still turn out to be about.
    private var systemOnlyLive: Set<Int> = []

    /// Lives tracked so far.
    var count: Int { lives.count }
    /// Ids given so far (a life carried over from a cut part gets its id at its first event here).
    private var ids = 0

    /// The scenes still connected and the disconnected ones, at most `limit` of each (those heard
    /// from last), with their states and no entries: what the part that continues a session cut at
    /// the event limit starts from, so a callback there arrives in its scene's known state, as in
    /// one session. (A scene left out starts a timeline of unknown state if it is heard from again.)
    func carriedOver(limit: Int = 1_000) -> SceneTracker {
        var t = SceneTracker()
        func lastEvent(_ i: Int) -> Int {
            max(lives[i].timeline.entries.last?.event ?? -1, lives[i].timeline.systemStates.last?.event ?? -1)
        }
        func latest(_ lifes: some Collection<Int>) -> Set<Int> {
            Set(lifes.sorted { (lastEvent($0), $0) < (lastEvent($1), $1) }.suffix(limit))
        }
        let connected = latest(liveByKey.values)
        let disconnected = latest(disconnectedByKey.values)
        let systemOnly = latest(systemOnlyLive)
        var newIndex: [Int: Int] = [:]
        for i in connected.union(disconnected).union(systemOnly).sorted() {
            var life = lives[i]
            life.timeline.id = ""
            life.timeline.entries = []
            life.timeline.systemStates = []
            life.timeline.beginsMidLife = life.timeline.source == .app
            life.timeline.carriedOver = true
            life.timeline.previousLives = []
            if life.timeline.isIndistinguishable { life.timeline.indistinguishableFrom = 0 }
            t.lives.append(life)
            let n = t.lives.count - 1
            newIndex[i] = n
            if connected.contains(i) {
                t.liveByKey[life.key] = n
                t.setLive(n, true)
            } else if disconnected.contains(i) {
                t.disconnectedByKey[life.key] = n
            } else {
                t.systemOnlyLive.insert(n)
            }
            if let p = life.timeline.persistentIdentifier { t.livesByPersistentID[p, default: []].append(n) }
        }
        for (id, i) in livesBySceneID { if let n = newIndex[i] { t.livesBySceneID[id] = n } }
        return t
    }

    mutating func add(_ e: Event, index: Int) {
        let i = lifeIndex(for: e)
        if lives[i].timeline.id.isEmpty {
            ids += 1
            lives[i].timeline.id = "S\(ids)"
        }
        // Several scenes sharing this timeline: which one a callback moved, and from where, is not
        // known. The callback still says what it marks.
        let before = lives[i].timeline.isIndistinguishable ? .unknown : lives[i].state
        let after = SceneState.target(of: e.kind) ?? before
        lives[i].timeline.entries.append(TimelineEntry(event: index, before: before, after: after))
        lives[i].state = after
        lives[i].timeline.finalState = after
        if let s = e.scene {
            if lives[i].timeline.address == nil { lives[i].timeline.address = s.address }
            if lives[i].timeline.persistentIdentifier == nil, let p = s.persistentIdentifier {
                lives[i].timeline.persistentIdentifier = p
                let same = livesByPersistentID[p, default: []]
                probes += same.count
                lives[i].timeline.previousLives = same.filter { $0 < i && !lives[$0].timeline.id.isEmpty }.sorted().map { lives[$0].timeline.id }
                livesByPersistentID[p, default: []].append(i)
            }
            if lives[i].timeline.role == nil { lives[i].timeline.role = s.role }
            if lives[i].timeline.sceneClass == nil { lives[i].timeline.sceneClass = s.sceneClass }
        }
        if after == .disconnected {
            if liveByKey.removeValue(forKey: lives[i].key) != nil { setLive(i, false) }
            if lives[i].key.hasPrefix("addr:") || lives[i].key.hasPrefix("cp:") { disconnectedByKey[lives[i].key] = i }
        }
    }

    /// The timelines of the scenes that had events (a life carried over and never heard from
    /// again is not one of this part's).
    func timelines() -> [SceneTimeline] {
        lives.filter { !$0.timeline.id.isEmpty }.map { life in
            var t = life.timeline
            t.eventCount = t.entries.count
            t.systemStateCount = t.systemStates.count
            // The last callback of several scenes is not the state of any one of them.
            if t.isIndistinguishable { t.finalState = .unknown }
            return t
        }
    }

    /// Keeps the per-class sets in step with `liveByKey` for life `i`.
    private mutating func setLive(_ i: Int, _ live: Bool) {
        guard !lives[i].key.hasPrefix("cp:") else { return }
        if live { liveNonCarPlay.insert(i) } else { liveNonCarPlay.remove(i) }
        if let cls = lives[i].timeline.delegateClass {
            if live { liveByClass[cls, default: []].insert(i) } else { liveByClass[cls]?.remove(i) }
        } else {
            if live { liveUnclassed.insert(i) } else { liveUnclassed.remove(i) }
        }
    }

    /// The only live non-CarPlay life an unaddressed callback of class `cls` can belong to: one of
    /// that delegate class or of none (any class when `cls` is nil), when exactly one exists.
    private mutating func onlyLiveCandidate(of cls: String?) -> Int? {
        probes += 1
        guard let cls else { return liveNonCarPlay.count == 1 ? liveNonCarPlay.first : nil }
        let classed = liveByClass[cls]
        switch (classed?.count ?? 0, liveUnclassed.count) {
        case (1, 0): return classed!.first
        case (0, 1): return liveUnclassed.first
        default: return nil
        }
    }

    /// The scene object an event is about, starting a new life when none fits.
    private mutating func lifeIndex(for e: Event) -> Int {
        let key = identity(of: e)
        if let i = liveByKey[key] {
            // A new connection on the address of a scene that never disconnected is still that scene
            // (a double connect is for the rules to flag), so only disconnected lives end. Without an
            // address it is another scene of the same class that cannot be told from this one.
            if !key.hasPrefix("addr:"), !key.hasPrefix("cp:"), e.kind == .sceneWillConnect {
                if lives[i].timeline.indistinguishableFrom == nil { lives[i].timeline.indistinguishableFrom = lives[i].timeline.entries.count }
                lives[i].timeline.sceneCount += 1
            }
            return i
        }
        if let i = disconnectedByKey[key], e.kind != .sceneWillConnect, SceneState.target(of: e.kind) != .connected {
            return i  // an event for a released object (allocator reuse comes with a new connection)
        }
        if !key.hasPrefix("addr:"), !key.hasPrefix("cp:"), let i = onlyLiveCandidate(of: e.className) {
            // No address: the only live scene of the delegate class, or the only live scene at all.
            return i
        }
        if key.hasPrefix("addr:"), let cls = e.className, e.kind != .sceneWillConnect {
            // An address first seen now, while a life of the same class with no address is live:
            // that life learns its address. (A live life with no address and delegate class `cls`
            // is the one keyed `class:cls`: keys without an address are made from the class.)
            probes += 1
            let oldKey = "class:\(cls)"
            if let i = liveByKey[oldKey] {
                liveByKey.removeValue(forKey: oldKey)
                liveByKey[key] = i
                lives[i].key = key
                return i
            }
        }
        let begins = e.kind == .sceneWillConnect || (SceneState.target(of: e.kind) == .connected)
        var t = SceneTimeline(id: "", address: e.scene?.address, persistentIdentifier: nil,
                              role: e.scene?.role ?? Self.carPlayRole(of: e.kind), sceneClass: e.scene?.sceneClass,
                              delegateClass: e.className, entries: [], finalState: begins ? .unattached : .unknown,
                              beginsMidLife: !begins, previousLives: [])
        if t.role == nil, let cls = e.className, cls.includes("CarPlay") { t.role = "CPTemplateApplicationSceneSessionRoleApplication" }
        var life = Life(timeline: t, state: begins ? .unattached : .unknown, key: key)
        let n: Int
        if !key.hasPrefix("cp:"), !t.isCarPlay, let j = adoptableSystemLife(for: e) {
            // The scene the system has been telling of: the app's callbacks for it begin. Its
            // timeline (id, scene identifier, system states) goes on as the app's.
            let system = lives[j]
            life.timeline.id = system.timeline.id
            life.timeline.sceneID = system.timeline.sceneID
            life.timeline.systemStates = system.timeline.systemStates
            life.timeline.systemFinalState = system.timeline.systemFinalState
            life.timeline.carriedOver = system.timeline.carriedOver
            life.systemState = system.systemState
            lives[j] = life
            systemOnlyLive.remove(j)
            n = j
        } else {
            lives.append(life)
            n = lives.count - 1
        }
        liveByKey[key] = n
        setLive(n, true)
        disconnectedByKey.removeValue(forKey: key)
        return n
    }

    // MARK: The system's states of the scenes

    /// Adds a `system.sceneState` event (FrontBoard's state of a scene) to the scene it is about:
    /// the one whose persistent identifier its scene identifier names, else the only live scene
    /// of the app the system has not named otherwise, else a timeline of the system's states only
    /// (which the app's first callback for a new scene takes over, when it is the only one).
    /// `launchSeen`: the session shows the process's launch, so a scene's first state comes from `none`.
    mutating func addSystem(_ e: Event, index: Int, launchSeen: Bool) {
        guard let after = SystemSceneState.of(e) else { return }
        let sceneID = e.details?.system?.sceneID
        let i = systemLifeIndex(sceneID: sceneID, bundleID: e.subject?.bundleID)
        if lives[i].timeline.id.isEmpty {
            ids += 1
            lives[i].timeline.id = "S\(ids)"
        }
        var before = lives[i].systemState
        if before == .unknown, launchSeen { before = .none }
        lives[i].timeline.systemStates.append(TimelineEntry(event: index, before: before, after: after))
        lives[i].systemState = after
        lives[i].timeline.systemFinalState = after
        if lives[i].timeline.source == .system {
            if after == .none { systemOnlyLive.remove(i) } else { systemOnlyLive.insert(i) }
        }
    }

    /// Whether life `i` is a live scene object of the app's (connected, not a system-only life).
    private func isLive(_ i: Int) -> Bool { liveByKey[lives[i].key] == i }

    /// The life the system's states of scene `sceneID` go to, binding one when none is yet.
    private mutating func systemLifeIndex(sceneID: String?, bundleID: String?) -> Int {
        let key = sceneID ?? ""
        probes += 1
        if let i = livesBySceneID[key] {
            guard lives[i].timeline.source == .app, !isLive(i) else { return i }
            // The scene object it was bound to is gone: a new object of the same scene session (or
            // the only live scene) has the system's states from here on.
            if let j = reboundLife(from: i) {
                bind(j, to: key, sceneID: sceneID, carrying: lives[i].systemState)
                return j
            }
            return i
        }
        if let j = appLife(named: sceneID, bundleID: bundleID) {
            bind(j, to: key, sceneID: sceneID, carrying: nil)
            return j
        }
        var t = SceneTimeline(id: "", address: nil, persistentIdentifier: nil, role: nil, sceneClass: nil, delegateClass: nil,
                              entries: [], finalState: .unknown, beginsMidLife: false, previousLives: [])
        t.source = .system
        t.sceneID = sceneID
        lives.append(Life(timeline: t, state: .unknown, key: "system:\(key)"))
        livesBySceneID[key] = lives.count - 1
        return lives.count - 1
    }

    private mutating func bind(_ j: Int, to key: String, sceneID: String?, carrying state: SystemSceneState?) {
        livesBySceneID[key] = j
        if lives[j].timeline.sceneID == nil { lives[j].timeline.sceneID = sceneID }
        if let state, lives[j].systemState == .unknown { lives[j].systemState = state }
    }

    /// A live app scene the system's scene `sceneID` is: one whose persistent identifier the
    /// identifier names (`sceneID:<bundle>-<persistent identifier>`), else the only live window
    /// scene when the system has named no other scene for it.
    private mutating func appLife(named sceneID: String?, bundleID: String?) -> Int? {
        if let sceneID {
            var names = [sceneID]
            let bare = sceneID.hasPrefix("sceneID:") ? String(sceneID.dropFirst("sceneID:".count)) : sceneID
            names.append(bare)
            if let bundleID, bare.hasPrefix(bundleID + "-") { names.append(String(bare.dropFirst(bundleID.count + 1))) }
            for name in names {
                let same = livesByPersistentID[name] ?? []
                probes += min(same.count, 1)
                if let j = same.last(where: { isLive($0) }), lives[j].timeline.sceneID == nil || lives[j].timeline.sceneID == sceneID { return j }
            }
        }
        if liveNonCarPlay.count == 1, let j = liveNonCarPlay.first, lives[j].timeline.sceneID == nil { return j }
        return nil
    }

    /// The live life that takes over the system's states from disconnected life `i`.
    private mutating func reboundLife(from i: Int) -> Int? {
        if let p = lives[i].timeline.persistentIdentifier, let j = livesByPersistentID[p]?.last, j != i, isLive(j) {
            probes += 1
            return j
        }
        if liveNonCarPlay.count == 1, let j = liveNonCarPlay.first, lives[j].timeline.sceneID == nil { return j }
        return nil
    }

    /// A system-only life the app's new scene `e` is: the one whose scene identifier names the
    /// event's persistent identifier, else the only one whose scene exists.
    private mutating func adoptableSystemLife(for e: Event) -> Int? {
        guard !systemOnlyLive.isEmpty else { return nil }
        if let p = e.scene?.persistentIdentifier {
            probes += systemOnlyLive.count
            if let j = systemOnlyLive.sorted().first(where: { i in
                lives[i].timeline.sceneID.map { $0 == p || $0.hasSuffix("-" + p) || $0 == "sceneID:" + p } ?? false
            }) { return j }
        }
        return systemOnlyLive.count == 1 ? systemOnlyLive.first : nil
    }

    private func identity(of e: Event) -> String {
        if let a = e.scene?.address { return "addr:\(a)" }
        if let role = Self.carPlayRole(of: e.kind) { return "cp:\(role)" }
        if let cls = e.className, cls.includes("CarPlay") { return "cp:CPTemplateApplicationSceneSessionRoleApplication" }
        if let cls = e.className { return "class:\(cls)" }
        return "scene"
    }

    static func carPlayRole(of kind: EventKind) -> String? {
        let r = kind.rawValue
        if r.hasPrefix("cp.dashboard.") { return "CPTemplateApplicationDashboardSceneSessionRoleApplication" }
        if r.hasPrefix("cp.cluster.") { return "CPTemplateApplicationInstrumentClusterSceneSessionRoleApplication" }
        if r.hasPrefix("cp.") { return "CPTemplateApplicationSceneSessionRoleApplication" }
        return nil
    }
}
