/// Where a crash report that stands alone (no lifecycle around it in its log) happened, from its
/// frames: the innermost frame that is a lifecycle callback says what UIKit was delivering, so the
/// state the app was in when it arrived. `ProcessSession.context(at:)` (every output's state)
/// uses it when the log itself says nothing.
public enum FramePlacement {
    /// The state a crash's lifecycle frames put it in (`app.launching`, `unattached`,
    /// `foregroundInactive`, …), or nil when no frame is a lifecycle callback.
    public static func state(frames: [CrashFrame]) -> String? {
        for frame in frames {
            guard let symbol = frame.symbol else { continue }
            guard let kind = callbackKind(inFrame: symbol) else {
                if symbol.includes("_runWithMainScene") || symbol.includes("didFinishLaunching") || symbol.includes("willFinishLaunching") {
                    return "app.launching"
                }
                continue
            }
            switch kind {
            case .appWillFinishLaunching, .appDidFinishLaunching: return "app.launching"
            case .appConfigurationForConnecting: return "app.launched"
            case .sceneWillConnect: return SceneState.unattached.rawValue
            case .sceneDidBecomeActive, .sceneDidEnterBackground: return SceneState.foregroundInactive.rawValue
            case .appDidBecomeActive: return "app.foregroundInactive"
            case .sceneWillResignActive: return SceneState.foregroundActive.rawValue
            case .appWillResignActive: return "app.foregroundActive"
            case .sceneWillEnterForeground, .sceneDidDisconnect: return SceneState.background.rawValue
            case .appWillEnterForeground: return "app.background"
            default: continue
            }
        }
        return nil
    }

    /// The lifecycle callback a frame's symbol (or a text holding it) names (`-[SceneDelegate sceneDidBecomeActive:]`,
    /// `SceneDelegate.sceneDidBecomeActive(_:)`), if any.
    public static func callbackKind(inFrame frame: String) -> EventKind? {
        if let open = frame.firstIndex(of: "["), let close = frame[open...].firstIndex(of: "]"),
           let space = frame[open..<close].firstIndex(of: " ") {
            let selector = String(frame[frame.index(after: space)..<close])
            return CallbackCatalog.bySelector[selector]?.kind
        }
        guard let paren = frame.firstIndex(of: "("), let close = frame[paren...].firstIndex(of: ")") else { return nil }
        var start = paren
        while start > frame.startIndex {
            let before = frame.index(before: start)
            if frame[before] == "." || frame[before] == " " { break }
            start = before
        }
        return CallbackCatalog.bySwift[String(frame[start...close])]?.kind
    }
}
