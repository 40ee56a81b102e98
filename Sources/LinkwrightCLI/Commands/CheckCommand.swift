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
    static let staged = Option<Bool>(
        name: "staged", help: "Check what is staged instead of the working tree, against HEAD unless --against")
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
            --head REV checks a committed revision instead of the working tree. --staged checks the
            index, what the next commit records (unstaged edits are not seen), against HEAD or
            --against REF: the pre-commit hook. Before a repository's first commit there is no
            base and everything is new.
            Exit 1 when a finding blocks: an error that policies/ neither ignores nor approves
            (--fail-on warning, note or never moves the threshold). To approve a deliberate change,
            add its fingerprint to policies/ under approvals: (--format approvals prints them).
            """,
        options: [against, noMergeBase, head, staged, Workspace.config] + RevisionReader.options + [
            format, failOn, OutputFile.option,
        ])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        if arguments[Self.noMergeBase] && arguments[Self.against] == nil {
            throw UsageError(message: "--no-merge-base needs --against REF")
        }
        if arguments[Self.staged] && arguments[Self.head] != nil {
            throw UsageError(message: "--staged and --head REV each choose the head; give one")
        }
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        try OutputFile.capturing(arguments, terminal) { try check(terminal) }
    }

    private func check(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let format = arguments[Self.format]
        let head: Comparison.Head =
            arguments[Self.head].map(Comparison.Head.revision) ?? (arguments[Self.staged] ? .index : .workingTree)
        // What is staged is compared with HEAD itself unless a base is named.
        let defaultsToHEAD = arguments[Self.staged] && arguments[Self.against] == nil
        let base = defaultsToHEAD ? "HEAD" : arguments[Self.against]
        let mergeBase = !defaultsToHEAD && !arguments[Self.noMergeBase]
        let comparison = try Comparison.load(
            reader: RevisionReader(
                source: try RevisionReader.source(arguments, workspace: workspace), terminal: terminal),
            base: base, head: head, mergeBase: mergeBase, printer: workspace.printer(for: format), format: format,
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
            notes: comparison.notes, pathPrefix: workspace.pathPrefix(for: format), failOn: arguments[Self.failOn]
        ).naming(
            AppNames([comparison.head.compiled, comparison.base?.compiled]),
            order: AppNames.environmentOrder([comparison.head.compiled, comparison.base?.compiled]))
        try terminal.print(report, as: format)
        let status = ExitStatus(report)
        // The process ends here: both revisions' evaluators and proofs are freed while it does.
        releaseInBackground((consume comparison, consume context, consume report))
        return status
    }
}
