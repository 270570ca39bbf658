import Foundation
import Testing
import TestSupport
import ZIPFoundation
@testable import LifelineCore

/// Reading Info.plist scene manifests: XML and binary property lists in the shapes real apps
/// ship (the seeds' manifests), built `.app` folders and `.ipa` archives made here, build
/// variables, and input that is not a manifest.
@Suite struct ManifestReaderTests {
    /// A manifest shape, what reading it must find, and where (XML lines of the delegate classes).
    struct Shape: CustomTestStringConvertible, Sendable {
        let name: String
        let body: String
        let multiple: Bool?
        /// role → [(configuration name, delegate class)], in file order.
        let configurations: [(role: String, name: String?, delegate: String?)]
        let delegateLines: [Int]
        var testDescription: String { name }

        var xml: String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(body)
            </dict>
            </plist>

            """
        }
    }

    static let shapes: [Shape] = [
        // SEED 000: multiple scenes NO, one phone configuration, class through the module variable.
        Shape(name: "seed 000 phone, multiple scenes NO", body: """
        <key>UIApplicationSceneManifest</key>
        <dict>
            <key>UIApplicationSupportsMultipleScenes</key>
                <false/>
            <key>UISceneConfigurations</key>
            <dict>
                <key>UIWindowSceneSessionRoleApplication</key>
                <array>
                    <dict>
                        <key>UISceneClassName</key>
                        <string>UIWindowScene</string>
                        <key>UISceneConfigurationName</key>
                        <string>DefaultSceneConfiguration</string>
                        <key>UISceneDelegateClassName</key>
                        <string>$(PRODUCT_MODULE_NAME).SceneDelegate</string>
                    </dict>
                </array>
            </dict>
        </dict>
        """, multiple: false, configurations: [("UIWindowSceneSessionRoleApplication", "DefaultSceneConfiguration", "$(PRODUCT_MODULE_NAME).SceneDelegate")],
        delegateLines: [18]),
        // SEED 001: phone and CarPlay; the CarPlay entry has neither a name nor a scene class.
        Shape(name: "seed 001 phone and CarPlay", body: """
        <key>UIApplicationSceneManifest</key>
        <dict>
            <key>UIApplicationSupportsMultipleScenes</key>
            <true/>
            <key>UISceneConfigurations</key>
            <dict>
                <key>UIWindowSceneSessionRoleApplication</key>
                <array>
                    <dict>
                        <key>UISceneClassName</key>
                        <string>UIWindowScene</string>
                        <key>UISceneConfigurationName</key>
                        <string>Default Configuration</string>
                        <key>UISceneDelegateClassName</key>
                        <string>$(PRODUCT_MODULE_NAME).SceneDelegate</string>
                    </dict>
                </array>
                <key>CPTemplateApplicationSceneSessionRoleApplication</key>
                <array>
                    <dict>
                        <key>UISceneDelegateClassName</key>
                        <string>$(PRODUCT_MODULE_NAME).CarPlaySceneDelegateName</string>
                    </dict>
                </array>
            </dict>
        </dict>
        """, multiple: true, configurations: [
            ("UIWindowSceneSessionRoleApplication", "Default Configuration", "$(PRODUCT_MODULE_NAME).SceneDelegate"),
            ("CPTemplateApplicationSceneSessionRoleApplication", nil, "$(PRODUCT_MODULE_NAME).CarPlaySceneDelegateName"),
        ], delegateLines: [18, 25]),
        // SEED 002: unindented, two phone configurations with storyboards, Objective-C class names.
        Shape(name: "seed 002 two configurations, unindented", body: """
        <key>UIApplicationSceneManifest</key>
        <dict>
        <key>UIApplicationSupportsMultipleScenes</key>
        <true/>
        <key>UISceneConfigurations</key>
        <dict>
        <key>UIWindowSceneSessionRoleApplication</key>
        <array>
        <dict>
        <key>UISceneConfigurationName</key>
        <string>Default Configuration</string>
        <key>UISceneDelegateClassName</key>
        <string>SceneDelegate</string>
        <key>UISceneStoryboardFile</key>
        <string>Main</string>
        </dict>
        <dict>
        <key>UISceneConfigurationName</key>
        <string>Other Configuration</string>
        <key>UISceneDelegateClassName</key>
        <string>OtherSceneDelegate</string>
        <key>UISceneStoryboardFile</key>
        <string>Other</string>
        </dict>
        </array>
        </dict>
        </dict>
        """, multiple: true, configurations: [
            ("UIWindowSceneSessionRoleApplication", "Default Configuration", "SceneDelegate"),
            ("UIWindowSceneSessionRoleApplication", "Other Configuration", "OtherSceneDelegate"),
        ], delegateLines: [16, 24]),
        // No scene manifest: a legacy app delegate app.
        Shape(name: "legacy app without a manifest", body: """
        <key>UIMainStoryboardFile</key>
        <string>Main</string>
        """, multiple: nil, configurations: [], delegateLines: []),
    ]

    static func write(_ data: Data, _ name: String, in dir: URL) -> String {
        let url = dir.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        precondition(FileManager.default.createFile(atPath: url.path, contents: data))
        return url.path
    }

    static func scratch() -> URL { scratchDirectory("manifest") }

    static func binary(_ xml: String) throws -> Data {
        let value = try PropertyListSerialization.propertyList(from: Data(xml.utf8), options: [], format: nil)
        return try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    }

    func expectShape(_ m: SceneManifest, _ shape: Shape, lines: Bool) {
        #expect(m.supportsMultipleScenes == shape.multiple)
        #expect(m.sceneManifest != nil || shape.configurations.isEmpty)
        // XML keeps the file's order; a binary plist's keys come sorted.
        let got = m.configurations.map { "\($0.role)|\($0.name ?? "-")|\($0.delegateClass ?? "-")" }
        let expected = shape.configurations.map { "\($0.role)|\($0.name ?? "-")|\($0.delegate ?? "-")" }
        #expect(lines ? got == expected : got.sorted() == expected.sorted())
        let found = m.configurations.map { m.line(of: $0.path(of: "UISceneDelegateClassName")) }
        #expect(found == (lines ? shape.delegateLines.map(Optional.some) : shape.delegateLines.map { _ in nil }))
    }

    @Test("XML and binary property lists read the same", arguments: shapes)
    func xmlAndBinary(_ shape: Shape) throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let xml = try ManifestReader.read(path: Self.write(Data(shape.xml.utf8), "xml/Info.plist", in: dir))
        #expect(xml.format == .xml && xml.container == .file && !xml.isBuilt)
        expectShape(xml, shape, lines: true)
        let binary = try ManifestReader.read(path: Self.write(Self.binary(shape.xml), "binary/Info.plist", in: dir))
        #expect(binary.format == .binary)
        expectShape(binary, shape, lines: false)
        // A binary plist's keys are sorted; the XML's keep their order. The values are the same.
        #expect(Set(xml.configurations.map(\.values)) == Set(binary.configurations.map(\.values)))
    }

    @Test("a built .app directory: Info.plist, or Contents/Info.plist for a Mac app")
    func appBundle() throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shape = Self.shapes[1]
        _ = Self.write(try Self.binary(shape.xml), "Phone.app/Info.plist", in: dir)
        let phone = try ManifestReader.read(path: dir.appendingPathComponent("Phone.app").path)
        #expect(phone.container == .app && phone.isBuilt && phone.file.hasSuffix("Phone.app/Info.plist"))
        expectShape(phone, shape, lines: false)
        _ = Self.write(Data(shape.xml.utf8), "Catalyst.app/Contents/Info.plist", in: dir)
        let mac = try ManifestReader.read(path: dir.appendingPathComponent("Catalyst.app").path)
        #expect(mac.container == .app && mac.file.hasSuffix("Catalyst.app/Contents/Info.plist"))
        expectShape(mac, shape, lines: true)
        // The plist named inside a bundle is a built one too.
        #expect(try ManifestReader.read(path: dir.appendingPathComponent("Phone.app/Info.plist").path).isBuilt)
    }

    @Test("an .ipa: the Info.plist of Payload/<name>.app, key paths only")
    func ipa() throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shape = Self.shapes[0]
        let ipa = dir.appendingPathComponent("Weather.ipa")
        let archive = try Archive(url: ipa, accessMode: .create)
        let plist = try Self.binary(shape.xml)
        for (path, data) in [("Payload/Weather.app/Weather", Data([0xCF, 0xFA, 0xED, 0xFE])),
                             ("Payload/Weather.app/Info.plist", plist),
                             ("Payload/Weather.app/PlugIns/Widget.appex/Info.plist", Data(Self.shapes[3].xml.utf8)),
                             ("iTunesMetadata.plist", Data(Self.shapes[3].xml.utf8))] {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        let m = try ManifestReader.read(path: ipa.path, productModule: "Weather")
        #expect(m.container == .ipa && m.isBuilt && m.member == "Payload/Weather.app/Info.plist" && m.file == ipa.path)
        expectShape(m, shape, lines: false)
        #expect(m.expand(m.configurations[0].delegateClass!).value == "Weather.SceneDelegate")
    }

    @Test("build variables", arguments: [
        ("$(PRODUCT_MODULE_NAME).SceneDelegate", "MyApp", "MyApp.SceneDelegate", [String]()),
        ("${PRODUCT_MODULE_NAME}.SceneDelegate", "MyApp", "MyApp.SceneDelegate", []),
        ("$(PRODUCT_MODULE_NAME:c99extidentifier).SceneDelegate", "MyApp", "MyApp.SceneDelegate", []),
        ("$(PRODUCT_MODULE_NAME).SceneDelegate", nil, "$(PRODUCT_MODULE_NAME).SceneDelegate", ["PRODUCT_MODULE_NAME"]),
        ("$(TARGET_NAME).SceneDelegate", "MyApp", "$(TARGET_NAME).SceneDelegate", ["TARGET_NAME"]),
        ("SceneDelegate", nil, "SceneDelegate", []),
        ("Cost $5 (not a variable", nil, "Cost $5 (not a variable", []),
        ("$(UNCLOSED", "M", "$(UNCLOSED", []),
    ] as [(String, String?, String, [String])])
    func buildVariables(_ text: String, _ module: String?, _ expanded: String, _ missing: [String]) {
        let e = BuildSettingExpansion(text, productModule: module)
        #expect(e.value == expanded)
        #expect(e.unexpanded == missing)
    }

    @Test("module names from product names")
    func moduleNames() {
        #expect(SceneManifest.moduleName(forProduct: "a-Shell mini") == "a_Shell_mini")
        #expect(SceneManifest.moduleName(forProduct: "2048") == "_2048")
        #expect(SceneManifest.unqualified("a_Shell_mini.SceneDelegate") == "SceneDelegate")
    }

    /// Input that is not a manifest: a clear message naming the file (and line, for XML).
    @Test("bad input gets a clear message", arguments: [
        ("not a plist", Data("hello, world\n".utf8), "not a property list"),
        ("empty file", Data(), "not a property list"),
        ("an array", Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<array><string>x</string></array>\n</plist>\n".utf8), "is an array, not a dict"),
        ("a string", Data("<plist version=\"1.0\"><string>x</string></plist>".utf8), "is a string, not a dict"),
        ("broken XML", Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>a</key>\n<string>x</dict>\n</plist>\n".utf8), "not a valid XML property list"),
        ("a zip that is no ipa", Data([0x50, 0x4B, 0x03, 0x04, 0, 0, 0, 0]), "zip archive"),
    ] as [(String, Data, String)])
    func badInput(_ name: String, _ data: Data, _ message: String) throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = Self.write(data, "Info.plist", in: dir)
        #expect {
            try ManifestReader.read(path: path)
        } throws: { error in
            guard let e = error as? ManifestError else { return false }
            return e.path == path && e.message.contains(message)
        }
    }

    @Test("a truncated binary property list is refused, at every cut")
    func truncatedBinary() throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = try Self.binary(Self.shapes[1].xml)
        for cut in stride(from: 8, to: full.count, by: 7) {
            let path = Self.write(full.prefix(cut), "cut-\(cut).plist", in: dir)
            #expect(throws: ManifestError.self) { try ManifestReader.read(path: path) }
        }
    }

    @Test("missing paths, folders without a plist and archives without an app")
    func notThere() throws {
        let dir = Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: ManifestError(path: dir.appendingPathComponent("nope.plist").path, "no such file or directory")) {
            try ManifestReader.read(path: dir.appendingPathComponent("nope.plist").path)
        }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Empty.app"), withIntermediateDirectories: true)
        #expect { try ManifestReader.read(path: dir.appendingPathComponent("Empty.app").path) } throws: {
            ($0 as? ManifestError)?.message.contains("without an Info.plist") == true
        }
        let ipa = dir.appendingPathComponent("NoApp.ipa")
        let archive = try Archive(url: ipa, accessMode: .create)
        let data = Data("x".utf8)
        try archive.addEntry(with: "README", type: .file, uncompressedSize: Int64(data.count)) { _, _ in data }
        #expect { try ManifestReader.read(path: ipa.path) } throws: {
            ($0 as? ManifestError)?.message.contains("no Payload/<name>.app/Info.plist") == true
        }
    }
}

/// Inputs the `manifest` fuzz target found (Tests/LifelineCoreTests/Fixtures/manifest/, also its seeds).
@Suite struct ManifestFuzzRegressionTests {
    static let fixtures = Repository.tests("LifelineCoreTests", "Fixtures/manifest")

    static var files: [String] { Repository.fileNames(in: fixtures) }

    /// FoundationXML's parser trapped in its callbacks on plists Foundation's property list parser
    /// accepts (a processing instruction without data, invalid UTF-8 in a comment, an attribute name
    /// or a processing instruction's target), and ZIPFoundation's in-memory reader trapped on an
    /// archive whose offsets point past its end. Each is now read or refused with a message, twice
    /// the same way (a binary plist with a non-string key gave a different manifest each read).
    @Test("regression (fuzz manifest): read or refused, never a trap, the same both times", arguments: files)
    func readTwice(_ name: String) throws {
        let path = Self.fixtures.appendingPathComponent(name).path
        func read() -> String {
            do {
                let m = try ManifestReader.read(path: path)
                let text = try String(contentsOfFile: path, encoding: .isoLatin1)
                let lineCount = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.count
                #expect(m.lines.values.allSatisfy { $0 >= 1 && $0 <= lineCount })
                return "\(m.root)\(m.lines.sorted { $0.key < $1.key })"
            } catch let e as ManifestError {
                #expect(!e.message.isEmpty && e.path == path)
                return e.description
            } catch {
                Issue.record("not a ManifestError: \(error)")
                return ""
            }
        }
        #expect(read() == read())
    }

    /// Foundation on Linux crashes bridging a set read from a binary plist (the campaign's
    /// `binary-set`, a set at the top). A set nested in a dictionary is refused the same way,
    /// before Foundation sees it.
    @Test("a binary plist holding a set is refused before Foundation reads it")
    func binarySet() throws {
        // {"A": {1}}: dict, "A", set, 1; one-byte offsets and references.
        var bytes = Array("bplist00".utf8) + [0xD1, 0x01, 0x02, 0x51, 0x41, 0xC1, 0x03, 0x10, 0x01]
        let table = bytes.count
        bytes += [0x08, 0x0B, 0x0D, 0x0F]
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 4] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        #expect(BinaryPlistCheck.refusal(Data(bytes))?.contains("holds a set (object 2)") == true)
        #expect { try ManifestReader.parse(Data(bytes), file: "set.plist", source: "set.plist", container: .file) } throws: {
            ($0 as? ManifestError)?.message.contains("holds a set") == true
        }
        // The same list with an array (0xA1) instead of the set reads.
        bytes[13] = 0xA1
        #expect(BinaryPlistCheck.refusal(Data(bytes)) == nil)
        #expect(try ManifestReader.parse(Data(bytes), file: "array.plist", source: "array.plist", container: .file).root["A"] != nil)
    }

    @Test("a processing instruction without data and a comment with bad UTF-8 keep the plist's lines")
    func linesAroundOddMarkup() throws {
        let xml = "<?xml version=\"1.0\"?>\n<?foo?>\n<!-- caf\u{E9} -->\n<plist version=\"1.0\">\n<dict>\n<key>A&amp;B</key>\n<string>x</string>\n<key><![CDATA[C<D]]></key>\n<true/>\n</dict>\n</plist>\n"
        var data = Data(xml.utf8)
        data[data.firstIndex(of: 0xC3)!] = 0xFF  // the é's first byte: invalid UTF-8
        let lines = PlistLines.read(data)
        #expect(lines.lines[PlistKeyPath(keys: "A&B")] == 6)
        #expect(lines.lines[PlistKeyPath(keys: "C<D")] == 8)
    }
}
