/// What `test` found: every expectation on every platform, with where it passed and failed.
///
/// A path expectation is checked on every host of its domain, so one broken rule fails it on a
/// whole fleet: each failure is one expectation on one platform with one outcome (the same
/// result from the same deciding rule) and every host where it happened, reported once.
public struct ExpectationReport: Report {
    public var title = "linkwright test"
    /// Every expectation on every platform it concerns, or only the failed ones (see `init`).
    public let checks: [ExpectationRunner.Check]
    /// How many single checks (one expectation on one host and platform) were made and failed.
    public let checkCount: Int
    public let failedCount: Int
    public let environments: Int
    public let context: ReportContext
    /// The failed outcomes, most important first: failing in a production environment, then on
    /// more hosts, then in file order.
    public let failures: [Failure]
    /// Each failure as the finding `check` reports it under, made when first asked for: the
    /// text and JSON reports, and the exit status (`blocks`), never read them.
    public var findings: [Finding] {
        madeFindings.value { [failures, context] in failures.parallelMap { Self.finding($0, context) } }
    }
    private let madeFindings = Once<[Finding]>()

    /// One expectation on one platform with one failed outcome.
    public struct Failure: Sendable {
        public var check: ExpectationRunner.Check
        public var outcome: ExpectationRunner.Outcome
    }

    /// Hosts `where:` names per environment before it counts the rest.
    static let hostsNamed = 3
    /// URLs a finding carries as witnesses.
    static let witnessesKept = 5

    /// `detail`: what JSON and JUnit list (`.everyPlace`, `.everyCheck`); text and the other
    /// formats need the failures only.
    public init(
        _ configuration: Configuration, _ compiled: CompiledConfiguration, keeping detail: ExpectationRunner.Detail,
        pathPrefix: String
    ) {
        let (checks, tally) = ExpectationRunner.checks(configuration, compiled, keeping: detail)
        self.checks = checks
        checkCount = tally.checks
        environments = tally.environments.count
        let context = ReportContext(pathPrefix: pathPrefix)
        self.context = context
        let production = Set(
            configuration.environments.filter { $0.tier.value == .production }.map(\.name))
        // Ranked by small keys, then gathered: a fleet's report sorts thousands of failures, and
        // moving each failure's strings and arrays through the sort cost more than ranking them.
        var found: [Failure] = []
        var ranks: [(inProduction: Bool, count: Int, position: Int)] = []
        for check in checks {
            for outcome in check.outcomes where !outcome.passed {
                let inProduction = outcome.places.segmentEnvironments.contains(where: production.contains)
                ranks.append((inProduction, outcome.count, found.count))
                found.append(Failure(check: check, outcome: outcome))
            }
        }
        failedCount = ranks.reduce(0) { $0 + $1.count }
        ranks.sort { left, right in
            if left.inProduction != right.inProduction { return left.inProduction }
            if left.count != right.count { return left.count > right.count }
            return left.position < right.position
        }
        failures = ranks.map { found[$0.position] }
    }

    /// Every failure is an open error finding: the report blocks when a check failed and errors
    /// block, as `blocks(_:)` decides for each of its findings, which need not be made for it.
    public var blocks: Bool { !failures.isEmpty && context.failOn.blocks(.error) }

    /// A failure as a finding: its message (`message`), and the first place standing for the
    /// rest (`Finding.environment`, `host`) with the URLs of the first few as witnesses.
    static func finding(_ failure: Failure, _ context: ReportContext) -> Finding {
        let (check, outcome) = (failure.check, failure.outcome)
        let first = outcome.places[0]
        return Finding(
            rule: PolicyRules.expectationFailed.id.rawValue, severity: .error, message: message(failure, context),
            location: check.location,
            hint: check.comment,
            witnesses: outcome.places.prefix(witnessesKept).map(check.url(at:)),
            environment: first.environment, host: first.host, platform: check.platform,
            identity: [check.url.description, check.platform.rawValue, outcome.actual])
    }

