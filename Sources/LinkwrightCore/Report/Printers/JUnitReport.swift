/// JUnit XML for a report: one suite per rule the report can hold, one case per cause; a case
/// fails when its cause blocks, and a rule without findings is one passing case.
public enum JUnitReport {
    public static func render(_ report: some Report) -> JUnitDocument {
        let groups = report.groups
        let known = Set(report.rules.map(\.id))
        let rules = report.rules.map(\.id) + groups.map(\.rule).filter { !known.contains($0) }.uniqued()
        let suites = rules.map { rule in
            let causes = groups.filter { $0.rule == rule }
            guard !causes.isEmpty else {
                return JUnitDocument.Suite(
                    name: rule, cases: [JUnitDocument.TestCase(className: rule, name: "all scopes")])
            }
            return JUnitDocument.Suite(
                name: rule,
                cases: causes.map { group in
                    let place = group.location.map { report.place($0) } ?? "configuration"
                    let lines = group.findings.map { finding in
                        finding.message
                            + (finding.witnesses.isEmpty
                                ? "" : " (e.g. " + finding.witnesses.prefix(3).joined(separator: ", ") + ")")
                    }
                    let status =
                        group.approval.map { "approved: \($0)" } ?? group.ignoredBecause.map { "ignored: \($0)" }
                        ?? group.severity.rawValue
                    return JUnitDocument.TestCase(
                        className: rule, name: place + (group.places.map { " " + $0 } ?? ""),
                        failure: group.blocks
                            ? JUnitDocument.Failure(message: group.headline, type: rule, lines: lines) : nil,
                        output: group.blocks ? [] : lines.map { "\($0) (\(status))" },
                        file: group.location.map { report.context.path($0) }, line: group.location?.line)
                })
        }
        return JUnitDocument(name: report.title, suites: suites)
    }
}
