import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright build`: compile every environment and write its files, or check that the files on
/// disk are what the configuration compiles to.
struct BuildCommand: Command {
    static let spec = CommandSpec(
        name: "build",
        abstract: "Compile the configuration into association files, entitlements and intent filters",
        usage: "build [--config DIR] [--out DIR] [--env NAME]... [--check] [--format text|json]",
        discussion: """
            Writes, for each environment and host, into the output folder:
              <env>/<host>/.well-known/apple-app-site-association
              <env>/<host>/.well-known/assetlinks.json
              <env>/ios/<app>.entitlements
              <env>/android/<app>.intent-filters.xml
            Files are written atomically and only when their bytes change. Files an earlier build
            wrote for hosts or apps that no longer exist are removed; other files are never touched.
            With --check nothing is written: exit 1 lists every file that differs from the build.
            """,
        options: [
            .config,
            OptionSpec(name: "out", valueName: "DIR", help: "Output folder (default: dist)"),
            OptionSpec(name: "env", valueName: "NAME", help: "Only this environment", repeatable: true),
            OptionSpec(name: "check", valueName: nil, help: "Compare with the output folder instead of writing"),
            .format(["text", "json"]),
        ])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws { self.arguments = arguments }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let json = arguments.value("format") == "json"
        let (_, compiled, diagnostics) = try workspace.loadAndCompile(arguments.all("env"))
        if !json { workspace.printer.printText(diagnostics) }
        guard let compiled else {
            if json { terminal.out(report(diagnostics: diagnostics, printer: workspace.printer).rendered()) }
            return .unusable
        }
        let outPath = arguments.value("out") ?? "dist"
        let output = OutputFolder(root: terminal.url(outPath))
        let artifacts = ArtifactRenderer.render(compiled)
        let environments = Set(compiled.environments.map(\.name))
        let plan = try output.plan(artifacts, environments: environments)
        let check = arguments.flag("check")
        if !check {
            do {
                try output.apply(plan, artifacts: artifacts, environments: environments)
            } catch {
                throw UnusableInput(message: "\(error)", hint: "nothing was changed in \(outPath)")
            }
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
            let outOfDate = plan.changed.count + plan.created.count + plan.stale.count
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
            let filters = environment.androidApps.filter { !$0.intentFilters.isEmpty }.count
            terminal.out(
                "\(terminal.styled(PrintableText.escaped(environment.name), .bold)) (\(environment.tier.rawValue)): "
                    + "\(Self.count(hosts.count, "host")) (\(PrintableText.escaped(hosts.joined(separator: ", ")))), "
                    + "\(Self.count(entitlements, "entitlements file")), \(Self.count(filters, "intent-filter file"))")
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
                    ("up_to_date", plan.unchanged),
                ]
                : [
                    ("updated", plan.changed), ("created", plan.created), ("removed", plan.stale),
                    ("unchanged", plan.unchanged),
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
