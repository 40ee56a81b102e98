import LinkwrightCore

/// `linkwright lint`: load, validate and compile every environment in memory; write nothing.
struct LintCommand: Command {
    static let format = Option.format(OutputFormat.findings)

    static let spec = CommandSpec(
        name: "lint",
        abstract: "Validate the configuration without writing anything",
        discussion: """
            Reports every problem of every file at once, sorted by file, line and column, then analyses the \
            rules of every association file: rules that are never reached, that match every URL or that \
            never match. Exit 2 on errors.
            """,
        options: [Workspace.config, format])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws { self.arguments = arguments }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let (configuration, compiled, loadDiagnostics) = try workspace.loadAndCompile([])
        var analysis = compiled.map { ConfigurationRuleAnalysis().diagnostics(in: $0) } ?? []
        if let configuration, let compiled {
            analysis += RouteOverlapAnalysis().diagnostics(configuration, compiled)
        }
        let report = DiagnosticReport(
            title: "linkwright lint", diagnostics: loadDiagnostics + analysis, subject: workspace.configPath,
            isUnusable: compiled == nil, pathPrefix: workspace.pathPrefix(for: arguments[Self.format]),
            jsonIsList: true)
        try terminal.print(report, as: arguments[Self.format])
        return ExitStatus(report)
    }
}
