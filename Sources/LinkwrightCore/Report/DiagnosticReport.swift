/// Problems in the input: what `lint` reports, and what every command reports when its input
/// cannot be used (exit 2), in whichever format the user chose, so a CI step that asked for
/// SARIF or annotations still gets them, located, rather than an empty file.
public struct DiagnosticReport: Report {
    public var title: String
    public var diagnostics: [Diagnostic]
    /// What was read, for the summary: "." or "mobile/links".
    public var subject: String
    public var isUnusable: Bool
    public var context: ReportContext
    /// `lint`'s JSON is the list of diagnostics; other commands print an object saying the input
    /// was unusable.
    public var jsonIsList: Bool

    public init(
        title: String, diagnostics: [Diagnostic], subject: String, isUnusable: Bool, pathPrefix: String,
        jsonIsList: Bool = false
    ) {
        self.title = title
        self.diagnostics = diagnostics.sorted()
        self.subject = subject
        self.isUnusable = isUnusable
        self.jsonIsList = jsonIsList
        context = ReportContext(pathPrefix: pathPrefix)
    }

    public var findings: [Finding] { diagnostics.map(Finding.init) }

    /// The IDs reported, in catalog order.
    public var rules: [ReportRule] {
        ReportRule.diagnostics(reported: Set(diagnostics.map(\.id.rawValue)))
    }

    public var summary: String {
        "\(subject): configuration is \(isUnusable ? "invalid" : "valid") (\(DiagnosticText.tally(diagnostics)))"
    }

    /// Diagnostics on standard error, the verdict on standard output.
    public func text(_ style: TextStyle) -> PrintedReport {
        let err = diagnostics.map { DiagnosticText.line($0, pathPrefix: context.pathPrefix, style: style) + "\n" }
        return PrintedReport(out: PrintableText.escaped(summary) + "\n", err: err.joined())
    }

    public var json: JSON {
        let list = JSON.array(diagnostics.map { DiagnosticText.json($0, pathPrefix: context.pathPrefix) })
        guard !jsonIsList else { return list }
        return .object([("usable", .bool(!isUnusable)), ("summary", .string(summary)), ("diagnostics", list)])
    }
}

extension Finding {
    /// A diagnostic as a result of a report: not approvable, identified by its place and message.
    public init(_ diagnostic: Diagnostic) {
        self.init(
            rule: diagnostic.id.rawValue, severity: diagnostic.severity, message: diagnostic.message,
            location: diagnostic.location, hint: diagnostic.hint,
            identity: [diagnostic.location?.description ?? "", diagnostic.message])
    }
}

/// A diagnostic as a person reads it, and as JSON.
public enum DiagnosticText {
    /// `file:line:col: error: message [ID]`, then the hint. File names, messages and hints can
    /// hold text from the files, so each is escaped (`PrintableText`).
    public static func line(_ diagnostic: Diagnostic, pathPrefix: String, style: TextStyle) -> String {
        line(
            id: diagnostic.id.rawValue, severity: diagnostic.severity, message: diagnostic.message,
            at: diagnostic.location, hint: diagnostic.hint, pathPrefix: pathPrefix, style: style)
    }

    /// A finding of any rule in the same form: `linkwright test` reports a failed expectation as
    /// the policy rule that `check` reports it under.
    public static func line(
        id: String, severity: Severity, message: String, at location: SourceLocation?, hint: String?,
        pathPrefix: String, style: TextStyle
    ) -> String {
        var line = ""
        appendLine(
            id: id, severity: severity, message: message, at: location, hint: hint, pathPrefix: pathPrefix,
            style: style, to: &line)
        return line
    }

    /// `line(…)` appended to `text`, each piece escaped where it is written (escaping is per
    /// character, so escaping the pieces is escaping the whole).
    public static func appendLine(
        id: String, severity: Severity, message: String, at location: SourceLocation?, hint: String?,
        pathPrefix: String, style: TextStyle, to text: inout String
    ) {
        if let location {
            style.append(.bold, to: &text) { text in
                text += PrintableText.escaped(pathPrefix)
                text += PrintableText.escaped(location.file)
                text += ":"
                text += String(location.line)
                text += ":"
                text += String(location.column)
                text += ":"
            }
            text += " "
        }
        text += style.styled(severity)
        text += " "
        text += PrintableText.escaped(message)
        text += " ["
        text += id
        text += "]"
        if let hint { appendHint(hint, style: style, to: &text) }
    }

    /// A hint's line, after a line break: `  hint: …`.
    public static func appendHint(_ hint: String, style: TextStyle, to text: inout String) {
        text += "\n  "
        style.append(.dim, to: &text) { $0 += "hint:" }
        text += " "
        text += PrintableText.escaped(hint)
    }

    public static func json(_ diagnostic: Diagnostic, pathPrefix: String) -> JSON {
        var members: [(String, JSON)] = [
            ("id", .string(diagnostic.id.rawValue)),
            ("severity", .string(diagnostic.severity.rawValue)),
            ("message", .string(diagnostic.message)),
        ]
        if let location = diagnostic.location {
            members += [
                ("file", .string(pathPrefix + location.file)), ("line", .int(location.line)),
                ("column", .int(location.column)),
            ]
        }
        if let hint = diagnostic.hint { members.append(("hint", .string(hint))) }
        return .object(members)
    }

    /// "2 errors, 1 warning".
    public static func tally(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        return "\(counted(errors, "error")), \(counted(warnings, "warning"))"
    }
}
