import LinkwrightCore

/// `linkwright diff [BASE] [HEAD]`: what changed in the compiled link contract between two
/// revisions, or between a revision and the working tree.
struct DiffCommand: Command {
    static let noMergeBase = Option<Bool>(
        name: "no-merge-base", help: "Compare with BASE itself, not its merge-base with HEAD")
    static let format = Option.format(OutputFormat.findings)

    static let spec = CommandSpec(
        name: "diff",
        abstract: "Show how link behaviour and declarations differ between revisions",
        discussion: """
            Compares compiled results, not YAML text, per environment, host, platform and app: hosts,
            apps and signing keys added or removed, entitlement entries, custom schemes declared,
            dropped or given another purpose, and rules added, removed, changed or moved; then the
            URLs that open another app, the web, or another destination of the app's router (a
            custom scheme's URLs too). Without arguments BASE is HEAD and the head is the working tree; with
            one, the working tree is compared with the merge-base of HEAD and BASE (--no-merge-base:
            with BASE itself); with two, the revisions are compared directly. Exit 0.
            """,
        options: [noMergeBase, Workspace.config] + RevisionReader.options + [format],
        arguments: [
            ArgumentSpec(name: "BASE", help: "Base revision (default: HEAD)", occurrence: .optional),
            ArgumentSpec(name: "HEAD", help: "Head revision (default: the working tree)", occurrence: .optional),
        ])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws { self.arguments = arguments }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let positionals = arguments.positionals
        let base = positionals.first ?? "HEAD"
        let head = positionals.count > 1 ? positionals[1] : nil
        let comparison = try Comparison.load(
            reader: RevisionReader(
                source: try RevisionReader.source(arguments, workspace: workspace), terminal: terminal),
            base: base, head: head.map(Comparison.Head.revision) ?? .workingTree,
            mergeBase: positionals.count == 1 && !arguments[Self.noMergeBase],
            printer: workspace.printer(for: arguments[Self.format]), format: arguments[Self.format],
            title: "linkwright diff")
        let behaviour = comparison.base.map { BehaviourDiff.compare(base: $0, head: comparison.head) }
        let report = CheckReport(
            title: "linkwright diff", base: comparison.baseRevision, head: comparison.headRevision, findings: [],
            changes: StructuralDiff.changes(base: comparison.base, head: comparison.head)
                + (behaviour?.changes ?? []),
            unproven: behaviour?.unproven ?? [], notes: comparison.notes,
            pathPrefix: workspace.pathPrefix(for: arguments[Self.format])
        ).naming(
            AppNames([comparison.head.compiled, comparison.base?.compiled]),
            order: AppNames.environmentOrder([comparison.head.compiled, comparison.base?.compiled]))
        try terminal.print(report, as: arguments[Self.format])
        // The process ends here: both revisions' evaluators and proofs are freed while it does.
        releaseInBackground((consume comparison, consume behaviour, consume report))
        return .success
    }
}
