import Foundation
import LinkwrightCore
import LinkwrightIO

/// The configuration a command works on (`--config DIR`, by default found from the current
/// directory), with the printer that makes its diagnostics point at files the user can open.
struct Workspace {
    let configPath: String
    let root: URL
    let printer: DiagnosticPrinter

    static let config = Option<String?>(
        name: "config", valueName: "DIR",
        help: "Folder holding environments/, domains/ and policies/ (default: the nearest folder holding "
            + "environments/ from the current one up to the repository's top, else the current one)")
    /// The environments to work on; every one when none is given.
    static let environments = Option<[String]>(name: "env", valueName: "NAME", help: "Only this environment")

    init(_ arguments: ParsedArguments, terminal: Terminal) {
        configPath = arguments[Self.config] ?? Self.discovered(from: terminal.currentDirectory)
        root = terminal.url(configPath)
        printer = DiagnosticPrinter(terminal: terminal, configPath: configPath)
    }

    /// The configuration found from `directory` (`ConfigurationDiscovery`), as a path from it:
    /// `.`, `..`, `../..`; `.` when none is found, so the usual "no configuration" errors name it.
    private static func discovered(from directory: URL) -> String {
        guard let levels = ConfigurationDiscovery.levelsUp(from: directory.path), levels > 0 else { return "." }
        return Array(repeating: "..", count: levels).joined(separator: "/")
    }

    /// What file names in `format` start with. Text keeps paths that open from the current
    /// directory; the machine formats (read by GitHub, code scanning, CI dashboards, scripts)
    /// name files from the top of the git repository, whatever the working directory and
    /// `--config`, so that annotations attach to the pull request's files.
    func pathPrefix(for format: OutputFormat) -> String {
        format == .text ? printer.pathPrefix : repositoryPathPrefix
    }

    /// The printer whose paths suit `format`.
    func printer(for format: OutputFormat) -> DiagnosticPrinter {
        DiagnosticPrinter(terminal: printer.terminal, pathPrefix: pathPrefix(for: format))
    }

    /// The configuration folder relative to the top of the git working tree that holds it
    /// (libgit2's discovery), with a trailing slash: `mobile/links/`, or "" at the top. Outside a
    /// repository, the text prefix: the `--config` path as given.
    var repositoryPathPrefix: String {
        guard let top = GitRepository.workTreeRoot(containing: root.path),
            let folder = realpath(root.path, nil)
        else { return printer.pathPrefix }
        defer { free(folder) }
        let path = String(cString: folder)
        if path == top { return "" }
        guard path.hasPrefix(top + "/") else { return printer.pathPrefix }
        return String(path.dropFirst(top.count + 1)) + "/"
    }

    /// The output folder `build` writes, from the current directory: `given` (`--out`), else
    /// `dist` in the configuration folder, so the output stays next to its configuration
    /// wherever the command runs.
    func outputPath(_ given: String?) throws -> String {
        guard let given else { return printer.pathPrefix + "dist" }
        guard !given.isEmpty else { throw UsageError(message: "--out needs a folder; the default is dist") }
        return given
    }

    /// Writes `files` under the configuration folder, all or nothing, creating the folder (and
    /// its parents) first when it does not exist yet: `init` and `import` start configurations.
    func writeNewFiles(_ files: [SourceFile]) throws {
        do {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        } catch {
            throw UnusableInput(
                message: "cannot create the configuration folder \(configPath): \(error.localizedDescription)",
                hint: "nothing was written; pass --config with a folder that can be created")
        }
        do {
            try AtomicFiles.write(files.map { ($0.path, $0.bytes) }, under: root)
        } catch let error as AtomicFiles.WriteError {
            throw UnusableInput(message: PrintableText.escaped(error.description), hint: error.outcome)
        }
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
        try printer(for: format).printUnusable(diagnostics, as: format, title: title, subject: configPath)
    }

    /// Loads and validates the configuration in the working tree.
    func load() throws -> (configuration: Configuration?, diagnostics: [Diagnostic]) {
        ConfigLoader().load(try files())
    }

    /// Loads and validates the configuration, where the selected environments (all when
    /// `environments` is empty) must be. Unknown environment names are a usage error.
    func load(selecting environments: [String]) throws -> (configuration: Configuration?, diagnostics: [Diagnostic]) {
        let (configuration, diagnostics) = try load()
        guard let configuration else { return (nil, diagnostics) }
        let known = configuration.environments.map(\.name)
        for name in environments where !known.contains(name) {
            let suggestion = Spelling.closest(to: name, among: known)
            throw UsageError(
                message: "unknown environment \"\(name)\""
                    + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "; known: \(known.joined(separator: ", "))"))
        }
        return (configuration, diagnostics)
    }

    /// Loads, validates and compiles the selected environments (all when `environments` is empty).
    /// Unknown environment names are a usage error. The configuration and its compiled form are
    /// `nil` when an error makes them unusable.
    func loadAndCompile(_ environments: [String]) throws -> (
        configuration: Configuration?, compiled: CompiledConfiguration?, diagnostics: [Diagnostic]
    ) {
        let (configuration, loadDiagnostics) = try load(selecting: environments)
        guard let configuration else { return (nil, nil, loadDiagnostics) }
        let (compiled, compileDiagnostics) = Compiler().compile(configuration, environments: environments)
        let diagnostics = (loadDiagnostics + compileDiagnostics).sorted()
        let usable = !diagnostics.contains { $0.severity == .error }
        return (usable ? configuration : nil, usable ? compiled : nil, diagnostics)
    }
}
