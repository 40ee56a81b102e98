/// A pull-request comment: verdict and counts first, one table row per cause (most important
/// first), the details of each cause folded in `<details>`, then the report's own sections
/// (behaviour changes). GitHub accepts comments of up to 65,536 characters; the comment stays
/// within `budget`, dropping whole rows and sections and saying how many.
public enum MarkdownComment {
    /// Leaves room under GitHub's 65,536 for a workflow's own words around the comment.
    public static let budget = 60_000
    /// The first line, so a workflow can find and update its earlier comment.
    public static func marker(_ report: some Report) -> String {
        "<!-- \(report.title.replacing(" ", with: "-")) -->"
    }

    public static func render(_ report: some Report, budget: Int = budget) -> String {
        let groups = report.groups.filter { $0.ignoredBecause == nil }
        var text = marker(report) + "\n"
        text += "### \(report.title): "
        text +=
            report.isUnusable
            ? "⛔ the input cannot be used" : report.blocks ? "❌ this change breaks links" : "✅ no blocking finding"
        text += "\n\n" + MarkdownText.inert(report.summary) + "\n"
        // Room kept for the closing line that says what was left out.
        let closing = 200
        var omittedCauses = 0
        if !groups.isEmpty {
            var table = "\n| | Rule | Finding | Where |\n|---|---|---|---|\n"
            var details = ""
            for group in groups {
                let row = row(group, report)
                let detail = self.details(group, report)
                if text.count + table.count + details.count + row.count + detail.count + closing > budget {
                    omittedCauses += 1
                    continue
                }
                table += row
                details += detail
            }
            text += table + details
        }
        var omittedSections = 0
        for section in report.markdownSections(budget: budget - text.count - closing) {
            if text.count + section.count + 1 + closing > budget {
                omittedSections += 1
                continue
            }
            text += "\n" + section
        }
        if omittedCauses + omittedSections > 0 {
            let parts = [
                omittedCauses > 0 ? "\(omittedCauses) more finding\(omittedCauses == 1 ? "" : "s")" : nil,
                omittedSections > 0 ? "\(omittedSections) more section\(omittedSections == 1 ? "" : "s")" : nil,
            ].compactMap { $0 }
            text +=
                "\n_\(parts.joined(separator: " and ")) left out to fit a comment; "
                + "`--format json` or the job's log has everything._\n"
        }
        return text
    }

    static func row(_ group: FindingGroup, _ report: some Report) -> String {
        let icon = group.approval != nil ? "☑️" : group.blocks ? "❌" : "⚠️"
        let place =
            group.location.map {
                MarkdownText.code("\(report.path($0)):\($0.line)") + (group.side == .base ? " (base)" : "")
            } ?? ""
        let count = group.findings.count > 1 ? " (\(group.findings.count) findings)" : ""
        // A reason is pull-request text: a code span shows it as written, nothing rendered.
        let approval = group.approval.map { "<br>approved: " + MarkdownText.code($0) } ?? ""
        let witness = group.witnesses(2).map { "<br>e.g. " + MarkdownText.code($0) }.joined()
        return "| \(icon) | `\(group.rule)` | \(MarkdownText.inert(group.first.message))\(count)\(witness)\(approval) "
            + "| \(place) |\n"
    }

    /// Where the cause applies, its other findings and witnesses, and its fingerprints.
    static func details(_ group: FindingGroup, _ report: some Report) -> String {
        guard group.findings.count > 1 else { return "" }
        var text = "\n<details><summary><code>\(group.rule)</code>"
        text +=
            group.location.map { " at <code>" + XMLText.printable("\(report.path($0)):\($0.line)") + "</code>" } ?? ""
        text += ": \(group.findings.count) findings</summary>\n\n"
        if let places = group.places { text += "Where: " + MarkdownText.inert(places) + "\n\n" }
        for finding in group.findings.prefix(20) {
            text += "- " + MarkdownText.inert(finding.message)
            text += finding.witnesses.prefix(2).map { " e.g. " + MarkdownText.code($0) }.joined() + "\n"
        }
        if group.findings.count > 20 { text += "- … and \(group.findings.count - 20) more\n" }
        if group.isApprovable {
            text += "\nFingerprints: " + group.fingerprints.prefix(20).map(MarkdownText.code).joined(separator: ", ")
            text += group.fingerprints.count > 20 ? " and \(group.fingerprints.count - 20) more" : ""
            text += "\n"
        }
        return text + "\n</details>\n"
    }
}
