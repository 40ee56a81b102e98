import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright build`: compile every environment and write its files, or check that the files on
/// disk are what the configuration compiles to.
struct BuildCommand: Command {
    static let out = Option<String>(name: "out", valueName: "DIR", default: "dist", help: "Output folder")
    static let check = Option<Bool>(name: "check", help: "Compare with the output folder instead of writing")
    static let format = Option.format([OutputFormat.text, .json])

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
            folder are never followed. With --check nothing is written: exit 1 lists every file
            that differs from the build and anything an interrupted build left.
            """,
        options: [Workspace.config, out, Workspace.environments, check, format])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws { self.arguments = arguments }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let json = arguments[Self.format] == .json
        let (_, compiled, diagnostics) = try workspace.loadAndCompile(arguments[Workspace.environments])
        if !json { workspace.printer.printText(diagnostics) }
        guard let compiled else {
            if json { terminal.out(report(diagnostics: diagnostics, printer: workspace.printer).rendered()) }
            return .unusable
        }
        let outPath = arguments[Self.out]
        guard !outPath.isEmpty else {
            throw UsageError(message: "--out needs a folder; the default is \(Self.out.spec.defaultValue!)")
        }
        let artifacts = ArtifactRenderer.render(compiled)
        let environments = Set(compiled.environments.map(\.name))
        let check = arguments[Self.check]
        let plan: OutputFolder.Plan
        do {
            let output = try OutputFolder(terminal.url(outPath), forWriting: !check) {
                terminal.err("waiting for another linkwright build of \(PrintableText.escaped(outPath)) to finish")
            }
            if output.completedInterruptedBuild {
                terminal.err("\(PrintableText.escaped(outPath)): completed a build that had been interrupted")
            }
            plan = try output.plan(artifacts, environments: environments)
            if !check { try output.apply(plan, artifacts: artifacts, environments: environments) }
        } catch let error as OutputFolder.WriteError {
            let absolute = terminal.url(outPath).path
            let path = error.path.hasPrefix(absolute) ? outPath + error.path.dropFirst(absolute.count) : error.path
            throw UnusableInput(
                message: "cannot write \(path): \(error.reason)",
                hint: error.changedNothing
                    ? "nothing was changed in \(outPath)" : "run `linkwright build` again to complete the switch")
        }
        let prefix = PrintableText.escaped(outPath.hasSuffix("/") ? outPath : outPath + "/")
        for kept in plan.kept {
            terminal.err(
                "\(prefix)\(PrintableText.escaped(kept.path)): left in place although no longer produced: it \(kept.reason)"
            )
        }
        if json {
            terminal.out(
                report(
                    plan: plan, compiled: compiled, check: check, diagnostics: diagnostics, printer: workspace.printer
                ).rendered())
        } else {
            printSummary(plan: plan, compiled: compiled, outPath: outPath, check: check, terminal: terminal)
        }
        return check && !plan.isUpToDate ? .blocked : .success
    }

    private func printSummary(
        plan: OutputFolder.Plan, compiled: CompiledConfiguration, outPath: String, check: Bool, terminal: Terminal
    ) {
        // Paths and names can come from the output folder and the configuration: escaped.
        let outPath = PrintableText.escaped(outPath)
        let prefix = outPath.hasSuffix("/") ? outPath : outPath + "/"
        if check {
            for path in plan.changed { terminal.out("\(prefix)\(PrintableText.escaped(path)): differs from the build") }
            for path in plan.created { terminal.out("\(prefix)\(PrintableText.escaped(path)): missing") }
            for path in plan.stale { terminal.out("\(prefix)\(PrintableText.escaped(path)): no longer produced") }
            for path in plan.leftovers {
                terminal.out(
                    "\(prefix)\(PrintableText.escaped(path)): left by an interrupted build; `linkwright build` completes or removes it"
                )
            }
            let outOfDate = plan.changed.count + plan.created.count + plan.stale.count + plan.leftovers.count
            if outOfDate == 0 {
                terminal.out("\(outPath): \(plan.unchanged.count) files up to date")
            } else {
                terminal.out(
                    "\(outPath): \(outOfDate) of \(outOfDate + plan.unchanged.count) files out of date; run `linkwright build` to update them"
                )
            }
            return
        }
        for environment in compiled.environments {
            let hosts = environment.sites.flatMap(\.servedHosts).map(\.name)
            let entitlements = environment.iosApps.filter { !$0.associatedDomains.isEmpty }.count
            let filters = environment.androidApps.filter { !$0.intentFilters.isEmpty || !$0.schemes.isEmpty }.count
            let urlTypes = environment.iosApps.filter { !$0.urlSchemes.isEmpty }.count
            terminal.out(
                "\(terminal.styled(PrintableText.escaped(environment.name), .bold)) (\(environment.tier.rawValue)): "
                    + "\(Self.count(hosts.count, "host")) (\(PrintableText.escaped(hosts.joined(separator: ", ")))), "
                    + "\(Self.count(entitlements, "entitlements file")), \(Self.count(filters, "intent-filter file")), "
                    + Self.count(urlTypes, "URL-types file"))
        }
        terminal.out(
            "\(outPath): \(plan.created.count) created, \(plan.changed.count) updated, \(plan.unchanged.count) unchanged, \(plan.stale.count) removed"
        )
    }

    /// "1 host", "3 hosts".
    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    private func report(
        plan: OutputFolder.Plan? = nil, compiled: CompiledConfiguration? = nil, check: Bool = false,
        diagnostics: [Diagnostic],
        printer: DiagnosticPrinter
    ) -> JSON {
        var members: [(String, JSON)] = []
        if let plan {
            let statuses: [(String, [String])] =
                check
                ? [
                    ("differs", plan.changed), ("missing", plan.created), ("stale", plan.stale),
                    ("up_to_date", plan.unchanged), ("leftover", plan.leftovers), ("kept", plan.kept.map(\.path)),
                ]
                : [
                    ("updated", plan.changed), ("created", plan.created), ("removed", plan.stale),
                    ("unchanged", plan.unchanged), ("leftover_removed", plan.leftovers),
                    ("kept", plan.kept.map(\.path)),
                ]
            let files = statuses.flatMap { status, paths in paths.map { ($0, status) } }.sorted { $0.0 < $1.0 }
            members.append(
                ("files", .array(files.map { .object([("path", .string($0.0)), ("status", .string($0.1))]) })))
        }
        if let compiled {
            members.append(("environments", .array(compiled.environments.map { .string($0.name) })))
        }
        members.append(("diagnostics", .array(diagnostics.map(printer.json))))
        return .object(members)
    }
}
