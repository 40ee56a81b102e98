import LinkwrightCore

/// `linkwright test`: every `opens_app` / `opens_web` expectation, on every host of every
/// environment that serves its domain, on iOS and Android.
struct TestCommand: Command {
    static let format = Option.format([OutputFormat.text, .json, .junit])

    static let spec = CommandSpec(
        name: "test",
        abstract: "Check the URL expectations of every domain on every host and platform",
        discussion: """
            A path expectation is checked on every host serving its domain (a wildcard host on a
            representative subdomain), an https:// one on its own host. iOS opens an app when its
            entitlements claim the host and the association file iOS fetches for that claim matches;
            Android when an intent filter accepts the URL and assetlinks.json vouches for the app
            (with its dynamic rules: Android 15 and later). Exit 1 when any expectation fails.
            """,
        options: [Workspace.config, Workspace.environments, format])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws { self.arguments = arguments }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let (configuration, compiled, diagnostics) = try workspace.loadAndCompile(arguments[Workspace.environments])
        guard let configuration, let compiled else {
            workspace.printer.printText(diagnostics)
            return .unusable
        }
        switch arguments[Self.format] {
        case .json, .junit:
            let results = ExpectationRunner.run(configuration, compiled)
            let printer = workspace.printer(for: arguments[Self.format])
            terminal.out(
                arguments[Self.format] == .json
                    ? JSON.array(results.map { json($0, printer) }).rendered() : junit(results, printer))
            return results.allSatisfy(\.passed) ? .success : .blocked
        default:
            // Text reports failures as they are found and keeps only counts: a large
            // configuration makes millions of checks.
            var checks = 0
            var failures = 0
            var environments: Set<String> = []
            ExpectationRunner.forEach(configuration, compiled) { result in
                checks += 1
                environments.insert(result.environment)
                guard !result.passed else { return }
                failures += 1
                terminal.out(
                    workspace.printer.text(
                        PolicyRules.expectationFailed,
                        result.failureMessage(
                            namingEnvironment: true, decidingRule: result.decidingRule.map(workspace.printer.path)),
                        at: result.location, hint: result.comment))
            }
            terminal.out(
                failures == 0
                    ? "\(checks) checks passed in \(environments.count) environments"
                    : "\(failures) of \(checks) checks failed")
            return failures == 0 ? .success : .blocked
        }
    }

    private func json(_ result: ExpectationRunner.Result, _ printer: DiagnosticPrinter) -> JSON {
        .object([
            ("environment", .string(result.environment)), ("host", .string(result.host)),
            ("platform", .string(result.platform.rawValue)), ("url", .string(result.url)),
            ("expected", .string(result.expected)), ("actual", .string(result.actual)),
            ("passed", .bool(result.passed)),
            ("expectation", .string(printer.path(result.location))),
            ("decided_by", result.decidingRule.map { .string(printer.path($0)) } ?? .null),
        ])
    }

    private func junit(_ results: [ExpectationRunner.Result], _ printer: DiagnosticPrinter) -> String {
        let environments = results.map(\.environment).uniqued()
        let suites = environments.map { environment in
            JUnitDocument.Suite(
                name: environment,
                cases: results.filter { $0.environment == environment }.map { result in
                    JUnitDocument.TestCase(
                        className: "\(environment).\(result.host)",
                        name: "\(result.platform.rawValue) \(result.url) → \(result.expected)",
                        failure: result.passed
                            ? nil
                            : JUnitDocument.Failure(message: result.mismatch, lines: [printer.path(result.location)]))
                })
        }
        return JUnitDocument(name: "linkwright test", suites: suites).rendered()
    }
}
