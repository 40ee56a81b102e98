/// Every output format a command can offer. Each command declares which apply to what it
/// reports; `ReportPrinter` is the one place that turns a report into any of them.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// For a person at a terminal.
    case text
    /// The report's documented JSON shape (docs/schema/).
    case json
    /// GitHub Actions workflow commands: annotations on the pull request's lines.
    case github
    /// SARIF 2.1.0, for code scanning.
    case sarif
    /// JUnit XML, for CI test views.
    case junit
    /// A pull-request comment.
    case markdown
    /// A standalone page (`changelog`).
    case html
    /// The `approvals:` YAML that approves every open finding, to paste into policies/.
    case approvals

    /// What a report of findings offers: each finding is a located result every CI consumer reads.
    public static let findings: [OutputFormat] = [.text, .json, .github, .sarif, .junit, .markdown]
}
