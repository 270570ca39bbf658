import ArgumentParser
import LifelineRules

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the lifecycle rules Lifeline checks.",
        discussion: "With --markdown, print the documentation page (Documentation/Rules.md) with every rule's rationale and examples.")

    @Flag(name: .long, help: "Print the rule catalogue as the Markdown documentation page.")
    var markdown = false

    func run() {
        let out = StandardOutput()
        out.write(markdown ? RuleCatalog.markdown() : RuleCatalog.table())
        out.flush()
    }
}
