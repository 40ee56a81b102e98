/// A pull-request comment that fits GitHub's comment column (about 900 px): the verdict, the
/// behaviour changes as plain sentences, counts that match the rows below them, then one short
/// table row per cause (most important first) whose long values (fingerprints, host lists,
/// witnesses, approval reasons) are folded into the cause's `<details>`, then the report's own
/// sections. GitHub accepts comments of up to 65,536 characters; the comment stays within
/// `budget`, dropping whole rows and sections and saying how many.
public enum MarkdownComment {
    /// Leaves room under GitHub's 65,536 for a workflow's own words around the comment.
    public static let budget = 60_000
    /// Behaviour changes said as sentences before the table; the rest are in the sections.
    static let sentences = 10
    /// A word longer than this (a fingerprint, an app ID list) is shortened in a table cell.
    static let longestWord = 28
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
        text += "\n\n"
        let behaviour = report.behaviourSentences
        if !behaviour.isEmpty {
            text += behaviour.prefix(sentences).map { "- " + $0 + "\n" }.joined()
            if behaviour.count > sentences {
                text += "- … and \(behaviour.count - sentences) more behaviour changes, in the sections below.\n"
            }
            text += "\n"
        }
        text += counts(groups, behaviour: behaviour.count, report) + "\n"
        // Room kept for the closing line that says what was left out.
        let closing = 200
        var omittedCauses = 0
        if !groups.isEmpty {
            var table = "\n| | Where | Rule | Finding |\n|---|---|---|---|\n"
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

    /// What was compared, then the rows' counts (one row per cause, so a cause of 50 findings
    /// counts once, its findings said beside) and the behaviour changes said above.
    static func counts(_ groups: [FindingGroup], behaviour: Int, _ report: some Report) -> String {
        let blocking = groups.filter(\.blocks).count
        let approved = groups.filter { $0.approval != nil }.count
        let others = groups.count - blocking - approved
        let findings = groups.reduce(0) { $0 + $1.findings.count }
        var parts = [
            "**\(counted(blocking, "blocking cause"))**", "\(approved) approved", counted(others, "other cause"),
        ]
        if findings != groups.count { parts[parts.count - 1] += " (\(counted(findings, "finding")) in all)" }
        if report.comparesBehaviour { parts.append(counted(behaviour, "behaviour change")) }
        let subject = report.subject.map { MarkdownText.inert($0) + ": " } ?? ""
        return subject + parts.joined(separator: ", ")
    }

    /// A table cell's text: a trailing list of scopes (in parentheses, long) is left to the
    /// details, and every word too long for a narrow column is cut in its middle.
    static func short(_ message: String) -> String {
        var text = Substring(message)
        if text.hasSuffix(")"), let open = openingParenthesis(of: text), text[open...].count > 40 {
            text = text[..<open]
            while text.last == " " { text.removeLast() }
            text += " (…)"
        }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.count > longestWord ? word.prefix(longestWord / 2 - 1) + "…" + word.suffix(longestWord / 2 - 1) : word
        }.joined(separator: " ")
    }

    /// Where the parenthesis that closes `text` opens.
    private static func openingParenthesis(of text: Substring) -> Substring.Index? {
        var depth = 0
        var index = text.endIndex
        while index > text.startIndex {
            index = text.index(before: index)
            if text[index] == ")" { depth += 1 }
            if text[index] == "(" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    static func row(_ group: FindingGroup, _ report: some Report) -> String {
        let icon = group.approval != nil ? "☑️" : group.blocks ? "❌" : "⚠️"
        let place =
            group.location.map {
                MarkdownText.code("\(report.path($0)):\($0.line)") + (group.side == .base ? " (base)" : "")
            } ?? ""
        let count = group.findings.count > 1 ? " (\(group.findings.count) findings)" : ""
        let approved = group.approval == nil ? "" : " (approved)"
        return "| \(icon) | \(place) | `\(group.rule)` | \(MarkdownText.inert(short(group.first.message)))\(count)"
            + "\(approved) |\n"
    }

    /// Everything the row leaves out: each finding in full, where the cause applies, the URLs
    /// that show it, why it is approved, and its fingerprints.
    static func details(_ group: FindingGroup, _ report: some Report) -> String {
        var text = "\n<details><summary><code>\(group.rule)</code>"
        text +=
            group.location.map { " at <code>" + XMLText.printable("\(report.path($0)):\($0.line)") + "</code>" } ?? ""
        text += group.findings.count > 1 ? ": \(group.findings.count) findings</summary>\n\n" : "</summary>\n\n"
        if let places = group.places, group.findings.count > 1 {
            text += "Where: " + MarkdownText.inert(places) + "\n\n"
        }
        for finding in group.findings.prefix(20) {
            text += "- " + MarkdownText.inert(finding.message)
            text += finding.witnesses.prefix(2).map { "<br>e.g. " + MarkdownText.code($0) }.joined() + "\n"
        }
        if group.findings.count > 20 { text += "- … and \(group.findings.count - 20) more\n" }
        // A reason is pull-request text: a code span shows it as written, nothing rendered.
        if let approval = group.approval { text += "\nApproved: " + MarkdownText.code(approval) + "\n" }
        if group.isApprovable {
            text += "\nFingerprints: " + group.fingerprints.prefix(20).map(MarkdownText.code).joined(separator: ", ")
            text += group.fingerprints.count > 20 ? " and \(group.fingerprints.count - 20) more" : ""
            text += "\n"
        }
        return text + "\n</details>\n"
    }
}
