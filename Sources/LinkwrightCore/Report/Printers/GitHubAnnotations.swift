/// GitHub Actions workflow commands, so findings appear on the pull request's lines
/// (https://docs.github.com/actions/reference/workflow-commands-for-github-actions).
///
/// GitHub shows at most 10 error, 10 warning and 10 notice annotations per step and 50 per job
/// (actions/toolkit, docs/problem-matchers.md, "Limitations"), in the order printed. So each
/// cause is one annotation, the most important first; causes past a level's limit are printed as
/// plain log lines, and a notice says how many were not annotated. The whole report goes to the
/// step summary (`PrintedReport.stepSummary`), which has room for all of it.
///
/// Values are escaped before the workflow-command encoding: a newline from input shows as `\n`
/// and can never start a line, hence never a command of its own; only our separators become `%0A`.
public enum GitHubAnnotations {
    /// Annotations of one level GitHub shows per step.
    public static let perLevel = 10
    /// Lines of detail in one annotation (other findings, witnesses, fingerprints).
    static let detailLines = 5

    enum Level: String, CaseIterable {
        case error, warning, notice
    }

    public static func render(_ report: some Report) -> PrintedReport {
        var lines: [String] = []
        var annotated: [Level: Int] = [:]
        var unannotated: [Level: Int] = [:]
        let notices = report.notices
        // A notice is kept for the behaviour changes and one for what could not be annotated.
        let reserved = [Level.notice: (notices.isEmpty ? 0 : 1) + 1]
        for group in report.groups where group.ignoredBecause == nil {
            let level = level(group, report)
            let (command, message) = annotation(group, level, report)
            if annotated[level, default: 0] < perLevel - reserved[level, default: 0] {
                annotated[level, default: 0] += 1
                lines.append(command + "::" + escapeData(message))
            } else {
                unannotated[level, default: 0] += 1
                lines.append(PrintableText.escaped("\(level.rawValue): \(group.headline) [\(group.rule)]"))
            }
        }
        if !notices.isEmpty {
            var message = "\(counted(notices.count, "behaviour change")):"
            for notice in notices.prefix(detailLines) { message += "\n" + PrintableText.escaped(notice) }
            if notices.count > detailLines {
                message += "\n… and \(notices.count - detailLines) more in the job summary"
            }
            lines.append("::notice title=behaviour changes::" + escapeData(message))
        }
        let missing = Level.allCases.compactMap { level in
            unannotated[level].map { counted($0, level.rawValue) }
        }
        if !missing.isEmpty {
            lines.append(
                "::notice title=more findings::"
                    + escapeData(
                        "\(missing.joined(separator: ", ")) more are not shown as annotations (GitHub shows "
                            + "\(perLevel) of each level per step): they are in this step's log and summary"))
        }
        lines.append(PrintableText.escaped(report.summary))
        return PrintedReport(
            out: lines.joined(separator: "\n") + "\n", stepSummary: MarkdownComment.render(report))
    }

    static func level(_ group: FindingGroup, _ report: some Report) -> Level {
        if group.blocks { return .error }
        if group.approval != nil { return .notice }
        return group.severity == .note ? .notice : .warning
    }

    /// `::level properties` and the message, not yet encoded.
    static func annotation(_ group: FindingGroup, _ level: Level, _ report: some Report) -> (String, String) {
        var properties: [String] = []
        if let location = group.location, group.side == .head {
            properties += ["file=\(report.path(location))", "line=\(location.line)", "col=\(location.column)"]
        }
        properties.append(
            "title=\(group.rule)" + (group.findings.count > 1 ? " (\(group.findings.count) findings)" : ""))
        var message = PrintableText.escaped(group.first.message)
        if let reason = group.approval { message = "approved (\(PrintableText.escaped(reason))): " + message }
        if group.side == .base { message += " (at \(PrintableText.escaped(report.context.baseName ?? "base")))" }
        if group.findings.count > 1 {
            if let places = group.places { message += "\nwhere: " + PrintableText.escaped(places) }
            let others = group.otherMessages
            for other in others.prefix(detailLines) { message += "\nalso: " + PrintableText.escaped(other) }
            if others.count > detailLines { message += "\n… and \(others.count - detailLines) more" }
        }
        for witness in group.witnesses(3) { message += "\nwitness: \(PrintableText.escaped(witness))" }
        let fingerprints = group.fingerprints
        guard group.isApprovable else {
            if let hint = group.first.hint { message += "\nhint: " + PrintableText.escaped(hint) }
            return ("::\(level.rawValue) " + properties.map(escapeProperty).joined(separator: ","), message)
        }
        message +=
            (fingerprints.count == 1 ? "\nfingerprint: " : "\nfingerprints: ")
            + fingerprints.prefix(detailLines).joined(separator: ", ")
            + (fingerprints.count > detailLines
                ? " and \(fingerprints.count - detailLines) more (--format approvals lists them all)" : "")
        return ("::\(level.rawValue) " + properties.map(escapeProperty).joined(separator: ","), message)
    }

    /// A workflow command's message: `%`, CR and LF percent-encoded, byte by byte
    /// (`ASCIIEscaping`: `\r\n` is one Character, equal to neither `\r` nor `\n`).
    static func escapeData(_ text: String) -> String {
        ASCIIEscaping.replacing(in: text) { percentEncoded($0, also: false) }
    }

    static func escapeProperty(_ text: String) -> String {
        // Only the value after `=` needs the extra escapes; keys are ours.
        guard let equals = text.firstIndex(of: "=") else { return escapeData(text) }
        let key = text[...equals]
        let value = ASCIIEscaping.replacing(in: PrintableText.escaped(text[text.index(after: equals)...])) {
            percentEncoded($0, also: true)
        }
        return key + value
    }

    /// How GitHub's runner reads escapes back: `%25`, `%0D`, `%0A`, and in a property's value
    /// also `%3A` and `%2C`.
    private static func percentEncoded(_ byte: UInt8, also propertySeparators: Bool) -> String? {
        switch byte {
        case UInt8(ascii: "%"): "%25"
        case UInt8(ascii: "\r"): "%0D"
        case UInt8(ascii: "\n"): "%0A"
        case UInt8(ascii: ":") where propertySeparators: "%3A"
        case UInt8(ascii: ",") where propertySeparators: "%2C"
        default: nil
        }
    }
}
