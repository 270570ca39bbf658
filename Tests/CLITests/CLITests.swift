import Foundation
import Testing

/// Runs the built `lifeline` binary (filled in with the CLI tests).
@Suite struct CLISmoke {
    @Test func versionPrints() throws {
        let r = try CLI.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }
}