    /// What a failure's finding and line say: the URL, the mismatch and how many hosts.
    static func message(_ failure: Failure, _ context: ReportContext) -> String {
        let (check, outcome) = (failure.check, failure.outcome)
        let first = outcome.places[0]
        let decidingRule = outcome.decidingRule.map(context.place)
        guard outcome.places.count > 1 else {
            return check.result(outcome, at: first).failureMessage(namingEnvironment: true, decidingRule: decidingRule)
        }
        // A handful of environments, in runs: counted by scanning the ones before, not hashing.
        var environments = 0
        for (position, environment) in outcome.places.segmentEnvironments.enumerated()
        where !outcome.places.segmentEnvironments.prefix(position).contains(environment) {
            environments += 1
        }
        // Appended in place, and without the first place's URL, which only a single place's
        // message names: a fleet's report writes 15,000 of these.
        var message = check.url.description
        message.reserveCapacity(message.utf8.count + 160)
        message += " on "
        message += check.platform.rawValue
        message += ": "
        ExpectationRunner.Result.appendMismatch(expected: check.expected, actual: outcome.actual, to: &message)
        if let decidingRule {
            message += " (decided by "
            message += decidingRule
            message += ")"
        }
        message += " on "
        appendCounted(outcome.places.count, "host", to: &message)
        message += " in "
        if environments > 1 {
            appendCounted(environments, "environment", to: &message)
        } else {
            message += first.environment
        }
        return message
    }

    public var rules: [ReportRule] { ReportRule.policies.filter { $0.id == PolicyRules.expectationFailed.id.rawValue } }

    public var summary: String {
        // Nothing checked is not "all passed": say so, and how to start.
        guard checkCount > 0 else {
            return "no expectations to check: add `expectations:` (URLs with opens_app or opens_web) to a file of "
                + "domains/ (docs/configuration.md)"
        }
        guard failedCount > 0 else {
            return "\(counted(checkCount, "check")) passed in \(counted(environments, "environment"))"
        }
        return "\(failedCount) of \(checkCount) checks failed"
            + (failures.count == failedCount ? "" : ", as \(counted(failures.count, "failure")) listed above")
    }

    /// Each failure with where it happened, then the counts (`writeText`).
    public func text(_ style: TextStyle) -> PrintedReport {
        var out: [UInt8] = []
        writeText(style) { out += $0 }
        return PrintedReport(out: String(decoding: out, as: UTF8.self))
    }

    /// Failures whose lines are written into one string on one core at a time.
    static let failuresPerTextPiece = 256

    /// The text report, a piece of `failuresPerTextPiece` failures at a time: the pieces are
    /// written on every core, and a fleet's 15,000 failures (7 MB) are never joined into one
    /// string, nor copied again on their way out.
    func writeText(_ style: TextStyle, to write: ([UInt8]) -> Void) {
        let (failures, context) = (failures, context)
        // A fleet's failures of one domain usually list the same host groups: each distinct
        // list is written once.
        var whereLines: [[ExpectationRunner.PlaceList.Segment]: String] = [:]
        for failure in failures where failure.outcome.places.count > 1 {
            let identity = failure.outcome.places.identity
            if whereLines[identity] == nil {
                var line = "\n  "
                style.append(.dim, to: &line) { $0 += "where:" }
                line += " "
                line += PrintableText.escaped(Self.places(failure))
                whereLines[identity] = line
            }
        }
        let pieces = stride(from: 0, to: failures.count, by: Self.failuresPerTextPiece).map {
            $0..<min($0 + Self.failuresPerTextPiece, failures.count)
        }
        let written = pieces.parallelMap { [whereLines] range in
            var text = ""
            for failure in failures[range] {
                // The finding's rule, severity, message and location, without making the finding.
                DiagnosticText.appendLine(
                    id: PolicyRules.expectationFailed.id.rawValue, severity: .error,
                    message: Self.message(failure, context), at: failure.check.location, hint: nil,
                    pathPrefix: context.pathPrefix, style: style, to: &text)
                if failure.outcome.places.count > 1 { text += whereLines[failure.outcome.places.identity]! }
                if let hint = failure.check.comment { DiagnosticText.appendHint(hint, style: style, to: &text) }
                text += "\n"
            }
            return Array(text.utf8)
        }
        for piece in written { write(piece) }
        write(Array((summary + "\n").utf8))
    }

