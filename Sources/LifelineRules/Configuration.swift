import Foundation
import LifelineCore
import Yams

/// Thresholds and configured markers, as the rules see them.
public struct RuleSettings: Sendable, Equatable {
    /// LC-T07: seconds from didFinishLaunching to the first active scene before a launch is slow.
    public var slowLaunch: Double = 5
    /// LC-S12: seconds within which a quick action's completion should be logged.
    public var shortcutCompletion: Double = 5
    /// LC-S11: seconds within which a cold-launch payload should be handled.
    public var payloadHandling: Double = 10
    /// LC-D03: seconds from the user's tap (or the system's launch line) to the app in the
    /// foreground and active before a launch is slow.
    public var tapToForeground: Double = 2
    /// The ids of the rules that run with these settings (nil: every rule), so that a rule that
    /// leaves a finding to another (LC-T07 to LC-D03) does so only when the other runs. Set by
    /// `RuleRunner`.
    public var activeRules: Set<String>?
    /// Names of the markers the configuration defines (rules that need one stay silent without it).
    public var markers: Set<String> = []
    /// The app's Info.plist (`--manifest`, `manifest:`), for the rules that check the log against it.
    public var manifest: SceneManifest?

    public init() {}
    public static let defaults = RuleSettings()

    public func has(_ marker: KnownMarker) -> Bool { markers.contains(marker.rawValue) }

    /// Whether the rule with id `id` runs with these settings.
    public func runs(_ id: String) -> Bool { activeRules?.contains(id) ?? true }
}

/// Markers the rules understand. Other names are allowed: they show up on timelines.
public enum KnownMarker: String, CaseIterable, Sendable {
    case windowCreated = "window-created"
    case windowReleased = "window-released"
    case uiPresented = "ui-presented"
    case rootTemplateSet = "root-template-set"
    case shortcutCompleted = "shortcut-completed"
    case coldLaunchPayload = "cold-launch-payload"
    case payloadHandled = "payload-handled"

    public var kind: EventKind { .marker(rawValue) }

    /// What the app logs when the marker should match, for the documentation.
    public var meaning: String {
        switch self {
        case .windowCreated: return "the app created (and made key) a window for a scene"
        case .windowReleased: return "a window was deallocated"
        case .uiPresented: return "the app presented UI (privacy or consent dialog, alert, onboarding); the line may name the scene"
        case .rootTemplateSet: return "the CarPlay delegate set the interface controller's root template"
        case .shortcutCompleted: return "the app called a quick action's completion handler"
        case .coldLaunchPayload: return "scene(_:willConnectTo:options:) found a URL, user activity or shortcut in its connection options"
        case .payloadHandled: return "the app handled (opened, routed) a URL, user activity or shortcut"
        }
    }
}

/// A problem in a configuration file, with its position.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public var description: String {
        var location = path
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}

/// `.lifeline.yml`: which rules run and how severe their findings are, thresholds, and marker
/// patterns for app-specific events. Every key is checked; a mistake is an error naming its line.
///
/// ```yaml
/// rules:
///   disable: [LC-S09, temporary-interruption]   # ids or names
///   only: []                                     # run only these (empty: all)
///   severity:
///     LC-T07: error                              # note, warning, error, fatal
/// thresholds:
///   slow-launch: 8s                              # seconds: 8, 8s, 800ms
///   shortcut-completion: 5s
///   payload-handling: 10s
///   tap-to-foreground: 2s
///   pid-reuse-gap: 12h
/// markers:                                       # PCRE2 patterns matched on each message
///   window-created: 'makeKeyAndVisible|window created'
///   root-template-set:
///     pattern: 'setRootTemplate'
///     ignore-case: true
/// ```
public struct Configuration: Sendable {
    public static let fileNames = [".lifeline.yml", ".lifeline.yaml"]

