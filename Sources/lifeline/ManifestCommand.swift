import ArgumentParser
import Foundation
import LifelineCore
import LifelineRender
import LifelineRules

struct ManifestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manifest",
        abstract: "Check an app's Info.plist scene manifest (UIApplicationSceneManifest) on its own.",
        discussion: """
        Reads XML and binary property lists, a built .app directory (its Info.plist, or \
        Contents/Info.plist for a Mac app) or an .ipa (the Info.plist of Payload/<name>.app), and \
        runs the manifest rules (`lifeline rules`, those that read the Info.plist): keys UIKit does \
        not read where they are, scene classes, missing delegate classes (CarPlay ones included), a \
        leftover UIMainStoryboardFile, empty or duplicate configurations, CarPlay dashboard and \
        instrument-cluster flags without their roles, build variables left unexpanded. Findings \
        point at the plist's line (XML) and key path (`:UIApplicationSceneManifest:…`, as \
        PlistBuddy takes it). The checks that need the log too run with `analyze --manifest`.

        $(PRODUCT_MODULE_NAME) is expanded with --product-module (or `product-module:` under \
        `manifest:` in .lifeline.yml); without it a source plist's $(…) values are reported as \
        such, not as wrong classes.

        Exit status: 0 no finding at or above --fail-on, 1 findings at or above it, 2 usage or \
        configuration error, or an input that is not a readable property list.
        """)

    @Argument(help: "Info.plist files (XML or binary), .app directories or .ipa files (default: `manifest:` in .lifeline.yml).")
    var paths: [String] = []

    @Option(name: .customLong("product-module"), help: ArgumentHelp("What $(PRODUCT_MODULE_NAME) expands to.", valueName: "name"))
    var productModule: String?

    @Option(name: .long, help: "Output: text, json or sarif.")
    var format: Format = .text

    @Option(name: .customLong("fail-on"), help: "Exit with 1 when a finding is at least this severe (note, warning, error, fatal, never).")
    var failOn: Threshold = .error

    @OptionGroup var ruleSelection: RuleSelectionOptions

    @OptionGroup var configOptions: ConfigOptions

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, sarif }

    func validate() throws {
    }

    func run() throws {
        let configuration = try configOptions.load()
        let targets = paths.isEmpty ? configuration.manifestPath.map { [$0] } ?? [] : paths
        guard !targets.isEmpty else {
            throw ValidationError("name an Info.plist, .app or .ipa (or set `manifest:` in .lifeline.yml)")
        }
        let selected = ruleSelection.rules(configuration)
        let runner = RuleRunner(rules: selected, settings: configuration.settings, severities: configuration.severities)
        var checked: [(manifest: SceneManifest, findings: [Diagnostic])] = []
        var unreadable = false
        for path in targets {
            do {
                let manifest = try ManifestReader.read(path: path, productModule: productModule ?? configuration.productModule)
                checked.append((manifest, runner.check(manifest)))
            } catch let error as ManifestError {
                Diagnostics.warn(error.description)
                unreadable = true
            }
        }
        let out = StandardOutput()
        switch format {
        case .text:
            let text = AnalysisText(color: Terminal.colorAllowed)
            for c in checked { text.render(manifest: c.manifest, findings: c.findings) { out.write($0) } }
            guard !checked.isEmpty else { break }
            let all = checked.flatMap(\.findings)
            let counts = [Severity.fatal, .error, .warning, .note].map { s in
                let n = all.filter { $0.severity == s }.count
                return "\(n) \(s)\(n == 1 || s == .fatal ? "" : "s")"
            }
            out.write("\(checked.count) Info.plist\(checked.count == 1 ? "" : " files") checked: " + counts.joined(separator: ", "))
        case .json:
            out.write(ManifestJSON.render(checked))
        case .sarif:
            var analysis = Analysis(inputs: [], sessions: [], diagnostics: checked.flatMap(\.findings))
            analysis.diagnostics.sortInReportOrder()
            out.write(SARIFReport.render(analysis, rules: selected, version: LifelineVersion.current, manifests: checked.map(\.manifest)))
        }
        out.flush()
        if unreadable { throw ExitCode(2) }
        if let threshold = failOn.severity, let highest = checked.flatMap(\.findings).map(\.severity).max(), highest >= threshold {
            throw ExitCode(1)
        }
    }
}

/// `lifeline manifest --format json`: each manifest with its findings, and the counts.
enum ManifestJSON {
    static func render(_ checked: [(manifest: SceneManifest, findings: [Diagnostic])]) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.key("manifests")
        w.beginArray()
        for c in checked {
            w.beginObject()
            w.key("diagnostics")
            w.beginArray()
            for d in c.findings {
                w.beginObject()
                d.writeFields(to: &w)
                w.endObject()
            }
            w.endArray()
            w.key("manifest")
            c.manifest.write(to: &w)
            w.endObject()
        }
        w.endArray()
        w.key("summary")
        w.beginObject()
        let all = checked.flatMap(\.findings)
        w.key("diagnostics")
        w.beginObject()
        for (key, s) in [("error", Severity.error), ("fatal", .fatal), ("note", .note), ("warning", .warning)] {
            w.key(named: key)
            w.int(all.filter { $0.severity == s }.count)
        }
        w.endObject()
        w.field("manifests", checked.count)
        w.endObject()
        w.endObject()
        return w.text
    }
}
