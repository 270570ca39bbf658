// Fuzz target: the configuration loader (`.lifeline.yml` text through Configuration.parse), and the
// markers it accepts run on a few records.
import LifelineCore
import LifelineRules

private let probes = [
    "-[SceneDelegate sceneDidBecomeActive:]", "APP-MARKER launch-complete", "", String(repeating: "a", count: 300),
    "sceneWillEnterForeground(_:) <UIWindowScene: 0x1; role: UIWindowSceneSessionRoleApplication>",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func lifelineFuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = buffer(data, size)
    let text = String(decoding: bytes, as: UTF8.self)
    // YAML breaks lines at LF, CR and (YAML 1.1) NEL, LS, PS: an upper bound of the lines an error can name.
    let lines = 1 + text.unicodeScalars.filter { ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) }.count
    let config: Configuration
    do {
        config = try Configuration.parse(text, path: "fuzz.lifeline.yml")
    } catch let e as ConfigurationError {
        require(e.path == "fuzz.lifeline.yml" && !e.message.isEmpty, "error without path or message: \(e)")
        if let l = e.line { require(l >= 0 && l <= lines + 1, "error at line \(l) of \(lines)") }
        return 0
    } catch {
        require(false, "parse threw \(type(of: error)), not a ConfigurationError: \(error)")
        return 0
    }
    for t in [config.settings.slowLaunch, config.settings.shortcutCompletion, config.settings.payloadHandling,
              config.sessionOptions.pidReuseGap] {
        require(t.isFinite && t > 0, "threshold \(t) accepted")
    }
    _ = config.rules()
    // Markers the loader accepted must be usable on any record.
    if !config.markers.isEmpty {
        let classifier = EventClassifier(markers: config.markers)
        for p in probes { _ = classifier.classify(RecordText(format: .print, message: p), file: "f", at: .line(1), extent: 1) }
    }
    return 0
}
