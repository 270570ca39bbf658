import ArgumentParser
import Foundation
import LifelineCore

@main
struct Lifeline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifeline",
        abstract: "Reads iOS, iPadOS, Mac Catalyst and CarPlay app logs and tells their lifecycle story.",
        version: LifelineVersion.current,
        subcommands: [Events.self, Formats.self])
}
