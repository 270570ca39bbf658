import LifelineCore

/// How much a finding matters. `note` explains a legal but surprising pattern, `warning` a likely
/// bug, `error` a broken lifecycle contract, `fatal` evidence that the process died.
public enum Severity: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case note, warning, error, fatal
    public static func < (a: Severity, b: Severity) -> Bool { a.rawValue < b.rawValue }
    public var description: String { ["note", "warning", "error", "fatal"][rawValue] }
    /// The severity a `description` names (`"error"`), or nil.
    public static func named(_ name: String) -> Severity? { allCases.first { $0.description == name } }
}

public enum RuleCategory: String, Sendable, CaseIterable {
    case scene, application, carPlay, threading, failure, system, manifest
}

/// One finding, pointing at the log line (or, in a binary input, the record's byte offset) of the event that
/// shows it.
public struct Diagnostic: Sendable, Hashable {
    public var ruleId: String
    public var rule: String
    public var severity: Severity
    /// Lower-case, no trailing period: what happened and what the app was doing.
    public var message: String
    public var file: String
    /// The event's position; `.line(0)` for a finding in a binary property list, which has no lines.
    public var position: InputPosition
    /// Process session id (`P1`) and scene timeline id (`S2`) when the finding is about a scene.
    public var session: String
    public var scene: String?
    /// The state the scene (or the app) was in when the event arrived.
    public var state: String?
    /// Other lines that explain the finding: where the scene entered the state the event
    /// contradicts (its connect, its last transition), the assertion behind a completion.
    public var related: [RelatedLocation] = []
    /// For a finding in an Info.plist: the key path (`:UIApplicationSceneManifest:…`), which is
    /// all a binary property list has (its `line` is 0).
    public var keyPath: String?

    public init(ruleId: String, rule: String, severity: Severity, message: String, file: String, position: InputPosition,
                session: String, scene: String? = nil, state: String? = nil, related: [RelatedLocation] = [],
                keyPath: String? = nil) {
        self.ruleId = ruleId
        self.rule = rule
        self.severity = severity
        self.message = message
        self.file = file
        self.position = position
        self.session = session
        self.scene = scene
        self.state = state
        self.related = related
        self.keyPath = keyPath
    }

    /// A finding at a line of a text input (an Info.plist, a log).
    public init(ruleId: String, rule: String, severity: Severity, message: String, file: String, line: Int,
                session: String, scene: String? = nil, state: String? = nil, related: [RelatedLocation] = [],
                keyPath: String? = nil) {
        self.init(ruleId: ruleId, rule: rule, severity: severity, message: message, file: file, position: .line(line),
                  session: session, scene: scene, state: state, related: related, keyPath: keyPath)
    }
}

/// A log line that explains a finding (SARIF's `relatedLocations`).
public struct RelatedLocation: Sendable, Hashable {
    public var file: String
    /// `.line(0)` when the place has no line (a key of a binary property list).
    public var position: InputPosition
    public var message: String
    /// In an Info.plist: the key path (as `Diagnostic.keyPath`).
    public var keyPath: String?

    public init(file: String, position: InputPosition, message: String, keyPath: String? = nil) {
        self.file = file
        self.position = position
        self.message = message
        self.keyPath = keyPath
    }

    public init(file: String, line: Int, message: String, keyPath: String? = nil) {
        self.init(file: file, position: .line(line), message: message, keyPath: keyPath)
    }
}

/// A small log that shows a rule's behaviour. Lines starting with `↓` are where the rule must
/// report (the marker is removed before the log is read). The example remembers where it is written,
/// so a failing example points at its own source line.
public struct RuleExample: Sendable {
    public let log: String
    /// The `.lifeline.yml` the example is read with (markers, thresholds), if it needs one.
    public let config: String?
    /// The Info.plist the example is checked with (`--manifest`), if it needs one; `↓` marks its
    /// lines as in the log.
    public let manifest: String?
    public let file: String
    public let line: Int

    public init(_ log: String, config: String? = nil, manifest: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        self.log = log
        self.config = config
        self.manifest = manifest
        self.file = "\(file)"
        self.line = Int(line)
    }

    public static let marker: Character = "↓"

    /// The log without markers, and the 1-based lines that carried one.
    public var unmarked: (text: String, markedLines: [Int]) { Self.unmark(log) }

    /// The manifest without markers, and its marked lines.
    public var unmarkedManifest: (text: String, markedLines: [Int])? { manifest.map(Self.unmark) }

    static func unmark(_ log: String) -> (text: String, markedLines: [Int]) {
        var lines: [Int] = []
        var out: [Substring] = []
        for (i, l) in log.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if l.first == Self.marker { lines.append(i + 1); out.append(l.dropFirst()) } else { out.append(l) }
        }
        return (out.joined(separator: "\n"), lines)
    }
}

