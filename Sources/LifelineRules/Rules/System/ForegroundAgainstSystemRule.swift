import LifelineCore

/// LC-D01: the app logs that it entered the foreground or became active while FrontBoard's last
/// word has its scene in the background, and the system says nothing of a return to the foreground.
struct ForegroundAgainstSystemRule: Rule {
    static let description = RuleDescription(
        id: "LC-D01", name: "foreground-against-system", category: .system, severity: .error,
        summary: "the app entered the foreground or became active while the system had its scene in the background",
        rationale: "FrontBoard decides a scene's life: UIKit calls willEnterForeground and didBecomeActive (the scene's or the app's) only after FrontBoard has moved the scene to the foreground, and SpringBoard logs that move (`Scene lifecycle state did change: Foreground`, RunningBoard's user-interactive role). A foreground callback while the system's last word has the scene in the background, with no word of a return, did not come from the system: the app called its delegate by hand (forwarding, a test hook, a notification observer that calls the delegate), and what it set up there runs while nobody sees the app. Lines the system logs within a second after the callback count as said before it (two processes' lines of one moment may reach the log in either order), and a callback in the same clock tick as FrontBoard's line is not compared.",
        triggering: [
            RuleExample("""
            default\t09:30:12.200100-0400\tSpringBoard\t[0x2b57a0c80:(FBSceneManager):sceneID:com.example.tern-default] Scene lifecycle state did change: Foreground
            default\t09:30:12.310200-0400\tTern\t-[SceneDelegate sceneWillEnterForeground:]
            default\t09:30:12.320300-0400\tTern\t-[SceneDelegate sceneDidBecomeActive:]
            default\t09:31:40.100400-0400\tTern\t-[SceneDelegate sceneWillResignActive:]
            default\t09:31:40.110500-0400\tSpringBoard\t[0x2b57a0c80:(FBSceneManager):sceneID:com.example.tern-default] Scene lifecycle state did change: Background
            default\t09:31:40.120600-0400\tTern\t-[SceneDelegate sceneDidEnterBackground:]
            default\t09:31:42.500700-0400\tTern\tSync: refreshing the inbox after going to the background
            ↓default\t09:31:42.510800-0400\tTern\t-[SceneDelegate sceneWillEnterForeground:]
            default\t09:31:42.520900-0400\tTern\t-[SceneDelegate sceneDidBecomeActive:]
            """),
        ],
        nonTriggering: [
            // The user came back: FrontBoard said so before the callbacks.
            RuleExample("""
            default\t09:31:40.110500-0400\tSpringBoard\t[0x2b57a0c80:(FBSceneManager):sceneID:com.example.tern-default] Scene lifecycle state did change: Background
            default\t09:31:40.120600-0400\tTern\t-[SceneDelegate sceneDidEnterBackground:]
            default\t09:33:05.400100-0400\tSpringBoard\t[0x2b57a0c80:(FBSceneManager):sceneID:com.example.tern-default] Scene lifecycle state did change: Foreground
            default\t09:33:05.480200-0400\tTern\t-[SceneDelegate sceneWillEnterForeground:]
            default\t09:33:05.490300-0400\tTern\t-[SceneDelegate sceneDidBecomeActive:]
            """),
            // No system line: nothing to compare the app's word with.
            RuleExample("""
            default\t09:31:40.120600-0400\tTern\t-[SceneDelegate sceneDidEnterBackground:]
            default\t09:31:42.510800-0400\tTern\t-[SceneDelegate sceneWillEnterForeground:]
            default\t09:31:42.520900-0400\tTern\t-[SceneDelegate sceneDidBecomeActive:]
            """),
            // FrontBoard's line of the return reached the log after the app's callback, in the same moment.
            RuleExample("""
            default\t09:31:40.110500-0400\tSpringBoard\t[0x2b57a0c80:(FBSceneManager):sceneID:com.example.tern-default] Scene lifecycle state did change: Background
            default\t09:31:40.120600-0400\tTern\t-[SceneDelegate sceneDidEnterBackground:]
            default\t09:33:05.480200-0400\tTern\t-[SceneDelegate sceneWillEnterForeground:]
            default\t09:33:05.480900-0400\tSpringBoard\t[0x2b57a0c80:(FBSceneManager):sceneID:com.example.tern-default] Scene lifecycle state did change: Foreground
            default\t09:33:05.490300-0400\tTern\t-[SceneDelegate sceneDidBecomeActive:]
            """),
        ])

    static let foregroundKinds: Set<EventKind> = [.sceneWillEnterForeground, .sceneDidBecomeActive, .appWillEnterForeground, .appDidBecomeActive]

    /// The app's foreground callbacks that contradict FrontBoard's last word, each with the
    /// FrontBoard line it contradicts: the first one of each background period (LC-D04 leaves
    /// these to this rule).
    static func contradictions(_ session: SessionView) -> [(event: Int, background: Int)] {
        guard session.hasSystemEvents else { return [] }
        let contexts = session.systemContexts
        var out: [(event: Int, background: Int)] = []
        var lastScene: Int?           // FrontBoard's latest scene line
        var foregroundSince = false   // a system word of the foreground after it
        var reported: Int?            // the FrontBoard line already reported against
        for i in session.events.indices {
            let e = session.events[i]
            if e.kind.isSystemLifecycle {
                guard let d = e.details?.system else { continue }
                if e.kind == .systemSceneState {
                    lastScene = i
                    foregroundSince = false
                } else if d.saysForeground(e.kind) {
                    foregroundSince = true
                }
                continue
            }
            guard foregroundKinds.contains(e.kind), let s = lastScene, s != reported, !foregroundSince,
                  !session.isCarPlayCallback(i) else { continue }
            let scenes = contexts[i].scenes.values
            guard scenes.contains("background"), !scenes.contains("foreground") else { continue }
            guard session.isSurelyAfter(i, s), session.systemSays(after: i, { $0.saysForeground($1) }) == .notSaid else { continue }
            out.append((i, s))
            reported = s
        }
        return out
    }

    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic] {
        Self.contradictions(session).map { found in
            let (i, s) = found
            let c = session.context(at: i)
            let background = session.events[s]
            var d = diagnostic(session, event: i, scene: c.scene, state: c.state,
                               "\(session.callbackName(i)) while FrontBoard had the app's scene in the background (\(background.position.phrase)) and the system said nothing of a return to the foreground: the callback did not come from the system")
            d.related.insert(RelatedLocation(file: background.file, position: background.position,
                                             message: "FrontBoard moved the app's scene to the background here"), at: 0)
            return d
        }
    }
}
