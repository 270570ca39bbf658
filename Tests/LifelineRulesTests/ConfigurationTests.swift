import Foundation
import Testing
import LifelineCore
import LifelinePipeline
@testable import LifelineRules

/// `.lifeline.yml`: every key is checked, and every mistake names its line and column.
@Suite struct ConfigurationTests {
    @Test("a full configuration is read")
    func full() throws {
        let c = try Configuration.parse("""
        rules:
          disable: [LC-S09, temporary-interruption]
          only: []
          severity:
            LC-T07: error
            background-launch: warning
        thresholds:
          slow-launch: 8s
          shortcut-completion: 1500ms
          payload-handling: 2
          pid-reuse-gap: 3h
          session-events: 5_000
        markers:
          window-created: 'window created'
          root-template-set:
            pattern: 'setroottemplate'
            ignore-case: true
          login-finished: 'Login: done'
        """, path: "x.yml")
        #expect(c.disabled == ["LC-S09", "LC-S08"])
        #expect(c.severities == ["LC-T07": .error, "LC-A18": .warning])
        #expect(c.settings.slowLaunch == 8 && c.settings.shortcutCompletion == 1.5 && c.settings.payloadHandling == 2)
        #expect(c.sessionOptions.pidReuseGap == 3 * 3600 && c.sessionOptions.maxEvents == 5_000)
        #expect(c.markers.markers.map(\.name) == ["window-created", "root-template-set", "login-finished"])
        #expect(c.settings.has(.rootTemplateSet) && !c.settings.has(.uiPresented))
        #expect(!c.rules().contains { $0.description.id == "LC-S09" || $0.description.id == "LC-S08" })
        let scratch = MatchScratch()
        #expect(c.markers.markers[1].pattern.firstMatch(in: "CarPlay: SetRootTemplate", scratch: scratch) != nil)
    }

    @Test("apps: a list of bundle IDs or names, one name, or all")
    func apps() throws {
        #expect(try Configuration.parse("apps: [com.apple.mobilenotes, Comet]\n", path: "x.yml").apps == AppSelection(names: ["com.apple.mobilenotes", "Comet"]))
        #expect(try Configuration.parse("apps: com.example.comet\n", path: "x.yml").apps == AppSelection(names: ["com.example.comet"]))
        #expect(try Configuration.parse("apps: all\n", path: "x.yml").apps == AppSelection(all: true))
        #expect(try Configuration.parse("apps:\n", path: "x.yml").apps == .default)
    }

    @Test("an empty file, or empty sections, mean the defaults")
    func empty() throws {
        for text in ["", "# nothing\n", "rules:\nthresholds:\nmarkers:\n"] {
            let c = try Configuration.parse(text, path: "x.yml")
            #expect(c.disabled.isEmpty && c.markers.isEmpty && c.settings == .defaults)
        }
    }

