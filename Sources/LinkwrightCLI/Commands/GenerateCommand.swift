import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright generate swift|kotlin`: write each app's link router, made from the same compiled
/// configuration as the association files, so the router and the files cannot disagree.
struct GenerateCommand: Command {
    static let languages = ["swift", "kotlin"]
    static let language = ArgumentSpec(name: "LANGUAGE", help: "The router's language", choices: languages)
    static let apps = Option<[String]>(
        name: "app", valueName: "NAME", help: "Only this app (default: every iOS app, or every Android app for kotlin)")
    static let package = Option<String?>(
        name: "package", valueName: "NAME",
        help:
            "kotlin: the package the router is declared in (default: the segments every environment's application ID of the app starts with)"
    )
    static let access = Option<GeneratedAccess>(
        name: "access", valueName: "LEVEL", choices: GeneratedAccess.allCases, default: .internal,
        help:
            "Who may use the destination type and its entry point: internal (default), public or package (swift only) for an app split into modules"
    )
    static let out = Option<String?>(
        name: "out", valueName: "DIR",
        help:
            "Folder the routers are written into (default: generated/<env or all>/<language> in the configuration folder)"
    )
    static let file = Option<String?>(
        name: "file", valueName: "PATH",
        help:
            "Write the one router into this file instead of a folder: the app given with --app, or the only app of the language (the build-tool plugin's fixed output)"
    )
    static let xcfilelists = Option<Bool>(
        name: "xcfilelists",
        help:
            "Also write linkwright-<language>-inputs.xcfilelist and -outputs.xcfilelist beside the routers, for an Xcode Run Script phase, paths from the current folder as $(SRCROOT)"
    )

    static let spec = CommandSpec(
        name: "generate",
        abstract: "Write each app's link router, deciding URLs exactly as the association files do",
        discussion: """
            swift writes <App>Router.swift per iOS app: a Hashable <App>Destination enum with the
            routes of domains/ and their typed parameters, and <App>Router.destination(for: URL),
            which returns a destination exactly when the apple-app-site-association files of the
            app's hosts open the app (nil for route: none rules); only Foundation is imported.
            Both declare their destination type and entry point with --access: internal, or public
            (or package, swift only) for an app split into modules.
            Both routers also return the destination a custom scheme's routes give for its URLs
            (scheme:/path?query), for the schemes the app declares in those environments.
            kotlin writes <App>Destination.kt per Android app: a sealed class with a data class or
            object per route, and <App>Destination.parse(url, androidApiLevel), which returns a
            destination exactly when Android opens the app through a rule naming one: its
            verified intent filters claim the link, and from API level 35 the first matching
            dynamic rule of assetlinks.json, read as that release reads it, does not exclude it
            (below 35 the filters alone open the app). Only the Kotlin 1.3 standard library is
            used, so Kotlin Multiplatform JVM code can share it. A domain naming routes needs
            emit.android_dynamic_rules for kotlin. Hosts are those of every environment, or of those given with --env; a host
            two environments decide differently needs --env. Files are written atomically (a
            folder in a router's place is refused before any is written, and temporary files a
            killed run left are removed), and
            the same configuration always gives the same bytes. The output folder is not dist/:
            build owns that one. --file writes one app's router into a file of a fixed name, as
            the SwiftPM build-tool plugin LinkwrightRouter does on every build. --xcfilelists also
            writes, beside the routers and with them, the input file list (every configuration
            file, so any change makes Xcode run the phase again) and the output file list (the
            routers) of an Xcode Run Script phase, as $(SRCROOT)/ paths from the current folder:
            run it from the project folder, as the phase does (docs/build-integration.md).
            """,
        options: [Workspace.config, Workspace.environments, apps, package, access, out, file, xcfilelists],
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
        let language = arguments.positionals[0]
        var apps = arguments[Self.apps]
        if apps.isEmpty {
            apps = compiled.environments.flatMap { environment in
                language == "kotlin" ? environment.androidApps.map(\.name) : environment.iosApps.map(\.name)
            }.uniqued()
        }
        if arguments[Self.file] != nil {
            guard arguments[Self.out] == nil else { throw UsageError(message: "give --file or --out, not both") }
            guard apps.count == 1 else {
                throw UsageError(
                    message: "--file writes one router, and \(counted(apps.count, "app")) "
                        + (apps.isEmpty ? "were found" : "would be written (\(apps.joined(separator: ", ")))")
                        + "; choose one with --app")
            }
        }
        if let package = arguments[Self.package] {
            guard language == "kotlin" else { throw UsageError(message: "--package is for kotlin routers") }
            guard Self.isKotlinPackage(package) else {
                throw UsageError(
                    message:
                        "--package \(PrintableText.quoted(package)) is not a Kotlin package name: write dot-separated identifiers, such as com.example.museo"
                )
            }
        }
        let access = arguments[Self.access]
        if language == "kotlin" && access.kotlinModifier == nil {
            throw UsageError(
                message:
                    "--access package is for swift routers: Kotlin has no package visibility; use internal or public")
        }
        var files: [(path: String, bytes: [UInt8])] = []
        for app in apps {
            let command =
                ["linkwright generate \(language)"] + environments.map { "--env \($0)" } + ["--app \(app)"]
                + (access == .internal ? [] : ["--access \(access.rawValue)"])
            do {
                if language == "kotlin" {
                    let model = try AndroidRouterModel.android(
                        app: app, configuration: configuration, compiled: compiled)
                    guard let package = arguments[Self.package] ?? model.defaultKotlinPackage else {
                        throw UnusableInput(
                            message: "the application IDs of \(app) share no package of two or more segments",
                            hint: "name the router's package with --package")
                    }
                    let written = command + (arguments[Self.package].map { ["--package \($0)"] } ?? [])
                    let source = KotlinRouterWriter.source(
                        model, package: package, command: written.joined(separator: " "), access: access)
                    files.append((KotlinRouterWriter.fileName(model), Array(source.utf8)))
                } else {
                    let model = try RouterModel.ios(app: app, configuration: configuration, compiled: compiled)
                    let source = SwiftRouterWriter.source(
                        model, command: command.joined(separator: " "), access: access)
                    files.append((SwiftRouterWriter.fileName(model), Array(source.utf8)))
                }
            } catch let error as RouterModelError {
                let places = error.locations.map { "\(workspace.printer.pathPrefix)\($0)" }
                throw UnusableInput(
                    message: (places.isEmpty ? "" : places.joined(separator: ", ") + ": ") + error.message,
                    hint: error.hint)
            }
        }
        // The default folder is inside the configuration, which may be untrusted: it is reached
        // from the configuration folder without following links. A folder given with --out is
        // the user's own, created when missing.
        let (root, folder, shown) = try outputFolder(
            workspace, terminal: terminal, environments: environments, language: language)
        if let given = arguments[Self.file] { files[0].path = terminal.url(given).lastPathComponent }
        if arguments[Self.xcfilelists] {
            files += try fileLists(
                workspace, terminal: terminal, language: language,
                outputs: files.map { root.appendingPathComponent(folder + $0.path) })
        }
        do {
            try AtomicFiles.write(files.map { (folder + $0.path, $0.bytes) }, under: root)
        } catch let error as AtomicFiles.WriteError {
            throw UnusableInput(message: "cannot write \(error.path): \(error.reason)", hint: error.outcome)
        }
        for file in files { terminal.out("wrote \(PrintableText.escaped(shown + file.path))") }
        return .success
    }

    /// The Run Script phase's input list (every configuration file: any of them can change what
    /// the routers say, or whether they can be made) and output list (`outputs`), one
    /// `$(SRCROOT)/` path a line, from the current folder: the phase runs in the project folder.
    private func fileLists(_ workspace: Workspace, terminal: Terminal, language: String, outputs: [URL]) throws
        -> [(path: String, bytes: [UInt8])]
    {
        let inputs = try workspace.files().filter { $0.refusal == nil }.map {
            workspace.root.appendingPathComponent($0.path)
        }
        func list(_ urls: [URL]) -> [UInt8] {
            let lines = urls.map { "$(SRCROOT)/" + Self.relativePath(of: $0, from: terminal.currentDirectory) }
            return Array(lines.sorted().map { $0 + "\n" }.joined().utf8)
        }
        return [
            ("linkwright-\(language)-inputs.xcfilelist", list(inputs)),
            ("linkwright-\(language)-outputs.xcfilelist", list(outputs)),
        ]
    }

    /// `url` from the folder `base` (both absolute): `links/domains/shop.yaml`, `../links/…`.
    static func relativePath(of url: URL, from base: URL) -> String {
        let target = url.standardizedFileURL.pathComponents
        let start = base.standardizedFileURL.pathComponents
        let shared = zip(target, start).prefix { $0 == $1 }.count
        let path = Array(repeating: "..", count: start.count - shared) + target.dropFirst(shared)
        return path.isEmpty ? "." : path.joined(separator: "/")
    }

    /// Dot-separated Kotlin identifiers: a letter or `_`, then letters, digits or `_`.
    static func isKotlinPackage(_ text: String) -> Bool {
        text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { segment in
            guard let first = segment.first, first.isASCII, first.isLetter || first == "_" else { return false }
            return segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
    }

    /// Where files go: a root folder that exists, the folder under it, and how to show it.
    /// `--file`'s folder, `--out`, else `generated/<environments joined with +, or all>/<language>` in the configuration folder.
    private func outputFolder(
        _ workspace: Workspace, terminal: Terminal, environments: [String], language: String
    ) throws -> (
        root: URL, folder: String, shown: String
    ) {
        if let given = arguments[Self.file] {
            guard !given.isEmpty, !given.hasSuffix("/") else { throw UsageError(message: "--file needs a file name") }
            let folder = terminal.url(given).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw UnusableInput(
                    message: "cannot create the folder of \(PrintableText.escaped(given))", hint: "nothing was written")
            }
            return (folder, "", given.lastIndex(of: "/").map { String(given[...$0]) } ?? "")
        }
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
        let folder = "generated/\(scope)/\(language)/"
        return (workspace.root, folder, workspace.printer.pathPrefix + folder)
    }
}