/// What a rule is, for the catalogue, the documentation and the tests.
public struct RuleDescription: Sendable {
    /// Stable id from the lifecycle reference §7 (`LC-S03`).
    public let id: String
    /// Kebab-case name (`active-without-foreground`).
    public let name: String
    public let category: RuleCategory
    public let severity: Severity
    public let summary: String
    public let rationale: String
    public let triggering: [RuleExample]
    public let nonTriggering: [RuleExample]
    /// The `.lifeline.yml` settings the rule reads (thresholds, markers), for the documentation.
    public var configuration: [String] = []
    /// Decidable online: every finding the rule makes on a session's first events is a finding of
    /// the whole session, so `watch` reports it as soon as its event arrives. Rules that need the
    /// future ("never happened", "the session ended while …") are checked when the session ends.
    public var online = false
    /// For an online rule, how many later events of the session a finding waits for before it is
    /// decided (an assertion that the next lines say was caught and ignored is no finding)...
    public var onlineLookahead = 0
    /// ... or, when more than 0, until the log's time is this many seconds past the finding's event.
    public var onlineLookaheadSeconds = 0.0
    /// What the rule reads: the log, the Info.plist (`lifeline manifest`), or both (`--manifest`).
    public var reads: RuleInput = .log
}

/// The inputs a rule checks.
public enum RuleInput: String, Sendable {
    case log
    case manifest = "Info.plist"
    case logAndManifest = "log + Info.plist"
}

/// A lifecycle rule: checks one process session at a time.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    init()
    func check(_ session: SessionView, settings: RuleSettings) -> [Diagnostic]
}

extension Rule {
    /// A diagnostic of this rule at an event of `session`.
    func diagnostic(_ session: SessionView, event index: Int, scene: SceneTimeline? = nil, state: String?,
                    severity: Severity? = nil, _ message: String) -> Diagnostic {
        let e = session.events[index]
        let d = Self.description
        var found = Diagnostic(ruleId: d.id, rule: d.name, severity: severity ?? d.severity, message: message,
                               file: e.file, position: e.position, session: session.id, scene: scene?.id, state: state)
        // Where the state the event arrived in began: the line a violation contradicts.
        if state != nil, let source = session.stateSource(at: index) { found.related.append(source) }
        return found
    }
}

/// Every built-in rule, in catalogue order. A new rule is one file plus one line here.
public enum RuleRegistry {
    public static let all: [any Rule.Type] = [
        SceneEventBeforeConnectRule.self,
        DoubleConnectRule.self,
        ActiveWithoutForegroundRule.self,
        BackgroundWithoutResignRule.self,
        RedundantForegroundRule.self,
        ResignWhenInactiveRule.self,
        EventAfterDisconnectRule.self,
        TemporaryInterruptionRule.self,
        ForegroundWithoutActivationRule.self,
        DisconnectFromForegroundRule.self,
        ColdLaunchPayloadRoutingRule.self,
        ShortcutCompletionCalledRule.self,
        GeometryUpdateWhileUnattachedRule.self,
        IndistinguishableScenesRule.self,
        ConnectBeforeLaunchFinishedRule.self,
        LaunchOrderRule.self,
        AppLevelCallbacksInSceneAppRule.self,
        NoConfigurationOnRestoreRule.self,
        ConfigurationNameMismatchRule.self,
        ConfigNameGuardSilentReturnRule.self,
        DelegateClassNotLoadedRule.self,
        WindowWithoutSceneRule.self,
        WindowNotRetainedRule.self,
        AppDelegateWindowAfterMigrationRule.self,
        UIBeforeSceneConnectRule.self,
        DiscardOrderingRule.self,
        MultipleScenesFlagRule.self,
        SceneLifecycleNotAdoptedRule.self,
        TerminateNotGuaranteedRule.self,
        BackgroundLaunchRule.self,
        CarPlayDelegateMissingRule.self,
        RootTemplateBeforeReturnRule.self,
        CarPlayVariantConsistencyRule.self,
        CarPlayFirstLaunchRule.self,
        WrongSceneSelectionRule.self,
        CarPlayConnectPairingRule.self,
        CarPlayManifestFlagsRule.self,
        LifecycleOffMainRule.self,
        MainThreadCheckerHitRule.self,
        ApplicationStateOffMainRule.self,
        CompletionOffMainRule.self,
        ActorIsolationTrapRule.self,
        BackgroundPublishRule.self,
        MainThreadBlockedAtLaunchRule.self,
        MainThreadIORule.self,
        MainThreadRequiredRule.self,
        AssertionFailureRule.self,
        UncaughtExceptionRule.self,
        SwiftRuntimeTrapRule.self,
        CrashReportRule.self,
        KilledBySignalRule.self,
        KilledBySystemRule.self,
        ResourceReportRule.self,
        ForegroundAgainstSystemRule.self,
        WorkWhileSuspendedRule.self,
        SlowTapToForegroundRule.self,
        BackgroundLaunchForegroundWorkRule.self,
        KilledWhileSuspendedRule.self,
        ManifestKeyRule.self,
        SceneClassRule.self,
        DelegateClassMissingRule.self,
        LeftoverMainStoryboardRule.self,
        EmptyConfigurationsRule.self,
        CarPlayOnlyManifestRule.self,
        DeprecatedRoleRule.self,
        ConfigurationNameRule.self,
        UnexpandedBuildVariableRule.self,
        MultipleScenesUnusableRule.self,
        SceneCallbacksWithoutManifestRule.self,
        ManifestNotPickedUpRule.self,
        DelegateClassMismatchRule.self,
        StoryboardWithCodeWindowRule.self,
    ]