    @Test("mistakes are errors with file, line and column", arguments: [
        ("rules:\n  disabel: []\n", "x.yml:2:3: unknown key 'disabel' in rules (known: disable, only, severity); did you mean 'disable'?"),
        ("rule:\n  disable: []\n", "x.yml:1:1: unknown key 'rule' in the configuration (known: apps, rules, thresholds, markers, manifest); did you mean 'rules'?"),
        ("apps: [all, com.example.comet]\n", "x.yml:1:7: apps: 'all' stands alone (apps: all), not in a list of apps"),
        ("apps:\n  bundle: x\n", "x.yml:2:3: apps must be a list"),
        ("rules:\n  disable: [LC-Z99]\n", "x.yml:2:13: unknown rule 'LC-Z99' (see `lifeline rules`)"),
        ("rules:\n  severity:\n    LC-T07: eror\n", "x.yml:3:13: unknown severity 'eror' (use note, warning, error or fatal)"),
        ("thresholds:\n  slow-launch: soon\n", "x.yml:2:16: thresholds.slow-launch must be a positive duration such as 5, 5s or 800ms (got 'soon')"),
        ("thresholds:\n  session-events: 12s\n", "x.yml:2:19: thresholds.session-events must be a whole number of events, at least 100 (got '12s')"),
        ("thresholds:\n  session-events: 99\n", "x.yml:2:19: thresholds.session-events must be a whole number of events, at least 100 (got '99')"),
        ("thresholds:\n  slow-launch: -3\n", "x.yml:2:16: thresholds.slow-launch must be a positive duration such as 5, 5s or 800ms (got '-3')"),
        ("markers:\n  window-created: '(unclosed'\n", "x.yml:2:19: markers.window-created: invalid pattern at offset 9: missing closing parenthesis"),
        ("markers:\n  window-creatd: 'x'\n", "x.yml:2:3: unknown marker 'window-creatd'; did you mean 'window-created'? (other names are allowed, but this one looks like a typo)"),
        ("markers:\n  Window Created: 'x'\n", "x.yml:2:3: marker names are kebab-case (lower-case words joined by '-'): 'Window Created'"),
        ("markers:\n  window-created: ''\n", "x.yml:2:19: markers.window-created: the pattern is empty (it would match every line)"),
        ("markers:\n  window-created:\n    ignore-case: true\n", "x.yml:3:5: markers.window-created needs a pattern"),
        ("markers:\n  window-created: [a\n", "x.yml:3:1: not valid YAML: while parsing a flow sequence: did not find expected ',' or ']'"),
        ("- a\n- b\n", "x.yml:1:1: the configuration must be a mapping of keys to values"),
        ("rules:\n  disable: x\n  disable: y\n", "x.yml:2:3: 'disable' given twice in one mapping"),
        ("manifest: ''\n", "x.yml:1:11: manifest must name the app's Info.plist, .app or .ipa"),
        ("manifest:\n  product-module: MyApp\n", "x.yml:2:3: manifest needs a path (the app's Info.plist, .app or .ipa)"),
        ("manifest:\n  pth: App/Info.plist\n", "x.yml:2:3: unknown key 'pth' in manifest (known: path, product-module); did you mean 'path'?"),
    ])
    func errors(text: String, message: String) {
        #expect(throws: ConfigurationError.self) { try Configuration.parse(text, path: "x.yml") }
        do { _ = try Configuration.parse(text, path: "x.yml") } catch { #expect("\(error)" == message) }
    }

    @Test("manifest: a path relative to the configuration file, and the product module")
    func manifest() throws {
        let short = try Configuration.parse("manifest: App/Info.plist\n", path: "project/.lifeline.yml")
        #expect(short.manifestPath == "project/App/Info.plist" && short.productModule == nil)
        let full = try Configuration.parse("manifest:\n  path: /abs/Weather.ipa\n  product-module: Weather\n", path: ".lifeline.yml")
        #expect(full.manifestPath == "/abs/Weather.ipa" && full.productModule == "Weather")
        let here = try Configuration.parse("manifest: Info.plist\n", path: ".lifeline.yml")
        #expect(here.manifestPath == "Info.plist")
    }

    @Test("severity overrides apply to every finding of the rule")
    func overrides() throws {
        let config = try Configuration.parse("rules:\n  severity:\n    LC-S03: note\n", path: "x.yml")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.log")
        try "scene(_:willConnectTo:options:)\nsceneDidBecomeActive(_:)\n".write(to: file, atomically: true, encoding: .utf8)
        let plain = Analysis.run(paths: [file.path], ingest: IngestOptions(jobs: 1))
        let overridden = Analysis.run(paths: [file.path], ingest: IngestOptions(jobs: 1), configuration: config)
        #expect(plain.diagnostics.map(\.severity) == [.error])
        #expect(overridden.diagnostics.map(\.severity) == [.note])
    }

    @Test("a duration that overflows once converted to seconds is refused with its line, like any bad duration")
    func overflowingDuration() throws {
        #expect(throws: ConfigurationError.self) { try Configuration.parse("thresholds:\n  slow-launch: 1e306h\n", path: "x.yml") }
        let ok = try Configuration.parse("thresholds:\n  slow-launch: 1e300s\n", path: "x.yml")
        #expect(ok.settings.slowLaunch == 1e300)
    }

    @Test("a catastrophic marker pattern gives up on a long line, says so once, and the run goes on")
    func matchLimit() throws {
        let config = try Configuration.parse("markers:\n  slow-thing: '^(\\w+\\s?)*$'\n", path: "x.yml")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.log")
        let long = String(repeating: "a", count: 5000) + "!"
        try "\(long)\n\(long)\nab cd\nsceneDidBecomeActive(_:)\n".write(to: file, atomically: true, encoding: .utf8)
        let a = Analysis.run(paths: [file.path], ingest: IngestOptions(jobs: 1), configuration: config, keepEvents: true)
        #expect(a.sessions.flatMap(\.events).map(\.kind.rawValue) == ["marker.slow-thing", "scene.didBecomeActive"])
        #expect(a.inputs[0].notes.filter { $0.message.contains("gave up") }.map(\.line) == [1])
    }
}
