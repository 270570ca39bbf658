import ArgumentParser
import Foundation
import LifelineCore
import LifelineRules

/// `--input-format`: every command that reads logs.
struct InputFormatOption: ParsableArguments {
    @Option(name: .customLong("input-format"), help: ArgumentHelp("Read every input as this format instead of detecting it.", valueName: "name"))
    var inputFormat: LogFormat?
}

/// How the commands that read logs in batch read them (`analyze`, `events`, `timeline`, `graph`,
/// `triage`): `--input-format` and `--jobs`, checked once, and the same warnings about the inputs.
struct InputOptions: ParsableArguments {
    @OptionGroup var format: InputFormatOption

    @Option(name: .shortAndLong, help: "Threads to use (default: all cores).")
    var jobs: Int?

    var inputFormat: LogFormat? { format.inputFormat }
    /// The threads to read with: `--jobs`, or every core.
    var threads: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    /// What the ingester reads with.
    var ingest: IngestOptions { IngestOptions(inputFormat: inputFormat, jobs: threads) }

    /// Says on standard error what went wrong with an input: not read (an error, skipped, empty),
    /// or read with warnings (lines cut, a format forced on lines that do not fit).
    static func warn(about input: InputStats) {
        Diagnostics.unread(input)
        for note in input.notes where note.severity != .info {
            Diagnostics.warn("\(input.path)\(note.position.map { ":" + $0.label } ?? ""): \(note.message)")
        }
    }
}

/// `--rules` / `--disable`: choosing rules by id or name (`analyze`, `manifest`).
struct RuleSelectionOptions: ParsableArguments {
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Run only these rules (id or name; repeat or separate with commas).", valueName: "rule"))
    var rules: [String] = []

    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Do not run these rules (id or name; repeat or separate with commas).", valueName: "rule"))
    var disable: [String] = []

    /// The names given, repeated or comma-separated.
    var only: [String] { Self.split(rules) }
    var disabled: [String] { Self.split(disable) }

    static func split(_ list: [String]) -> [String] {
        list.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func validate() throws {
        let unknown = RuleSelection.select(only: only, disabled: disabled).unknown
        if !unknown.isEmpty { throw ValidationError("unknown rule: \(unknown.joined(separator: ", ")) (see `lifeline rules`)") }
    }

    /// The rules chosen, after the configuration's own choice.
    func rules(_ configuration: Configuration) -> [any Rule.Type] { configuration.rules(only: only, disabled: disabled) }
}

/// A severity as a command-line value: help lists and defaults show its name (`warning`), where
/// `Severity` itself, an Int-backed enum, would show its raw value (`default: 1`). The one
/// severity type of the command line; `Threshold` adds `never`.
enum SeverityName: String, ExpressibleByArgument, CaseIterable {
    case note, warning, error, fatal
    var severity: Severity { Severity.named(rawValue)! }
}

/// A severity to act at, or `never` (`--fail-on`).
enum Threshold: ExpressibleByArgument, Equatable {
    case at(SeverityName)
    case never

    static let note = Threshold.at(.note)
    static let error = Threshold.at(.error)

    init?(argument: String) {
        if argument == "never" { self = .never } else if let s = SeverityName(rawValue: argument) { self = .at(s) } else { return nil }
    }

    static var allValueStrings: [String] { SeverityName.allCases.map(\.rawValue) + ["never"] }
    var defaultValueDescription: String {
        switch self {
        case .at(let s): return s.rawValue
        case .never: return "never"
        }
    }

    var severity: Severity? {
        switch self {
        case .at(let s): return s.severity
        case .never: return nil
        }
    }
}

/// `--app` / `--all-apps`: which apps of a device log get sessions and reports (`analyze`, `graph`,
/// `timeline`, `triage`, `watch`). Without them, `apps:` of `.lifeline.yml`, else every app not from Apple.
struct AppOptions: ParsableArguments {
    @Option(name: .customLong("app"), parsing: .singleValue,
            help: ArgumentHelp("Follow this app of a device log: a bundle ID or executable name, Apple's included (repeat for several). Default: every app not from Apple.", valueName: "bundle|name"))
    var apps: [String] = []

    @Flag(name: .customLong("all-apps"), help: "Follow every app of a device log, Apple's included.")
    var allApps = false

    func validate() throws {
        if allApps && !apps.isEmpty { throw ValidationError("--app and --all-apps exclude each other") }
    }

    /// Sets the configuration's choice of apps from the options given (which override `apps:`).
    func apply(to configuration: inout Configuration) {
        let names = RuleSelectionOptions.split(apps)
        if allApps { configuration.apps = AppSelection(all: true) } else if !names.isEmpty { configuration.apps = AppSelection(names: names) }
    }
}
