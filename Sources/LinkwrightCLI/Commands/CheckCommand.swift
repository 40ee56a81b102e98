import LinkwrightCore

/// `linkwright check --against REF`: the pre-merge check. Compiles the working tree and REF (by
/// default the merge-base of HEAD and REF), runs the policy rules, and blocks on what they find.
struct CheckCommand: Command {
    static let against = Option<String?>(
        name: "against", valueName: "REF", help: "Base revision: branch, origin/main, tag, SHA, HEAD~3")
    static let noMergeBase = Option<Bool>(
        name: "no-merge-base", help: "Compare with REF itself, not its merge-base with HEAD")
    static let head = Option<String?>(
        name: "head", valueName: "REV", help: "Check this revision instead of the working tree")
    static let format = Option.format(OutputFormat.findings + [.approvals])
    static let failOn = Option<FailThreshold>(
        name: "fail-on", valueName: "SEVERITY", choices: FailThreshold.allCases, default: .error,
        help: "Least severity that blocks (exit 1): error, warning, note, or never")

    static let spec = CommandSpec(
        name: "check",
        abstract: "Run the policy rules on the working tree against a base revision (the pre-merge check)",
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
        options: [against, noMergeBase, head, Workspace.config] + RevisionReader.options + [format, failOn])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        if arguments[Self.noMergeBase] && arguments[Self.against] == nil {
            throw UsageError(message: "--no-merge-base needs --against REF")
        }
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let format = arguments[Self.format]
        let comparison = try Comparison.load(
            reader: RevisionReader(
                source: try RevisionReader.source(arguments, workspace: workspace), terminal: terminal),
            base: arguments[Self.against], head: arguments[Self.head],
            mergeBase: !arguments[Self.noMergeBase], printer: workspace.printer, format: format,
            title: "linkwright check")
        let (settings, settingDiagnostics) = PolicySettings.merge(comparison.head.configuration.policies)
        if !settingDiagnostics.isEmpty {
            try workspace.printUnusable(settingDiagnostics, as: format, title: "linkwright check")
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
            notes: comparison.notes, pathPrefix: workspace.printer.pathPrefix, failOn: arguments[Self.failOn])
        try terminal.print(report, as: format)
        return ExitStatus(report)
    }
}