    /// Where it was read from (nil: built-in defaults).
    public var path: String?
    public var only: [String] = []
    public var disabled: [String] = []
    /// Severity overrides by rule id.
    public var severities: [String: Severity] = [:]
    public var settings = RuleSettings()
    public var markers = MarkerSet.none
    public var sessionOptions = SessionOptions()
    /// Which apps get sessions (`apps:`; `--app`, `--all-apps`).
    public var apps = AppSelection.default

    /// The executable of the manifest's app by its bundle ID, for the ingest (`IngestOptions.executables`).
    public var executables: [String: String] {
        guard let m = settings.manifest, let b = m.bundleIdentifier, let x = m.executable, !x.contains("$(") else { return [:] }
        return [b: x]
    }
    /// `manifest:`: the app's Info.plist (or `.app`, `.ipa`), relative paths taken from the
    /// configuration file's folder, and what `$(PRODUCT_MODULE_NAME)` expands to.
    public var manifestPath: String?
    public var productModule: String?

    public init() {}
    public static let defaults = Configuration()

    /// The configuration file in `directory`, if there is one.
    public static func discover(in directory: String = FileManager.default.currentDirectoryPath) -> String? {
        let here = directory == FileManager.default.currentDirectoryPath
        return fileNames.map { here ? $0 : (directory as NSString).appendingPathComponent($0) }
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    public static func load(path: String) throws -> Configuration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(path: path, message: "cannot read the configuration file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(path: path, message: "the configuration file is not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws -> Configuration {
        var config = Configuration()
        config.path = path
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Self.error(path, error)
        }
        guard let root else { return config }  // empty file: defaults
        try Reader(path: path).read(root, into: &config)
        return config
    }

    private static func error(_ path: String, _ e: YamlError) -> ConfigurationError {
        switch e {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            let what = [context.map { "\($0.text)" }, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            return ConfigurationError(path: path, line: mark.line, column: mark.column, message: "not valid YAML: \(what)")
        case let .duplicatedKeysInMapping(duplicates, context):
            return ConfigurationError(path: path, line: context.mark.line, column: context.mark.column,
                                      message: "\(duplicates.sorted().map { "'\($0)'" }.joined(separator: ", ")) given twice in one mapping")
        default:
            return ConfigurationError(path: path, message: "not valid YAML: \(e)")
        }
    }

    /// The rules to run: `only` (or every rule) minus `disabled`. Names were checked when loading.
    public func rules(only extraOnly: [String] = [], disabled extraDisabled: [String] = []) -> [any Rule.Type] {
        RuleSelection.select(only: extraOnly.isEmpty ? only : extraOnly, disabled: disabled + extraDisabled).rules
    }
}

/// Walks the YAML tree, checking every key and value.
private struct Reader {
    let path: String

    func fail(_ node: Node?, _ message: String) -> ConfigurationError {
        ConfigurationError(path: path, line: node?.mark?.line, column: node?.mark?.column, message: message)
    }

    func mapping(_ node: Node, _ what: String) throws -> [(key: String, keyNode: Node, value: Node)] {
        guard let m = node.mapping else { throw fail(node, "\(what) must be a mapping of keys to values") }
        // Yams has already refused keys given twice.
        return try m.map { pair in
            guard let key = pair.key.scalar?.string else { throw fail(pair.key, "keys in \(what) must be plain names") }
            return (key, pair.key, pair.value)
        }
    }

    func unknownKey(_ key: String, _ node: Node, in what: String, known: [String]) -> ConfigurationError {
        var message = "unknown key '\(key)' in \(what) (known: \(known.joined(separator: ", ")))"
        if let close = known.first(where: { editDistance($0, key) <= 2 }) { message += "; did you mean '\(close)'?" }
        return fail(node, message)
    }

    func string(_ node: Node, _ what: String) throws -> String {
        guard let s = node.scalar?.string else { throw fail(node, "\(what) must be a text value") }
        return s
    }

    func list(_ node: Node, _ what: String) throws -> [(String, Node)] {
        if let s = node.scalar {
            return s.string.isEmpty ? [] : [(s.string, node)]
        }
        guard let seq = node.sequence else { throw fail(node, "\(what) must be a list") }
        return try seq.map { (try string($0, "an entry of \(what)"), $0) }
    }

    func rule(_ name: String, _ node: Node) throws -> any Rule.Type {
        let (rules, unknown) = RuleSelection.select(only: [name], disabled: [])
        guard unknown.isEmpty, let r = rules.first else {
            throw fail(node, "unknown rule '\(name)' (see `lifeline rules`)")
        }
        return r
    }

    func read(_ root: Node, into config: inout Configuration) throws {
        let sections = ["apps", "rules", "thresholds", "markers", "manifest"]
        for (key, keyNode, value) in try mapping(root, "the configuration") {
            switch key {
            case "manifest": try readManifest(value, into: &config)
            case "rules": try readRules(value, into: &config)
            case "thresholds": try readThresholds(value, into: &config)
            case "markers": try readMarkers(value, into: &config)
            case "apps": try readApps(value, into: &config)
            default: throw unknownKey(key, keyNode, in: "the configuration", known: sections)
            }
        }
    }

    /// `apps: [com.example.comet, Comet]` (bundle IDs or executable names to follow, Apple's included), or
    /// `apps: all` (every app).
    func readApps(_ node: Node, into config: inout Configuration) throws {
        if let s = node.scalar {
            switch s.string {
            case "": return
            case "all": config.apps = AppSelection(all: true)
            default: config.apps = AppSelection(names: [s.string])
            }
            return
        }
        let names = try list(node, "apps").map(\.0)
        if names.contains("all") { throw fail(node, "apps: 'all' stands alone (apps: all), not in a list of apps") }
        config.apps = AppSelection(names: names)
    }

    /// `manifest: App/Info.plist`, or `manifest: {path: App/Info.plist, product-module: MyApp}`.
    func readManifest(_ node: Node, into config: inout Configuration) throws {
        func resolved(_ p: String) -> String {
            guard !p.hasPrefix("/") else { return p }
            let dir = (path as NSString).deletingLastPathComponent
            return dir.isEmpty ? p : (dir as NSString).appendingPathComponent(p)
        }
        if let s = node.scalar {
            guard !s.string.isEmpty else { throw fail(node, "manifest must name the app's Info.plist, .app or .ipa") }
            config.manifestPath = resolved(s.string)
            return
        }
        for (key, keyNode, value) in try mapping(node, "manifest") {
            switch key {
            case "path": config.manifestPath = resolved(try string(value, "manifest.path"))
            case "product-module": config.productModule = try string(value, "manifest.product-module")
            default: throw unknownKey(key, keyNode, in: "manifest", known: ["path", "product-module"])
            }
        }
        if config.manifestPath == nil { throw fail(node, "manifest needs a path (the app's Info.plist, .app or .ipa)") }
    }

    func readRules(_ node: Node, into config: inout Configuration) throws {
        if node.scalar?.string.isEmpty == true { return }
        for (key, keyNode, value) in try mapping(node, "rules") {
            switch key {
            case "disable":
                config.disabled = try list(value, "rules.disable").map { try rule($0.0, $0.1).description.id }
            case "only":
                config.only = try list(value, "rules.only").map { try rule($0.0, $0.1).description.id }
            case "severity":
                for (name, nameNode, level) in try mapping(value, "rules.severity") {
                    let r = try rule(name, nameNode)
                    let text = try string(level, "a severity")
                    guard let s = Severity.allCases.first(where: { $0.description == text.lowercased() }) else {
                        throw fail(level, "unknown severity '\(text)' (use note, warning, error or fatal)")
                    }
                    config.severities[r.description.id] = s
                }
            default: throw unknownKey(key, keyNode, in: "rules", known: ["disable", "only", "severity"])
            }
        }
    }

    func readThresholds(_ node: Node, into config: inout Configuration) throws {
        if node.scalar?.string.isEmpty == true { return }
        let known = ["slow-launch", "shortcut-completion", "payload-handling", "tap-to-foreground", "pid-reuse-gap", "session-events"]
        for (key, keyNode, value) in try mapping(node, "thresholds") {
            guard known.contains(key) else { throw unknownKey(key, keyNode, in: "thresholds", known: known) }
            if key == "session-events" {
                let text = try string(value, "thresholds.session-events").trimmingCharacters(in: .whitespaces)
                guard let count = Int(text.replacingOccurrences(of: "_", with: "")), count >= 100 else {
                    throw fail(value, "thresholds.session-events must be a whole number of events, at least 100 (got '\(text)')")
                }
                config.sessionOptions.maxEvents = count
                continue
            }
            let seconds = try duration(value, key)
            switch key {
            case "slow-launch": config.settings.slowLaunch = seconds
            case "shortcut-completion": config.settings.shortcutCompletion = seconds
            case "payload-handling": config.settings.payloadHandling = seconds
            case "tap-to-foreground": config.settings.tapToForeground = seconds
            default: config.sessionOptions.pidReuseGap = seconds
            }
        }
    }

    /// `5`, `5s`, `800ms`, `10m`, `12h` → seconds (positive).
    func duration(_ node: Node, _ key: String) throws -> Double {
        let text = try string(node, "thresholds.\(key)").trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(text)
        var scale = 1.0
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            scale = factor
            break
        }
        // The product too must be finite: `1e306h` is a finite number of hours but no number of seconds.
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value > 0, (value * scale).isFinite else {
            throw fail(node, "thresholds.\(key) must be a positive duration such as 5, 5s or 800ms (got '\(text)')")
        }
        return value * scale
    }

    func readMarkers(_ node: Node, into config: inout Configuration) throws {
        if node.scalar?.string.isEmpty == true { return }
        let known = KnownMarker.allCases.map(\.rawValue)
        var markers: [Marker] = []
        for (name, nameNode, value) in try mapping(node, "markers") {
            guard name.wholeMatch(of: /[a-z][a-z0-9]*(-[a-z0-9]+)*/) != nil else {
                throw fail(nameNode, "marker names are kebab-case (lower-case words joined by '-'): '\(name)'")
            }
            if !known.contains(name), let close = known.first(where: { editDistance($0, name) <= 2 }) {
                throw fail(nameNode, "unknown marker '\(name)'; did you mean '\(close)'? (other names are allowed, but this one looks like a typo)")
            }
            var source: String
            var caseless = false
            var patternNode = value
            if value.mapping != nil {
                var pattern: (String, Node)?
                for (key, keyNode, v) in try mapping(value, "markers.\(name)") {
                    switch key {
                    case "pattern": pattern = (try string(v, "markers.\(name).pattern"), v)
                    case "ignore-case":
                        guard let b = v.bool else { throw fail(v, "markers.\(name).ignore-case must be true or false") }
                        caseless = b
                    default: throw unknownKey(key, keyNode, in: "markers.\(name)", known: ["pattern", "ignore-case"])
                    }
                }
                guard let pattern else { throw fail(value, "markers.\(name) needs a pattern") }
                (source, patternNode) = pattern
            } else {
                source = try string(value, "markers.\(name)")
            }
            guard !source.isEmpty else { throw fail(patternNode, "markers.\(name): the pattern is empty (it would match every line)") }
            do {
                markers.append(Marker(name: name, pattern: try Pattern(source, caseless: caseless)))
            } catch let e as Pattern.CompileError {
                throw fail(patternNode, "markers.\(name): invalid pattern at offset \(e.offset): \(e.message)")
            }
            config.settings.markers.insert(name)
        }
        config.markers = MarkerSet(markers)
    }
}

/// Levenshtein distance, for "did you mean" hints on short keys.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    var row = Array(0...b.count)
    for i in 1...a.count {
        var previous = row[0]
        row[0] = i
        for j in stride(from: 1, through: b.count, by: 1) {
            let old = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
            previous = old
        }
    }
    return row[b.count]
}
