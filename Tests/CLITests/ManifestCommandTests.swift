import Foundation
import Testing

/// `lifeline manifest`, and `--manifest` on analyze, triage and watch, run as a user runs them:
/// exit codes, what each output says about the Info.plist, and bad input.
@Suite struct ManifestCommandTests {
    static let folio = "SampleLogs/manifests/Folio-Info.plist"
    static let compass = "SampleLogs/manifests/Compass.app"
    static let weather = "SampleLogs/manifests/Weather.ipa"
    static let roadcast = "SampleLogs/manifests/Roadcast-Info.plist"
    static let multiWindow = "SampleLogs/scenarios/ipad-multi-window.log"

    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-manifest-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("exit codes follow --fail-on", arguments: [
        ([folio], Int32(0)), ([folio, "--fail-on", "warning"], 1), ([compass], 1), ([compass, "--fail-on", "never"], 0),
        ([roadcast, "--product-module", "Roadcast", "--fail-on", "note"], 0), ([roadcast, "--fail-on", "note"], 1),
        ([weather, "--disable", "LC-M03", "--fail-on", "error"], 0),
    ] as [([String], Int32)])
    func exitCodes(arguments: [String], status: Int32) throws {
        let r = try CLI.run(["manifest"] + arguments)
        #expect(r.status == status, "\(r.stdout)\(r.stderr)")
    }

    @Test("the text report names the plist's line (XML) or key path (binary, .ipa)")
    func text() throws {
        let xml = try CLI.run(["manifest", Self.folio])
        #expect(xml.stdout.contains("warning LC-M04 leftover-main-storyboard  SampleLogs/manifests/Folio-Info.plist:44 :UIMainStoryboardFile"))
        #expect(xml.stdout.contains("multiple scenes: NO"))
        let ipa = try CLI.run(["manifest", Self.weather, "--fail-on", "never"])
        #expect(ipa.stdout.contains("Weather.ipa (Payload/Weather.app/Info.plist), binary property list of a built app"))
        #expect(ipa.stdout.contains("LC-M01 manifest-key  SampleLogs/manifests/Weather.ipa :UIApplicationSceneManifest:UISceneConfigurations:CPTemplateApplicationSceneSessionRoleApplication:0:UISceneDelegateClass"))
        #expect(ipa.stdout.contains("did you mean UISceneDelegateClassName?"))
        #expect(ipa.stdout.hasSuffix("1 Info.plist checked: 0 fatal, 1 error, 3 warnings, 0 notes\n"))
    }

