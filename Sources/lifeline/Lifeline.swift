import ArgumentParser
import Foundation
import LifelineCore

@main
struct Lifeline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifeline",
        abstract: "Reads iOS, iPadOS, Mac Catalyst and CarPlay app logs and tells their lifecycle story.",
        discussion: """
        Exit status: 0 success, 1 findings at or above `analyze --fail-on`, 2 usage or configuration error, 3 an input could not be read.
        """,
        version: LifelineVersion.current,
        subcommands: [Analyze.self, Timeline.self, Graph.self, TriageCommand.self, Events.self, Formats.self, Rules.self])

    /// Usage errors exit with 2 (ArgumentParser's default is 64), as the README documents.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
