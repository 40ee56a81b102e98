/// What `promote` would do to the target environment: the edits, what it keeps back or refuses,
/// and the findings and behaviour changes the promotion brings (a `CheckReport` of the target as
/// it is against the target promoted).
public struct PromotionReport: Report {
    public var source: String
    public var target: String
    public var plan: PromotionPlan
    public var checked: CheckReport

    public init(source: String, target: String, plan: PromotionPlan, checked: CheckReport) {
        self.source = source
        self.target = target
        self.plan = plan
        self.checked = checked
    }

    public var title: String { "linkwright promote" }
    public var findings: [Finding] { checked.findings }
    public var rules: [ReportRule] { checked.rules }
    public var summary: String { checked.summary }
    public var context: ReportContext { checked.context }
    public var notices: [String] { checked.notices }
    public func markdownSections(budget: Int) -> [String] { checked.markdownSections(budget: budget) }
    public var behaviourSentences: [String] { checked.behaviourSentences }
    public var comparesBehaviour: Bool { true }
    public var subject: String? { checked.subject }

    /// Whether the promotion cannot be written as planned.
    public var isRefused: Bool { !plan.refusals.isEmpty }

    public func text(_ style: TextStyle) -> PrintedReport {
        var text = "promote \(source) → \(target)\n"
        text += plan.edits.isEmpty ? "  no edit: \(target) already has everything \(source) has\n" : ""
        for edit in plan.edits {
            text += PrintableText.escaped("  \(place(edit.location)): \(edit.description)") + "\n"
        }
        for kept in plan.keptBack { text += PrintableText.escaped("  not promoted: \(kept)") + "\n" }
        var printed = checked.text(style)
        printed.out = text + printed.out
        printed.err = plan.refusals.map { DiagnosticText.line($0, pathPrefix: context.pathPrefix, style: style) + "\n" }
            .joined()
        return printed
    }

    public var json: JSON {
        guard case .object(var members) = checked.json else { return checked.json }
        members.insert(("source", .string(source)), at: 0)
        members.insert(("target", .string(target)), at: 1)
        members.insert(
            (
                "edits",
                .array(
                    plan.edits.map {
                        .object([
                            ("file", .string(path($0.location))), ("line", .int($0.location.line)),
                            ("description", .string($0.description)),
                        ])
                    })
            ), at: 2)
        members.append(("refused", .array(plan.refusals.map { .string($0.message) })))
        members.append(("kept_back", .array(plan.keptBack.map(JSON.string))))
        return .object(members)
    }

    /// The edits as a list, then the comment `check` would post.
    public var markdown: String {
        let edits = plan.edits.map {
            "- `\(path($0.location)):\($0.location.line)` \(MarkdownText.inert($0.description))"
        }
        let kept = plan.keptBack.map { "- not promoted: \(MarkdownText.inert($0))" }
        return "## Promote \(source) to \(target)\n\n"
            + (edits.isEmpty ? "No edit.\n" : edits.joined(separator: "\n") + "\n")
            + (kept.isEmpty ? "" : "\n" + kept.joined(separator: "\n") + "\n") + "\n"
            + MarkdownComment.render(checked)
    }
}
