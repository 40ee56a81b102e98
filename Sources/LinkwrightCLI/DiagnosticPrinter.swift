import LinkwrightCore

/// Prints diagnostics where a command stops before it has a report, and names files the way
/// the user can open them.
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

    /// `file:line:col: error: message [ID]`, then the hint, on standard error.
    func printText(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            terminal.err(DiagnosticText.line(diagnostic, pathPrefix: pathPrefix, style: terminal.style))
        }
    }

    /// The diagnostics that make `subject` unusable, in the format the command was asked for:
    /// text on standard error, any other format as a report on standard output, so a CI step that
    /// asked for SARIF or annotations gets them rather than an empty file.
    func printUnusable(_ diagnostics: [Diagnostic], as format: OutputFormat, title: String, subject: String) throws {
        guard format != .text else { return printText(diagnostics) }
        try terminal.print(
            DiagnosticReport(
                title: title, diagnostics: diagnostics, subject: subject, isUnusable: true, pathPrefix: pathPrefix),
            as: format)
    }
}
