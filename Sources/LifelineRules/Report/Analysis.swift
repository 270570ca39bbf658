import LifelineCore

/// Everything `lifeline analyze` found: per-input accounting, sessions and diagnostics (made by
/// `Analysis.run`, in LifelinePipeline).
public struct Analysis: Sendable {
    public var inputs: [InputStats]
    /// Inputs read: `inputs` without the files found in a directory and skipped (not logs).
    public var readInputs: Int { inputs.reduce(0) { $0 + ($1.skipped == nil ? 1 : 0) } }
    public var sessions: [ProcessSession]
    public var diagnostics: [Diagnostic]
    /// Every observed lifecycle transition, over all sessions (what the aggregated state diagram draws).
    public var transitions: TransitionTally
    /// Problems of the analysis itself, not of an input (a spill file that could not be written).
    public var warnings: [String] = []
    /// The apps the system's lines told of, followed or not (`AppsSeen`).
    public var apps = AppsSeen()
    /// The Info.plist checked with the logs (`--manifest`); its own findings are in `diagnostics`
    /// with no session.
    public var manifest: SceneManifest?

    public init(inputs: [InputStats], sessions: [ProcessSession], diagnostics: [Diagnostic],
                transitions: TransitionTally = TransitionTally()) {
        self.inputs = inputs
        self.sessions = sessions
        self.diagnostics = diagnostics
        self.transitions = transitions
    }

    /// The findings of the manifest rules among `rules` on the configuration's manifest (none
    /// without one), with its severity overrides, in report order.
    public static func manifestFindings(rules: [any Rule.Type], configuration: Configuration) -> [Diagnostic] {
        guard let manifest = configuration.settings.manifest else { return [] }
        return RuleRunner(rules: rules, settings: configuration.settings, severities: configuration.severities).check(manifest)
    }

    public func count(_ s: Severity) -> Int { diagnostics.reduce(0) { $0 + ($1.severity == s ? 1 : 0) } }
    public var highestSeverity: Severity? { diagnostics.map(\.severity).max() }
}

/// Choosing rules by id or name (`LC-S03`, `active-without-foreground`).
public enum RuleSelection {
    /// The rules named in `only` (all when empty) minus those in `disabled`; unknown names are returned
    /// so the caller can report them.
    public static func select(only: [String], disabled: [String]) -> (rules: [any Rule.Type], unknown: [String]) {
        let all = RuleRegistry.all
        func matches(_ r: any Rule.Type, _ name: String) -> Bool {
            r.description.id.caseInsensitiveCompare(name) == .orderedSame || r.description.name == name
        }
        let unknown = (only + disabled).filter { n in !all.contains { matches($0, n) } }
        let chosen = all.filter { r in (only.isEmpty || only.contains { matches(r, $0) }) && !disabled.contains { matches(r, $0) } }
        return (chosen, unknown)
    }
}
