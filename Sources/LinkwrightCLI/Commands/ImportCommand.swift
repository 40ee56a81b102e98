import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright import`: adopt the association files a site serves today as YAML.
struct ImportCommand: Command {
    static let aasa = Option<[String]>(name: "aasa", valueName: "FILE", help: "An apple-app-site-association file")
    static let assetLinks = Option<[String]>(name: "assetlinks", valueName: "FILE", help: "An assetlinks.json file")
    static let hosts = Option<[String]>(
        name: "host", valueName: "HOST", help: "The host serving the files given before it")
    static let from = Option<String?>(name: "from", valueName: "DIR", help: "A folder of HOST/.well-known/ files")
    static let environment = Option<String>.required(
        name: "env", valueName: "NAME", help: "The environment to create, or to add the hosts to")
    static let tier = Option<Tier>(
        name: "tier", valueName: "TIER", choices: Tier.allCases, default: .production,
        help: "Its tier, when it is created")
    static let dryRun = Option<Bool>(name: "dry-run", help: "Print the files instead of writing them")

    static let spec = CommandSpec(
        name: "import",
        abstract: "Turn existing association files into linkwright's YAML, with the same behaviour",
        discussion: """
            Each --host takes the --aasa and --assetlinks given before it (repeat the group for more
            hosts); --from DIR reads DIR/HOST/.well-known/{apple-app-site-association,assetlinks.json},
            the layout build writes. The files become environments/NAME.yaml and one domain file per
            distinct contract (hosts with identical files share one); when environments/NAME.yaml
            exists, the hosts and any new apps are added to it (an app it declares keeps its name,
            a host it serves already is an error). Each domain file ends with expectations that pin
            what the files decide today, one readable URL per rule (an exclusion's URL stays on the
            web), each checked before it is written: linkwright test passes at once and fails when
            a rule changes what it decides. Every form iOS and Android read
            is accepted: components, legacy paths with NOT, the details dictionary, defaults at every
            level, variables, signed files, dynamic rules. The result is compiled and each host's files
            are compared with the originals by what they decide; anything that would change behaviour
            is an error. Problems in the originals are reported, located in their JSON. Invalid inputs
            write nothing (exit 2); --dry-run prints the files instead of writing them.
            """,
        options: [aasa, assetLinks, hosts, from, environment, tier, Workspace.config, dryRun],
        groups: [
            // Each --host takes the files given before it.
            .oneOf([
                .repeated(
                    .all([.optional(.option(aasa.spec)), .optional(.option(assetLinks.spec)), .option(hosts.spec)])),
                .option(from.spec),
            ])
        ])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        if let problem = Identifiers.nameProblem(arguments[Self.environment], what: "environment") {
            throw UsageError(message: problem.message)
        }
        let grouped = !arguments[Self.hosts].isEmpty
        if grouped == (arguments[Self.from] != nil) {
            throw UsageError(message: "give the files with --aasa/--assetlinks and --host, or a folder with --from")
        }
        let groupedNames = [Self.aasa, Self.assetLinks, Self.hosts].map(\.spec.name)
        if let last = arguments.ordered.last(where: { groupedNames.contains($0.name) }), grouped,
            last.name != Self.hosts.spec.name
        {
            throw UsageError(message: "--\(last.name) \(last.value) is not followed by the --host that serves it")
        }
    }

    private struct Input {
        var host: LinkwrightCore.Host
        var aasa: String?
        var assetLinks: String?
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let environment = arguments[Self.environment]
        let inputs = try self.inputs(terminal)
        var diagnostics: [Diagnostic] = []
        var sites: [Importer.Site] = []
        for input in inputs {
            var site = Importer.Site(
                host: input.host, aasa: nil, aasaFile: input.aasa, assetLinks: nil, assetLinksFile: input.assetLinks)
            if let path = input.aasa {
                let result = AASAReader().read(try terminal.readInput(path, .associationFile), file: path)
                diagnostics += result.diagnostics
                site.aasa = result.document
                if path.hasSuffix(".json") {
                    diagnostics.append(
                        Diagnostic(
                            .importFileName,
                            "the file is named \((path as NSString).lastPathComponent); iOS fetches /.well-known/apple-app-site-association, without an extension",
                            at: .file(path), hint: "serve the file linkwright build writes, at the name iOS fetches"))
                }
            }
            if let path = input.assetLinks {
                let result = AssetLinksReader().read(try terminal.readInput(path, .associationFile), file: path)
                diagnostics += result.diagnostics
                site.assetLinks = result.document
            }
            sites.append(site)
        }
        let tier = arguments[Self.tier]
        let printer = DiagnosticPrinter(terminal: terminal, configPath: ".")
        let existing = (try? workspace.files()) ?? []
        let existingEnvironment = try self.existingEnvironment(environment, among: existing, workspace: workspace)
        // Files that cannot be read are reported alone: translating the rest would only add noise.
        let unreadable = diagnostics.contains { $0.severity == .error }
        // The channels the configuration's policies require, or the default policy's.
        let policies = ConfigLoader().load(existing).configuration?.policies ?? []
        let importer = Importer(
            environment: environment, tier: tier, existing: existingEnvironment,
            requiredChannels: PolicySettings.merge(policies).settings.requiredChannels)
        let result = unreadable ? nil : importer.run(sites)
        diagnostics += result?.diagnostics ?? []
        printer.printText(diagnostics.sorted())
        guard let result, !diagnostics.contains(where: { $0.severity == .error }) else {
            terminal.err("error: nothing was imported: the files above have errors")
            return .unusable
        }
        let placed = place(result.files, among: existing)
        let untouched = existing.filter { file in !placed.contains { $0.path == file.path } }
        let seeded = ExpectationSeeder.seed(
            untouched + placed, domainFiles: placed.map(\.path).filter { $0.hasPrefix("domains/") },
            environment: environment)
        var files = seeded.files.filter { file in placed.contains { $0.path == file.path } }
        let built = try proveEquivalent(
            sites: sites, environment: environment, files: untouched + files, printer: workspace.printer)
        // What was proven is recorded, so check does not block on what the hosts served already.
        let record = Importer.adoptionsPath
        files.append(
            SourceFile(
                path: record,
                bytes: Array(
                    Importer.adoptionsText(
                        existing: existing.first { $0.path == record }.map {
                            String(decoding: $0.bytes, as: UTF8.self)
                        },
                        adding: sites.map { site in
                            (
                                environment: environment, host: site.host.name,
                                build: PolicyAdoption.digest(
                                    of: built.sites.first { $0.fileHost == site.host.fileHost }!),
                                from: [site.aasaFile, site.assetLinksFile].compactMap { $0 }.joined(separator: ", ")
                            )
                        }
                    ).utf8)))
        for note in result.notes { terminal.out("note: \(PrintableText.escaped(note))") }
        for decision in result.decisions {
            terminal.out(PrintableText.escaped(decision.line(pathPrefix: workspace.printer.pathPrefix)))
        }
        if arguments[Self.dryRun] {
            for file in files {
                terminal.out(
                    "--- \(workspace.printer.pathPrefix)\(file.path)\n" + String(decoding: file.bytes, as: UTF8.self))
            }
            return .success
        }
        try workspace.writeNewFiles(files)
        terminal.out(
            "imported \(counted(sites.count, "host")) into "
                + files.map { workspace.printer.pathPrefix + $0.path }.joined(separator: ", ")
                + " with \(counted(seeded.expectations, "expectation")) that pin what they decide today (linkwright test)"
        )
        return .success
    }

    /// The environment the hosts are added to, when its file exists: read from a configuration
    /// that must load, since the import edits it.
    private func existingEnvironment(_ name: String, among files: [SourceFile], workspace: Workspace) throws
        -> Importer.ExistingEnvironment?
    {
        guard let file = files.first(where: { $0.path == "environments/\(name).yaml" }) else { return nil }
        let (configuration, diagnostics) = ConfigLoader().load(files)
        guard let declared = configuration?.environment(named: name) else {
            workspace.printer.printText(diagnostics.filter { $0.severity == .error })
            throw UnusableInput(
                message:
                    "\(workspace.printer.pathPrefix)\(file.path) cannot be added to: the configuration does not load",
                hint: "fix the errors above (linkwright lint), then import again")
        }
        return Importer.ExistingEnvironment(environment: declared, text: String(decoding: file.bytes, as: UTF8.self))
    }

    /// The hosts and files named on the command line, or found in `--from DIR`.
    private func inputs(_ terminal: Terminal) throws -> [Input] {
        if let folder = arguments[Self.from] {
            let root = terminal.url(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path))?.sorted() ?? []
            var inputs: [Input] = []
            for name in names {
                let wellKnown = root.appendingPathComponent(name).appendingPathComponent(".well-known")
                let candidates = ["apple-app-site-association", "apple-app-site-association.json"]
                let aasa = candidates.first {
                    FileManager.default.fileExists(atPath: wellKnown.appendingPathComponent($0).path)
                }
                let hasAssetLinks = FileManager.default.fileExists(
                    atPath: wellKnown.appendingPathComponent("assetlinks.json").path)
                guard aasa != nil || hasAssetLinks else { continue }
                inputs.append(
                    Input(
                        host: try LinkwrightCore.Host.argument(name, given: "--from \(folder)"),
                        aasa: aasa.map { "\(folder)/\(name)/.well-known/\($0)" },
                        assetLinks: hasAssetLinks ? "\(folder)/\(name)/.well-known/assetlinks.json" : nil))
            }
            guard !inputs.isEmpty else {
                throw UnusableInput(
                    message: "\(folder) holds no HOST/.well-known/ association files",
                    hint: "point --from at a folder like dist/production")
            }
            return inputs
        }
        var inputs: [Input] = []
        var aasa: String?
        var assetLinks: String?
        for (name, value) in arguments.ordered {
            switch name {
            case Self.aasa.spec.name: aasa = value
            case Self.assetLinks.spec.name: assetLinks = value
            case Self.hosts.spec.name:
                guard aasa != nil || assetLinks != nil else {
                    throw UsageError(message: "--host \(value) has no --aasa or --assetlinks before it")
                }
                inputs.append(Input(host: try LinkwrightCore.Host.argument(value), aasa: aasa, assetLinks: assetLinks))
                aasa = nil
                assetLinks = nil
            default: continue
            }
        }
        return inputs
    }

    /// The new files, named so they do not overwrite anything: a domain file that exists with
    /// other contents gets another name; an existing environment's file is the edited one.
    private func place(_ generated: [(path: String, text: String)], among existing: [SourceFile]) -> [SourceFile] {
        var files: [SourceFile] = []
        var renames: [String: String] = [:]
        for (path, text) in generated where path.hasPrefix("domains/") {
            // The same contract imported before (with the expectations seeded then) is shared.
            if let same = existing.first(where: { $0.path == path }), same.bytes.starts(with: Array(text.utf8)) {
                continue
            }
            var name = String(path.dropFirst("domains/".count).dropLast(".yaml".count))
            let original = name
            var index = 2
            while existing.contains(where: { $0.path == "domains/\(name).yaml" }) {
                name = "\(original)-\(index)"
                index += 1
            }
            renames[original] = name
            files.append(SourceFile(path: "domains/\(name).yaml", bytes: Array(text.utf8)))
        }
        guard let environment = generated.first(where: { $0.path.hasPrefix("environments/") }) else { return files }
        // Only the lines the import wrote name the renamed domains: a host the environment served
        // already keeps its domain even when it has the same name.
        // Lines as libyaml cuts them, each keeping its break: a file saved on Windows keeps CR LF.
        let before = Set(
            existing.first { $0.path == environment.path }.map {
                YAMLLines(String(decoding: $0.bytes, as: UTF8.self)).lines.map(\.text)
            } ?? [])
        var edited = YAMLLines(environment.text)
        edited.lines = edited.lines.map { line in
            let text = line.text
            guard !before.contains(text),
                let rename = renames.first(where: { $0.key != $0.value && text.hasSuffix(": \($0.key)") })
            else { return line }
            let renamed = text.dropLast(rename.key.count) + rename.value
            return YAMLLines.Line(content: Array(renamed.unicodeScalars), lineBreak: line.lineBreak)
        }
        files.insert(SourceFile(path: environment.path, bytes: Array(edited.text.utf8)), at: 0)
        return files
    }

    /// Compiles the configuration with the imported files and compares, host by host, what it
    /// builds with the originals: the same decisions, or nothing is written. The environment
    /// as compiled.
    private func proveEquivalent(
        sites: [Importer.Site], environment: String, files: [SourceFile], printer: DiagnosticPrinter
    ) throws -> CompiledEnvironment {
        let (snapshot, diagnostics) = PolicySnapshot.make(files.sorted { $0.path < $1.path })
        guard let snapshot, let compiled = snapshot.compiled.environments.first(where: { $0.name == environment })
        else {
            printer.printText(diagnostics.filter { $0.severity == .error })
            throw UnusableInput(
                message: "the imported configuration does not compile",
                hint: "please report this with the original files")
        }
        var problems: [String] = []
        for site in sites {
            guard let built = compiled.sites.first(where: { $0.fileHost == site.host.fileHost }) else {
                problems.append("\(site.host): nothing was built")
                continue
            }
            // Each side in a cache of its own, made for this comparison alone (see
            // `ServingCheck.compared`).
            let original = RevisionCache().revision(
                .artifacts(aasa: site.aasa, assetLinks: site.assetLinks, host: site.host))
            let rebuilt = RevisionCache().revision(
                .artifacts(aasa: built.aasa, assetLinks: built.assetLinks, host: site.host))
            // Who the files vouch for (apps per service, keys, statements) before what they decide.
            for change in StructuralDiff.changes(base: original, head: rebuilt) where change.kind.isParty {
                problems.append("\(site.host): the build would differ: \(change.summary)")
            }
            let comparison = BehaviourDiff.compare(base: original, head: rebuilt)
            for change in BehaviourDiff.changes(from: comparison.observations) {
                problems.append(
                    "\(site.host) \(change.platform?.rawValue ?? ""): \(Changelog.description(change)), e.g. \(change.witnesses.first ?? "")"
                )
            }
            // Not proven the same is not the same: nothing is written on a guess.
            problems += comparison.unproven.map { $0.summary }
        }
        guard problems.isEmpty else {
            // A line each: one message would show its line breaks escaped.
            for problem in problems { printer.terminal.err("  \(PrintableText.escaped(problem))") }
            throw UnusableInput(
                message:
                    "the import would change what the files decide or who they vouch for (above), so nothing was written",
                hint: "please report this with the original files")
        }
        return compiled
    }
}
