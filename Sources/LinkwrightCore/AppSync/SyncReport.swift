/// What `sync` did to the app's own files, or with `--check` which of them drifted from the
/// contract and how.
public struct SyncReport: Report {
    public var title = "linkwright sync"
    public var check: Bool
    /// One per declared file `sync` could read, in declaration order.
    public var outcomes: [AppFileOutcome]
    /// Files it could not keep in step; any makes the report unusable and nothing is written.
    public var problems: [AppFileProblem]
    /// The configuration's diagnostics.
    public var diagnostics: [Diagnostic]
    /// Whether the configuration compiled, so files were looked at at all.
    public var compiled: Bool
    /// What file names start with (`Workspace.pathPrefix(for:)`).
    public var pathPrefix: String
    /// Locations are written whole (`shown`): an app file's path may climb out of the
    /// configuration folder, and `links/../ios/App.entitlements` attaches to no file on GitHub.
    public var context: ReportContext { ReportContext() }

    /// `files` is nil when the configuration did not compile, so no file was looked at.
    public init(
        check: Bool, files: (outcomes: [AppFileOutcome], problems: [AppFileProblem])?, diagnostics: [Diagnostic],
        pathPrefix: String
    ) {
        self.check = check
        (outcomes, problems) = files ?? ([], [])
        compiled = files != nil
        self.diagnostics = diagnostics
        self.pathPrefix = pathPrefix
    }

    public var isUnusable: Bool { !compiled || !problems.isEmpty }

    /// Lines of what differs shown per file in text: a summary, not the whole edit.
    static let shownDifferences = 12

    var drifted: [AppFileOutcome] { outcomes.filter(\.changes) }

    /// The app file's path as output names it: the prefix and the declared path, `..` taken.
    func shown(_ file: DeclaredAppFile) -> String { AppFilePath.joined(pathPrefix, file.path.value) }

    /// Where a file's finding points: the app file itself (at the problem's place in it).
    func location(_ file: DeclaredAppFile, line: Int? = nil, column: Int? = nil) -> SourceLocation {
        SourceLocation(file: shown(file), line: line ?? 1, column: column ?? 1)
    }

    public var findings: [Finding] {
        var findings = diagnostics.map { diagnostic in
            var finding = Finding(diagnostic)
            if let file = finding.location?.file { finding.location?.file = pathPrefix + file }
            return finding
        }
        for problem in problems {
            findings.append(
                Finding(
                    rule: DiagnosticID.appFileUnusable.rawValue, severity: DiagnosticID.appFileUnusable.severity,
                    message: "\(shown(problem.file)) \(problem.message)",
                    location: location(problem.file, line: problem.line, column: problem.column),
                    hint: problem.hint, environment: problem.file.environment, app: problem.file.app,
                    identity: [problem.file.path.value, problem.message]))
        }
        guard check, problems.isEmpty else { return findings }
        for outcome in drifted {
            let file = outcome.file
            findings.append(
                Finding(
                    rule: DiagnosticID.appFileOutOfDate.rawValue, severity: DiagnosticID.appFileOutOfDate.severity,
                    message: "\(shown(file)): \(file.kind.keeps) of \(file.app) in \(file.environment) differ "
                        + "from the configuration: \(outcome.differences.joined(separator: "; "))",
                    location: location(file), hint: "run `linkwright sync` and commit the file",
                    environment: file.environment, app: file.app, identity: [file.path.value]))
        }
        return findings
    }

    public var rules: [ReportRule] { ReportRule.diagnostics(reported: Set(findings.map(\.rule))) }

    public var summary: String {
        guard compiled else { return "nothing synced: the configuration is invalid" }
        guard problems.isEmpty else {
            return check
                ? "\(counted(problems.count, "app file")) cannot be checked"
                : "nothing written: \(counted(problems.count, "app file")) cannot be kept in step"
        }
        let changed = drifted.count
        if check {
            return changed == 0
                ? "\(counted(outcomes.count, "app file")) in step with the configuration"
                : "\(changed) of \(counted(outcomes.count, "app file")) out of step; run `linkwright sync` to update them"
        }
        return "\(changed) updated, \(outcomes.count - changed) unchanged"
    }

    /// Diagnostics and problems on standard error; each file's fate, with what differs, on
    /// standard output. Every value from the configuration or the files is escaped.
    public func text(_ style: TextStyle) -> PrintedReport {
        let escaped: (String) -> String = PrintableText.escaped
        var err = diagnostics.map { DiagnosticText.line($0, pathPrefix: pathPrefix, style: style) + "\n" }
        for problem in problems {
            err.append(
                DiagnosticText.line(
                    id: DiagnosticID.appFileUnusable.rawValue, severity: DiagnosticID.appFileUnusable.severity,
                    message: problem.message,
                    at: location(problem.file, line: problem.line, column: problem.column),
                    hint: problem.hint, pathPrefix: "", style: style) + "\n")
        }
        var out: [String] = []
        if compiled && problems.isEmpty {
            for outcome in outcomes {
                let file = outcome.file
                let path = escaped(shown(file))
                let what = "\(file.kind.keeps) of \(escaped(file.app)) in \(escaped(file.environment))"
                guard outcome.changes else {
                    out.append("\(path): in step (\(what))")
                    continue
                }
                out.append("\(path): \(check ? "differs" : "updated") (\(what))")
                for line in outcome.differences.prefix(Self.shownDifferences) { out.append("  " + escaped(line)) }
                if outcome.differences.count > Self.shownDifferences {
                    out.append(
                        "  … and \(outcome.differences.count - Self.shownDifferences) more (--format json lists them all)"
                    )
                }
                if let note = outcome.note, !check { err.append("note: \(path): \(escaped(note))\n") }
            }
        }
        out.append(escaped(summary))
        return PrintedReport(out: out.joined(separator: "\n") + "\n", err: err.joined())
    }

    /// Every file with its status and what differs, the problems and the diagnostics.
    public var json: JSON {
        var members: [(String, JSON)] = [("check", .bool(check))]
        members.append(
            (
                "files",
                .array(
                    outcomes.map { outcome in
                        let status = outcome.changes ? (check ? "differs" : "updated") : "in_step"
                        return .object([
                            ("path", .string(shown(outcome.file))),
                            ("environment", .string(outcome.file.environment)), ("app", .string(outcome.file.app)),
                            ("kind", .string(outcome.file.kind.rawValue)), ("status", .string(status)),
                            ("differences", .array(outcome.differences.map(JSON.string))),
                        ])
                    })
            ))
        members.append(
            (
                "problems",
                .array(
                    problems.map { problem in
                        .object([
                            ("path", .string(shown(problem.file))),
                            ("line", problem.line.map { .int($0) } ?? .null),
                            ("column", problem.column.map { .int($0) } ?? .null),
                            ("message", .string(problem.message)), ("hint", .string(problem.hint)),
                        ])
                    })
            ))
        members.append(
            ("diagnostics", .array(diagnostics.map { DiagnosticText.json($0, pathPrefix: pathPrefix) })))
        return .object(members)
    }
}
