import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright generate swift`: write each app's link router, made from the same compiled
/// configuration as the association files, so the router and the files cannot disagree.
struct GenerateCommand: Command {
    static let languages = ["swift"]
    static let language = ArgumentSpec(name: "LANGUAGE", help: "The router's language", choices: languages)
    static let apps = Option<[String]>(name: "app", valueName: "NAME", help: "Only this app (default: every iOS app)")
    static let out = Option<String?>(
        name: "out", valueName: "DIR",
        help: "Folder the routers are written into (default: generated/<env or all>/swift in the configuration folder)")

    static let spec = CommandSpec(
        name: "generate",
        abstract: "Write each app's link router, deciding URLs exactly as the association files do",
        discussion: """
            Writes <App>Router.swift per iOS app: a Hashable <App>Destination enum with the routes
            of domains/ and their typed parameters, and <App>Router.destination(for: URL), which
            returns a destination exactly when the apple-app-site-association files of the app's
            hosts open the app (nil for route: none rules). Hosts are those of every environment,
            or of those given with --env; a host two environments decide differently needs --env.
            Files are written atomically, only Foundation is imported, and the same configuration
            always gives the same bytes. The output folder is not dist/: build owns that one.
            """,
        options: [Workspace.config, Workspace.environments, apps, out],
        arguments: [language])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        guard let language = arguments.positionals.first else {
            throw UsageError(message: "name the language: \(Self.languages.joined(separator: ", "))")
        }
        guard Self.languages.contains(language), arguments.positionals.count == 1 else {
            throw UsageError(
                message: "unknown language \"\(language)\"; choose \(Self.languages.joined(separator: ", "))")
        }
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let environments = arguments[Workspace.environments]
        let (configuration, compiled, diagnostics) = try workspace.loadAndCompile(environments)
        guard let configuration, let compiled else {
            try workspace.printUnusable(diagnostics, as: .text, title: "linkwright generate")
            return .unusable
        }
        var apps = arguments[Self.apps]
        if apps.isEmpty {
            apps = compiled.environments.flatMap { $0.iosApps.map(\.name) }.uniqued()
        }
        var files: [(path: String, bytes: [UInt8])] = []
        for app in apps {
            do {
                let model = try RouterModel.ios(app: app, configuration: configuration, compiled: compiled)
                let command = (["linkwright generate swift"] + environments.map { "--env \($0)" } + ["--app \(app)"])
                    .joined(separator: " ")
                let source = SwiftRouterWriter.source(model, command: command)
                files.append((SwiftRouterWriter.fileName(model), Array(source.utf8)))
            } catch {
                throw UnusableInput(message: error.message, hint: error.hint)
            }
        }
        // The default folder is inside the configuration, which may be untrusted: it is reached
        // from the configuration folder without following links. A folder given with --out is
        // the user's own, created when missing.
        let (root, folder, shown) = try outputFolder(workspace, terminal: terminal, environments: environments)
        do {
            try AtomicFiles.write(files.map { (folder + $0.path, $0.bytes) }, under: root)
        } catch let error as AtomicFiles.WriteError {
            throw UnusableInput(message: "cannot write \(error.path): \(error.reason)", hint: "nothing was written")
        }
        for file in files { terminal.out("wrote \(PrintableText.escaped(shown + file.path))") }
        return .success
    }

    /// Where files go: a root folder that exists, the folder under it, and how to show it.
    /// `--out`, else `generated/<environments joined with +, or all>/swift` in the configuration folder.
    private func outputFolder(_ workspace: Workspace, terminal: Terminal, environments: [String]) throws -> (
        root: URL, folder: String, shown: String
    ) {
        if let given = arguments[Self.out] {
            guard !given.isEmpty else { throw UsageError(message: "--out needs a folder") }
            do {
                try FileManager.default.createDirectory(at: terminal.url(given), withIntermediateDirectories: true)
            } catch {
                throw UnusableInput(
                    message: "cannot create \(PrintableText.escaped(given))", hint: "nothing was written")
            }
            return (terminal.url(given), "", given.hasSuffix("/") ? given : given + "/")
        }
        let scope = environments.isEmpty ? "all" : environments.uniqued().joined(separator: "+")
        let folder = "generated/\(scope)/swift/"
        return (workspace.root, folder, workspace.printer.pathPrefix + folder)
    }
}
