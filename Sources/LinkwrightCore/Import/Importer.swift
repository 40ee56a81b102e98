/// Turns association files a site serves today into linkwright's YAML, preserving behaviour:
/// `import` then `build` decides every URL as the originals did. Where the originals rely on
/// something the compiler refuses to emit, the import translates to the effective behaviour and
/// says so; what cannot be translated is an error and nothing is written.
public struct Importer: Sendable {
    /// One host's files, as read.
    public struct Site: Sendable {
        public var host: Host
        public var aasa: AASADocument?
        public var aasaFile: String?
        public var assetLinks: AssetLinksDocument?
        public var assetLinksFile: String?

        public init(
            host: Host, aasa: AASADocument?, aasaFile: String?, assetLinks: AssetLinksDocument?, assetLinksFile: String?
        ) {
            self.host = host
            self.aasa = aasa
            self.aasaFile = aasaFile
            self.assetLinks = assetLinks
            self.assetLinksFile = assetLinksFile
        }
    }

    /// The YAML files to write and what the import found.
    public struct Result: Sendable {
        /// Path (relative to the configuration root) → text.
        public var files: [(path: String, text: String)]
        public var diagnostics: [Diagnostic]
        /// Translations that change how a rule is written (never what it decides).
        public var notes: [String]
        /// What a person must check or decide before the import passes `check`.
        public var decisions: [Decision] = []
    }

    /// Something the files cannot tell the import, left to a person: at `file:line`, `text`.
    public struct Decision: Sendable, Equatable {
        /// `next` when `check` blocks until it is done, `check` when the import guessed.
        public var kind: String
        public var file: String
        public var line: Int?
        public var text: String

        /// `next: environments/production.yaml:21: rename …`, the file as the user opens it.
        public func line(pathPrefix: String) -> String {
            "\(kind): \(pathPrefix)\(file)\(line.map { ":\($0)" } ?? ""): \(text)"
        }
    }

    /// An environment the import adds hosts to: its model and its file's text, which is edited
    /// in place so its comments and order stay.
    public struct ExistingEnvironment: Sendable {
        public var environment: Environment
        public var text: String

        public init(environment: Environment, text: String) {
            self.environment = environment
            self.text = text
        }
    }

    public let environment: String
    public let tier: Tier
    public let existing: ExistingEnvironment?
    /// The signing-key channels the policies require of production apps
    /// (`required_fingerprint_channels`): a production app's one key is named after the one
    /// channel, and otherwise the import says which key to rename.
    public let requiredChannels: [String]

    public init(
        environment: String, tier: Tier, existing: ExistingEnvironment? = nil,
        requiredChannels: [String] = PolicySettings.defaultRequiredChannels
    ) {
        self.environment = environment
        self.tier = tier
        self.existing = existing
        self.requiredChannels = requiredChannels
    }

    /// A domain's name from the host serving it, without its last label, dots as dashes:
    /// `museo.example` → `museo`, `entradas.museo.example` → `entradas-museo`.
    public static func domainName(for host: Host) -> String {
        let labels = host.fileHost.name.split(separator: ".").map(String.init)
        let base = labels.count > 1 ? labels.dropLast().joined(separator: "-") : labels[0]
        return base.isEmpty ? "site" : base
    }

    /// The policy file recording what `import` adopted (`PolicyAdoption`).
    public static let adoptionsPath = "policies/adopted.yaml"

    /// `adopted.yaml` with `adding` after what it holds (`existing`, written by an earlier import),
    /// or new.
    public static func adoptionsText(
        existing: String?, adding: [(environment: String, host: String, build: String, from: String)]
    ) -> String {
        var text =
            existing
            ?? JSONSchemaGenerator.editorComment(for: "policy") + "\n"
            + "# Written by linkwright import: each host it adopted, with the SHA-256 of what build wrote for it,\n"
            + "# proven to decide every URL as the files it served. While a host's build is still that one, rules\n"
            + "# about a change (CATCH_ALL_ADDED, UNREACHABLE_RULE, ...) do not block on what it served already.\n"
            + "adopted:\n"
        if !text.hasSuffix("\n") { text += "\n" }
        for adoption in adding {
            text += "  - environment: \(adoption.environment)\n    host: \(YAMLWriter.scalar(adoption.host))\n"
            text += "    build: \(adoption.build)\n    from: \(YAMLWriter.quoted(adoption.from))\n"
        }
        return text
    }

    public func run(_ sites: [Site]) -> Result {
        var translation = ImportTranslation(
            environment: environment, tier: existing?.environment.tier.value ?? tier, existing: existing?.environment,
            requiredChannels: requiredChannels)
        translation.collectApps(sites)
        translation.refuseServedHosts(sites)
        var domains: [(name: String, text: String, hosts: [Host], sources: [String])] = []
        var domainWithText: [String: Int] = [:]
        var notes: [String] = []
        // Every site's files share one budget, as a configuration's do in lint.
        let analysis = RuleAnalysis().counting(against: WorkMeter(ConfigurationRuleAnalysis().totalWorkLimit))
        for site in sites {
            translation.refuseUncarried(site)
            // Imported as written, so they stay true to the site; said here, where they come from.
            if let aasa = site.aasa {
                translation.diagnostics.add(contentsOf: analysis.findings(in: aasa).map(\.diagnostic))
            }
            let text = translation.domainYAML(site)
            guard !text.isEmpty else {
                notes.append("\(site.host): its files name no app, so there is nothing to import for it")
                continue
            }
            let sources = [site.aasaFile, site.assetLinksFile].compactMap { $0 }
            if let index = domainWithText[text] {
                // Hosts that share an identical contract share one domain file.
                domains[index].hosts.append(site.host)
                domains[index].sources += sources
            } else {
                domainWithText[text] = domains.count
                domains.append(("", text, [site.host], sources))
            }
        }
        // Each domain is named after its shortest host: museo.example before entradas.museo.example.
        var taken: Set<String> = []
        for index in domains.indices {
            let host = domains[index].hosts.min { ($0.name.count, $0.name) < ($1.name.count, $1.name) }!
            domains[index].name = translation.domainName(for: host, taken: taken)
            taken.insert(domains[index].name)
        }
        var files = domains.map { domain in
            // A file name may hold a newline, which would end the comment and add YAML.
            let header =
                JSONSchemaGenerator.editorComment(for: "domain") + "\n# Imported by linkwright import from "
                + domain.sources.map(PrintableText.escaped).joined(separator: ", ") + ".\n"
                + (domain.text.contains("\n        route: none\n") ? ImportTranslation.unknownRouteNote : "")
            return ("domains/\(domain.name).yaml", header + domain.text)
        }
        let bindings = domains.map { ($0.name, $0.hosts) }
        let environmentText =
            existing.map { translation.addedTo($0.text, bindings) } ?? translation.environmentYAML(bindings)
        files.insert(("environments/\(environment).yaml", environmentText), at: 0)
        if domains.isEmpty && !translation.diagnostics.hasErrors {
            translation.diagnostics.report(
                .importNothing, "the files name no app: there is nothing to import", at: nil,
                hint: "an association file needs applinks details, or "
                    + AssociatedService.listed(AssociatedService.appListServices, "or") + " apps")
        }
        return Result(
            files: files, diagnostics: translation.diagnostics.sorted, notes: translation.notes + notes,
            decisions: translation.channelDecisions(file: "environments/\(environment).yaml", text: environmentText))
    }
}
