/// What a command found, in the terms every printer reads. A command builds one report value in
/// the core and hands it to `ReportPrinter` in the format the user chose; commands never format
/// findings themselves, so a new format is one printer and a new command one report.
public protocol Report: CommandOutput {
    /// The run, as CI tools name it: "linkwright check".
    var title: String { get }
    /// Every finding, in report order. The CI printers show them one cause at a time
    /// (`FindingGroup`).
    var findings: [Finding] { get }
    /// What a finding of this report can be: SARIF's rule list, JUnit's suites.
    var rules: [ReportRule] { get }
    /// One line: what was checked and what was found.
    var summary: String { get }
    /// How paths are written and when a finding blocks.
    var context: ReportContext { get }
    /// Whether the command could not use its input (exit 2), rather than finding something.
    var isUnusable: Bool { get }
    /// Whether a finding blocks (exit 1): by default, asked of each finding.
    var blocks: Bool { get }

    /// For a person: standard output and standard error.
    func text(_ style: TextStyle) -> PrintedReport
    /// The report's documented JSON shape.
    var json: JSON { get }
    /// What a pull-request comment shows after the findings (behaviour changes, for `check`),
    /// each section whole, within `budget` characters in all.
    func markdownSections(budget: Int) -> [String]
    /// Changes worth a notice besides the findings (behaviour changes, for `check`).
    var notices: [String] { get }
    /// The behaviour changes as markdown sentences a person reads first (`check`, `diff`,
    /// `promote`).
    var behaviourSentences: [String] { get }
    /// Whether the report compares behaviour at all, so its count of changes means something.
    var comparesBehaviour: Bool { get }
    /// What was compared or checked, for a comment's count line (`working tree against main`).
    var subject: String? { get }
    /// A pull-request comment: by default `MarkdownComment`.
    var markdown: String { get }
    /// JUnit XML: by default one suite per rule and one case per cause (`JUnitReport`).
    var junit: JUnitDocument { get }
    /// JSON as printed: by default `json`, indented.
    var jsonText: String { get }
}

extension Report {
    public var isUnusable: Bool { false }
    public func markdownSections(budget: Int) -> [String] { [] }
    public var notices: [String] { [] }
    public var behaviourSentences: [String] { [] }
    public var comparesBehaviour: Bool { false }
    public var subject: String? { nil }
    public var markdown: String { MarkdownComment.render(self) }
    public var junit: JUnitDocument { JUnitReport.render(self) }
    public var jsonText: String { json.rendered() }

    /// Whether `finding` stops the merge: open (neither approved nor ignored) and at or above
    /// the `--fail-on` threshold.
    public func blocks(_ finding: Finding) -> Bool {
        finding.approval == nil && finding.ignoredBecause == nil && context.failOn.blocks(finding.severity)
    }

    /// Whether anything blocks.
    public var blocks: Bool { findings.contains(where: blocks) }

    /// The findings one cause at a time, most important first.
    public var groups: [FindingGroup] { FindingGroup.groups(findings, in: self) }

    /// `path` as the report names files: repository- or working-directory-relative.
    public func path(_ location: SourceLocation) -> String { context.path(location) }

    /// `path:line:column`.
    public func place(_ location: SourceLocation) -> String { context.place(location) }
}

/// How a report names files and what makes a finding block.
public struct ReportContext: Sendable {
    /// Prepended to configuration-relative paths.
    public var pathPrefix: String
    /// What the comparison's base is called, for findings at the base.
    public var baseName: String?
    public var failOn: FailThreshold

    /// `path` as reports name files: repository- or working-directory-relative.
    public func path(_ location: SourceLocation) -> String { pathPrefix + location.file }

    /// `path:line:column`.
    public func place(_ location: SourceLocation) -> String {
        "\(path(location)):\(location.line):\(location.column)"
    }

    public init(pathPrefix: String = "", baseName: String? = nil, failOn: FailThreshold = .error) {
        self.pathPrefix = pathPrefix
        self.baseName = baseName
        self.failOn = failOn
    }
}

/// `--fail-on`: the least severity that blocks (as oasdiff's `--fail-on`).
public enum FailThreshold: String, Sendable, CaseIterable {
    case error, warning, note
    /// Report only: nothing blocks.
    case never

    public func blocks(_ severity: Severity) -> Bool {
        switch self {
        case .error: severity == .error
        case .warning: severity >= .warning
        case .note: true
        case .never: false
        }
    }
}

/// A kind of finding a report can hold, as SARIF and JUnit list them.
public struct ReportRule: Sendable {
    public var id: String
    public var severity: Severity
    /// One line: what it reports.
    public var summary: String
    /// Why it matters, when known.
    public var rationale: String?
    /// The documentation page and anchor, relative to the repository.
    public var documentation: String

    public init(id: String, severity: Severity, summary: String, rationale: String? = nil, documentation: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
        self.documentation = documentation
    }

    /// The policy rules, in order of importance.
    public static var policies: [ReportRule] {
        PolicyRules.all.map {
            ReportRule(
                id: $0.info.id.rawValue, severity: $0.info.defaultSeverity, summary: $0.info.purpose,
                rationale: $0.info.rationale, documentation: "docs/rules.md#" + $0.info.id.rawValue.lowercased())
        }
    }

