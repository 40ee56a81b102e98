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
        let selected = arguments[Workspace.environments]
        let (configuration, loadDiagnostics) = try workspace.load(selecting: selected)
        func report(_ plan: OutputPlan?, _ compiled: CompiledConfiguration?, _ diagnostics: [Diagnostic]) -> BuildReport
        {
            BuildReport(
                plan: plan, check: check, outPath: outPath, environments: compiled?.environments ?? [],
                diagnostics: diagnostics, pathPrefix: workspace.pathPrefix(for: format))
        }
        guard let configuration else {
            try terminal.print(report(nil, nil, loadDiagnostics), as: format)
            return .unusable
        }
        // The output folder is opened only for a configuration that loaded without errors; one
        // that fails to compile discards what was staged and leaves the folder as it was.
        let compiled: CompiledConfiguration
        let compileDiagnostics: [Diagnostic]
        let plan: OutputPlan?
        if loadDiagnostics.contains(where: { $0.severity == .error }) {
            (compiled, compileDiagnostics) = Compiler().compile(configuration, environments: selected)
            plan = nil
        } else {
            ((compiled, compileDiagnostics), plan) = try Self.output(
                compiling: configuration, environments: selected, to: outPath, check: check, terminal: terminal)
        }
        let diagnostics = (loadDiagnostics + compileDiagnostics).sorted()
        guard let plan, !diagnostics.contains(where: { $0.severity == .error }) else {
            try terminal.print(report(nil, nil, diagnostics), as: format)
            return .unusable
        }
        let written = report(plan, compiled, diagnostics)
        try terminal.print(written, as: format)
        // The process ends here: what it read and compiled is freed while it does.
        releaseInBackground((consume configuration, consume compiled))
        return ExitStatus(written)
    }

    /// Compiles the selected environments of `configuration` (all when `environments` is empty)
    /// into the output folder at `outPath`, writing (unless `check`) each domain's files while
    /// the next are compiled and rendered. The plan is nil, and nothing written, when
    /// compiling finds an error.
    static func output(
        compiling configuration: Configuration, environments: [String], to outPath: String, check: Bool,
        terminal: Terminal
    ) throws -> ((compiled: CompiledConfiguration, diagnostics: [Diagnostic]), OutputPlan?) {
        let names = configuration.environments.map(\.name).filter { environments.isEmpty || environments.contains($0) }
        do {
            let (compilation, plan) = try update(outPath, check: check, environments: Set(names), terminal: terminal) {
                update in
                // Each domain's files are rendered on the thread that compiled it and written
                // while the other domains compile; an environment's app files follow its domains.
                let compilation = try overlapping(
                    { handOver in
                        Compiler().compile(
                            configuration, environments: environments,
                            eachDomain: { handOver(ArtifactRenderer.render($0)) },
                            each: { handOver(ArtifactRenderer.renderAppFiles($0)) })
                    }, with: update.add)
                guard !compilation.diagnostics.contains(where: { $0.severity == .error }) else {
                    throw Unusable(compilation: compilation)
                }
                return compilation
            }
            return (compilation, plan)
        } catch let unusable as Unusable {
            return (unusable.compilation, nil)
        }
    }

    /// Writes (unless `check`) the files `compiled` renders into the output folder at `outPath`
    /// as one transaction and returns the plan: what `promote --write` does to keep the
    /// committed output in step with its edits.
    static func output(_ compiled: CompiledConfiguration, to outPath: String, check: Bool, terminal: Terminal) throws
        -> OutputPlan
    {
        try update(outPath, check: check, environments: Set(compiled.environments.map(\.name)), terminal: terminal) {
            try $0.add(ArtifactRenderer.render(compiled))
        }.plan
    }

    /// A compilation with errors, which discards the output folder's update.
    private struct Unusable: Error {
        var compilation: (compiled: CompiledConfiguration, diagnostics: [Diagnostic])
    }

    /// Opens the output folder at `outPath` and runs one update of it (`OutputFolder.Update`):
    /// `add` adds the files; the update is then finished (switched in, unless `check`), or
    /// discarded if `add` throws. Returns what `add` returned, and the plan.
    private static func update<Added>(
        _ outPath: String, check: Bool, environments: Set<String>, terminal: Terminal,
        add: (OutputFolder.Update) throws -> Added
    ) throws -> (added: Added, plan: OutputPlan) {
        do {
            let output = try OutputFolder(terminal.url(outPath), forWriting: !check) {
                terminal.err("waiting for another linkwright build of \(PrintableText.escaped(outPath)) to finish")
            }
            if output.completedInterruptedBuild {
                terminal.err("\(PrintableText.escaped(outPath)): completed a build that had been interrupted")
            }
            let update = try output.update(environments: environments)
            let added: Added
            do {
                added = try add(update)
            } catch {
                update.discard()
                throw error
            }
            return (added, try update.finish())
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
