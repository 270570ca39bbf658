import Foundation
import Testing
import LifelineCore
import LifelineRules
@testable import LifelineTriage

/// A fresh directory for generated inputs, removed by `remove()`.
struct Scratch {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-triage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    var path: String { url.path }
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try write(name, Data(text.utf8)) }
    @discardableResult
    func write(_ name: String, _ data: Data) throws -> String {
        let p = url.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: p))
        return p
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Small logs in several formats, with failures at known lifecycle moments.
enum Logs {
    static let launch = [
        "-[AppDelegate application:didFinishLaunchingWithOptions:]",
        "-[SceneDelegate scene:willConnectToSession:options:]",
    ]
    static let active = launch + ["-[SceneDelegate sceneWillEnterForeground:]", "-[SceneDelegate sceneDidBecomeActive:]"]
    static let background = active + ["-[SceneDelegate sceneWillResignActive:]", "-[SceneDelegate sceneDidEnterBackground:]"]

    static func exception(index: Int, count: Int) -> String {
        "*** Terminating app due to uncaught exception 'NSRangeException', reason: '*** -[__NSArrayM objectAtIndex:]: index \(index) beyond bounds [0 .. \(count)]'"
    }

    /// Xcode console lines (`DATE TIME MyApp[pid:tid] message`) for `messages`, a second apart.
    static func xcode(_ messages: [String], pid: Int = 100, day: Int = 1) -> String {
        messages.enumerated().map { i, m in
            String(format: "2024-03-%02d 10:00:%02d.000000+0000 MyApp[%d:7] %@", day, i, pid, m)
        }.joined(separator: "\n") + "\n"
    }

    /// `log show` default style lines for `messages`.
    static func logShow(_ messages: [String], pid: Int = 200) -> String {
        "Timestamp                       Thread     Type        Activity             PID    TTL  \n"
            + messages.enumerated().map { i, m in
                String(format: "2024-04-02 11:00:%02d.000000+0000 0x1f0a     Default     0x0                  %d    0    MyApp: %@", i, pid, m)
            }.joined(separator: "\n") + "\n"
    }
}

@Suite struct TriageTests {
    static func triage(_ paths: [String], jobs: Int = 2, rangeBytes: Int64 = 16 << 20, minimum: Severity = .warning) -> TriageResult {
        Triage.run(paths: paths, options: TriageOptions(jobs: jobs, minimumSeverity: minimum, rangeBytes: rangeBytes))
    }

    @Test("the same exception in three formats and files, with different numbers in its reason, is one signature")
    func groupsAcrossFormats() throws {
        let dir = try Scratch()
        defer { dir.remove() }
        try dir.write("a/xcode.log", Logs.xcode(Logs.active + [Logs.exception(index: 5, count: 2)]))
        try dir.write("b/show.log", Logs.logShow(Logs.active + [Logs.exception(index: 9, count: 7)]))
        try dir.write("c/print.txt", (Logs.launch + [Logs.exception(index: 12, count: 3)]).joined(separator: "\n") + "\n")
        let r = Self.triage([dir.path])
        let exceptions = r.signatures.filter { $0.signature.kind == .exception }
        #expect(exceptions.count == 1, "\(exceptions.map(\.signature.key))")
        let s = try #require(exceptions.first)
        #expect(s.count == 3 && s.files.count == 3 && s.sessionCount == 3)
        #expect(s.severity == .fatal)
        #expect(s.rules.contains("LC-F02"), "the uncaught-exception rule's finding is folded into the failure")
        #expect(!r.signatures.contains { $0.signature.kind == .rule && $0.signature.key.hasPrefix("LC-F02") })
        #expect(s.example.file.hasSuffix("a/xcode.log"), "the example is the first occurrence in path order")
        #expect(s.phases == [.foregroundActive: 2, .launch: 1])
        #expect(r.inputs.map(\.format) == [.xcode, .logDefault, .print])
    }

