import Foundation
import Testing

@Suite struct RulesCommandTests {
    @Test("Documentation/Rules.md is what `lifeline rules --markdown` prints")
    func docsPageIsFresh() throws {
        let committed = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("Documentation/Rules.md"), encoding: .utf8)
        let fresh = try CLI.run(["rules", "--markdown"])
        #expect(fresh.status == 0)
        #expect(fresh.stdout == committed, "Documentation/Rules.md is stale: run `lifeline rules --markdown > Documentation/Rules.md`")
    }

    @Test("the table lists every rule of the page once, with its severity")
    func table() throws {
        let table = try CLI.run(["rules"])
        let page = try CLI.run(["rules", "--markdown"])
        #expect(table.status == 0)
        let ids = Set(page.stdout.matches(of: /### (LC-[A-Z]\d{2})/).map { String($0.1) })
        let rows = table.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == ids.count && ids.count >= 25)
        for row in rows {
            let cells = row.split(separator: " ", omittingEmptySubsequences: true)
            #expect(ids.contains(String(cells[0])) && ["note", "warning", "error", "fatal"].contains(String(cells[2])), "\(row)")
        }
    }
}
