import ArgumentParser
import Foundation
import LifelineRules

/// `--config` / `--no-config`, shared by the commands that read logs.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Configuration file (default: .lifeline.yml in the current directory, if present).", valueName: "path"))
    var config: String?

    @Flag(name: .customLong("no-config"), help: "Ignore .lifeline.yml in the current directory.")
    var noConfig = false

    func validate() throws {
        if config != nil && noConfig { throw ValidationError("--config and --no-config exclude each other") }
    }

    /// The configuration to use. A file that cannot be read or has a mistake ends the run with
    /// status 2 and a message naming the file, line and column.
    func load() throws -> Configuration {
        guard let path = config ?? (noConfig ? nil : Configuration.discover()) else { return .defaults }
        do {
            return try Configuration.load(path: path)
        } catch let error as ConfigurationError {
            Diagnostics.warn(error.description)
            throw ExitCode(2)
        }
    }
}
