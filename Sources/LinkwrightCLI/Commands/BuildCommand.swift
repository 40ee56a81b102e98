import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright build`: compile every environment and write its files, or check that the files on
/// disk are what the configuration compiles to.
struct BuildCommand: Command {
    static let out = Option<String?>(
        name: "out", valueName: "DIR", help: "Output folder (default: dist in the configuration folder)")
    static let check = Option<Bool>(name: "check", help: "Compare with the output folder instead of writing")
    static let format = Option.format(OutputFormat.findings)

    static let spec = CommandSpec(
        name: "build",
        abstract: "Compile the configuration into association files, entitlements and intent filters",
        discussion: """
            Writes, for each environment and host, into the output folder:
              <env>/<host>/.well-known/apple-app-site-association
              <env>/<host>/.well-known/assetlinks.json
              <env>/ios/<app>.entitlements
              <env>/android/<app>.intent-filters.xml
            Files are written only when their bytes change, and the set is switched as one
            transaction: a build that is killed leaves the old files or a journal that the next
            build completes first. Builds into one folder wait for each other. A file an earlier
            build wrote for a host or app that no longer exists is removed when its content is
            still what the manifest recorded; other files are never touched, and links inside the
            folder are never followed. A journal, staging folder or manifest no build on this
            machine wrote (one committed to the repository) is never acted on: the build stops
            naming it, and a manifest's lines remove nothing. With --check nothing is written:
            exit 1 lists every file that differs from the build and anything an interrupted
            build, or anyone else, left.
            """,
        options: [Workspace.config, out, Workspace.environments, check, format])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws { self.arguments = arguments }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let format = arguments[Self.format]
        let outPath = try workspace.outputPath(arguments[Self.out])
        let check = arguments[Self.check]
        let (configuration, compiled, diagnostics) = try workspace.loadAndCompile(arguments[Workspace.environments])
        func report(_ plan: OutputPlan?) -> BuildReport {
            BuildReport(
                plan: plan, check: check, outPath: outPath, environments: compiled?.environments ?? [],
                diagnostics: diagnostics, pathPrefix: workspace.pathPrefix(for: format))
        }
        guard let compiled else {
            try terminal.print(report(nil), as: format)
            return .unusable
        }
        let plan = try Self.output(compiled, to: outPath, check: check, terminal: terminal)
        let built = report(plan)
        try terminal.print(built, as: format)
        // The process ends here: what it read and compiled is freed while it does.
        releaseInBackground((consume configuration, consume compiled))
        return ExitStatus(built)
    }

    /// Plans the files `compiled` renders into the output folder at `outPath` and, unless
    /// `check`, applies the plan as one transaction (`OutputFolder`): what `build` does, and
    /// what `promote --write` does to keep the committed output in step with its edits.
    static func output(_ compiled: CompiledConfiguration, to outPath: String, check: Bool, terminal: Terminal) throws
        -> OutputPlan
    {
        let artifacts = ArtifactRenderer.render(compiled)
        let environments = Set(compiled.environments.map(\.name))
        do {
            let output = try OutputFolder(terminal.url(outPath), forWriting: !check) {
                terminal.err("waiting for another linkwright build of \(PrintableText.escaped(outPath)) to finish")
            }
            if output.completedInterruptedBuild {
                terminal.err("\(PrintableText.escaped(outPath)): completed a build that had been interrupted")
            }
            let plan = try output.plan(artifacts, environments: environments)
            if !check { try output.apply(plan, artifacts: artifacts, environments: environments) }
            return plan
        } catch let error as OutputFolder.WriteError {
            let absolute = terminal.url(outPath).path
            let path = error.path.hasPrefix(absolute) ? outPath + error.path.dropFirst(absolute.count) : error.path
            throw UnusableInput(
                message: "cannot write \(path): \(error.reason)",
                hint: error.changedNothing
                    ? "nothing was changed in \(outPath)" : "run `linkwright build` again to complete the switch")
        }
    }
}