    @Test("$(PRODUCT_MODULE_NAME) is reported as unexpanded, not as a wrong class, and --product-module expands it")
    func productModule() throws {
        let raw = try CLI.run(["manifest", Self.roadcast, "--format", "json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(raw.stdout.utf8)) as? [String: Any])
        let first = try #require((root["manifests"] as? [[String: Any]])?.first)
        let found = try #require(first["diagnostics"] as? [[String: Any]])
        #expect(found.map { $0["ruleId"] as? String } == ["LC-M09", "LC-M09"])
        #expect(found.map { $0["line"] as? Int } == [26, 37])
        let expanded = try CLI.run(["manifest", Self.roadcast, "--product-module", "Roadcast", "--format", "json"])
        let root2 = try #require(try JSONSerialization.jsonObject(with: Data(expanded.stdout.utf8)) as? [String: Any])
        let m = try #require((root2["manifests"] as? [[String: Any]])?.first)
        #expect((m["diagnostics"] as? [Any])?.isEmpty == true)
        let configs = try #require((m["manifest"] as? [String: Any])?["configurations"] as? [[String: Any]])
        #expect(configs.map { $0["delegateClassExpanded"] as? String } == ["Roadcast.SceneDelegate", "Roadcast.CarPlaySceneDelegate"])
    }

    @Test("SARIF: every plist is an artifact, a binary plist's keys are logical locations")
    func sarif() throws {
        let r = try CLI.run(["manifest", Self.compass, Self.folio, "--format", "sarif", "--fail-on", "never"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let run = try #require((root["runs"] as? [[String: Any]])?.first)
        let artifacts = try #require(run["artifacts"] as? [[String: Any]])
        #expect(artifacts.compactMap { ($0["location"] as? [String: Any])?["uri"] as? String }
                == ["SampleLogs/manifests/Compass.app/Info.plist", "SampleLogs/manifests/Folio-Info.plist"])
        let results = try #require(run["results"] as? [[String: Any]])
        let c07 = try #require(results.first { $0["ruleId"] as? String == "LC-C07" })
        let location = try #require((c07["locations"] as? [[String: Any]])?.first)
        let logical = try #require((location["logicalLocations"] as? [[String: Any]])?.first)
        #expect(logical["fullyQualifiedName"] as? String == ":UIApplicationSceneManifest:CPSupportsDashboardNavigationScene")
        #expect((location["physicalLocation"] as? [String: Any])?["region"] == nil)
    }

    /// Not a plist, a truncated binary plist, a plist that is an array, a missing file: a message
    /// naming the file, status 2, and the other inputs still checked.
    @Test("bad input gets a clear message and exit 2")
    func badInput() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases: [(String, Data, String)] = [
            ("notes.plist", Data("these are my notes\n".utf8), "not a property list"),
            ("array.plist", Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<array/>\n</plist>\n".utf8), "is an array, not a dict"),
            ("cut.plist", Data("bplist00\u{D1}\u{01}\u{02}".utf8), "binary property list is damaged or truncated"),
            ("broken.plist", Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>a</key>\n</plist>\n".utf8), "not a valid XML property list"),
        ]
        for (name, data, message) in cases {
            let path = dir.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: data))
            let r = try CLI.run(["manifest", path])
            #expect(r.status == 2)
            #expect(r.stderr.contains("lifeline: \(path)") && r.stderr.contains(message), "\(r.stderr)")
        }
        let both = try CLI.run(["manifest", dir.appendingPathComponent("notes.plist").path, Self.folio])
        #expect(both.status == 2 && both.stdout.contains("LC-M04"))
        let missing = try CLI.run(["analyze", Self.multiWindow, "--manifest", dir.appendingPathComponent("Nope.plist").path])
        #expect(missing.status == 2 && missing.stderr.contains("Nope.plist: no such file or directory"))
        let none = try CLI.run(["manifest", "--no-config"])
        #expect(none.status == 2 && none.stderr.contains("name an Info.plist"))
        // An .ipa whose Info.plist's deflate stream never ends (it hung the command before libzip).
        let cut = CLI.repositoryRoot.appendingPathComponent("Fuzz/Seeds/manifest/cut-deflate.ipa").path
        let archive = try CLI.run(["manifest", cut])
        #expect(archive.status == 2 && archive.stderr.contains("lifeline: \(cut): Payload/Cut.app/Info.plist cannot be extracted"), "\(archive.stderr)")
    }

    @Test("analyze --manifest: the plist's findings and the log's against it, in text, JSON and the report files")
    func analyze() throws {
        let text = try CLI.run(["analyze", Self.multiWindow, "--manifest", Self.folio])
        #expect(text.status == 1)
        #expect(text.stdout.hasPrefix("Info.plist  SampleLogs/manifests/Folio-Info.plist, XML property list\n"))
        #expect(text.stdout.contains("error LC-A13 multiple-scenes-flag  SampleLogs/scenarios/ipad-multi-window.log:10 S2 [unattached]"))
        #expect(text.stdout.contains("see SampleLogs/manifests/Folio-Info.plist:21 :UIApplicationSceneManifest:UIApplicationSupportsMultipleScenes"))

        let json = try CLI.run(["analyze", Self.multiWindow, "--manifest", Self.folio, "--format", "json", "--fail-on", "never"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(root["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["ruleId"] as? String } == ["LC-M04", "LC-A13", "LC-S13"])
        #expect(diagnostics[0]["keyPath"] as? String == ":UIMainStoryboardFile" && diagnostics[0]["session"] as? String == "")
        let related = try #require((diagnostics[1]["related"] as? [[String: Any]])?.first)
        #expect(related["file"] as? String == Self.folio && related["line"] as? Int == 21)
        #expect((root["manifest"] as? [String: Any])?["supportsMultipleScenes"] as? Bool == false)
        #expect(((root["summary"] as? [String: Any])?["diagnostics"] as? [String: Int])?["warning"] == 1)

        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("report").path
        let files = try CLI.run(["analyze", Self.multiWindow, "--manifest", Self.folio, "--output", out, "--fail-on", "never"])
        #expect(files.status == 0, "\(files.stderr)")
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(html.contains("<section id=\"manifest\""))
        #expect(html.contains("<code class=\"keypath\">:UIMainStoryboardFile</code>"))
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.sarif"))) as? [String: Any])
        let artifacts = try #require(((sarif["runs"] as? [[String: Any]])?.first)?["artifacts"] as? [[String: Any]])
        #expect(artifacts.count == 2)
        let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("name=\"scene manifest\""))
    }

    @Test("manifest: in .lifeline.yml, relative to the file, with its product module")
    func configured() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = CLI.repositoryRoot.path
        try "manifest:\n  path: \(root)/SampleLogs/manifests/Roadcast-Info.plist\n  product-module: Roadcast\n"
            .write(to: dir.appendingPathComponent(".lifeline.yml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["manifest", "--fail-on", "note"], in: dir)
        #expect(r.status == 0 && r.stdout.contains("Roadcast.CarPlaySceneDelegate"), "\(r.stdout)\(r.stderr)")
        let a = try CLI.run(["analyze", root + "/SampleLogs/scenarios/carplay-first-launch.log", "--fail-on", "never"], in: dir)
        #expect(a.stdout.hasPrefix("Info.plist  ") && a.stdout.contains("LC-C04") && !a.stdout.contains("LC-M09"))
        // A relative path is the configuration file's folder's.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("App"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root + "/" + Self.folio, toPath: dir.appendingPathComponent("App/Info.plist").path)
        try "manifest: App/Info.plist\n".write(to: dir.appendingPathComponent("other.yml"), atomically: true, encoding: .utf8)
        let rel = try CLI.run(["manifest", "--config", dir.appendingPathComponent("other.yml").path, "--fail-on", "never"])
        #expect(rel.status == 0 && rel.stdout.contains("LC-M04"), "\(rel.stderr)")
    }

    @Test("triage and watch take --manifest too")
    func triageAndWatch() throws {
        let t = try CLI.run(["triage", Self.multiWindow, "--manifest", Self.folio])
        #expect(t.stdout.hasPrefix("Info.plist  SampleLogs/manifests/Folio-Info.plist"))
        #expect(t.stdout.contains("LC-A13 multiple-scenes-flag at scene.willConnect"))
        let w = try CLI.run(["watch", Self.multiWindow, "--no-follow", "--manifest", Self.folio, "--fail-on", "never"])
        let lines = w.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("warning LC-M04 leftover-main-storyboard  SampleLogs/manifests/Folio-Info.plist:44 :UIMainStoryboardFile") == true)
        #expect(w.stdout.contains("error LC-A13 multiple-scenes-flag"))
    }

    @Test("a plist found beside logs is skipped, saying where it goes")
    func skippedInDirectory() throws {
        let r = try CLI.run(["analyze", "SampleLogs/manifests", "--fail-on", "never"])
        #expect(r.stderr.contains("Folio-Info.plist: skipped: a property list, not a log (an app's Info.plist goes to --manifest or `lifeline manifest`)"), "\(r.stderr)")
        #expect(r.stderr.contains("Weather.ipa: skipped: an app archive, not a log (its Info.plist is read by --manifest or `lifeline manifest`)"), "\(r.stderr)")
    }
}
