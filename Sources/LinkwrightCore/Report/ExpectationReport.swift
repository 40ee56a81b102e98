/// What `test` found: every expectation on every host and platform it applies to.
public struct ExpectationReport: Report {
    public var title = "linkwright test"
    /// Every check when `keepingPassed`, otherwise the failed ones only: a large configuration
    /// makes millions of checks, and only JSON and JUnit list the passing ones.
    public let results: [ExpectationRunner.Result]
    public let checks: Int
    public let environments: Int
    public let context: ReportContext
    /// The failed checks, and each as the finding `check` reports it as: made once, since a
    /// large configuration fails hundreds of thousands and every printer reads them.
    public let failures: [ExpectationRunner.Result]
    public let findings: [Finding]

    public init(
        _ configuration: Configuration, _ compiled: CompiledConfiguration, keepingPassed: Bool, pathPrefix: String
    ) {
        var results: [ExpectationRunner.Result] = []
        let tally = ExpectationRunner.forEach(configuration, compiled, includingPassed: keepingPassed) {
            results.append($0)
        }
        self.results = results
        checks = tally.checks
        environments = tally.environments.count
        let context = ReportContext(pathPrefix: pathPrefix)
        self.context = context
        failures = results.filter { !$0.passed }
        findings = failures.map { result in
            Finding(
                rule: PolicyRules.expectationFailed.id, severity: .error,
                message: result.failureMessage(
                    namingEnvironment: true, decidingRule: result.decidingRule.map(context.place)),
                location: result.location, hint: result.comment, witnesses: [result.url],
                environment: result.environment, host: result.host, platform: result.platform,
                identity: [result.environment, result.url, result.platform.rawValue])
        }
    }

    public var rules: [ReportRule] { ReportRule.policies.filter { $0.id == PolicyRules.expectationFailed.id } }

    public var summary: String {
        // Nothing checked is not "all passed": say so, and how to start.
        guard checks > 0 else {
            return "no expectations to check: add `expectations:` (URLs with opens_app or opens_web) to a file of "
                + "domains/ (docs/configuration.md)"
        }
        let failed = failures.count
        return failed == 0
            ? "\(checks) checks passed in \(environments) environments" : "\(failed) of \(checks) checks failed"
    }

    /// Each failed check, then the counts.
    public func text(_ style: TextStyle) -> PrintedReport {
        let lines = findings.map { finding in
            DiagnosticText.line(
                id: finding.rule, severity: finding.severity, message: finding.message, at: finding.location,
                hint: finding.hint, pathPrefix: context.pathPrefix, style: style)
        }
        return PrintedReport(out: (lines + [summary]).joined(separator: "\n") + "\n")
    }

    /// Every check with its verdict.
    public var json: JSON {
        .array(
            results.map { result in
                .object([
                    ("environment", .string(result.environment)), ("host", .string(result.host)),
                    ("platform", .string(result.platform.rawValue)), ("url", .string(result.url)),
                    ("expected", .string(result.expected)), ("actual", .string(result.actual)),
                    ("passed", .bool(result.passed)),
                    ("expectation", .string(place(result.location))),
                    ("decided_by", result.decidingRule.map { .string(place($0)) } ?? .null),
                ])
            })
    }

    /// One suite per environment, one case per check, passing ones included.
    public var junit: JUnitDocument {
        let suites = results.map(\.environment).uniqued().map { environment in
            JUnitDocument.Suite(
                name: environment,
                cases: results.filter { $0.environment == environment }.map { result in
                    JUnitDocument.TestCase(
                        className: "\(environment).\(result.host)",
                        name: "\(result.platform.rawValue) \(result.url) → \(result.expected)",
                        failure: result.passed
                            ? nil : JUnitDocument.Failure(message: result.mismatch, lines: [place(result.location)]))
                })
        }
        return JUnitDocument(name: title, suites: suites)
    }
}
