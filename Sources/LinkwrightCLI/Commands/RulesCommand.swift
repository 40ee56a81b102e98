import LinkwrightCore

/// `linkwright rules`: every policy rule with its ID, default severity and purpose.
struct RulesCommand: Command {
    static let format = Option.format([OutputFormat.text, .json, .markdown])

    static let spec = CommandSpec(
        name: "rules",
        abstract: "List the policy rules that check can run",
        discussion: "Select rules and change severities in policies/*.yaml (see docs/rules.md).",
        options: [format])

    let format: OutputFormat

    init(_ arguments: ParsedArguments) throws { format = arguments[Self.format] }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        switch format {
        case .json: terminal.out(RuleCatalog.json().rendered())
        case .markdown: terminal.out(RuleCatalog.markdown())
        default: terminal.out(RuleCatalog.text())
        }
        return .success
    }
}