    /// "production: a.example, b.example, c.example and 7 more hosts; staging: …".
    static func places(_ failure: Failure) -> String {
        // Only the first hosts of each environment are named: the rest are counted, not kept
        // (15,000 failures of a fleet's expectations list a hundred hosts each).
        // Appended in place: joining each run's pieces into new strings, then the runs, cost
        // half of writing the report of a fleet's 15,000 failures.
        var text = ""
        text.reserveCapacity(256)
        for run in failure.outcome.places.environmentRuns(naming: hostsNamed) {
            if !text.isEmpty { text += "; " }
            text += run.environment
            text += ": "
            for (index, host) in run.hosts.enumerated() {
                if index > 0 { text += ", " }
                text += host
            }
            let more = run.count - hostsNamed
            if more > 0 {
                text += " and "
                text += counted(more, "more host")
            }
        }
        return text
    }

    /// The documented shape (docs/schema/test-report.schema.json): every expectation on every
    /// platform, each outcome with the hosts that had it.
    public var json: JSON { .object(jsonCounts + [("expectations", .array(checks.map(json)))]) }

    private var jsonCounts: [(String, JSON)] {
        [("version", .int(1)), ("checks", .int(checkCount)), ("failed", .int(failedCount))]
    }

    /// JSON and JUnit list every host checked (millions on a fleet): they are written an
    /// expectation at a time, never held as one string; text a piece of failures at a time.
    public func stream(as format: OutputFormat, style: TextStyle, to write: ([UInt8]) -> Void) -> Bool {
        switch format {
        case .text: writeText(style, to: write)
        case .json:
            JSON.render(
                object: jsonCounts.map { ($0, .value($1)) }
                    + [("expectations", .elements(count: checks.count, element: { json(checks[$0]) }))],
                to: write)
        case .junit: junit.render { write(Array($0.utf8)) }
        default: return false
        }
        return true
    }

    private func json(_ check: ExpectationRunner.Check) -> JSON {
        .object([
            ("expectation", .string(place(check.location))), ("url", .string(check.url.description)),
            ("platform", .string(check.platform.rawValue)), ("expected", .string(check.expected)),
            (
                "outcomes",
                .array(
                    check.outcomes.map { outcome in
                        .object([
                            ("actual", .string(outcome.actual)), ("passed", .bool(outcome.passed)),
                            ("decided_by", outcome.decidingRule.map { .string(place($0)) } ?? .null),
                            ("checks", .int(outcome.count)),
                            (
                                "hosts",
                                .array(
                                    outcome.places.map { spot in
                                        .object([
                                            ("environment", .string(spot.environment)), ("host", .string(spot.host)),
                                            ("url", .string(check.url(at: spot))),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }

    /// One suite per file of expectations, one case per expectation and platform; a failed case
    /// lists every host it failed on, by outcome.
    public var junit: JUnitDocument {
        let byFile = Dictionary(grouping: checks, by: \.location.file)
        let suites = checks.map(\.location.file).uniqued().map { file in
            JUnitDocument.Suite(
                name: path(.file(file)),
                cases: byFile[file, default: []].map { check in
                    JUnitDocument.TestCase(
                        className: path(check.location),
                        name:
                            "\(check.platform.rawValue) \(check.url) → \(check.expected) (line \(check.location.line))",
                        failure: junitFailure(check), file: path(.file(check.location.file)),
                        line: check.location.line)
                })
        }
        return JUnitDocument(name: title, suites: suites)
    }

    /// The first failed outcome's mismatch and how many hosts failed; the body lists each failed
    /// outcome with its hosts.
    private func junitFailure(_ check: ExpectationRunner.Check) -> JUnitDocument.Failure? {
        let failed = check.outcomes.filter { !$0.passed }
        guard let first = failed.first else { return nil }
        let total = check.outcomes.reduce(0) { $0 + $1.count }
        let failedHosts = failed.reduce(0) { $0 + $1.count }
        var lines = [place(check.location)]
        for outcome in failed {
            let decided = outcome.decidingRule.map { " (decided by \(place($0)))" } ?? ""
            lines.append("got \(outcome.actual)\(decided) on \(counted(outcome.count, "host")):")
            for spot in outcome.places { lines.append("  \(spot.environment) \(spot.host) \(check.url(at: spot))") }
        }
        return JUnitDocument.Failure(
            message: "expected \(check.expected), got \(first.actual) on \(failedHosts) of \(counted(total, "host"))",
            lines: lines)
    }
}
