import ArgumentParser
import Foundation
import LifelineCore
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

/// `--manifest` / `--product-module`, shared by the commands that check logs against the app's Info.plist.
struct ManifestOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The app's Info.plist (XML or binary), built .app or .ipa: check the logs against its scene manifest (default: `manifest:` in .lifeline.yml).", valueName: "path"))
    var manifest: String?

    @Option(name: .customLong("product-module"), help: ArgumentHelp("What $(PRODUCT_MODULE_NAME) expands to in the Info.plist (a source plist keeps it unexpanded).", valueName: "name"))
    var productModule: String?

    /// Reads the manifest into `configuration.settings.manifest`. One that cannot be read ends the
    /// run with status 2 and a message naming it.
    func apply(to configuration: inout Configuration) throws {
        guard let path = manifest ?? configuration.manifestPath else { return }
        configuration.settings.manifest = try Self.read(path, productModule: productModule ?? configuration.productModule)
    }

    static func read(_ path: String, productModule: String?) throws -> SceneManifest {
        do {
            return try ManifestReader.read(path: path, productModule: productModule)
        } catch let error as ManifestError {
            Diagnostics.warn(error.description)
            throw ExitCode(2)
        }
    }
}
