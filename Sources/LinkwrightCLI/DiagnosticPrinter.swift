import LinkwrightCore

/// Prints diagnostics in the formats the commands offer.
struct DiagnosticPrinter {
    let terminal: Terminal
    /// Prepended to configuration-relative paths so they resolve from the current directory.
    let pathPrefix: String

    init(terminal: Terminal, configPath: String) {
        self.terminal = terminal
        pathPrefix =
            configPath == "." || configPath.isEmpty ? "" : (configPath.hasSuffix("/") ? configPath : configPath + "/")
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
        let style: Terminal.Style =
            switch diagnostic.severity {
            case .error: .red
            case .warning: .yellow
            case .note: .bold
            }
        var line = diagnostic.location.map { terminal.styled(PrintableText.escaped(path($0)) + ":", .bold) + " " } ?? ""
        line += terminal.styled(diagnostic.severity.rawValue + ":", style)
        line += " \(PrintableText.escaped(diagnostic.message)) [\(diagnostic.id)]"
        if let hint = diagnostic.hint {
            line += "\n  " + terminal.styled("hint:", .dim) + " \(PrintableText.escaped(hint))"
        }
        return line
    }

    func json(_ diagnostic: Diagnostic) -> JSON {
        var members: [(String, JSON)] = [
            ("id", .string(diagnostic.id)),
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
