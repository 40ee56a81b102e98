/// What `build` did to its output folder, or with `--check` what differs from the build.
public struct BuildReport: Report {
    public var title = "linkwright build"
    /// `nil` when the configuration could not be compiled.
    public var plan: OutputPlan?
    public var check: Bool
    /// The output folder as the user named it.
    public var outPath: String
    public var environments: [CompiledEnvironment]
    public var diagnostics: [Diagnostic]
    public var context: ReportContext

    public init(
        plan: OutputPlan?, check: Bool, outPath: String, environments: [CompiledEnvironment],
        diagnostics: [Diagnostic], pathPrefix: String
    ) {
        self.plan = plan
        self.check = check
        self.outPath = outPath
        self.environments = environments
        self.diagnostics = diagnostics
        context = ReportContext(pathPrefix: pathPrefix)
    }

    public var isUnusable: Bool { plan == nil }

    var folder: String { outPath.hasSuffix("/") ? outPath : outPath + "/" }

    /// The configuration's diagnostics, then with `--check` one finding per file out of date.
    public var findings: [Finding] {
        var findings = diagnostics.map(Finding.init)
        guard check, let plan else { return findings }
        let outOfDate: [(String, String)] =
            plan.changed.map { ($0, "differs from the build") } + plan.created.map { ($0, "is missing") }
            + plan.stale.map { ($0, "is no longer produced") }
            + plan.leftovers.map { ($0, "was left by an interrupted build") }
            + plan.foreign.map { ($0.path, $0.reason) }
        for (path, what) in outOfDate {
            findings.append(
                Finding(
                    rule: DiagnosticID.outputOutOfDate.rawValue, severity: DiagnosticID.outputOutOfDate.severity,
                    message: "\(folder)\(path) \(what)", location: nil,
                    hint: "run `linkwright build` and commit the output", identity: [path]))
        }
        return findings
    }

    public var rules: [ReportRule] {
        ReportRule.diagnostics(reported: Set(findings.map(\.rule)))
    }

    public var summary: String {
        guard let plan else { return "\(outPath): nothing built: the configuration is invalid" }
        guard check else {
            return "\(outPath): \(plan.created.count) created, \(plan.changed.count) updated, "
                + "\(plan.unchanged.count) unchanged, \(plan.stale.count) removed"
        }
        let outOfDate =
            plan.changed.count + plan.created.count + plan.stale.count + plan.leftovers.count + plan.foreign.count
        return outOfDate == 0
            ? "\(outPath): \(plan.unchanged.count) files up to date"
            : "\(outPath): \(outOfDate) of \(outOfDate + plan.unchanged.count) files out of date; "
                + "run `linkwright build` to update them"
    }

    /// Diagnostics and files left in place on standard error; per environment what was written,
    /// or with `--check` each file out of date, on standard output. Paths and names come from the
    /// output folder and the configuration: escaped.
    /// Hosts an environment's line names before it counts the rest: a fleet of thousands is a
    /// count, not a paragraph.
    static let hostsNamed = 10

    /// "a.example, b.example and 3 more".
    static func named(_ hosts: [String]) -> String {
        let more = hosts.count - hostsNamed
        return hosts.prefix(hostsNamed).joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    }

    public func text(_ style: TextStyle) -> PrintedReport {
        var err = diagnostics.map { DiagnosticText.line($0, pathPrefix: context.pathPrefix, style: style) + "\n" }
        guard let plan else { return PrintedReport(out: "", err: err.joined()) }
        let folder = PrintableText.escaped(folder)
        for kept in plan.kept {
            err.append(
                "\(folder)\(PrintableText.escaped(kept.path)): left in place although no longer produced: it \(kept.reason)\n"
            )
        }
        var out: [String] = []
        if check {
            for path in plan.changed { out.append("\(folder)\(PrintableText.escaped(path)): differs from the build") }
            for path in plan.created { out.append("\(folder)\(PrintableText.escaped(path)): missing") }
            for path in plan.stale { out.append("\(folder)\(PrintableText.escaped(path)): no longer produced") }
            for path in plan.leftovers {
                out.append(
                    "\(folder)\(PrintableText.escaped(path)): left by an interrupted build; `linkwright build` completes or removes it"
                )
            }
            for foreign in plan.foreign {
                out.append(
                    "\(folder)\(PrintableText.escaped(foreign.path)): \(foreign.reason); look at it and remove it"
                )
            }
        } else {
            for environment in environments {
                let hosts = environment.sites.flatMap(\.servedHosts).map(\.name)
                let entitlements = environment.iosApps.filter { !$0.associatedDomains.isEmpty }.count
                let filters = environment.androidApps.filter { !$0.intentFilters.isEmpty || !$0.schemes.isEmpty }.count
                let urlTypes = environment.iosApps.filter { !$0.urlSchemes.isEmpty }.count
                out.append(
                    "\(style.styled(PrintableText.escaped(environment.name), .bold)) (\(environment.tier.rawValue)): "
                        + "\(counted(hosts.count, "host")) (\(PrintableText.escaped(Self.named(hosts)))), "
                        + "\(counted(entitlements, "entitlements file")), \(counted(filters, "intent-filter file")), "
                        + counted(urlTypes, "URL-types file")
                )
            }
        }
        out.append(PrintableText.escaped(summary))
        return PrintedReport(out: out.joined(separator: "\n") + "\n", err: err.joined())
    }

    /// Every file with its status, the environments built and the diagnostics.
    public var json: JSON {
        var members: [(String, JSON)] = []
        if let plan {
            let statuses: [(String, [String])] =
                check
                ? [
                    ("differs", plan.changed), ("missing", plan.created), ("stale", plan.stale),
                    ("up_to_date", plan.unchanged), ("leftover", plan.leftovers), ("kept", plan.kept.map(\.path)),
                    ("foreign", plan.foreign.map(\.path)),
                ]
                : [
                    ("updated", plan.changed), ("created", plan.created), ("removed", plan.stale),
                    ("unchanged", plan.unchanged), ("leftover_removed", plan.leftovers),
                    ("kept", plan.kept.map(\.path)),
                ]
            let files = statuses.flatMap { status, paths in paths.map { ($0, status) } }.sorted { $0.0 < $1.0 }
            members.append(
                ("files", .array(files.map { .object([("path", .string($0.0)), ("status", .string($0.1))]) })))
            members.append(("environments", .array(environments.map { .string($0.name) })))
        }
        members.append(
            ("diagnostics", .array(diagnostics.map { DiagnosticText.json($0, pathPrefix: context.pathPrefix) })))
        return .object(members)
    }
}
