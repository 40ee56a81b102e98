import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright promote SOURCE TARGET`: what TARGET would do with SOURCE's link rules, and the
/// minimal YAML edits that make it so.
struct PromoteCommand: Command {
    static let write = Option<Bool>(name: "write", help: "Apply the edits to the YAML files")
    static let commit = Option<Bool>(name: "commit", help: "With --write: commit the edited files")
    static let format = Option.format([OutputFormat.text, .json, .markdown])

    static let spec = CommandSpec(
        name: "promote",
        abstract: "Plan (and apply) promoting one environment's link rules to another, e.g. staging to production",
        discussion: """
            TARGET gets everything SOURCE has that it does not: rules and applinks entries limited to
            SOURCE, expectations limited to SOURCE (replacing TARGET's own for the same URL), and
            domain contracts SOURCE serves, on a TARGET host named like TARGET's others. TARGET keeps
            its own hosts, apps (their custom schemes too), team, signing keys and mode. The plan
            lists the edits, what stays in SOURCE, the URLs of TARGET that change behaviour, and the
            policy findings the promotion introduces; a blocking finding (unless approved in
            policies/) or anything that must not be promoted stops it (exit 1).
            --write applies the edits to the YAML files, keeping comments and formatting, all files
            or none, and proves that the files on disk compile to exactly the plan. It refuses files
            with uncommitted changes. When git tracks the output folder's manifest (the output is
            committed), --write also rebuilds the output folder as `build` does, and --commit then
            records the edited files and the rebuilt output in a commit that summarises the plan,
            so the promotion's own commit passes `build --check`. The commit is made by running
            git commit, so the repository's hooks run, commit.gpgsign signs and GIT_AUTHOR_DATE
            and the rest of the environment count; when git refuses, its words are shown and the
            files stay written and staged, not committed.
            """,
        options: [write, commit, Workspace.config, BuildCommand.out, format],
        arguments: [
            ArgumentSpec(name: "SOURCE", help: "Environment to promote from"),
            ArgumentSpec(name: "TARGET", help: "Environment to promote to"),
        ],
        groups: [.optional(.all([.option(write.spec), .optional(.option(commit.spec))]))])

    let arguments: ParsedArguments
    let source: String
    let target: String

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        guard arguments.positionals.count == 2 else {
            throw UsageError(message: "name the environments: promote SOURCE TARGET")
        }
        source = arguments.positionals[0]
        target = arguments.positionals[1]
        if source == target { throw UsageError(message: "SOURCE and TARGET are the same environment") }
        if arguments[Self.commit] && !arguments[Self.write] { throw UsageError(message: "--commit needs --write") }
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let files = try workspace.files()
        let (configuration, diagnostics) = ConfigLoader().load(files)
        guard let configuration else {
            workspace.printer.printText(diagnostics)
            return .unusable
        }
        let known = configuration.environments.map(\.name)
        for name in [source, target] where !known.contains(name) {
            throw UsageError(message: "unknown environment \"\(name)\"; known: \(known.joined(separator: ", "))")
        }
        let plan = PromotionPlanner.plan(configuration, files: files, from: source, to: target)
        // Each side in a cache of its own (see `RevisionReader.revisionCache`); the policy rules
        // compare the current one with itself and with the promoted one.
        let (current, _) = RevisionCache().make(files)
        let (promoted, promotedDiagnostics) = RevisionCache().make(plan.files)
        guard let current, let promoted else {
            workspace.printer.printText(promotedDiagnostics.filter { $0.severity == .error })
            throw UnusableInput(
                message: "the configuration after promoting \(source) to \(target) does not compile", hint: nil)
        }
        let report = PromotionReport(
            source: source, target: target, plan: plan,
            checked: try report(plan: plan, current: current, promoted: promoted, workspace: workspace))
        try terminal.print(report, as: arguments[Self.format])
        let refused = report.isRefused
        guard arguments[Self.write] else { return refused || report.blocks ? .blocked : .success }
        guard !refused && !report.blocks else {
            terminal.err("error: not written: the promotion is refused or has blocking findings")
            return .blocked
        }
        guard !plan.editedPaths.isEmpty else {
            terminal.out("nothing to write: \(target) already has everything \(source) has")
            return .success
        }
        try write(plan, expected: promoted.snapshot, workspace: workspace, terminal: terminal, report: report.checked)
        return .success
    }

    /// The promotion's effect on TARGET, and the findings it introduces (those already present
    /// before it are not the promotion's doing).
    private func report(plan: PromotionPlan, current: CachedRevision, promoted: CachedRevision, workspace: Workspace)
        throws -> CheckReport
    {
        let (settings, settingDiagnostics) = PolicySettings.merge(promoted.configuration.policies)
        if !settingDiagnostics.isEmpty {
            workspace.printer.printText(settingDiagnostics)
            throw Halt(status: .unusable)
        }
        let before = Set(
            PolicyEngine().run(PolicyContext(head: current, base: current, settings: settings)).findings.map {
                $0.fingerprint + $0.message
            })
        let context = PolicyContext(head: promoted, base: current, settings: settings)
        let after = PolicyEngine().run(context)
        let changes = (StructuralDiff.changes(base: current, head: promoted) + context.behaviourChanges())
            .filter { $0.environment == target }
        return CheckReport(
            base: CheckReport.Revision(name: "\(target) as it is", commit: nil),
            head: CheckReport.Revision(name: "\(target) with \(source)'s rules", commit: nil),
            findings: after.findings.filter { !before.contains($0.fingerprint + $0.message) }, changes: changes,
            unusedApprovals: [], pathPrefix: workspace.pathPrefix(for: arguments[Self.format])
        ).naming(AppNames([promoted.compiled]), order: AppNames.environmentOrder([promoted.compiled]))
    }

    /// Writes the edited files all or none, proves they compile to the plan, and commits them.
    private func write(
        _ plan: PromotionPlan, expected: PolicySnapshot, workspace: Workspace, terminal: Terminal, report: CheckReport
    ) throws {
        var repository: GitRepository?
        if let opened = try? GitRepository(configurationFolder: workspace.root.path) {
            repository = opened
            for path in plan.editedPaths {
                let status = try RevisionReader.gitAction {
                    try opened.status(of: opened.workTreePath(forConfigurationPath: path))
                }
                guard status == .clean else {
                    throw UnusableInput(
                        message:
                            "\(workspace.printer.pathPrefix)\(path) has uncommitted changes; the promotion edits it",
                        hint: "commit or stash them, then promote again")
                }
            }
        } else if arguments[Self.commit] {
            throw UnusableInput(message: "--commit needs a git repository around \(workspace.configPath)", hint: nil)
        }
        if arguments[Self.commit] && GitCommand.executable == nil {
            throw UnusableInput(
                message: "--commit runs git commit, and git is not on PATH; nothing was written",
                hint: "install git, or promote with --write alone and commit the files yourself")
        }
        let originals = try workspace.files()
        let edited = plan.files.filter { plan.editedPaths.contains($0.path) }
        do {
            try AtomicFiles.write(edited.map { ($0.path, $0.bytes) }, under: workspace.root)
        } catch let error as AtomicFiles.WriteError {
            throw UnusableInput(message: PrintableText.escaped(error.description), hint: error.outcome)
        }
        // The proof: what is now on disk compiles to exactly the plan's files.
        let (written, _) = PolicySnapshot.make(try workspace.files())
        let same =
            written.map { ArtifactRenderer.render($0.compiled) == ArtifactRenderer.render(expected.compiled) } ?? false
        guard same else {
            let restore = originals.filter { plan.editedPaths.contains($0.path) }
            try? AtomicFiles.write(restore.map { ($0.path, $0.bytes) }, under: workspace.root)
            throw UnusableInput(
                message: "the written files do not compile to the plan; they were restored", hint: "please report this")
        }
        terminal.out("wrote \(plan.editedPaths.map { workspace.printer.pathPrefix + $0 }.joined(separator: ", "))")
        guard let repository, let written else { return }
        let output = try rebuildTrackedOutput(
            written.compiled, repository: repository, workspace: workspace, terminal: terminal)
        guard arguments[Self.commit] else { return }
        let message = commitMessage(plan, report)
        let commit = try RevisionReader.gitAction {
            try repository.commit(
                paths: plan.editedPaths.map(repository.workTreePath(forConfigurationPath:)) + output, message: message)
        }
        terminal.out("committed \(commit.shortID): \(commit.summary)")
    }

    /// Rebuilds the output folder (`--out`, default `dist` in the configuration folder) when git
    /// tracks its manifest, through the same transactional writer as `build`, and returns the
    /// paths (relative to the work tree) it created, updated or removed: the commit must carry
    /// them, or the promotion's own commit fails `build --check`. An output folder git does not
    /// track is left alone: it is deployed from elsewhere, not committed.
    private func rebuildTrackedOutput(
        _ compiled: CompiledConfiguration, repository: GitRepository, workspace: Workspace, terminal: Terminal
    ) throws -> [String] {
        let outPath = try workspace.outputPath(arguments[BuildCommand.out])
        guard let folder = realpath(terminal.url(outPath).path, nil) else { return [] }
        let absolute = String(cString: folder)
        free(folder)
        guard absolute.hasPrefix(repository.workTreeRoot + "/") else { return [] }
        let relative = String(absolute.dropFirst(repository.workTreeRoot.count + 1))
        guard try RevisionReader.gitAction({ try repository.isTracked(relative + "/" + OutputFolder.manifestName) })
        else { return [] }
        let built = try BuildCommand.output(compiled, to: outPath, check: false, terminal: terminal)
        let touched = built.created + built.changed + built.stale + built.leftovers
        terminal.out(
            "rebuilt \(PrintableText.escaped(outPath)): \(built.created.count) created, \(built.changed.count) updated, "
                + "\(built.stale.count) removed")
        guard !touched.isEmpty else { return [] }
        return (touched + [OutputFolder.manifestName]).map { relative + "/" + $0 }
    }

    /// Every value from YAML (an approval's reason, a rule, a URL) stays on a line that starts
    /// with `- `, its line breaks escaped: no reason can end the message with a line git reads
    /// as a trailer (`Signed-off-by:`, `Co-authored-by:`).
    private func commitMessage(_ plan: PromotionPlan, _ report: CheckReport) -> String {
        func line(_ text: String) -> String { PrintableText.escaped(text) }
        var message = "Promote \(source) link rules to \(target)\n\n"
        message +=
            plan.edits.map { "- " + line("\($0.location.file): \($0.description)") }.joined(separator: "\n") + "\n"
        let behaviour = report.changes.filter(\.kind.isBehaviour)
        if !behaviour.isEmpty {
            message += "\nBehaviour in \(target):\n"
            for change in behaviour {
                let example = change.witnesses.first.map { ", e.g. \($0)" } ?? ""
                let scope = "\(change.host ?? "") \(change.platform?.rawValue ?? "")"
                message += "- " + line("\(Changelog.description(change)) on \(scope)\(example)") + "\n"
            }
        }
        let approved = report.findings.filter { $0.approval != nil }
        if !approved.isEmpty {
            message +=
                "\nApproved findings:\n"
                + approved.map { "- " + line("\($0.rule): \($0.approval!)") }.joined(separator: "\n")
                + "\n"
        }
        return message
    }
}