    @Test("the state at failure is the lifecycle phase of the event: launch, active, background")
    func phases() throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let assertion = "*** Assertion failure in -[MyView layoutSubviews], MyView.m:42"
        try dir.write("1.log", Logs.xcode(Logs.launch + [assertion]))
        try dir.write("2.log", Logs.xcode(Logs.launch + [assertion], pid: 101))
        try dir.write("3.log", Logs.xcode(Logs.active + [assertion], pid: 102))
        try dir.write("4.log", Logs.xcode(Logs.background + [assertion], pid: 103))
        let r = Self.triage([dir.path])
        let s = try #require(r.signatures.first { $0.signature.kind == .assertion })
        #expect(s.count == 4)
        #expect(s.phases == [.launch: 2, .foregroundActive: 1, .background: 1])
        #expect(s.phaseSummary == "50% during launch before any scene was active, 25% in the foreground, active, 25% in the background")
        #expect(s.firstSeen?.iso.hasPrefix("2024-03-01T10:00:02") == true)
    }

    @Test("signatures rank by count, then files; rule findings below the minimum severity are left out")
    func ranking() throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let assertion = "*** Assertion failure in -[MyView layoutSubviews], MyView.m:42"
        for i in 0..<5 { try dir.write("e\(i).log", Logs.xcode(Logs.active + [Logs.exception(index: i, count: 1)], pid: 300 + i)) }
        for i in 0..<3 { try dir.write("a\(i).log", Logs.xcode(Logs.active + [assertion], pid: 400 + i)) }
        // A temporary interruption is a note (LC-S08): a signature only at --min-severity note.
        let interrupted = Logs.active + ["-[SceneDelegate sceneWillResignActive:]", "-[SceneDelegate sceneDidBecomeActive:]"]
        try dir.write("n.log", Logs.xcode(interrupted, pid: 500))
        let r = Self.triage([dir.path])
        #expect(r.signatures.prefix(2).map(\.signature.kind) == [.exception, .assertion])
        #expect(r.signatures.prefix(2).map(\.count) == [5, 3])
        #expect(!r.signatures.contains { $0.signature.key.hasPrefix("LC-S08") })
        let notes = Self.triage([dir.path], minimum: .note)
        #expect(notes.signatures.contains { $0.signature.key.hasPrefix("LC-S08") && $0.severity == .note })
    }

    @Test("unreadable inputs are listed with their reason and the run goes on")
    func unreadable() throws {
        let dir = try Scratch()
        defer { dir.remove() }
        try dir.write("good.log", Logs.xcode(Logs.active + [Logs.exception(index: 1, count: 0)]))
        try dir.write("image.log", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]))
        var gz = Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03])
        gz.append(contentsOf: [0x4B, 0x4C, 0x4A, 0x06, 0x00])  // deflate data cut before its end and trailer
        try dir.write("cut.log.gz", gz)
        let missing = dir.url.appendingPathComponent("missing.log").path
        let r = Self.triage([dir.path, missing])
        #expect(r.signatures.contains { $0.signature.kind == .exception })
        let reasons = Dictionary(uniqueKeysWithValues: r.unreadable.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.reason) })
        #expect(reasons["missing.log"] == "no such file or directory")
        #expect(reasons["image.log"]?.contains("PNG") == true, "\(reasons)")
        #expect(reasons["cut.log.gz"]?.contains("truncated") == true || reasons["cut.log.gz"]?.contains("gzip") == true, "\(reasons)")
        #expect(r.unreadable.map(\.path) == r.unreadable.map(\.path).sorted())
    }

    @Test("archives are walked: every log-like member is an input, other members are skipped, unreadable members and cut archives are listed")
    func archives() throws {
        let dir = try Scratch()
        defer { dir.remove() }
        try dir.write("bundle/logs/app.log", Logs.xcode(Logs.active + [Logs.exception(index: 3, count: 1)]))
        try dir.write("bundle/logs/device.log", Logs.logShow(Logs.active + [Logs.exception(index: 4, count: 2)]))
        try dir.write("bundle/logs/notes.bin", Data([0, 1, 2, 3]))
        // A member named like a log that holds an image: read, found binary, listed as unreadable.
        try dir.write("bundle/logs/screenshot.log", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]))
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/tar")
        tar.arguments = ["--sort=name", "-czf", "bundle.tar.gz", "bundle"]
        tar.currentDirectoryURL = dir.url
        try tar.run()
        tar.waitUntilExit()
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("bundle"))
        // The same bundle cut short: the members before the cut are read, the archive is listed.
        let whole = try Data(contentsOf: dir.url.appendingPathComponent("bundle.tar.gz"))
        try dir.write("cut/bundle-cut.tar.gz", whole.prefix(whole.count - 40))
        let r = Self.triage([dir.path])
        let names = r.inputs.map { URL(fileURLWithPath: $0.path).lastPathComponent }
        #expect(names.filter { $0 == "app.log" }.count == 2 && names.contains("screenshot.log"), "the cut copy still gives its first members: \(names)")
        #expect(r.inputs.filter { $0.path.contains("/bundle.tar.gz!/bundle/logs/") }.count == 3)
        #expect(r.signatures.first { $0.signature.kind == .exception }.map { $0.count >= 3 } == true)
        let unreadable = r.unreadable.map { "\(URL(fileURLWithPath: $0.path).lastPathComponent): \($0.reason)" }
        #expect(unreadable.contains { $0.hasPrefix("screenshot.log: binary data (a PNG image)") }, "\(unreadable)")
        #expect(r.unreadable.contains { $0.path.hasSuffix("bundle-cut.tar.gz") || $0.path.contains("bundle-cut.tar.gz!/") }, "\(unreadable)")
    }

    @Test("the result does not depend on threads or on splitting a large file into ranges")
    func deterministic() throws {
        let dir = try Scratch()
        defer { dir.remove() }
        var big = ""
        for i in 0..<1000 {
            big += Logs.xcode(Logs.background + (i % 7 == 0 ? [Logs.exception(index: i, count: 2)] : []), pid: 1000 + i, day: 1 + i % 28)
        }
        try dir.write("big.log", big)
        for i in 0..<12 { try dir.write("small-\(i).log", Logs.logShow(Logs.active + [Logs.exception(index: i, count: 9)], pid: 10 + i)) }
        let one = TriageJSON.render(Self.triage([dir.path], jobs: 1))
        let two = TriageJSON.render(Self.triage([dir.path], jobs: 2))
        let split = TriageJSON.render(Self.triage([dir.path], jobs: 2, rangeBytes: 64 << 10))
        #expect(one == two)
        #expect(one == split, "a file read in ranges gives the same signatures as read whole")
        #expect(one.contains("\"count\":155"), "1000/7 rounded up in the big file, 12 in the small ones")
    }

    @Test("a baseline marks signatures new, recurring and gone; fail-on-new picks the new ones at a severity")
    func baseline() throws {
        let dir = try Scratch()
        defer { dir.remove() }
        let assertion = "*** Assertion failure in -[MyView layoutSubviews], MyView.m:42"
        try dir.write("1.log", Logs.xcode(Logs.active + [Logs.exception(index: 1, count: 0)]))
        let before = Self.triage([dir.path])
        let baselinePath = try dir.write("baseline.json", TriageJSON.render(before))
        try FileManager.default.removeItem(atPath: dir.url.appendingPathComponent("1.log").path)
        try dir.write("2.log", Logs.xcode(Logs.active + [assertion]))
        var after = Self.triage([dir.url.appendingPathComponent("2.log").path])
        after.compare(with: try Baseline.load(path: baselinePath))
        let assertionID = try #require(after.signatures.first { $0.signature.kind == .assertion }).signature.id
        #expect(after.baseline?[assertionID] == .new)
        #expect(after.gone.map(\.kind) == ["exception"])
        #expect(after.newSignatures(atLeast: .error).count == 1)
        #expect(after.newSignatures(atLeast: .fatal).isEmpty)
        #expect(throws: Baseline.Error.self) { try Baseline.parse(Data("[1,2]".utf8), path: "x.json") }
    }
}

@Suite struct SignatureTextTests {
    /// `collapse` works on bytes for speed; it must agree with the Unicode definition of white space.
    @Test("collapse agrees with Character.isWhitespace on ASCII and Unicode spaces and on look-alikes", arguments: [
        "  a  b\tc\r\nd  ", "a\u{00A0}b\u{0085}c", "x\u{2000}\u{200A}y\u{2028}z\u{2029}w", "p\u{202F}q\u{205F}r\u{3000}s\u{1680}t",
        "ellipsis… dash — quotes ‘x’ “y”", "emoji 👍🏽 and 中文", "\u{200B}zero-width is not space", "", "   ",
    ])
    func collapse(text: String) {
        let reference = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        #expect(SignatureText.collapse(text) == reference)
    }
}
