import Foundation
import Testing

/// Where every test target finds the repository, its sample logs and fixtures, and the shared
/// corpus: one answer, worked out once, instead of each file counting `..` from its own path.
public enum Repository {
    /// The checkout's root: the nearest folder above this file that holds a `Package.swift`.
    public static let root: URL = {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        var dir = here
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir }
            dir = dir.deletingLastPathComponent()
        }
        return here.deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// A path inside the checkout (`SampleLogs/scenarios`, `scripts/fuzz`).
    public static func path(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// `SampleLogs/`.
    public static let sampleLogs = root.appendingPathComponent("SampleLogs")

    /// `Tests/<target>/<relative>`: a test target's own fixtures and goldens.
    public static func tests(_ target: String, _ relative: String = "") -> URL {
        relative.isEmpty ? path("Tests/\(target)") : path("Tests/\(target)/\(relative)")
    }

    /// The environment variable that points the tests at another corpus folder (one that does
    /// not exist makes every corpus test skip, which is how that path is checked).
    public static let corpusVariable = "LIFELINE_CORPUS"

    /// The shared corpus of real reports and logs: `../shared/corpus` beside the checkout, or
    /// `$LIFELINE_CORPUS`.
    public static let corpus: URL = {
        if let other = ProcessInfo.processInfo.environment[corpusVariable], !other.isEmpty {
            return URL(fileURLWithPath: other).standardizedFileURL
        }
        return root.deletingLastPathComponent().appendingPathComponent("shared/corpus").standardizedFileURL
    }()

    /// A file or folder of the corpus (`crash-reports/013-….crash`, `hostile`).
    public static func corpus(_ relative: String) -> URL { corpus.appendingPathComponent(relative) }

    /// Whether the corpus is there (a clean clone has no `../shared`).
    public static var hasCorpus: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: corpus.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Why a corpus test did not run.
    public static var corpusMissing: String {
        "the shared corpus is not at \(corpus.path) (../shared/corpus beside the checkout, or $\(corpusVariable))"
    }

    /// The regular files of `dir`, sorted by name, without hidden files and `README.md`; only those
    /// whose extension is in `extensions` when it is given. Empty when `dir` does not exist.
    public static func files(in dir: URL, extensions: Set<String>? = nil) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.sorted().map { dir.appendingPathComponent($0) }.filter { url in
            guard !url.lastPathComponent.hasPrefix("."), url.lastPathComponent != "README.md" else { return false }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return false }
            return extensions.map { $0.contains(url.pathExtension) } ?? true
        }
    }

    /// The names of `files(in:extensions:)`, for parameterised tests over a fixture folder.
    public static func fileNames(in dir: URL, extensions: Set<String>? = nil) -> [String] {
        files(in: dir, extensions: extensions).map(\.lastPathComponent)
    }
}

/// Suites that need tools `scripts/test` installs, or minutes of their own. A plain `swift test`
/// skips them (saying why); `scripts/test` runs each as its own step with `LIFELINE_SUITES` naming
/// it (`all` runs every one).
///
/// Why a variable and not tags: Swift Testing 6.3's `swift test --filter`/`--skip` take regular
/// expressions over test ids only, and nothing on the command line selects by tag; and a
/// suite that is skipped unless asked for must know the answer before it runs. The tags are
/// still set, so that test reports and IDEs can group these suites.
public enum ExternalSuite: String, CaseIterable, Sendable {
    /// Ten seconds of libFuzzer per fuzz target (`scripts/fuzz --smoke`), after building them.
    case fuzz
    /// The HTML report in headless Chromium (`scripts/browser-check`).
    case browser
    /// The reference Spark job: its Python unit tests and a local[2] PySpark run.
    case spark
    /// SARIF output against the OASIS JSON schema (`scripts/validate-sarif`, jsonschema).
    case sarif

    public static let variable = "LIFELINE_SUITES"

    /// The suites `LIFELINE_SUITES` (comma-separated, or `all`) asks for.
    public static let selected: Set<ExternalSuite> = {
        let names = (ProcessInfo.processInfo.environment[variable] ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if names.contains("all") { return Set(allCases) }
        return Set(names.compactMap(ExternalSuite.init(rawValue:)))
    }()

    public var isSelected: Bool { Self.selected.contains(self) }

    var skipReason: String {
        "needs what scripts/test installs and runs it as a step of its own: set \(Self.variable)=\(rawValue) (or all) to run it here"
    }
}

extension Tag {
    @Tag public static var fuzz: Self
    /// Tests that drive a real browser (Debian's Chromium, through `scripts/browser-check`).
    @Tag public static var browser: Self
    @Tag public static var spark: Self
    @Tag public static var sarif: Self
    /// Tests that read `../shared/corpus`.
    @Tag public static var corpus: Self
}

extension Trait where Self == ConditionTrait {
    /// Runs only when the shared corpus is there; otherwise the test is skipped with the reason.
    public static var needsCorpus: Self {
        .enabled(if: Repository.hasCorpus, Comment(rawValue: Repository.corpusMissing))
    }

    /// Runs only when `LIFELINE_SUITES` names `suite` (as `scripts/test` does, one step per suite).
    public static func external(_ suite: ExternalSuite) -> Self {
        .enabled(if: suite.isSelected, Comment(rawValue: suite.skipReason))
    }
}
