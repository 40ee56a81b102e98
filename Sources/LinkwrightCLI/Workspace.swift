import Foundation
import LinkwrightCore
import LinkwrightIO

/// The configuration a command works on (`--config DIR`, default the current directory), with
/// the printer that makes its diagnostics point at files the user can open.
struct Workspace {
    let configPath: String
    let root: URL
    let printer: DiagnosticPrinter

    static let config = Option<String>(
        name: "config", valueName: "DIR", default: ".", help: "Folder holding environments/, domains/ and policies/")
    /// The environments to work on; every one when none is given.
    static let environments = Option<[String]>(name: "env", valueName: "NAME", help: "Only this environment")

    init(_ arguments: ParsedArguments, terminal: Terminal) {
        configPath = arguments[Self.config]
        root = terminal.url(configPath)
        printer = DiagnosticPrinter(terminal: terminal, configPath: configPath)
    }

    /// The configuration files in the working tree.
    func files() throws -> [SourceFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UnusableInput(message: "configuration folder \(configPath) does not exist", hint: "pass --config DIR")
        }
        do {
            return try DiskSourceTree(root: root).configurationFiles()
        } catch {
            throw UnusableInput(message: "cannot read the configuration in \(configPath): \(error)", hint: nil)
        }
    }

    /// The diagnostics that make the configuration unusable, in the format the command was
    /// asked for: text on standard error, every other format as a report on standard output.
    func printUnusable(_ diagnostics: [Diagnostic], as format: OutputFormat, title: String) throws {
        try printer.printUnusable(diagnostics, as: format, title: title, subject: configPath)
    }

    /// Loads and validates the configuration in the working tree.
    func load() throws -> (configuration: Configuration?, diagnostics: [Diagnostic]) {
        ConfigLoader().load(try files())
    }

    /// Loads, validates and compiles the selected environments (all when `environments` is empty).
    /// Unknown environment names are a usage error. The configuration and its compiled form are
    /// `nil` when an error makes them unusable.
    func loadAndCompile(_ environments: [String]) throws -> (
        configuration: Configuration?, compiled: CompiledConfiguration?, diagnostics: [Diagnostic]
    ) {
        let (configuration, loadDiagnostics) = try load()
        guard let configuration else { return (nil, nil, loadDiagnostics) }
        let known = configuration.environments.map(\.name)
        for name in environments where !known.contains(name) {
            let suggestion = Spelling.closest(to: name, among: known)
            throw UsageError(
                message: "unknown environment \"\(name)\""
                    + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "; known: \(known.joined(separator: ", "))"))
        }
        let (compiled, compileDiagnostics) = Compiler().compile(configuration, environments: environments)
        let diagnostics = (loadDiagnostics + compileDiagnostics).sorted()
        let usable = !diagnostics.contains { $0.severity == .error }
        return (usable ? configuration : nil, usable ? compiled : nil, diagnostics)
    }
}
