/// Loads configuration files into a `Configuration`: parse each file, decode it against the
/// schema, then check references between files. Reports every problem of every file at once.
public struct ConfigLoader: Sendable {
    public var parser = YAMLParser()

    public init() {}

    static func isConfigurationFileName(_ name: String) -> Bool {
        (name.hasSuffix(".yaml") || name.hasSuffix(".yml")) && !name.hasPrefix(".")
    }

    /// The configuration, or `nil` when an error makes it unusable; warnings come either way.
    public func load(_ files: [SourceFile]) -> (configuration: Configuration?, diagnostics: [Diagnostic]) {
        var decoder = ConfigDecoder()
        var environments: [Environment] = []
        var domains: [Domain] = []
        var policies: [PolicyFile] = []
        var seenNames: [String: String] = [:]
        // "environments/x" or "domains/x" for files that exist but did not load.
        var unloadable: Set<String> = []
        for file in files {
            if let refusal = file.refusal {
                unloadable.insert(String(file.path.prefix { $0 != "." }))
                switch refusal {
                case .notRegularFile(let what):
                    decoder.diagnostics.report(
                        .notARegularFile,
                        "\(file.path) is \(what); configuration is read only from regular files inside the configuration folder",
                        at: .file(file.path),
                        hint: "replace it with a regular file holding the configuration (a link is never followed)")
                case .tooLarge(let limit):
                    decoder.diagnostics.add(contentsOf: [YAMLParser.tooLarge(file: file.path, limit: limit)])
                }
                continue
            }
            let (root, syntax) = parser.parse(file.bytes, file: file.path)
            decoder.diagnostics.add(contentsOf: syntax)
            let folder = file.path.split(separator: "/").first.map(String.init) ?? ""
            let fileName = file.path.split(separator: "/").last.map(String.init) ?? file.path
            let name = String(fileName.prefix { $0 != "." })
            if syntax.contains(where: { $0.severity == .error }) {
                unloadable.insert(folder + "/" + name)
                continue
            }
            if folder == "policies" {
                if let policy = decoder.policy(file: file.path, root: root) { policies.append(policy) }
                continue
            }
            let what = folder == "environments" ? "environment" : "domain"
            if let problem = Identifiers.nameProblem(name, what: what) {
                decoder.report(
                    IdentifierProblem(
                        problem.id, "file name \(PrintableText.quoted(fileName)) does not give a valid \(what) name",
                        hint: "rename the file: " + problem.hint),
                    at: .file(file.path))
                continue
            }
            if let first = seenNames[folder + "/" + name] {
                decoder.diagnostics.report(
                    .duplicateName, "\(what) \(PrintableText.quoted(name)) is defined twice (also in \(first))",
                    at: .file(file.path),
                    hint: "keep one file per \(what)")
                continue
            }
            seenNames[folder + "/" + name] = file.path
            guard let root else {
                unloadable.insert(folder + "/" + name)
                decoder.diagnostics.report(
                    .emptyFile, "\(what) file is empty", at: .file(file.path),
                    hint: "see `linkwright schema \(what)` for what it holds, or delete the file")
                continue
            }
            if folder == "environments" {
                if let environment = decoder.environment(name: name, file: file.path, root: root) {
                    environments.append(environment)
                } else {
                    unloadable.insert(folder + "/" + name)
                }
            } else if let domain = decoder.domain(name: name, file: file.path, root: root) {
                domains.append(domain)
            } else {
                unloadable.insert(folder + "/" + name)
            }
        }
        if files.allSatisfy({ !$0.path.hasPrefix("environments/") }) {
            decoder.diagnostics.report(
                .noEnvironments, "no environment files found in environments/", at: nil,
                hint: "run linkwright in the folder that holds environments/ and domains/, or pass --config DIR")
        }
        SchemeRouteSharing.resolve(&environments, into: &decoder.diagnostics)
        let configuration = Configuration(environments: environments, domains: domains, policies: policies)
        var diagnostics = decoder.diagnostics
        var validator = ConfigValidator(configuration, unloadable: unloadable)
        diagnostics.add(contentsOf: validator.validate())
        return (diagnostics.hasErrors ? nil : configuration, diagnostics.sorted)
    }

    /// Reads and loads every configuration file of `tree`.
    public func load(from tree: some SourceTree) throws -> (configuration: Configuration?, diagnostics: [Diagnostic]) {
        load(try tree.configurationFiles())
    }
}
