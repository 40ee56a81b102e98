import LinkwrightCore

/// `linkwright check --against REF`: the pre-merge check. Compiles the working tree and REF (by
/// default the merge-base of HEAD and REF), runs the policy rules, and blocks on what they find.
struct CheckCommand: Command {
    static let formats = ReportFormat.allCases.map(\.rawValue)

    static let spec = CommandSpec(
        name: "check",
        abstract: "Run the policy rules on the working tree against a base revision (the pre-merge check)",
        usage: "check [--against REF] [--no-merge-base] [--head REV] [--config DIR] [--format FORMAT]",
        discussion: """
            Compiles the configuration in the working tree (uncommitted changes included) and at REF,
            read through git without a checkout, and runs every enabled rule of policies/ (see
            `linkwright rules`). By default REF is replaced by the merge-base of HEAD and REF, what a
            pull request's diff shows; --no-merge-base compares with REF itself (it also works in a
            shallow clone that has REF). Without --against only the rules about the head run.
            --head REV checks a committed revision instead of the working tree.
            Exit 1 when a finding blocks: an error that policies/ neither ignores nor approves.
            To approve a deliberate change, add its fingerprint to policies/ under approvals:.
            """,
        options: [
            OptionSpec(name: "against", valueName: "REF", help: "Base revision: branch, origin/main, tag, SHA, HEAD~3"),
            OptionSpec(
                name: "no-merge-base", valueName: nil, help: "Compare with REF itself, not its merge-base with HEAD"),
            OptionSpec(name: "head", valueName: "REV", help: "Check this revision instead of the working tree"),
            .config,
        ] + RevisionReader.options + [
            .format(formats)
        ])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        if arguments.flag("no-merge-base") && arguments.value("against") == nil {
            throw UsageError(message: "--no-merge-base needs --against REF")
        }
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let comparison = try Comparison.load(
            reader: RevisionReader(
                source: try RevisionReader.source(arguments, workspace: workspace), terminal: terminal),
            base: arguments.value("against"), head: arguments.value("head"),
            mergeBase: !arguments.flag("no-merge-base"), printer: workspace.printer)
        let (settings, settingDiagnostics) = PolicySettings.merge(comparison.head.configuration.policies)
        if !settingDiagnostics.isEmpty {
            workspace.printer.printText(settingDiagnostics)
            return .unusable
        }
        let context = PolicyContext(head: comparison.head, base: comparison.base, settings: settings)
        let policyReport = PolicyEngine().run(context)
        let report = CheckReport(
            base: comparison.baseRevision, head: comparison.headRevision, findings: policyReport.findings,
            changes: comparison.baseRevision == nil
                ? []
                : StructuralDiff.changes(base: comparison.base, head: comparison.head) + context.behaviourChanges(),
            unproven: context.behaviourComparison().unproven, unusedApprovals: policyReport.unusedApprovals,
            notes: comparison.notes,
            pathPrefix: workspace.printer.pathPrefix)
        let format = ReportFormat(rawValue: arguments.value("format") ?? "text")!
        terminal.out(ReportRenderer.render(report, as: format, version: LinkwrightCLI.version))
        return report.blocks ? .blocked : .success
    }
}
