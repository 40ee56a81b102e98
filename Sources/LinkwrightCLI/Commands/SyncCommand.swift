import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright sync`: keep the app's own entitlements, Info.plist and flavor manifests in step
/// with the contract, in place, or with `--check` say which drifted and how.
struct SyncCommand: Command {
    static let check = Option<Bool>(
        name: "check", help: "Compare the app files with the configuration instead of writing (exit 1 when any drifted)"
    )
    static let apps = Option<[String]>(name: "app", valueName: "NAME", help: "Only this app")
    static let format = Option.format(OutputFormat.findings)
    /// Larger than any entitlements file, Info.plist or manifest; a bigger file is refused, not read.
    static let sizeLimit = 16 << 20

    static let spec = CommandSpec(
        name: "sync",
        abstract: "Update the app's own entitlements, Info.plist and flavor manifests from the configuration",
        discussion: """
            Each app file an environment declares (ios: entitlements, info_plist; android:
            manifest with activity; paths from the configuration folder) gets the contract's part
            and nothing else: com.apple.developer.associated-domains of the entitlements,
            CFBundleURLTypes of the Info.plist (removed when the app has no domains or no schemes),
            and in the manifest the intent filters between <!-- linkwright:begin … --> and
            <!-- linkwright:end --> inside the named activity (the markers are inserted when
            absent). The values are those build writes into dist/<env>/ios and dist/<env>/android.
            Every other byte is kept; a value already equal is not rewritten. XML property lists
            only: a binary one is refused (plutil -convert xml1 converts it). Files are written all
            or none, and refused with uncommitted changes, as links (never followed), or outside the
            repository. With --check nothing is written: exit 1 lists every file that drifted with
            the lines that differ. --env, --app and --platform narrow the files (a Gradle variant
            checks its flavor's manifest with --env FLAVOR --platform android).
            """,
        options: [Workspace.config, Workspace.environments, apps, ExplainCommand.platform, check, format])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws { self.arguments = arguments }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let format = arguments[Self.format]
        let check = arguments[Self.check]
        let environments = arguments[Workspace.environments]
        let (configuration, compiled, diagnostics) = try workspace.loadAndCompile(environments)
        let pathPrefix = workspace.pathPrefix(for: format)
        guard let configuration, let compiled else {
            let report = SyncReport(check: check, files: nil, diagnostics: diagnostics, pathPrefix: pathPrefix)
            try terminal.print(report, as: format)
            return .unusable
        }
        let apps = arguments[Self.apps]
        let known = configuration.environments.flatMap { $0.apps.map(\.name.value) }.uniqued()
        for app in apps where !known.contains(app) {
            throw UsageError(message: "unknown app \"\(app)\"; known: \(known.joined(separator: ", "))")
        }
        let declared = configuration.environments.filter { environments.isEmpty || environments.contains($0.name) }
            .flatMap(\.appFiles).filter { file in
                (apps.isEmpty || apps.contains(file.app))
                    && arguments[ExplainCommand.platform].map { $0 == file.kind.platform } ?? true
            }
        if declared.isEmpty {
            terminal.err(
                "note: no app files are declared; add entitlements: or info_plist: under an app's ios:, or manifest: "
                    + "and activity: under its android: (docs/configuration.md#app-files)\n")
        }
        let tree = try AppFileTree(workspace)
        var outcomes: [(outcome: AppFileOutcome, path: String)] = []
        var problems: [AppFileProblem] = []
        for file in declared {
            guard let environment = compiled.environments.first(where: { $0.name == file.environment }) else {
                continue
            }
            do {
                let (path, bytes) = try tree.read(file)
                switch AppFileSync.outcome(file, current: bytes, compiled: environment) {
                case .success(let outcome): outcomes.append((outcome, path))
                case .failure(let problem): problems.append(problem)
                }
            } catch let problem as AppFileProblem {
                problems.append(problem)
            }
        }
        let changed = outcomes.filter(\.outcome.changes)
        if !check && problems.isEmpty && !changed.isEmpty {
            problems = try tree.uncommitted(changed)
            if problems.isEmpty { try tree.write(changed) }
        }
        let report = SyncReport(
            check: check, files: (outcomes.map(\.outcome), problems), diagnostics: diagnostics, pathPrefix: pathPrefix)
        try terminal.print(report, as: format)
        return ExitStatus(report)
    }
}

/// The app files of a configuration, reached from the top of the git working tree around it
/// (the configuration folder outside git) one component at a time without following links.
private struct AppFileTree {
    let root: String
    /// The configuration folder relative to `root`, "" at its top.
    let configurationPath: String
    let repository: GitRepository?

    init(_ workspace: Workspace) throws {
        repository = try? GitRepository(configurationFolder: workspace.root.path)
        if let repository {
            root = repository.workTreeRoot
            configurationPath = repository.configurationPath
        } else {
            guard let resolved = realpath(workspace.root.path, nil) else {
                throw UnusableInput(message: "cannot open the configuration folder \(workspace.configPath)", hint: nil)
            }
            root = String(cString: resolved)
            free(resolved)
            configurationPath = ""
        }
    }

    /// The file's path from `root` and its bytes.
    func read(_ file: DeclaredAppFile) throws -> (path: String, bytes: [UInt8]) {
        func problem(_ message: String, _ hint: String) -> AppFileProblem {
            AppFileProblem(file: file, message: message, hint: hint)
        }
        guard let path = AppFilePath.normalised(file.path.value, under: configurationPath) else {
            throw problem(
                "leads outside the \(repository == nil ? "configuration folder" : "repository")",
                "sync writes only files inside the repository; fix the path at \(file.path.location)")
        }
        let parts = path.split(separator: "/").map(String.init)
        do {
            guard let folder = try FolderHandle(path: root).folder(at: parts.dropLast().joined(separator: "/")),
                let bytes = try folder.read(parts[parts.count - 1], limit: SyncCommand.sizeLimit)
            else {
                throw problem(
                    "does not exist",
                    "create it (Xcode or Android Studio does), or fix the path at \(file.path.location)")
            }
            guard bytes.count <= SyncCommand.sizeLimit else {
                throw problem(
                    "is larger than \(SyncCommand.sizeLimit >> 20) MB", "check that the path names the app file")
            }
            return (path, bytes)
        } catch let failure as FolderHandle.Failure {
            // The place, when a folder on the way, from the repository's top.
            let place =
                failure.path.hasPrefix(root + "/") ? String(failure.path.dropFirst(root.count + 1)) : failure.path
            throw problem(
                PrintableText.escaped(failure.reason) + (place == path ? "" : " (\(PrintableText.escaped(place)))"),
                "sync never follows links: declare the real file, inside the repository")
        }
    }

    /// A problem for each file to change that holds uncommitted work: sync would mix with it.
    func uncommitted(_ changed: [(outcome: AppFileOutcome, path: String)]) throws -> [AppFileProblem] {
        guard let repository else { return [] }
        return try changed.compactMap { outcome, path in
            let status = try RevisionReader.gitAction { try repository.status(of: path) }
            guard status != .clean else { return nil }
            return AppFileProblem(
                file: outcome.file,
                message: status == .modified ? "has uncommitted changes" : "is not committed (\(status))",
                hint: status == .modified
                    ? "commit or stash them, then sync again; nothing was written"
                    : "add and commit it (sync edits only committed files), then sync again; nothing was written")
        }
    }

    func write(_ changed: [(outcome: AppFileOutcome, path: String)]) throws {
        do {
            try AtomicFiles.write(changed.map { ($0.path, $0.outcome.bytes) }, under: URL(fileURLWithPath: root))
        } catch var error as AtomicFiles.WriteError {
            // Named from the repository's top, as the files are, not by the machine's path.
            if error.path.hasPrefix(root + "/") { error.path.removeFirst(root.count + 1) }
            throw UnusableInput(message: PrintableText.escaped(error.description), hint: error.outcome)
        }
    }
}
