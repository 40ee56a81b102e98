import LinkwrightCore

/// Prints diagnostics in the formats the commands offer.
struct DiagnosticPrinter {
    let terminal: Terminal
    /// Prepended to configuration-relative paths: from the current directory for text, from the
    /// repository's top for machine formats (`Workspace.pathPrefix(for:)`).
    let pathPrefix: String

    init(terminal: Terminal, configPath: String) {
        self.terminal = terminal
        pathPrefix =
            configPath == "." || configPath.isEmpty ? "" : (configPath.hasSuffix("/") ? configPath : configPath + "/")
    }

    init(terminal: Terminal, pathPrefix: String) {
        self.terminal = terminal
        self.pathPrefix = pathPrefix
    }

    func path(_ location: SourceLocation) -> String {
        "\(pathPrefix)\(location.file):\(location.line):\(location.column)"
    }

    /// `file:line:col: error: message [ID]`, then the hint, on standard error. File names,
    /// messages and hints can hold text from the files, so each is escaped (`PrintableText`).
    func printText(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { terminal.err(text(diagnostic)) }
    }

    func text(_ diagnostic: Diagnostic) -> String {
        text(
            diagnostic.id.rawValue, diagnostic.severity, diagnostic.message, at: diagnostic.location,
            hint: diagnostic.hint)
    }

    /// A finding of `rule` in the same form: `linkwright test` reports a failed expectation as the
    /// policy rule that `check` reports it under.
    func text(_ rule: RuleInfo, _ message: String, at location: SourceLocation?, hint: String?) -> String {
        text(rule.id, rule.defaultSeverity, message, at: location, hint: hint)
    }

    private func text(
        _ id: String, _ severity: Severity, _ message: String, at location: SourceLocation?, hint: String?
    ) -> String {
        let style: Terminal.Style =
            switch severity {
            case .error: .red
            case .warning: .yellow
            case .note: .bold
            }
        var line = location.map { terminal.styled(PrintableText.escaped(path($0)) + ":", .bold) + " " } ?? ""
        line += terminal.styled(severity.rawValue + ":", style)
        line += " \(PrintableText.escaped(message)) [\(id)]"
        if let hint {
            line += "\n  " + terminal.styled("hint:", .dim) + " \(PrintableText.escaped(hint))"
        }
        return line
    }

    func json(_ diagnostic: Diagnostic) -> JSON {
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
    static func tally(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        return "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
    }
}
