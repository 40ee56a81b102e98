/// Renders a `CheckReport` in each output format `check` and `diff` offer.
public enum ReportFormat: String, Sendable, CaseIterable {
    case text
    case json
    case github
    case sarif
    case junit
    case markdown
}

public enum ReportRenderer {
    public static let toolName = "linkwright"
    public static let informationURI = "https://github.com/linkwright/linkwright"

    /// `rules` are the IDs JUnit lists as test suites (default: the policy rules), under `title`.
    public static func render(
        _ report: CheckReport, as format: ReportFormat, version: String,
        rules: [String] = PolicyRules.all.map(\.info.id),
        title: String = "linkwright check"
    ) -> String {
        switch format {
        case .text: text(report)
        case .json: json(report).rendered()
        case .github: github(report)
        case .sarif: sarif(report, version: version).rendered()
        case .junit: junit(report, rules: rules, title: title)
        case .markdown: markdown(report)
        }
    }

    // MARK: Text

    /// `path:line:col: error: message [RULE_ID]`, witnesses and fingerprint below, then changes
    /// and a summary line. Each line is escaped whole: every value in it is single-line text.
    public static func text(_ report: CheckReport) -> String {
        var lines: [String] = []
        for finding in report.findings {
            let place = finding.location.map { "\(report.path($0)):\($0.line):\($0.column): " } ?? ""
            let status: String
            if let reason = finding.approval {
                status = "note: approved (\(reason)): "
            } else if let reason = finding.ignoredBecause {
                status = "note: ignored (\(reason)): "
            } else {
                status = "\(finding.severity.rawValue): "
            }
            let side = finding.side == .base ? "[at \(report.base?.name ?? "base")] " : ""
            lines.append("\(place)\(status)\(side)\(finding.message) [\(finding.rule)]")
            for witness in finding.witnesses.prefix(5) { lines.append("  witness: \(witness)") }
            if let hint = finding.hint, finding.approval == nil { lines.append("  hint: \(hint)") }
            lines.append("  fingerprint: \(finding.fingerprint)")
        }
        for approval in report.unusedApprovals {
            let place = report.path(approval.fingerprint.location)
            lines.append(
                "\(place):\(approval.fingerprint.location.line):\(approval.fingerprint.location.column): note: approval \(approval.fingerprint.value) matches no finding"
            )
        }
        if !report.changes.isEmpty {
            lines.append("changes:")
            for change in report.changes {
                lines.append("  \(change.summary)")
                for witness in change.witnesses.prefix(3) { lines.append("    e.g. \(witness)") }
            }
        }
        if !report.unproven.isEmpty {
            lines.append("not proven within the work budget (these URLs may change too):")
            for region in report.unproven.prefix(20) { lines.append("  \(region.summary)") }
            if report.unproven.count > 20 { lines.append("  … and \(report.unproven.count - 20) more") }
        }
        lines += report.notes.map { "note: \($0)" }
        lines.append(summary(report))
        return lines.map(PrintableText.escaped).joined(separator: "\n") + "\n"
    }