    /// Runs `rules` over `sessions` with `settings`, applying severity overrides (by rule id);
    /// findings sorted by file, line and rule id.
    public static func check(_ sessions: [ProcessSession], rules: [any Rule.Type] = all,
                             settings: RuleSettings = .defaults, severities: [String: Severity] = [:]) -> [Diagnostic] {
        let runner = RuleRunner(rules: rules, settings: settings, severities: severities)
        var found = sessions.flatMap { runner.check($0) }
        found.sortInReportOrder()
        return found
    }
}

/// Rules ready to run on one session at a time (as sessions end, in a streaming analysis).
public struct RuleRunner: Sendable {
    let instances: [any Rule]
    package let settings: RuleSettings
    let severities: [String: Severity]

    public init(rules: [any Rule.Type], settings: RuleSettings, severities: [String: Severity]) {
        instances = rules.map { $0.init() }
        var settings = settings
        settings.activeRules = Set(rules.map { $0.description.id })
        self.settings = settings
        self.severities = severities
    }

    /// Findings for `session`, unsorted.
    public func check(_ session: ProcessSession) -> [Diagnostic] { check(SessionView(session)) }

    /// The findings of the manifest rules on `manifest` alone, in report order.
    public func check(_ manifest: SceneManifest) -> [Diagnostic] {
        var found = instances.compactMap { $0 as? any ManifestRule }.flatMap { r in
            var found = r.check(manifest, settings: settings)
            if let override = severities[type(of: r).description.id] {
                for i in found.indices { found[i].severity = override }
            }
            return found
        }
        found.sortInReportOrder()
        return found
    }

    /// The findings of every rule on a session's view (a caller that reads the view too shares
    /// what it works out).
    public func check(_ view: SessionView) -> [Diagnostic] {
        instances.flatMap { r in
            var found = r.check(view, settings: settings)
            if let override = severities[type(of: r).description.id] {
                for i in found.indices { found[i].severity = override }
            }
            return found
        }
    }
}

/// `file:line`, or `file` alone for a place without a line (a key of a binary property list),
/// then the key path of an Info.plist key: how the text outputs name a place.
func placeText(file: String, position: InputPosition, keyPath: String?) -> String {
    (position.isKnown ? position.label(in: file) : file) + (keyPath.map { " \($0)" } ?? "")
}

extension Diagnostic {
    /// Where the finding is, as the text outputs write it (`Info.plist:44 :UIMainStoryboardFile`).
    public var place: String { placeText(file: file, position: position, keyPath: keyPath) }
}

extension RelatedLocation {
    public var place: String { placeText(file: file, position: position, keyPath: keyPath) }
}

extension Diagnostic {
    /// By file, line and rule id: the order of every report.
    public static func reportOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        (a.file, a.position, a.ruleId) < (b.file, b.position, b.ruleId)
    }
}

extension Array where Element == Diagnostic {
    /// Sorts into `Diagnostic.reportOrder` (stable), comparing small keys instead of moving whole
    /// diagnostics through every comparison: tens of thousands of findings sort in milliseconds.
    public mutating func sortInReportOrder() {
        let files = Dictionary(Set(map(\.file)).sorted().enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let rules = Dictionary(Set(map(\.ruleId)).sorted().enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let order = indices.map { i in (file: files[self[i].file]!, position: self[i].position, rule: rules[self[i].ruleId]!, i: i) }
            .sorted { ($0.file, $0.position, $0.rule, $0.i) < ($1.file, $1.position, $1.rule, $1.i) }.map(\.i)
        // Moved into place by following the permutation's cycles: no second array of findings
        // (a million findings would hold both copies at once).
        var placed = [Bool](repeating: false, count: count)
        for start in indices where !placed[start] {
            var at = start
            let first = self[start]
            while true {
                placed[at] = true
                let from = order[at]
                if from == start { self[at] = first; break }
                self[at] = self[from]
                at = from
            }
        }
    }
}
