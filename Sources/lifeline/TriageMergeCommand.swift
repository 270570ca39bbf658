import ArgumentParser
import Foundation
import LifelineRules
import LifelineTriage

/// `lifeline triage merge`: combines partial results (`triage --partial`) into the report of all
/// their inputs, or into one partial again (`--partial`), so merges can form a tree.
struct TriageMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge partial triage results (triage --partial) into one report, or into one partial.",
        discussion: """
        Each PARTIAL is what `lifeline triage --partial` wrote for some of the inputs (on this machine \\
        or another), or what an earlier `merge --partial` wrote. Any order and grouping of the same \\
        partials gives the same output, equal to one `lifeline triage` run over all their inputs. \\
        Partials made with different settings (Lifeline version, rules and severities, configuration \\
        file, --min-severity, --input-format) are refused, naming the difference.

        Exit status: 0 done, 1 a new signature at or above --fail-on-new, 2 usage, a partial that \\
        cannot be read or settings that differ, 3 no input could be read.
        """)

    @Argument(help: "Partial results (JSON files), or - for one on standard input.")
    var partials: [String]

    @Flag(name: .long, help: "Write the merged partial (JSON) instead of a report.")
    var partial = false

    @Flag(name: .customLong("partial-inputs"), help: "With --partial, keep the rows of the inputs the partials list rather than their sums.")
    var partialInputs = false

    @OptionGroup var report: TriageReportOptions

    func validate() throws {
        if partials.isEmpty { throw ValidationError("give the partial results to merge") }
    }

    func run() throws {
        var merged: TriagePartial?
        for path in partials {
            let data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
            guard let data else {
                Diagnostics.warn("\(path): cannot read the partial result")
                throw ExitCode(2)
            }
            do {
                let p = try TriagePartial(json: data, name: path)
                if merged == nil { merged = p } else { try merged!.merge(p) }
            } catch {
                Diagnostics.warn("\(error)")
                throw ExitCode(2)
            }
        }
        guard let merged else { throw ExitCode(2) }
        if partial {
            let out = StandardOutput()
            out.write(verbatim: merged.json(inputRows: partialInputs))
            out.flush()
            return
        }
        var result = merged.result
        if let baseline = report.baseline {
            do { result.compare(with: try Baseline.load(path: baseline)) } catch {
                Diagnostics.warn("\(error)")
                throw ExitCode(2)
            }
        }
        try TriageCommand.report(result, format: report.format, limit: report.limit, groupBy: report.groupBy, output: report.output,
                                 protecting: partials, baseline: report.baseline, failOnNew: report.failOnNew)
    }
}
