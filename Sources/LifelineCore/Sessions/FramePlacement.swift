/// Where a crash report that stands alone (no lifecycle around it in its log) happened, from its
/// frames: the innermost frame that is a lifecycle callback says what UIKit was delivering, so the
/// state the app was in when it arrived. `ProcessSession.context(at:)` (every output's state)
/// uses it when the log itself says nothing.
public enum FramePlacement {
    /// The state a crash's lifecycle frames put it in (`app.launching`, `unattached`,
    /// `foregroundInactive`, …), or nil when no frame is a lifecycle callback.
    public static func state(frames: [String]) -> String? {
        for frame in frames {
            guard let kind = callbackKind(inFrame: frame) else {
                if frame.includes("_runWithMainScene") || frame.includes("didFinishLaunching") || frame.includes("willFinishLaunching") {
                    return "app.launching"
                }
                continue
            }
            switch kind.rawValue {
            case "app.willFinishLaunching", "app.didFinishLaunching": return "app.launching"
            case "app.configurationForConnecting": return "app.launched"
            case "scene.willConnect": return SceneState.unattached.rawValue
            case "scene.didBecomeActive", "scene.didEnterBackground": return SceneState.foregroundInactive.rawValue
            case "app.didBecomeActive": return "app.foregroundInactive"
            case "scene.willResignActive": return SceneState.foregroundActive.rawValue
            case "app.willResignActive": return "app.foregroundActive"
            case "scene.willEnterForeground", "scene.didDisconnect": return SceneState.background.rawValue
            case "app.willEnterForeground": return "app.background"
            default: continue
            }
        }
        return nil
    }

    /// The lifecycle callback a frame's symbol names (`-[SceneDelegate sceneDidBecomeActive:]`,
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
