import ArgumentParser
import Foundation
import LifelineCore
import LifelineRules

struct Events: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the normalized events found in logs, or how every input line was accounted for.",
        discussion: """
        PATH may be a file, a directory (read recursively for log-like files), a gzip-compressed \
        file, or - for standard input. Formats are detected per input; see `lifeline formats`.
        """)

    @Argument(help: "Log files, directories, or - for standard input.")
    var paths: [String]

    @Option(name: .long, help: "Output: text or jsonl (with --stats: text or json).")
    var format: OutputFormat = .text

    @Flag(name: .long, help: "Print the per-input line accounting instead of the events.")
    var stats = false

    @OptionGroup var input: InputOptions

    @OptionGroup var configOptions: ConfigOptions

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, jsonl, json
    }

    func validate() throws {
        if !stats && format == .json { throw ValidationError("--format json goes with --stats; events are printed as jsonl") }
        if stats && format == .jsonl { throw ValidationError("--stats prints text or json") }
    }

    func run() throws {
        let configuration = try configOptions.load()
        let out = StandardOutput()
        var options = IngestOptions(inputFormat: input.inputFormat, jobs: input.threads,
                                    collectEvents: !stats, markers: configuration.markers)
        // The readers write the lines, on their own threads; this one only prints them.
        options.encoding = format == .jsonl ? .jsonLines : .text
        var inputs: [InputStats] = []
        Ingester(options: options).run(paths: paths, onEvent: { _ in }, onEncoded: { encoded, lineOffset in
            encoded.write(lineOffset: lineOffset) { out.write(rawBuffer: $0) }
        }, onInput: { input in
            inputs.append(input)
            InputOptions.warn(about: input)
        })
        if stats {
            if format == .json {
                out.write(InputStats.json(inputs))
            } else {
                out.write(StatsTable.render(inputs))
            }
        }
        out.flush()
        if inputs.contains(where: { $0.error != nil && $0.lines == 0 }) { throw ExitCode(3) }
    }
}

extension LogFormat: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

struct Formats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the input formats Lifeline detects, with a sample line each.")

    func run() {
        let out = StandardOutput()
        for f in LogFormat.allCases {
            out.write("\(f.rawValue)")
            out.write("    \(f.summary)")
            for line in f.sampleLine.split(separator: "\n") { out.write("    │ \(line)") }
        }
        out.flush()
    }
}

/// The per-input accounting as an aligned table.
enum StatsTable {
    static func render(_ inputs: [InputStats]) -> String {
        let header = ["path", "format", "lines", "records", "continuation", "non-log", "unrecognized", "events"]
        var rows = [header]
        for s in inputs {
            rows.append([s.path, s.skipped != nil ? "skipped" : s.format?.rawValue ?? "-", "\(s.lines)", "\(s.records)", "\(s.continuationLines)",
                         "\(s.nonLogLines)", "\(s.unrecognizedLines)", "\(s.events)"])
        }
        if inputs.count > 1 {
            func sum(_ k: KeyPath<InputStats, Int>) -> String { String(inputs.reduce(0) { $0 + $1[keyPath: k] }) }
            rows.append(["total", "", sum(\.lines), sum(\.records), sum(\.continuationLines), sum(\.nonLogLines),
                         sum(\.unrecognizedLines), sum(\.events)])
        }
        let widths = header.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        var table = rows.map { row in
            row.enumerated().map { c, cell in
                c < 2 ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                      : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
        let skipped = inputs.filter { $0.skipped != nil }
        if !skipped.isEmpty {
            table += "\n\nskipped (\(skipped.count), found in a directory and not read):"
            for s in skipped { table += "\n  \(s.path): \(s.skipped!)" }
        }
        return table
    }
}