    static func summary(_ report: CheckReport) -> String {
        let blocking = report.findings.filter(\.blocks).count
        let approved = report.findings.filter { $0.approval != nil }.count
        let warnings = report.findings.filter { !$0.blocks && $0.approval == nil && $0.ignoredBecause == nil }.count
        let behaviour = report.changes.filter(\.kind.isBehaviour).count
        let against = report.base.map { " against \($0.label)" } ?? ""
        return "\(report.head.name)\(against): \(count(blocking, "blocking finding")), \(approved) approved, "
            + "\(count(warnings, "other finding")), \(count(behaviour, "behaviour change"))"
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    // MARK: JSON

    /// The documented shape (docs/schema/check-report.schema.json).
    public static func json(_ report: CheckReport) -> JSON {
        func revision(_ revision: CheckReport.Revision?) -> JSON {
            guard let revision else { return .null }
            return .object([
                ("name", .string(revision.name)), ("commit", revision.commit.map(JSON.string) ?? .null),
                ("merge_base", .bool(revision.isMergeBase)),
            ])
        }
        return .object([
            ("version", .int(1)),
            ("base", revision(report.base)),
            ("head", revision(report.head)),
            ("blocking", .bool(report.blocks)),
            ("findings", .array(report.findings.map { findingJSON($0, report) })),
            ("changes", .array(report.changes.map(changeJSON))),
            ("unproven", .array(report.unproven.map { unprovenJSON($0, report) })),
            (
                "unused_approvals",
                .array(report.unusedApprovals.map { .string($0.fingerprint.value) })
            ),
            ("notes", .array(report.notes.map(JSON.string))),
        ])
    }

    static func findingJSON(_ finding: Finding, _ report: CheckReport) -> JSON {
        var members: [(String, JSON)] = [
            ("rule", .string(finding.rule)), ("severity", .string(finding.severity.rawValue)),
            ("message", .string(finding.message)),
        ]
        if let location = finding.location {
            members += [
                ("file", .string(report.path(location))), ("line", .int(location.line)),
                ("column", .int(location.column)),
            ]
        }
        members += [
            ("side", .string(finding.side.rawValue)),
            ("hint", finding.hint.map(JSON.string) ?? .null),
            ("witnesses", .array(finding.witnesses.map(JSON.string))),
            ("environment", finding.environment.map(JSON.string) ?? .null),
            ("host", finding.host.map(JSON.string) ?? .null),
            ("platform", finding.platform.map { .string($0.rawValue) } ?? .null),
            ("app", finding.app.map(JSON.string) ?? .null),
            (
                "scopes",
                .array(
                    finding.scopes.map { scope in
                        .object([
                            ("environment", .string(scope.environment)), ("host", .string(scope.host)),
                            ("platform", .string(scope.platform.rawValue)), ("app", .string(scope.app)),
                        ])
                    })
            ),
            ("fingerprint", .string(finding.fingerprint)),
            ("approved", finding.approval.map(JSON.string) ?? .null),
            ("ignored", finding.ignoredBecause.map(JSON.string) ?? .null),
            ("blocking", .bool(finding.blocks)),
        ]
        return .object(members)
    }

    /// A rule pair the behaviour diff left unsettled.
    static func unprovenJSON(_ region: BehaviourDiff.Unproven, _ report: CheckReport) -> JSON {
        var members: [(String, JSON)] = [
            ("environment", .string(region.environment)), ("host", .string(region.host)),
            ("platform", .string(region.platform.rawValue)), ("app", .string(region.identity)),
            ("base_rule", region.baseRule.map(JSON.string) ?? .null),
            ("head_rule", region.headRule.map(JSON.string) ?? .null),
        ]
        if let location = region.location {
            members += [
                ("file", .string(report.path(location))), ("line", .int(location.line)),
                ("column", .int(location.column)), ("side", .string(region.side.rawValue)),
            ]
        }
        return .object(members)
    }

    /// The change shape shared with `changelog`.
    public static func changeJSON(_ change: LinkChange) -> JSON {
        .object([
            ("environment", .string(change.environment)),
            ("host", change.host.map(JSON.string) ?? .null),
            ("platform", change.platform.map { .string($0.rawValue) } ?? .null),
            ("app", change.app.map(JSON.string) ?? .null),
            ("kind", .string(change.kind.rawValue)),
            ("before", change.before.map(JSON.string) ?? .null),
            ("after", change.after.map(JSON.string) ?? .null),
            ("witnesses", .array(change.witnesses.map(JSON.string))),
            ("exact", .bool(!change.approximate)),
        ])
    }

    // MARK: GitHub

    /// Workflow commands, so findings appear on the pull request's lines
    /// (https://docs.github.com/actions/reference/workflow-commands-for-github-actions). Values
    /// are escaped before the workflow-command encoding: a newline from input shows as `\n` and
    /// can never start a line, hence never a command of its own; only our separators become `%0A`.
    public static func github(_ report: CheckReport) -> String {
        var lines: [String] = []
        for finding in report.findings where finding.ignoredBecause == nil {
            let command: String
            if finding.approval != nil {
                command = "notice"
            } else {
                command =
                    switch finding.severity {
                    case .error: "error"
                    case .warning: "warning"
                    case .note: "notice"
                    }
            }
            var properties: [String] = []
            if let location = finding.location, finding.side == .head {
                properties += ["file=\(report.path(location))", "line=\(location.line)", "col=\(location.column)"]
            }
            properties.append("title=\(finding.rule)")
            var message = PrintableText.escaped(finding.message)
            if let reason = finding.approval { message = "approved (\(PrintableText.escaped(reason))): " + message }
            if finding.side == .base { message += " (at \(PrintableText.escaped(report.base?.name ?? "base")))" }
            for witness in finding.witnesses.prefix(5) { message += "\nwitness: \(PrintableText.escaped(witness))" }
            message += "\nfingerprint: \(finding.fingerprint)"
            lines.append(
                "::\(command) \(properties.map(escapeProperty).joined(separator: ","))::\(escapeData(message))")
        }
        for change in report.changes where change.kind.isBehaviour {
            lines.append(
                "::notice title=\(escapeProperty(change.kind.rawValue))::\(escapeData(PrintableText.escaped(change.summary)))"
            )
        }
        lines.append(PrintableText.escaped(summary(report)))
        return lines.joined(separator: "\n") + "\n"
    }

    static func escapeData(_ text: String) -> String {
        text.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
    }

    static func escapeProperty(_ text: String) -> String {
        // Only the value after `=` needs the extra escapes; keys are ours.
        guard let equals = text.firstIndex(of: "=") else { return escapeData(text) }
        let key = text[...equals]
        let value = escapeData(PrintableText.escaped(text[text.index(after: equals)...])).replacing(":", with: "%3A")
            .replacing(",", with: "%2C")
        return key + value
    }

    // MARK: SARIF

    /// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html).
    public static func sarif(_ report: CheckReport, version: String) -> JSON {
        let rules = PolicyRules.all.map { rule -> JSON in
            .object([
                ("id", .string(rule.info.id)),
                ("shortDescription", .object([("text", .string(rule.info.purpose))])),
                ("fullDescription", .object([("text", .string(rule.info.rationale))])),
                ("defaultConfiguration", .object([("level", .string(level(rule.info.defaultSeverity)))])),
                ("helpUri", .string(informationURI + "/blob/main/docs/rules.md#" + rule.info.id.lowercased())),
            ])
        }
        let results = report.findings.map { finding -> JSON in
            var members: [(String, JSON)] = [
                ("ruleId", .string(finding.rule)),
                ("level", .string(level(finding.severity))),
                ("message", .object([("text", .string(finding.message + witnessSuffix(finding)))])),
            ]
            if let location = finding.location {
                members.append(
                    (
                        "locations",
                        .array([
                            .object([
                                (
                                    "physicalLocation",
                                    .object([
                                        ("artifactLocation", .object([("uri", .string(report.path(location)))])),
                                        (
                                            "region",
                                            .object([
                                                ("startLine", .int(location.line)),
                                                ("startColumn", .int(location.column)),
                                            ])
                                        ),
                                    ])
                                )
                            ])
                        ])
                    ))
            }
            members.append(("partialFingerprints", .object([("linkwright/v1", .string(finding.fingerprint))])))
            let suppression =
                finding.approval.map { ("external", $0) } ?? finding.ignoredBecause.map { ("inSource", $0) }
            if let (kind, reason) = suppression {
                members.append(
                    ("suppressions", .array([.object([("kind", .string(kind)), ("justification", .string(reason))])])))
            }
            return .object(members)
        }
        let driver = JSON.object([
            ("name", .string(toolName)), ("version", .string(version)), ("informationUri", .string(informationURI)),
            ("rules", .array(rules)),
        ])
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([.object([("tool", .object([("driver", driver)])), ("results", .array(results))])])),
        ])
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    static func witnessSuffix(_ finding: Finding) -> String {
        finding.witnesses.isEmpty ? "" : " (e.g. " + finding.witnesses.prefix(3).joined(separator: ", ") + ")"
    }

    // MARK: JUnit

    /// One test case per rule and scope (environment and host); a case fails when it holds a
    /// blocking finding. Rules without findings are one passing case each.
    public static func junit(
        _ report: CheckReport, rules: [String] = PolicyRules.all.map(\.info.id), title: String = "linkwright check"
    ) -> String {
        let suites = rules.map { rule in
            var scopes: [String: [Finding]] = [:]
            for finding in report.findings where finding.rule == rule {
                let scope = [finding.environment, finding.host].compactMap { $0 }.joined(separator: " ")
                scopes[scope.isEmpty ? "configuration" : scope, default: []].append(finding)
            }
            if scopes.isEmpty { scopes["all scopes"] = [] }
            return JUnitDocument.Suite(
                name: rule,
                cases: scopes.keys.sorted().map { scope in
                    let items = scopes[scope]!
                    let blocking = items.filter(\.blocks)
                    let failure = blocking.first.map { first in
                        JUnitDocument.Failure(
                            message: first.message, type: rule,
                            lines: blocking.map { finding in
                                (finding.location.map { "\(report.path($0)):\($0.line):\($0.column): " } ?? "")
                                    + finding.message + witnessSuffix(finding)
                            })
                    }
                    let output =
                        failure != nil
                        ? []
                        : items.map {
                            "\($0.message) (\($0.approval.map { "approved: \($0)" } ?? $0.ignoredBecause.map { "ignored: \($0)" } ?? $0.severity.rawValue))"
                        }
                    return JUnitDocument.TestCase(className: rule, name: scope, failure: failure, output: output)
                })
        }
        return JUnitDocument(name: title, suites: suites).rendered()
    }

    // MARK: Markdown

    /// A pull-request comment: blocking findings, then behaviour changes per environment.
    public static func markdown(_ report: CheckReport) -> String {
        var text =
            "### Linkwright: " + (report.blocks ? "❌ this change breaks links" : "✅ no blocking finding") + "\n\n"
        text += MarkdownText.cell(summary(report)) + "\n"
        let shown = report.findings.filter { $0.ignoredBecause == nil }
        if !shown.isEmpty {
            text += "\n| | Rule | Finding | Where |\n|---|---|---|---|\n"
            for finding in shown {
                let icon = finding.approval != nil ? "☑️" : finding.blocks ? "❌" : "⚠️"
                let place =
                    finding.location.map {
                        MarkdownText.code("\(report.path($0)):\($0.line)") + (finding.side == .base ? " (base)" : "")
                    } ?? ""
                let witnesses = finding.witnesses.prefix(2).map { "<br>e.g. " + MarkdownText.code($0) }.joined()
                let approval = finding.approval.map { "<br>approved: " + MarkdownText.cell($0) } ?? ""
                text +=
                    "| \(icon) | `\(finding.rule)` | \(MarkdownText.cell(finding.message))\(witnesses)\(approval) | \(place) |\n"
            }
        }
        for (environment, changes) in Changelog.byEnvironment(report.changes) {
            text += "\n" + Changelog.table(environment, changes, heading: "####")
        }
        if report.changes.isEmpty && report.base != nil && report.unproven.isEmpty {
            text += "\nNo change in which URLs open which app.\n"
        }
        if !report.unproven.isEmpty {
            text +=
                "\n⚠️ \(count(report.unproven.count, "rule pair")) could not be proven within the work budget; "
                + "the URLs they decide may change too.\n"
        }
        return text
    }

}
