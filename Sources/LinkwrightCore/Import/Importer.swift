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
        var translation = Translation(
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
                + (domain.text.contains("\n        route: none\n") ? Translation.unknownRouteNote : "")
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

/// The state of one import: logical app names and what was found.
private struct Translation {
    let environment: String
    let tier: Tier
    /// The environment the hosts are added to, if it exists: its apps keep their names.
    let existing: Environment?
    /// The apps found that `existing` declares already, by logical name: not written again.
    var existingNames: Set<String> = []
    var diagnostics = DiagnosticBag()
    var notes: [String] = []
    /// `TEAM.bundle` → logical name.
    var iosNames: [String: String] = [:]
    /// package → logical name.
    var androidNames: [String: String] = [:]
    /// logical name → (bundle, team, app clip)
    var iosApps: [String: (bundle: String, team: String, clip: Bool)] = [:]
    /// logical name → (package, fingerprints)
    var androidApps: [String: (package: String, fingerprints: [String])] = [:]
    /// Every logical name, in the order the apps were found.
    var order: [String] = []
    /// bundle → the iOS apps' logical names with that bundle, in `order`.
    var iosNamesByBundle: [String: [String]] = [:]
    /// The numbered names `app-2`, `app-3`, … below this are taken.
    var nextNumberedName = 2
    var team: String?
    /// Where to point a problem found in a list that keeps no position (a service's `apps`).
    var fallbackFile = ""

    let requiredChannels: [String]

    init(environment: String, tier: Tier, existing: Environment?, requiredChannels: [String]) {
        self.environment = environment
        self.tier = tier
        self.existing = existing
        self.requiredChannels = requiredChannels
    }

    // MARK: Apps

    mutating func collectApps(_ sites: [Importer.Site]) {
        fallbackFile = sites.compactMap(\.aasaFile).first ?? environment
        var teams: [String: Int] = [:]
        var appIDs: [(String, SourceLocation?)] = []
        var clips: Set<String> = []
        for site in sites {
            guard let aasa = site.aasa else { continue }
            for details in aasa.applinks?.details ?? [] {
                for appID in details.effectiveAppIDs { appIDs.append((appID, details.origin)) }
            }
            for service in AssociatedService.appListServices where service != .appclips {
                for appID in aasa.serviceApps[service] ?? [] { appIDs.append((appID, nil)) }
            }
            for appID in aasa.serviceApps[.appclips] ?? [] {
                appIDs.append((appID, nil))
                clips.insert(appID)
            }
        }
        for (appID, _) in appIDs {
            if let (team, _) = Self.split(appID) { teams[team, default: 0] += 1 }
        }
        team = teams.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        var refused: Set<String> = []
        for (appID, origin) in appIDs where iosNames[appID] == nil && !refused.contains(appID) {
            guard let (team, bundle) = Self.split(appID) else {
                refused.insert(appID)
                diagnostics.report(
                    .importAppID, "\(appID) cannot be imported: \(Self.appIDProblem(appID))",
                    at: origin ?? .file(fallbackFile),
                    hint: "fix the app ID in the original file: a 10-character team ID, a dot, the bundle ID")
                continue
            }
            let declared = existing?.apps.first {
                $0.ios?.bundleID.value == bundle && ($0.ios?.teamID ?? existing?.teamID)?.value == team
            }
            if let declared { existingNames.insert(declared.name.value) }
            let name = declared?.name.value ?? uniqueName(for: bundle)
            iosNames[appID] = name
            iosApps[name] = (bundle, team, clips.contains(appID))
            iosNamesByBundle[bundle, default: []].append(name)
            order.append(name)
        }
        // Where a site has dynamic rules, the import turns them on for the whole domain, and an
        // app that shared the iOS rules would get those as dynamic rules too: keep Android apps
        // of such sites apart.
        let apart = Set(
            sites.filter { $0.assetLinks?.statements.contains { $0.dynamicComponents != nil } == true }
                .flatMap { $0.assetLinks!.statements }
                .compactMap { statement -> String? in
                    if case .androidApp(let package, _) = statement.target { return package }
                    return nil
                })
        for site in sites {
            for statement in site.assetLinks?.statements ?? [] {
                guard case .androidApp(let package, let fingerprints) = statement.target else { continue }
                if let name = androidNames[package] {
                    androidApps[name]!.fingerprints += fingerprints
                    continue
                }
                if let declared = existing?.apps.first(where: { $0.android?.package.value == package }) {
                    let name = declared.name.value
                    refuseOtherKeys(fingerprints, of: declared, site: site)
                    existingNames.insert(name)
                    androidNames[package] = name
                    androidApps[name] = (package, fingerprints)
                    if iosApps[name] == nil { order.append(name) }
                    continue
                }
                // The same identifier on both platforms is one logical app: the first iOS app
                // found with it that is not a clip, has no Android side yet, and shares
                // credentials with the site on iOS exactly when it does on Android (one
                // webcredentials: list makes both).
                let sharesCredentials = statement.relations.contains(AssetStatement.getLoginCreds)
                let shared =
                    apart.contains(package)
                    ? nil
                    : iosNamesByBundle[package]?.first { name in
                        !iosApps[name]!.clip && androidApps[name] == nil && !existingNames.contains(name)
                            && (site.aasa?.serviceApps[.webcredentials] ?? []).contains { iosNames[$0] == name }
                                == sharesCredentials
                    }
                let name = shared ?? uniqueName(for: package)
                androidNames[package] = name
                androidApps[name] = (package, fingerprints)
                if shared == nil { order.append(name) }
            }
        }
        // A package repeated over many statements adds its keys each time: kept once each.
        for name in androidApps.keys { androidApps[name]!.fingerprints = androidApps[name]!.fingerprints.uniqued() }
    }

    /// Why an app ID cannot be imported, in words.
    static func appIDProblem(_ appID: String) -> String {
        guard let dot = appID.firstIndex(of: ".") else {
            return "it has no team ID prefix, so it matches no installed app"
        }
        let team = String(appID[..<dot])
        if appID.contains("$(") || team.contains("_") && team == team.uppercased() {
            return "it is a build-setting placeholder, not a real app ID"
        }
        if Identifiers.teamIDProblem(team) != nil {
            return "\(team) is not a 10-character team ID, so it matches no installed app"
        }
        let bundle = String(appID[appID.index(after: dot)...])
        return Identifiers.bundleIDProblem(bundle).map { "\($0.message) (\($0.hint))" } ?? "it is not TEAMID.bundle"
    }

    /// `TEAMID.bundle` → (team, bundle) when the prefix is a team ID.
    static func split(_ appID: String) -> (String, String)? {
        guard let dot = appID.firstIndex(of: "."), Identifiers.teamIDProblem(String(appID[..<dot])) == nil else {
            return nil
        }
        let bundle = String(appID[appID.index(after: dot)...])
        return Identifiers.bundleIDProblem(bundle) == nil ? (String(appID[..<dot]), bundle) : nil
    }

    /// A logical name from an identifier's last segments: `com.example.museo` → `museo`,
    /// `es.emergencias.app` → `emergencias` (a generic last word, or a platform's name, says nothing),
    /// `com.example.museo.Clip` → `museo-clip` (a variant keeps its product's name).
    mutating func uniqueName(for identifier: String) -> String {
        var segments = identifier.split(separator: ".").map { segment in
            String(segment.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }).trimmingDashes
        }.filter { !$0.isEmpty }
        let generic = ["app", "mobile", "client"] + Platform.allCases.map(\.rawValue)
        if segments.count > 2, generic.contains(segments.last!) {
            segments.removeLast()
        }
        let first =
            segments.count > 2 && ["clip", "appclip", "staging", "dev", "debug", "beta"].contains(segments.last!)
            ? 2 : 1
        for count in first...max(first, segments.count) {
            let candidate = segments.suffix(count).joined(separator: "-")
            let name =
                candidate.first?.isLetter == true || candidate.first?.isNumber == true ? candidate : "app-" + candidate
            if Identifiers.nameProblem(name, what: "app") == nil && !isTaken(name) { return name }
        }
        // Names are never given back, so the search for a free number goes on from the last one.
        while isTaken("app-\(nextNumberedName)") { nextNumberedName += 1 }
        return "app-\(nextNumberedName)"
    }

    /// Every name in `order` is one of these apps' keys; the existing environment's names are taken too.
    private func isTaken(_ name: String) -> Bool {
        iosApps[name] != nil || androidApps[name] != nil || existing?.apps.contains { $0.name.value == name } == true
    }

    /// An app the environment declares signs with the keys it lists there: a file listing other
    /// keys would change who may open links, so the import stops.
    mutating func refuseOtherKeys(_ fingerprints: [String], of app: AppDefinition, site: Importer.Site) {
        let declared = Set(app.android?.fingerprints.map(\.fingerprint.value) ?? [])
        let others = fingerprints.filter { text in
            guard case .success(let parsed) = Fingerprint.parse(text) else { return true }
            return !declared.contains(parsed)
        }
        guard !others.isEmpty else { return }
        diagnostics.report(
            .importConflict,
            "\(site.host)'s assetlinks.json lists \(others.joined(separator: ", ")) for \(app.name.value), which \(app.name.location.file) does not",
            at: .file(site.assetLinksFile ?? site.host.name),
            hint:
                "add the key under \(app.name.value)'s fingerprints in \(app.name.location.file) first, or import into a new environment"
        )
    }

    /// A host the environment serves already keeps its domain: importing it again would make
    /// two contracts for one host.
    mutating func refuseServedHosts(_ sites: [Importer.Site]) {
        for site in sites {
            guard let binding = existing?.hosts.first(where: { $0.host.value.name == site.host.name }) else { continue }
            diagnostics.report(
                .importConflict,
                "\(site.host) is already served by domain \(binding.domain.value) in environment \(environment)",
                at: binding.host.location,
                hint: "edit domains/\(binding.domain.value).yaml instead, or import into a new environment")
        }
    }

    /// What no configuration key carries is refused, each where it is written: the build would
    /// drop it without a trace.
    mutating func refuseUncarried(_ site: Importer.Site) {
        for key in site.aasa?.unknownKeys ?? [] {
            diagnostics.report(
                .importUncarried,
                "\(PrintableText.quoted(key.value)) is no service of an apple-app-site-association file, and the build writes only "
                    + AssociatedService.listed(AssociatedService.allCases, "and"),
                at: key.location, hint: "remove the key from the original (Apple ignores it), then import again")
        }
        for include in site.assetLinks?.includes ?? [] {
            diagnostics.report(
                .importUncarried,
                "the include of \(PrintableText.quoted(include.url)) cannot be carried: the build writes every statement itself",
                at: include.origin ?? .file(site.assetLinksFile ?? site.host.name),
                hint:
                    "import the included file's statements in its place (--assetlinks with that file), then remove the include"
            )
        }
    }

    // MARK: Domains

    mutating func domainName(for host: Host, taken: Set<String>) -> String {
        let base = Importer.domainName(for: host)
        var name = base
        var index = 2
        while taken.contains(name) {
            name = "\(base)-\(index)"
            index += 1
        }
        return name
    }

    mutating func domainYAML(_ site: Importer.Site) -> String {
        var text = ""
        let applinks = site.aasa?.applinks
        if let defaults = applinks?.defaults {
            text += flags(defaults).map { "defaults: {\($0)}\n" } ?? ""
        }
        let variables = applinks?.substitutionVariables ?? []
        if !variables.isEmpty {
            text += "variables:\n"
            for variable in variables {
                if PatternSyntax.predefinedVariables.contains(variable.name) {
                    diagnostics.report(
                        .importVariable,
                        "variable \(PrintableText.quoted(variable.name)) has the name of Apple's predefined $(\(variable.name))",
                        at: .file(site.aasaFile ?? site.host.name),
                        hint: "rename it in the original file and in its patterns")
                }
                text += "  \(YAMLWriter.scalar(variable.name)): \(YAMLWriter.flowList(variable.values))\n"
            }
        }
        var entries: [String] = []
        var legacyOnly = true
        for details in applinks?.details ?? [] {
            let apps = details.effectiveAppIDs.compactMap { iosNames[$0] }
            guard !apps.isEmpty else { continue }
            let rules: [String]
            if let components = details.components {
                legacyOnly = false
                if details.paths != nil {
                    notes.append(
                        "\(site.host): an entry has both components and paths; iOS 13+ reads the components, which were imported"
                    )
                }
                rules = components.map {
                    rule($0, entryDefaults: details.defaults, fileDefaults: applinks?.defaults, site: site)
                }
            } else {
                rules = (details.paths ?? []).map(legacyRule)
            }
            var entry = "  - apps: \(YAMLWriter.flowList(apps))\n"
            if let defaults = details.defaults, let written = flags(defaults) {
                entry += "    defaults: {\(written)}\n"
            }
            if rules.isEmpty {
                notes.append(
                    "\(site.host): an entry for \(apps.joined(separator: ", ")) has no rules, so it opens nothing; it was left out"
                )
                continue
            }
            entry += "    rules:\n" + rules.joined()
            entries.append(entry)
        }
        let androidOnly = androidEntries(site)
        if !entries.isEmpty || !androidOnly.isEmpty { text += "applinks:\n" + entries.joined() + androidOnly }
        for service in AssociatedService.appListServices {
            var names = (site.aasa?.serviceApps[service] ?? []).compactMap { iosNames[$0] }
            if service == .webcredentials { names += androidCredentials(site) }
            if !names.isEmpty { text += "\(service.rawValue): \(YAMLWriter.flowList(names.uniqued()))\n" }
        }
        text += assetStatementsYAML(site)
        var emit: [String] = []
        if legacyOnly && !entries.isEmpty { emit.append("  legacy_paths: true\n") }
        if site.assetLinks?.statements.contains(where: { $0.dynamicComponents != nil }) == true {
            emit.append("  android_dynamic_rules: true\n")
        }
        if !emit.isEmpty { text += "emit:\n" + emit.joined() }
        return text
    }

    /// Applinks entries for Android apps that no iOS entry covers: their dynamic rules, or every
    /// URL when the statement has none (the app's manifest then decides alone).
    private mutating func androidEntries(_ site: Importer.Site) -> String {
        var text = ""
        for statement in site.assetLinks?.statements ?? []
        where statement.relations.contains(AssetStatement.handleAllURLs) {
            guard case .androidApp(let package, _) = statement.target, let name = androidNames[package] else {
                continue
            }
            if iosApps[name] != nil {
                continue  // shares the iOS entry, which lists it already
            }
            let rules =
                statement.dynamicComponents?.map(dynamicRule)
                ?? ["      - " + (["path: \"*\""] + Self.unknownRoute).joined(separator: "\n        ") + "\n"]
            // Dynamic rules mean what Android reads in them, and Apple's flags do not apply: keep them so.
            text +=
                "  - apps: \(YAMLWriter.flowList([name]))\n    android_semantics: true\n    rules:\n" + rules.joined()
        }
        return text
    }

    /// Android apps sharing credentials that `webcredentials:` can list: those with no iOS side,
    /// or whose iOS side the AASA lists there too (the list makes both platforms' entries).
    private func androidCredentials(_ site: Importer.Site) -> [String] {
        (site.assetLinks?.statements ?? []).compactMap { statement in
            guard statement.relations.contains(AssetStatement.getLoginCreds),
                case .androidApp(let package, _) = statement.target, let name = androidNames[package],
                sharesCredentialsOnIOS(name, site) != false
            else { return nil }
            return name
        }
    }

    /// Whether the AASA lists `name`'s iOS app under webcredentials; `nil` for an app with no iOS side.
    private func sharesCredentialsOnIOS(_ name: String, _ site: Importer.Site) -> Bool? {
        guard iosApps[name] != nil else { return nil }
        return (site.aasa?.serviceApps[.webcredentials] ?? []).contains { iosNames[$0] == name }
    }

    /// `asset_statements:` for what the apps' links and credentials do not say: relations granted
    /// to web sites, and an app's relations other than App Links and the credentials
    /// `webcredentials:` lists, in the file's order.
    private func assetStatementsYAML(_ site: Importer.Site) -> String {
        var entries: [String] = []
        for statement in site.assetLinks?.statements ?? [] {
            switch statement.target {
            case .web(let origin):
                entries.append(
                    "  - relation: \(YAMLWriter.flowList(statement.relations))\n    site: \(YAMLWriter.scalar(origin))\n"
                )
            case .androidApp(let package, _):
                guard let name = androidNames[package] else { continue }
                let relations = statement.relations.filter { relation in
                    relation != AssetStatement.handleAllURLs
                        && !(relation == AssetStatement.getLoginCreds && sharesCredentialsOnIOS(name, site) != false)
                }
                guard !relations.isEmpty else { continue }
                entries.append("  - relation: \(YAMLWriter.flowList(relations))\n    app: \(name)\n")
            }
        }
        return entries.isEmpty ? "" : "asset_statements:\n" + entries.joined()
    }

    /// A component with what it inherits from `defaults` written out: Apple lets defaults carry
    /// `/`, `?` and `exclude` too (swcutil gap probes), which linkwright's defaults do not.
    private mutating func rule(
        _ component: AASAComponent, entryDefaults: AASAComponent?, fileDefaults: AASAComponent?, site: Importer.Site
    )
        -> String
    {
        let inherited = [entryDefaults, fileDefaults].compactMap { $0 }
        let path = component.path ?? inherited.compactMap(\.path).first
        var query = component.query ?? inherited.compactMap(\.query).first
        let fragment = component.fragment ?? inherited.compactMap(\.fragment).first
        let exclude = component.exclude ?? inherited.compactMap(\.exclude).first ?? false
        if component.path == nil && path != nil
            || component.exclude == nil && inherited.contains(where: { $0.exclude != nil })
        {
            notes.append("\(site.host): a rule inherits /, ? or exclude from defaults; they are written on the rule")
        }
        if query == .ignoredDictionary {
            // swcutil ignores a query dictionary holding a non-string value as a whole.
            notes.append("\(site.host): a query dictionary with a non-string value, which Apple ignores, was dropped")
            query = nil
        }
        var lines: [String] = []
        lines.append("path: \(YAMLWriter.scalar(path ?? "*"))")
        switch query {
        case .whole(let pattern): lines.append("query: \(YAMLWriter.scalar(pattern))")
        case .items(let items):
            lines.append("query:")
            lines += items.map { "  \(YAMLWriter.scalar($0.name)): \(YAMLWriter.scalar($0.pattern))" }
        case .ignoredDictionary, nil: break
        }
        if let fragment { lines.append("fragment: \(YAMLWriter.scalar(fragment))") }
        if exclude { lines.append("exclude: true") }
        lines += component.flags.written.map { "\($0.flag.configurationKey): \($0.value)" }
        if let comment = component.comment { lines.append("comment: \(YAMLWriter.scalar(comment))") }
        if !exclude { lines += Self.unknownRoute }
        return "      - " + lines.joined(separator: "\n        ") + "\n"
    }

    /// An imported rule's route: association files say which URLs open the app, never which
    /// screen, so the router opens the app at its start until someone names the destination.
    static let unknownRoute = ["route: none", "reason: " + YAMLWriter.scalar("imported: no screen named yet")]

    /// Said once per domain file holding such rules, under its header.
    static let unknownRouteNote = """
        # The files say which URLs open an app, not where in it: each such rule says route: none (the
        # app opens at its start) until route: and params: name the screen.

        """

    private func legacyRule(_ path: String) -> String {
        let excluded = path.hasPrefix("NOT ")
        let pattern = excluded ? String(path.dropFirst(4)) : path
        let lines = ["path: \(YAMLWriter.scalar(pattern))"] + (excluded ? ["exclude: true"] : Self.unknownRoute)
        return "      - " + lines.joined(separator: "\n        ") + "\n"
    }

    private func dynamicRule(_ component: DynamicComponent) -> String {
        var lines = ["path: \(YAMLWriter.scalar(component.path ?? "*"))"]
        if let query = component.query {
            lines.append("query:")
            lines += query.map { "  \(YAMLWriter.scalar($0.name)): \(YAMLWriter.scalar($0.pattern))" }
        }
        if let fragment = component.fragment { lines.append("fragment: \(YAMLWriter.scalar(fragment))") }
        if component.exclude { lines.append("exclude: true") }
        if let comments = component.comments { lines.append("comment: \(YAMLWriter.scalar(comments))") }
        if !component.exclude { lines += Self.unknownRoute }
        return "      - " + lines.joined(separator: "\n        ") + "\n"
    }

    private func flags(_ component: AASAComponent) -> String? {
        let parts = component.flags.written.map { "\($0.flag.configurationKey): \($0.value)" }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    // MARK: Environment

    mutating func environmentYAML(_ domains: [(String, [Host])]) -> String {
        var text =
            JSONSchemaGenerator.editorComment(for: "environment")
            + "\n# Imported by linkwright import.\ntier: \(tier.rawValue)\n"
        if let team { text += "team_id: \(team)\n" }
        text += "apps:\n"
        for name in order {
            text += "  \(name):\n" + appYAML(name, team: team).map { "    " + $0 + "\n" }.joined()
        }
        if order.isEmpty { text += "  {}\n" }
        text += "hosts:\n"
        for (domain, hosts) in domains {
            for host in hosts { text += "  \(YAMLWriter.scalar(host.name)): \(domain)\n" }
        }
        return text
    }

    /// An app's block, one line each, indented from the app's key.
    func appYAML(_ name: String, team: String?) -> [String] {
        var lines: [String] = []
        if let ios = iosApps[name] {
            lines += ["ios:", "  bundle_id: \(YAMLWriter.scalar(ios.bundle))"]
            if ios.team != team { lines.append("  team_id: \(ios.team)") }
            if ios.clip { lines.append("  app_clip: true") }
        }
        if let android = androidApps[name] {
            lines += ["android:", "  package: \(YAMLWriter.scalar(android.package))", "  fingerprints:"]
            for (channel, fingerprint) in zip(channels(of: android.fingerprints), android.fingerprints) {
                lines.append("    \(channel): \(YAMLWriter.quoted(fingerprint))")
            }
        }
        return lines
    }

    /// The files do not say which key is which: a production app's one key is the one channel
    /// the policies require (Play App Signing's, by default: the key Google Play signs installs
    /// with, so the one a device checks); otherwise keys are numbered.
    func channels(of fingerprints: [String]) -> [String] {
        if tier == .production && fingerprints.count == 1 && requiredChannels.count == 1 {
            return requiredChannels
        }
        return fingerprints.indices.map { "key-\($0 + 1)" }
    }

    /// What a person must decide about the channels, app by app: which numbered key is the one
    /// the policies require, or that the one key named after it is.
    func channelDecisions(file: String, text: String) -> [Importer.Decision] {
        guard tier == .production, !requiredChannels.isEmpty else { return [] }
        let required = requiredChannels.joined(separator: ", ")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return order.compactMap { name in
            guard let android = androidApps[name], !existingNames.contains(name) else { return nil }
            // The line of the app's first key, as the file is written.
            let keyLine = "\(channels(of: android.fingerprints)[0]): \(YAMLWriter.quoted(android.fingerprints[0]))"
            let line = lines.firstIndex { $0.hasSuffix(keyLine) }.map { $0 + 1 }
            if channels(of: android.fingerprints) == requiredChannels {
                return Importer.Decision(
                    kind: "check", file: file, line: line,
                    text: "\(android.package)'s one signing key is named \(required): make sure it is the key Google "
                        + "Play signs installs with (Play Console, App signing), else rename it")
            }
            let named = channels(of: android.fingerprints).joined(separator: ", ")
            return Importer.Decision(
                kind: "next", file: file, line: line,
                text: "rename the key of \(android.package) (\(named)) that Google Play signs installs with (Play "
                    + "Console, App signing) to \(required), which the policies require of production apps "
                    + "(FINGERPRINT_CHANNEL_MISSING blocks check until then); add it if none of them is")
        }
    }

    /// The existing environment's text with the new apps and hosts added at the end of its
    /// `apps:` and `hosts:`, everything else as it was.
    mutating func addedTo(_ text: String, _ domains: [(String, [Host])]) -> String {
        let file = existing?.file ?? "environments/\(environment).yaml"
        var editor = YAMLTextEditor(text)
        do {
            let root = YAMLParser().parse(Array(text.utf8), file: file).root
            guard case .mapping(let pairs) = root?.content,
                let apps = pairs.first(where: { $0.key.value == "apps" })?.value,
                let hosts = pairs.first(where: { $0.key.value == "hosts" })?.value
            else { throw YAMLTextEditor.EditError(message: "it has no apps: or hosts: mapping") }
            for name in order where !existingNames.contains(name) {
                let lines = appYAML(name, team: existing?.teamID?.value)
                try editor.append(key: name, value: try Self.nested(lines, in: apps, editor: editor), to: apps)
            }
            for (domain, served) in domains {
                for host in served { try editor.append(key: YAMLWriter.scalar(host.name), value: domain, to: hosts) }
            }
        } catch {
            let message = (error as? YAMLTextEditor.EditError)?.message ?? "\(error)"
            diagnostics.report(
                .importConflict, "cannot add the imported apps and hosts to \(file): \(message)", at: .file(file),
                hint:
                    "write its apps: and hosts: as block mappings with at least one entry, or import into a new environment"
            )
            return text
        }
        return editor.applied()
    }

    /// An app's lines as the value of a key in a block `mapping`, indented under the key.
    static func nested(_ lines: [String], in mapping: YAMLNode, editor: YAMLTextEditor) throws -> String {
        guard editor.character(at: mapping.location) != "{", case .mapping(let pairs) = mapping.content,
            let last = pairs.last
        else { throw YAMLTextEditor.EditError(message: "its apps: is not a block mapping with an entry") }
        let indentation = String(repeating: " ", count: last.key.location.column + 1)
        return lines.map { "\n" + indentation + $0 }.joined()
    }
}

extension String {
    fileprivate var trimmingDashes: String {
        var text = Substring(self)
        while text.first == "-" { text.removeFirst() }
        while text.last == "-" { text.removeLast() }
        return String(text)
    }
}