    /// The diagnostics among `ids`, in catalog order: the rules of a report of diagnostics.
    public static func diagnostics(reported ids: Set<String>) -> [ReportRule] {
        DiagnosticID.allCases.filter { ids.contains($0.rawValue) }.map(ReportRule.init)
    }

    public init(_ id: DiagnosticID) {
        self.init(
            id: id.rawValue, severity: id.severity, summary: id.summary,
            documentation: "docs/diagnostics.md#" + id.section.rawValue)
    }
}

/// A report rendered as text: what goes to standard output and what to standard error.
public struct PrintedReport: Sendable, Equatable {
    public var out: String
    public var err: String
    /// Markdown for the CI job's summary page (GitHub's `$GITHUB_STEP_SUMMARY`), with the
    /// annotations.
    public var stepSummary: String?

    public init(out: String, err: String = "", stepSummary: String? = nil) {
        self.out = out
        self.err = err
        self.stepSummary = stepSummary
    }
}

/// Colour for text a person reads; the command line decides whether it is on.
public struct TextStyle: Sendable {
    public enum Emphasis: String, Sendable {
        case red = "1;31"
        case yellow = "1;33"
        case green = "32"
        case bold = "1"
        case dim = "2"
    }

    public var colour: Bool

    public init(colour: Bool) { self.colour = colour }

    public static let plain = TextStyle(colour: false)

    public func styled(_ text: String, _ emphasis: Emphasis) -> String {
        guard colour else { return text }
        var styled = ""
        append(emphasis, to: &styled) { $0 += text }
        return styled
    }

    /// What `body` appends to `text`, in `emphasis` when colour is on: reports written a piece
    /// at a time into one string style their pieces in place.
    public func append(_ emphasis: Emphasis, to text: inout String, _ body: (inout String) -> Void) {
        guard colour else { return body(&text) }
        text += "\u{1B}["
        text += emphasis.rawValue
        text += "m"
        body(&text)
        text += "\u{1B}[0m"
    }

    /// The colour of a severity's label.
    public func styled(_ severity: Severity) -> String {
        let emphasis: Emphasis =
            switch severity {
            case .error: .red
            case .warning: .yellow
            case .note: .bold
            }
        return styled(severity.rawValue + ":", emphasis)
    }
}

/// The report's findings as text: one cause at a time, most important first, each with where it
/// applies, its other findings, witnesses, hint and the fingerprints that approve it. Every value
/// is single-line text, escaped before the style's colours (those of `lint`) are added.
public enum FindingsText {
    /// Other findings of one cause listed before "… and N more".
    static let shownMessages = 10

    public static func lines(_ report: some Report, style: TextStyle) -> [String] {
        let context = report.context
        // A fleet's check can find thousands of causes, each naming its hosts and fingerprints:
        // their lines are made on every core and joined in order.
        return report.groups.parallelMap { lines($0, context, style) }.flatMap { $0 }
    }

    /// The lines of one cause.
    private static func lines(_ group: FindingGroup, _ context: ReportContext, _ style: TextStyle) -> [String] {
        let escaped: (String) -> String = PrintableText.escaped
        var lines: [String] = []
        let place = group.location.map { style.styled(escaped(context.place($0)) + ":", .bold) + " " } ?? ""
        let status: String
        if let reason = group.approval {
            status = style.styled("note:", .bold) + " approved (\(escaped(reason))): "
        } else if let reason = group.ignoredBecause {
            status = style.styled("note:", .bold) + " ignored (\(escaped(reason))): "
        } else {
            status = style.styled(group.severity) + " "
        }
        let side = group.side == .base ? "[at \(escaped(context.baseName ?? "base"))] " : ""
        lines.append("\(place)\(status)\(side)\(escaped(group.first.message)) [\(escaped(group.rule))]")
        func labelled(_ label: String, _ text: String) -> String {
            "  " + style.styled(label, .dim) + " " + escaped(text)
        }
        if group.findings.count > 1 {
            if let places = group.places { lines.append(labelled("where:", places)) }
            let others = group.otherMessages
            for message in others.prefix(shownMessages) { lines.append(labelled("also:", message)) }
            if others.count > shownMessages { lines.append("  … and \(others.count - shownMessages) more") }
        }
        for witness in group.witnesses(5) { lines.append(labelled("witness:", witness)) }
        if let hint = group.first.hint, group.approval == nil { lines.append(labelled("hint:", hint)) }
        let fingerprints = group.fingerprints
        lines.append(
            labelled(fingerprints.count == 1 ? "fingerprint:" : "fingerprints:", fingerprints.joined(separator: ", ")))
        return lines
    }
}

/// "1 host", "3 hosts": a count with its noun, for every report's wording.
public func counted(_ number: Int, _ noun: String) -> String {
    var text = ""
    appendCounted(number, noun, to: &text)
    return text
}

/// `counted(…)` appended to `text`.
public func appendCounted(_ number: Int, _ noun: String, to text: inout String) {
    text += String(number)
    text += " "
    text += noun
    if number != 1 { text += "s" }
}
