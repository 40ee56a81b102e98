/// Anything a command prints: one value from the core, rendered in the format the user chose;
/// `nil` for a format it does not have (commands offer only the formats their output has).
public protocol CommandOutput: Sendable {
    func printed(as format: OutputFormat, style: TextStyle, version: String) -> PrintedReport?
    /// Standard output in `format` (text in `style`), handed to `write` a piece at a time as it
    /// is made, for output too large to hold whole (`test --format json` on a fleet); false,
    /// writing nothing, when the format is printed whole by `printed`. A streamed format writes
    /// nothing to standard error.
    func stream(as format: OutputFormat, style: TextStyle, to write: ([UInt8]) -> Void) -> Bool
}

extension CommandOutput {
    public func stream(as format: OutputFormat, style: TextStyle, to write: ([UInt8]) -> Void) -> Bool { false }
}

/// Output whose JSON is one object of members, some of them long arrays: its JSON streams
/// (`JSON.render(object:to:)`), made and rendered a batch of elements at a time on every core.
public protocol StreamedJSONOutput: CommandOutput {
    /// The members of `json`, in order.
    var jsonMembers: [(String, JSON.StreamedMember)] { get }
}

extension StreamedJSONOutput {
    public var json: JSON { .object(jsonMembers.map { ($0, $1.value) }) }

    public func stream(as format: OutputFormat, style: TextStyle, to write: ([UInt8]) -> Void) -> Bool {
        guard format == .json else { return false }
        JSON.render(object: jsonMembers, to: write)
        return true
    }
}

/// The one place a report becomes output. Each format is a printer of its own in `Printers/`;
/// text and JSON are the report's own, since each command documents their shape.
public enum ReportPrinter {
    public static let toolName = "linkwright"
    public static let informationURI = "https://github.com/linkwright/linkwright"

    public static func render(
        _ report: some Report, as format: OutputFormat, style: TextStyle = .plain, version: String
    ) -> PrintedReport? {
        switch format {
        case .text: report.text(style)
        case .json: PrintedReport(out: report.jsonText)
        case .github: GitHubAnnotations.render(report)
        case .sarif: PrintedReport(out: SARIFLog.render(report, version: version).rendered())
        case .junit: PrintedReport(out: report.junit.rendered())
        case .markdown: PrintedReport(out: report.markdown)
        case .approvals: PrintedReport(out: ApprovalsYAML.render(report))
        // A page is a document's format (`changelog`), not a report's.
        case .html: nil
        }
    }
}

extension Report {
    public func printed(as format: OutputFormat, style: TextStyle, version: String) -> PrintedReport? {
        ReportPrinter.render(self, as: format, style: style, version: version)
    }
}
