/// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html): one result
/// per cause, located relative to the repository root (`uriBaseId`, §3.4.4), with the run's
/// category in `automationDetails.id` (§3.17.4) so code scanning keeps each command's results
/// apart, and every rule's documentation as `help.markdown` (§3.49.13).
public enum SARIFLog {
    /// The base every location is relative to: the repository's top level.
    public static let rootBase = "SRCROOT"

    public static func render(_ report: some Report, version: String) -> JSON {
        let rules = report.rules.map { rule -> JSON in
            let helpURI = ReportPrinter.informationURI + "/blob/main/" + rule.documentation
            let help = rule.summary + (rule.rationale.map { "\n\n" + $0 } ?? "")
            return .object([
                ("id", .string(rule.id)),
                ("shortDescription", .object([("text", .string(rule.summary))])),
                ("fullDescription", .object([("text", .string(rule.rationale ?? rule.summary))])),
                ("defaultConfiguration", .object([("level", .string(level(rule.severity)))])),
                ("helpUri", .string(helpURI)),
                (
                    "help",
                    .object([
                        ("text", .string(help + "\n\n" + helpURI)),
                        ("markdown", .string(help + "\n\n[Documentation](\(helpURI))")),
                    ])
                ),
            ])
        }
        let results = report.groups.map { result($0, report) }
        let driver = JSON.object([
            ("name", .string(ReportPrinter.toolName)), ("version", .string(version)),
            ("informationUri", .string(ReportPrinter.informationURI)), ("rules", .array(rules)),
        ])
        let category = report.title.replacing(" ", with: "-") + "/"
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            (
                "runs",
                .array([
                    .object([
                        ("tool", .object([("driver", driver)])),
                        ("automationDetails", .object([("id", .string(category))])),
                        (
                            "originalUriBaseIds",
                            .object([
                                (
                                    rootBase,
                                    .object([
                                        ("description", .object([("text", .string("The repository's top level"))]))
                                    ])
                                )
                            ])
                        ),
                        ("results", .array(results)),
                    ])
                ])
            ),
        ])
    }

    static func result(_ group: FindingGroup, _ report: some Report) -> JSON {
        var text = group.first.message
        if group.findings.count > 1 {
            text += " (\(group.findings.count) findings" + (group.places.map { ": " + $0 } ?? "") + ")"
        }
        let witnesses = group.witnesses(3)
        if !witnesses.isEmpty { text += " (e.g. " + witnesses.joined(separator: ", ") + ")" }
        var members: [(String, JSON)] = [
            ("ruleId", .string(group.rule)),
            ("level", .string(group.blocks ? "error" : level(group.severity))),
            ("message", .object([("text", .string(text))])),
        ]
        if let location = group.location {
            let region = JSON.object([("startLine", .int(location.line)), ("startColumn", .int(location.column))])
            let artifact = JSON.object([("uri", .string(report.path(location))), ("uriBaseId", .string(rootBase))])
            members.append(
                (
                    "locations",
                    .array([
                        .object([("physicalLocation", .object([("artifactLocation", artifact), ("region", region)]))])
                    ])
                ))
        }
        // The least fingerprint of the cause: stable while hosts come and go.
        members.append(("partialFingerprints", .object([("linkwright/v1", .string(group.fingerprints.min()!))])))
        let suppression = group.approval.map { ("external", $0) } ?? group.ignoredBecause.map { ("inSource", $0) }
        if let (kind, reason) = suppression {
            members.append(
                ("suppressions", .array([.object([("kind", .string(kind)), ("justification", .string(reason))])])))
        }
        return .object(members)
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }
}
