import LifelineCore

/// LC-C02: the CarPlay delegate did not set its root template before returning from didConnect.
struct RootTemplateBeforeReturnRule: Rule {
    static let description = RuleDescription(
        id: "LC-C02", name: "root-template-before-return", category: .carPlay, severity: .warning,
        summary: "the CarPlay root template was not set before didConnect returned",
        rationale: "templateApplicationScene(_:didConnect:) must set the interface controller's root template before it returns (navigation apps: the root view controller too); one set after an asynchronous hop, or only after a later callback, leaves the head unit blank. Needs the marker `root-template-set`; silent without it.",
        triggering: [
            RuleExample("""
            2025-05-10 08:00:00.000 Nav[500:6001] -[CarPlaySceneDelegate templateApplicationScene:didConnectInterfaceController:]
            2025-05-10 08:00:00.300 Nav[500:6001] -[SceneDelegate sceneDidBecomeActive:]
            ↓2025-05-10 08:00:00.400 Nav[500:6001] setRootTemplate CPMapTemplate
            """, config: Self.config),
            RuleExample("""
            2025-05-10 08:00:00.000 Nav[500:6001] -[CarPlaySceneDelegate templateApplicationScene:didConnectInterfaceController:]
            ↓2025-05-10 08:00:00.050 Nav[500:6211] setRootTemplate CPMapTemplate
            """, config: Self.config),
        ],
        nonTriggering: [
            RuleExample("""
            2025-05-10 08:00:00.000 Nav[500:6001] -[CarPlaySceneDelegate templateApplicationScene:didConnectInterfaceController:]
            2025-05-10 08:00:00.010 Nav[500:6001] setRootTemplate CPMapTemplate
            2025-05-10 08:00:00.300 Nav[500:6001] -[SceneDelegate sceneDidBecomeActive:]
            """, config: Self.config),
        ],
        configuration: ["marker `root-template-set` (required)"])

    static let config = """
    markers:
      root-template-set: 'setRootTemplate'
    """

    private static let connect = EventKind("cp.didConnect")
    private static let dashboardConnect = EventKind("cp.dashboard.didConnect")
    private static let clusterConnect = EventKind("cp.cluster.didConnect")

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        guard settings.has(.rootTemplateSet) else { return [] }
        let marker = KnownMarker.rootTemplateSet.kind
        let connects = session.indices(of: Self.connect, Self.dashboardConnect, Self.clusterConnect)
        return connects.compactMap { i in
            let e = session.events[i]
            let following = session.events[(i + 1)...]
            let nextCallback = following.firstIndex { $0.kind.isLifecycleCallback }
            let set = following.firstIndex { $0.kind == marker }
            let c = session.context(at: i)
            switch (set, nextCallback) {
            case let (s?, n) where n == nil || s < n!:
                // Set before any other callback: fine when it is on the delegate's thread.
                guard let t0 = e.tid, let t1 = session.events[s].tid, t0 != t1 else { return nil }
                let c = session.context(at: s)
                return diagnostic(session, event: s, scene: c.scene, state: c.state,
                                  "the CarPlay root template was set on another thread than didConnect's (an asynchronous hop): set it before didConnect returns")
            case let (s?, n?):
                let late = session.events[n]
                let c = session.context(at: s)
                return diagnostic(session, event: s, scene: c.scene, state: c.state,
                                  "the CarPlay root template was set only after \(late.kind.rawValue) (\(late.position.label(in: late.file))): set it before didConnect returns")
            case let (nil, n?):
                return diagnostic(session, event: i, scene: c.scene, state: c.state,
                                  "no root template was set after the CarPlay scene connected (no root-template-set marker before \(session.events[n].kind.rawValue))")
            default:
                return nil  // the trace ends here
            }
        }
    }
}
