/// What `verify` and `monitor` found: per host what each fetched file came back as, and the
/// findings, as a `CheckReport` of the served files.
public struct ServingReport: Report {
    /// One host's line: "production museo.example: apple-app-site-association ok, …".
    public struct HostLine: Sendable {
        public var environment: String
        public var host: String
        public var files: [(name: String, outcome: String)]

        public init(environment: String, host: String, files: [(name: String, outcome: String)]) {
            self.environment = environment
            self.host = host
            self.files = files
        }
    }

    public var checked: CheckReport
    public var hosts: [HostLine]
    /// `monitor`'s state after the round, printed with the JSON as one line per round.
    public var monitorState: JSON?

    public init(
        title: String, round: String, hosts: [HostLine], findings: [Finding], monitorState: JSON? = nil,
        pathPrefix: String
    ) {
        checked = CheckReport(
            title: title, base: nil, head: CheckReport.Revision(name: round, commit: nil), findings: findings,
            rules: ServingCheck.findingIDs.map(ReportRule.init), pathPrefix: pathPrefix)
        self.hosts = hosts
        self.monitorState = monitorState
    }

    public var title: String { checked.title }
    public var findings: [Finding] { checked.findings }
    public var rules: [ReportRule] { checked.rules }
    public var summary: String { checked.summary }
    public var context: ReportContext { checked.context }

    public func text(_ style: TextStyle) -> PrintedReport {
        let lines = hosts.map { host in
            PrintableText.escaped(
                "\(host.environment) \(host.host): "
                    + host.files.map { "\($0.name) \($0.outcome)" }.joined(separator: ", "))
        }
        var report = checked.text(style)
        report.out = lines.map { $0 + "\n" }.joined() + report.out
        return report
    }

    public var json: JSON {
        guard let monitorState, case .object(var members) = checked.json else { return checked.json }
        members.append(("state", monitorState))
        return .object(members)
    }

    /// A monitor round is one line, so rounds run with `--every` read as JSON Lines.
    public var jsonText: String { monitorState == nil ? json.rendered() : json.renderedCompact() }
}
