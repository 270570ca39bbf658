import ArgumentParser
import Foundation
import LifelineCore
import LifelinePipeline
import LifelineRules

struct Timeline: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show each session's events in order with time, thread, scene and the state after each.",
        discussion: "Time is relative to the session's first timestamped event (--clock wall: as the log wrote it, with its UTC offset; both: the two side by side); 'main' marks the inferred main thread. Each session ends with the time from launch to the first active scene and the time each scene spent in each state. JSON gives both times always.")

    @Argument(help: "Log files, directories, or - for standard input.")
    var paths: [String]

    @Option(name: .long, help: "Output: text or json.")
    var format: Format = .text

    @Option(name: .long, help: "Times: relative (since the session's first event), wall (as the log wrote them) or both.")
    var clock: TimelineReport.Clock = .relative

    @OptionGroup var input: InputOptions

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var appOptions: AppOptions

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    func run() throws {
        var configuration = try configOptions.load()
        appOptions.apply(to: &configuration)
        let analysis = Analysis.run(paths: paths, ingest: input.ingest, rules: [],
            configuration: configuration, keepEvents: true)
        for input in analysis.inputs { InputOptions.warn(about: input) }
        let out = StandardOutput()
        out.write(format == .json ? TimelineReport.json(analysis.sessions) : TimelineReport.text(analysis.sessions, clock: clock))
        out.flush()
        if analysis.inputs.contains(where: { $0.error != nil && $0.lines == 0 }) { throw ExitCode(3) }
    }
}

extension TimelineReport.Clock: ExpressibleByArgument {}
