import Foundation
import Testing
@testable import LifelineCore

/// Tar and tar.gz archives read member by member (triage reads bundles of logs this way), and glob
/// patterns in the paths given.
@Suite struct ArchiveTests {
    static let console = """
        2024-03-01 10:00:00.100000+0800 MyApp[1234:5678] -[AppDelegate application:didFinishLaunchingWithOptions:]
        2024-03-01 10:00:00.200000+0800 MyApp[1234:5678] -[SceneDelegate scene:willConnectToSession:options:]
        2024-03-01 10:00:00.300000+0800 MyApp[1234:5678] -[SceneDelegate sceneDidBecomeActive:]

        """

    /// Runs `tar` with `arguments` in `dir`.
    static func tar(_ arguments: [String], in dir: TempDir) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/tar")
        p.arguments = ["--sort=name"] + arguments
        p.currentDirectoryURL = dir.url
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "tar \(arguments.joined(separator: " "))")
    }

    /// A bundle: logs at several depths (one gzip-compressed, one whose path is longer than the
    /// 100 bytes of a tar header's name field), a crash report, and files that are not logs.
    static func makeBundle(_ dir: TempDir, format: String, compress: Bool) throws -> String {
        let long = String(repeating: "long-directory-name-", count: 4) + String(repeating: "x", count: 10)
        try dir.write("bundle/logs/app.log", console)
        try dir.write("bundle/logs/\(long)/deep.log", console)
        try dir.write("bundle/crashes/exception.crash", try Data(contentsOf: URL(fileURLWithPath: Hostile.sample("exception-launch.crash"))))
        try dir.write("bundle/picture.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0])
        try dir.write("bundle/system_logs.logarchive/0000.tracev3", bytes: Array("tracev3".utf8) + [0, 1, 2])
        try dir.write("plain.log", console)
        try Hostile.gzip(dir.path("plain.log"), to: dir.path("bundle/logs/rotated.log.gz"))
        let name = compress ? "bundle.tar.gz" : "bundle.tar"
        try tar(["--format=\(format)", compress ? "-czf" : "-cf", name, "bundle"], in: dir)
        return dir.path(name)
    }

    static func members(_ archive: String) -> (stats: [InputStats], events: [Event], error: String?) {
        var stats: [InputStats] = [], events: [Event] = []
        let error = Ingester(options: IngestOptions(jobs: 1)).runArchive(path: archive, onEvent: { events.append($0) },
                                                                          onInput: { stats.append($0) })
        return (stats, events, error)
    }

    @Test("the log-like members of a tar archive are read in archive order, in every tar format, compressed or not",
          arguments: [("ustar", false), ("gnu", true), ("pax", true), ("pax", false)])
    func readsLogMembers(format: String, compress: Bool) throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let archive = try Self.makeBundle(dir, format: format, compress: compress)
        let (stats, events, error) = Self.members(archive)
        #expect(error == nil)
        let names = stats.map { String($0.path.dropFirst(archive.count + 2)) }.sorted()
        let long = String(repeating: "long-directory-name-", count: 4) + String(repeating: "x", count: 10)
        #expect(names == ["bundle/crashes/exception.crash", "bundle/logs/\(long)/deep.log", "bundle/logs/app.log", "bundle/logs/rotated.log.gz"].sorted())
        for s in stats { #expect(s.isBalanced, "\(s.path): \(s.balanceDescription)") }
        #expect(stats.first { $0.path.hasSuffix("rotated.log.gz") }?.events == 3, "a gzip member is decompressed")
        #expect(stats.first { $0.path.hasSuffix("app.log") }?.lines == 3)
        #expect(events.contains { $0.kind == .crashReport && $0.file.hasSuffix("!/bundle/crashes/exception.crash") })
        #expect(events.filter { $0.kind == .sceneDidBecomeActive }.count == 3)
    }

    @Test("a truncated archive delivers the members before the cut, then says it is truncated")
    func truncatedArchive() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let big = String(repeating: Self.console, count: 2000)
        try dir.write("b/1.log", Self.console)
        try dir.write("b/2.log", big)
        try Self.tar(["-cf", "b.tar", "b"], in: dir)
        let whole = try Data(contentsOf: URL(fileURLWithPath: dir.path("b.tar")))
        let cut = try dir.write("cut.tar", whole.prefix(1024 + 512 + 4096))
        let (stats, _, error) = Self.members(cut)
        #expect(stats.first { $0.path.hasSuffix("1.log") }?.events == 3)
        let second = try #require(stats.first { $0.path.hasSuffix("2.log") })
        #expect(second.error?.contains("truncated archive") == true, "\(second.error ?? "no error")")
        #expect(second.isBalanced)
        #expect(error?.contains("truncated") == true, "\(error ?? "no error")")

        try Hostile.gzip(dir.path("b.tar"), to: dir.path("b.tar.gz"))
        let gz = try Data(contentsOf: URL(fileURLWithPath: dir.path("b.tar.gz")))
        let cutGz = try dir.write("cut.tar.gz", gz.prefix(gz.count / 2))
        let r = Self.members(cutGz)
        #expect(r.error != nil || r.stats.contains { $0.error != nil }, "a cut gzip stream is reported")
    }

    @Test("a file that is not a tar archive is reported as such, with no members")
    func notAnArchive() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let fake = try dir.write("fake.tar", String(repeating: "not a tar header at all\n", count: 40))
        let (stats, _, error) = Self.members(fake)
        #expect(stats.isEmpty)
        #expect(error?.contains("not a tar archive") == true, "\(error ?? "no error")")
        #expect(Self.members(dir.path("missing.tar")).error?.contains("No such file") == true)
    }

    @Test("events and analyze name a tar archive for what it is instead of reading headers as log lines")
    func archiveGivenToEvents() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let archive = try Self.makeBundle(dir, format: "ustar", compress: true)
        let stats = Ingester(options: IngestOptions(jobs: 1)).ingest(paths: [archive]).inputs
        #expect(stats.count == 1)
        #expect(stats[0].error?.contains("a tar archive") == true, "\(stats[0].error ?? "no error")")
        #expect(stats[0].isBalanced)
    }

    @Test("glob patterns expand to the files they match, sorted; ** crosses directories; no match is an error")
    func globs() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        for name in ["a.log", "b.log", "c.txt", "x/d.log", "x/y/e.log"] { try dir.write(name, Self.console) }
        let root = dir.url.path
        #expect(InputExpansion.expand(["\(root)/*.log"]).map(\.path) == ["\(root)/a.log", "\(root)/b.log"])
        #expect(InputExpansion.expand(["\(root)/**/*.log"]).map(\.path)
                == ["\(root)/a.log", "\(root)/b.log", "\(root)/x/d.log", "\(root)/x/y/e.log"])
        #expect(InputExpansion.expand(["\(root)/x/*/e.lo?"]).map(\.path) == ["\(root)/x/y/e.log"])
        let none = InputExpansion.expand(["\(root)/*.nothing"])
        #expect(none.count == 1 && none[0].error == "no file matches this pattern")
    }

    @Test("a directory walk for triage includes archives and reports sizes; for analyze it lists them as skipped")
    func filesWithArchives() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        _ = try Self.makeBundle(dir, format: "gnu", compress: true)
        let withArchives = InputExpansion.files([dir.url.path], archives: true)
        let archive = try #require(withArchives.first { $0.path.hasSuffix("bundle.tar.gz") })
        #expect(archive.isArchive && archive.size > 0)
        let plain = try #require(InputExpansion.files([dir.url.path], archives: false).first { $0.path.hasSuffix(".tar.gz") })
        #expect(!plain.isArchive)
        #expect(plain.skipped?.contains("tar archive") == true)
    }
}
