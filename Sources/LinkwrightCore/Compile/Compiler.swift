/// Compiles a validated configuration into what every host serves and every app declares.
/// Pure: no disk, clock or network.
public struct Compiler: Sendable {
    /// Apple: "the uncompressed size of the apple-app-site-association file must be no greater
    /// than 128 KB" (App Search Programming Guide, iOS 9.3.1 and later).
    public static let aasaSizeLimit = 128 * 1024
    /// Default `emit.size_budget`: warn at 100 KB so the hard limit is never a surprise.
    public static let defaultSizeBudget = 100 * 1024

    public init() {}

    /// Compiles the named environments (all when `environments` is empty), taking each domain's
    /// compilation for an environment from `compilations` where it was kept before, and keeping
    /// there those it makes. So that what follows (`build` rendering and writing files) can start
    /// before the last domain is compiled, `eachDomain` is given the sites of every domain of an
    /// environment as soon as the domain is compiled (from the thread that compiled it, so
    /// concurrently and in no set order, but always before the environment's `each`), and `each`
    /// every environment as soon as it is compiled, in order.
    public func compile(
        _ configuration: Configuration, environments: [String] = [], reusing compilations: DomainCompilations? = nil,
        eachDomain: @Sendable (DomainSites) -> Void = { _ in },
        each: (CompiledEnvironment) -> Void = { _ in }
    ) -> (compiled: CompiledConfiguration, diagnostics: [Diagnostic]) {
        var diagnostics = DiagnosticBag()
        let selected = configuration.environments.filter { environments.isEmpty || environments.contains($0.name) }
        var translations = RuleTranslations()
        let compiled = selected.map { environment in
            var environmentCompiler = EnvironmentCompiler(
                configuration: configuration, environment: environment, translations: translations,
                reusing: compilations)
            let result = environmentCompiler.compile(eachDomain: eachDomain)
            diagnostics.add(contentsOf: environmentCompiler.diagnostics.items)
            translations = environmentCompiler.translations
            each(result)
            return result
        }
        return (CompiledConfiguration(environments: compiled), diagnostics.sorted)
    }
}

/// The sites of one environment serving one domain's files, handed over as soon as the domain is
/// compiled (`Compiler.compile(eachDomain:)`): the same values the environment's `sites` holds
/// for them.
public struct DomainSites: Sendable {
    public var environment: String
    public var sites: [CompiledSite]
}

/// Compiles one environment.
private struct EnvironmentCompiler {
    let configuration: Configuration
    let environment: Environment
    var diagnostics = DiagnosticBag()
    /// Each domain of the environment's hosts, compiled once (`compileDomains`).
    private var compilations: [String: DomainCompilation] = [:]
    /// Compilations kept across compiles.
    private let reused: DomainCompilations?
    /// The translations a domain's compilation used, made or found (`compilation(of:)`).
    private var used = RuleTranslations()
    /// Each domain's entries as they apply to this environment, resolved once: every host and
    /// app asks for them.
    private let entriesByDomain: [String: [AppLinksEntry]]
    /// Lookups by name, made once: every app is looked up for every host and entry, so lists
    /// searched as arrays made compiling quadratic in the number of apps.
    private let domainsByName: [String: Domain]
    private let appsByName: [String: AppDefinition]
    /// Per domain, the positions of the entries that list each app.
    private let entryPositions: [String: [String: [Int]]]
    /// Shared with the environments compiled before and after this one.
    private(set) var translations: RuleTranslations

    init(
        configuration: Configuration, environment: Environment, translations: RuleTranslations,
        reusing reused: DomainCompilations?
    ) {
        self.configuration = configuration
        self.environment = environment
        self.translations = translations
        self.reused = reused
        let entriesByDomain = Dictionary(
            configuration.domains.map { ($0.name, Resolution.entries(of: $0, in: environment.name)) },
            uniquingKeysWith: { first, _ in first })
        self.entriesByDomain = entriesByDomain
        domainsByName = Dictionary(configuration.domains.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        appsByName = Dictionary(environment.apps.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        entryPositions = entriesByDomain.mapValues { entries in
            var positions: [String: [Int]] = [:]
            for (position, entry) in entries.enumerated() {
                for name in entry.apps.map(\.value).uniqued() { positions[name, default: []].append(position) }
            }
            return positions
        }
    }

    /// The positions of `domain`'s entries that list the app `name`, in order.
    private func entryPositions(of domain: Domain, listing name: String) -> [Int] {
        entryPositions[domain.name]?[name] ?? []
    }

    private func entries(of domain: Domain) -> [AppLinksEntry] {
        entriesByDomain[domain.name] ?? Resolution.entries(of: domain, in: environment.name)
    }

    mutating func compile(eachDomain: @Sendable (DomainSites) -> Void) -> CompiledEnvironment {
        var hostsByFileHost: [Host: [HostBinding]] = [:]
        var fileHostOrder: [Host] = []
        for binding in environment.hosts {
            let fileHost = binding.host.value.fileHost
            if hostsByFileHost[fileHost] == nil { fileHostOrder.append(fileHost) }
            hostsByFileHost[fileHost, default: []].append(binding)
        }
        // A file host serves the files of the domain its first binding names.
        let servings = fileHostOrder.map { fileHost in
            let bindings = hostsByFileHost[fileHost]!
            return Serving(fileHost: fileHost, hosts: bindings.map(\.host.value), domain: bindings[0].domain.value)
        }
        let servingsByDomain = Dictionary(grouping: servings, by: \.domain)
        let environmentName = environment.name
        compileDomains(environment.hosts.map(\.domain.value)) { domain, compilation in
            eachDomain(
                DomainSites(
                    environment: environmentName,
                    sites: (servingsByDomain[domain.name] ?? []).map { Self.site($0, files: compilation.files) }))
        }
        var sites: [CompiledSite] = []
        for serving in servings {
            guard let domain = domainsByName[serving.domain] else { continue }
            let files = compilations[domain.name]!.files
            if let size = files.aasaSize { checkSize(size, domain: domain, host: serving.fileHost) }
            sites.append(Self.site(serving, files: files))
        }
        return CompiledEnvironment(
            name: environment.name, tier: environment.tier.value, mode: environment.mode?.value, sites: sites,
            iosApps: iosApps(), androidApps: androidApps())
    }

    /// Compiles what each domain named in `names` gives every host and app: taken from `reused`
    /// where compiled alike before, the others on every core (a domain's files and its apps'
    /// intent-filter scopes depend on the domain alone, and so do the translations each makes:
    /// their keys name the domain), each given to `handOver` as soon as it is there. Diagnostics
    /// are sorted afterwards, so the order they are joined in does not show.
    private mutating func compileDomains(
        _ names: [String], handOver: @Sendable (Domain, DomainCompilation) -> Void
    ) {
        let domains = names.uniqued().compactMap { domainsByName[$0] }
        var made = domains.map { reused?.compilation(of: $0, for: environment) }
        for (domain, compilation) in zip(domains, made) { compilation.map { handOver(domain, $0) } }
        let missing = made.indices.filter { made[$0] == nil }
        let start = self
        let compiled = missing.parallelMap { index in
            let compilation = start.compilation(of: domains[index])
            handOver(domains[index], compilation)
            return compilation
        }
        for (index, compilation) in zip(missing, compiled) {
            made[index] = reused?.keep(compilation, of: domains[index], for: environment) ?? compilation
        }
        for (domain, compilation) in zip(domains, made) {
            compilations[domain.name] = compilation
            diagnostics.add(contentsOf: compilation!.diagnostics)
            diagnostics.add(contentsOf: translations.add(compilation!.translations))
        }
    }

    /// What `domain` gives this environment, compiled on a copy of this compiler: the
    /// translations it uses are those of the environments before, or made anew.
    private func compilation(of domain: Domain) -> DomainCompilation {
        var compiler = self
        (compiler.diagnostics, compiler.used) = (DiagnosticBag(), RuleTranslations())
        let files = compiler.files(for: domain)
        var scopes: [String: [PathScope]] = [:]
        for app in environment.apps where app.android != nil {
            scopes[app.name.value] = compiler.scopes(of: domain, forApp: app.name.value)
        }
        return DomainCompilation(
            files: files, scopes: scopes, diagnostics: compiler.diagnostics.items, translations: compiler.used)
    }

    // MARK: Association files

    /// A file host, the hosts whose links its files decide, and the domain whose files it serves.
    private struct Serving {
        var fileHost: Host
        var hosts: [Host]
        var domain: String
    }

    private static func site(_ serving: Serving, files: DomainCompilation.Files) -> CompiledSite {
        // The files depend on the domain and the environment only: every host of a domain
        // serves the same ones, compiled once (`compileDomains`).
        CompiledSite(
            fileHost: serving.fileHost, servedHosts: serving.hosts, domain: serving.domain, aasa: files.aasa,
            assetLinks: files.assetLinks)
    }

    /// The association files `domain` serves in this environment, and the AASA's size.
    private mutating func files(for domain: Domain) -> DomainCompilation.Files {
        let aasa = aasaDocument(for: domain)
        // Across compiles (`reused`), each entry's components are sized as an edit of its last.
        let sizes = reused?.rules.rules(of: domain).componentSizes
        let size = aasa.map { aasa in
            sizes.map { sizes in aasa.renderedSize { sizes.size(of: $1, entry: $0) } } ?? aasa.renderedSize
        }
        return (aasa, size, assetLinksDocument(for: domain))
    }

    private func appID(_ name: String) -> String? {
        guard let app = appsByName[name], let ios = app.ios,
            let team = ios.teamID?.value ?? environment.teamID?.value
        else { return nil }
        return team + "." + ios.bundleID.value
    }

    private mutating func aasaDocument(for domain: Domain) -> AASADocument? {
        let entries = self.entries(of: domain)
        var details: [AASADetails] = []
        var legacy: [AASADetails] = []
        let kept = reused?.rules.rules(of: domain)
        for (position, entry) in entries.enumerated() {
            let appIDs = entry.apps.compactMap { appID($0.value) }
            guard !appIDs.isEmpty else { continue }
            let key = RuleTranslations.key(domain, in: environment.name, positions: [position])
            // Across compiles (`reused`), as an edit of the entry's components made last there.
            let slot = DomainRules.Slot(environment: environment.name, entry: position)
            let components = translated(\.components, key) {
                .init(
                    value: kept?.aasaComponents(ofRulesIn: entry, at: slot) ?? entry.rules.map(\.aasaComponent),
                    diagnostics: [])
            }
            details.append(
                AASADetails(
                    appIDs: appIDs, defaults: component(flags: entry.flags), components: components,
                    origin: entry.location))
            if domain.emit.legacyPaths, let paths = legacyPaths(entry, domain: domain) {
                legacy += appIDs.map { AASADetails(appID: $0, paths: paths, origin: entry.location) }
            }
        }
        let applinks =
            details.isEmpty
            ? nil
            : AppLinksSection(
                legacyApps: domain.emit.legacyPaths ? [] : nil, defaults: component(flags: domain.flags),
                substitutionVariables: domain.variables.map {
                    AASAVariable(name: $0.name.value, values: $0.values.map(\.value))
                },
                details: details + legacy)
        var document = AASADocument(applinks: applinks)
        for service in AssociatedService.appListServices {
            document.serviceApps[service] = serviceAppIDs(domain.apps(of: service))
        }
        return document == AASADocument() ? nil : document
    }

    /// App IDs of a service's `apps` list, `nil` when no iOS app uses the service here.
    private func serviceAppIDs(_ names: [Located<String>]) -> [String]? {
        let ids = names.compactMap { appID($0.value) }
        return ids.isEmpty ? nil : ids
    }

    private func component(flags: MatchFlags) -> AASAComponent? {
        flags.isEmpty ? nil : AASAComponent(flags: flags.values)
    }

    /// Legacy `paths` match the path only, with no variables or flags (App Search Programming
    /// Guide, "Support Universal Links"). A rule translates exactly only when it needs nothing
    /// more; otherwise iOS 12 would open the app for URLs iOS 13+ keeps on the web, or the reverse.
    private mutating func legacyPaths(_ entry: AppLinksEntry, domain: Domain) -> [String]? {
        var paths: [String] = []
        var exact = true
        for rule in entry.rules {
            let flags = rule.effectiveFlags(in: entry, of: domain)
            var reasons: [String] = []
            if case .whole(let pattern)? = rule.query?.value, pattern == "*" {
            } else if rule.query != nil {
                reasons.append("it constrains the query")
            }
            if let fragment = rule.fragment, fragment.value != "*" { reasons.append("it constrains the fragment") }
            reasons += flags.departures.map(\.legacyPathLoss)
            if let path = rule.path, !PatternSyntax.variableNames(path.value).isEmpty {
                reasons.append("it uses substitution variables")
            }
            guard reasons.isEmpty else {
                exact = false
                diagnostics.report(
                    .legacyPathsInexact,
                    "rule cannot be written as a legacy path for iOS 12: \(reasons.joined(separator: ", "))",
                    at: rule.location, hint: "remove emit.legacy_paths from \(domain.file), or simplify the rule")
                continue
            }
            let path = rule.path?.value ?? "*"
            paths.append(rule.exclude ? "NOT " + path : path)
        }
        return exact ? paths : nil
    }

    private mutating func checkSize(_ size: Int, domain: Domain, host: Host) {
        let budget = domain.emit.sizeBudget?.value ?? Compiler.defaultSizeBudget
        if size > Compiler.aasaSizeLimit {
            diagnostics.report(
                .aasaTooLarge,
                "apple-app-site-association for \(host) in \(environment.name) is \(size) bytes; Apple reads at most \(Compiler.aasaSizeLimit)",
                at: domain.emit.sizeBudget?.location ?? .file(domain.file),
                hint: "merge rules with wildcards or substitution variables, or split apps across hosts")
        } else if size > budget {
            diagnostics.report(
                .aasaSizeBudget,
                "apple-app-site-association for \(host) in \(environment.name) is \(size) bytes, over the budget of \(budget)",
                at: domain.emit.sizeBudget?.location ?? .file(domain.file),
                hint: "shrink the rules, or raise emit.size_budget (Apple's limit is \(Compiler.aasaSizeLimit))")
        }
    }

    private mutating func assetLinksDocument(for domain: Domain) -> AssetLinksDocument? {
        let entries = self.entries(of: domain)
        let credentials = Set(domain.apps(of: .webcredentials).map(\.value))
        let order = (entries.flatMap { $0.apps.map(\.value) } + domain.apps(of: .webcredentials).map(\.value)).uniqued()
        var statements: [AssetStatement] = []
        for name in order {
            guard let android = appsByName[name]?.android else { continue }
            let positions = entryPositions(of: domain, listing: name)
            var relations: [String] = []
            if !positions.isEmpty { relations.append(AssetStatement.handleAllURLs) }
            if credentials.contains(name) {
                relations.append(AssetStatement.getLoginCreds)
            }
            var dynamic: [DynamicComponent]?
            if domain.emit.androidDynamicRules && !positions.isEmpty {
                // Apps listed by the same entries (the usual case) share their dynamic rules.
                let key = RuleTranslations.key(domain, in: environment.name, positions: positions)
                let rules = reused?.rules.rules(of: domain)
                let environmentName = environment.name
                dynamic = translated(\.dynamicRules, key) {
                    var translator = AndroidTranslator(domain: domain)
                    var components: [DynamicComponent] = []
                    // Nearly every rule gives a component or more: reserved once, not per entry,
                    // where growing by each entry's length alone copied the list per entry.
                    components.reserveCapacity(positions.reduce(0) { $0 + entries[$1].rules.count })
                    for position in positions {
                        guard let rules else {
                            for rule in entries[position].rules {
                                components += translator.dynamicComponents(for: rule, in: entries[position])
                            }
                            continue
                        }
                        let slot = DomainRules.Slot(environment: environmentName, entry: position)
                        rules.appendDynamicComponents(
                            ofRulesIn: entries[position], at: slot, of: domain, to: &components,
                            diagnostics: &translator.diagnostics)
                    }
                    return .init(value: components, diagnostics: translator.diagnostics.items)
                }
            }
            statements.append(
                AssetStatement(
                    relations: relations,
                    target: .androidApp(
                        package: android.package.value,
                        fingerprints: android.fingerprints.map(\.fingerprint.value.value)),
                    dynamicComponents: dynamic))
        }
        statements = declaredStatements(of: domain, after: statements)
        return statements.isEmpty ? nil : AssetLinksDocument(statements: statements)
    }

    /// `statements` with the domain's `asset_statements`: an app's relations join the statement
    /// its links and credentials made (each relation once), or make one; a site's make their own.
    /// An app without an Android side in this environment has no statement, as for its links.
    private func declaredStatements(of domain: Domain, after generated: [AssetStatement]) -> [AssetStatement] {
        var statements = generated
        for declared in domain.assetStatements {
            let relations = declared.relations.map(\.value)
            switch declared.target {
            case .site(let site):
                statements.append(AssetStatement(relations: relations, target: .web(site: site.value)))
            case .app(let name):
                guard let android = appsByName[name.value]?.android else { continue }
                let target = AssetTarget.androidApp(
                    package: android.package.value, fingerprints: android.fingerprints.map(\.fingerprint.value.value))
                if let index = statements.firstIndex(where: { $0.target == target }) {
                    statements[index].relations += relations.filter { !statements[index].relations.contains($0) }
                } else {
                    statements.append(AssetStatement(relations: relations.uniqued(), target: target))
                }
            }
        }
        return statements
    }

    // MARK: App declarations

    private func iosApps() -> [CompiledIOSApp] {
        let modeSuffix = environment.mode.map { "?mode=" + $0.value.rawValue } ?? ""
        return environment.apps.compactMap { app in
            guard let ios = app.ios, let id = appID(app.name.value) else { return nil }
            let name = app.name.value
            // The services each domain names the app in, found once per domain, not per host.
            let servicesOfDomain = domainsByName.mapValues { domain in
                AssociatedService.allCases.filter { service in
                    service == .applinks
                        ? !entryPositions(of: domain, listing: name).isEmpty
                        : domain.serviceApps[service]?.contains { $0.value == name } == true
                }
            }
            var byService: [AssociatedService: [String]] = [:]
            for binding in environment.hosts {
                guard let services = servicesOfDomain[binding.domain.value] else { continue }
                let host = binding.host.value
                for service in services where service.allowsWildcardHosts || !host.isWildcard {
                    byService[service, default: []].append("\(service.rawValue):\(host)\(modeSuffix)")
                }
            }
            let entries = AssociatedService.allCases.flatMap { byService[$0] ?? [] }
            return CompiledIOSApp(
                name: app.name.value, appID: id, isAppClip: ios.isAppClip, associatedDomains: entries,
                urlSchemes: app.compiledSchemes)
        }
    }

    private mutating func androidApps() -> [CompiledAndroidApp] {
        var domainOrder: [String] = []
        var hostsByDomain: [String: [Host]] = [:]
        for binding in environment.hosts {
            if hostsByDomain[binding.domain.value] == nil { domainOrder.append(binding.domain.value) }
            hostsByDomain[binding.domain.value, default: []].append(binding.host.value)
        }
        return environment.apps.compactMap { app in
            guard let android = app.android else { return nil }
            var filters: [IntentFilter] = []
            for domainName in domainOrder {
                guard let scopes = compilations[domainName]?.scopes[app.name.value] else { continue }
                filters.append(IntentFilter(domain: domainName, hosts: hostsByDomain[domainName]!, scopes: scopes))
            }
            return CompiledAndroidApp(
                name: app.name.value, package: android.package.value, intentFilters: filters,
                schemes: app.compiledSchemes)
        }
    }
}

extension EnvironmentCompiler {
    /// The path scopes of the intent filter the app `name` declares for `domain`; nil when no
    /// entry listing the app has rules.
    fileprivate mutating func scopes(of domain: Domain, forApp name: String) -> [PathScope]? {
        let entries = self.entries(of: domain)
        let positions = entryPositions(of: domain, listing: name)
        guard positions.contains(where: { !entries[$0].rules.isEmpty }) else { return nil }
        // Apps sharing the same entries (the usual case) share their scopes.
        let key = RuleTranslations.key(domain, in: environment.name, positions: positions)
        let kept = reused?.rules.rules(of: domain)
        return translated(\.scopes, key) {
            // Read in place: pairing each rule with a copy of its entry, then filtering the
            // pairs, cost more than the kept scopes' lookups; and each entry is taken once and
            // its rules read through their buffer, as a copy per rule (iterating the array or
            // subscripting it) retained every text the rule holds.
            var ruleScopes: [PathScope] = []
            for position in positions {
                let entry = entries[position]
                entry.rules.withUnsafeBufferPointer { rules in
                    for index in rules.indices where !rules[index].exclude {
                        ruleScopes +=
                            kept?.scopes(of: rules[index], in: entry, of: domain)
                            ?? AndroidTranslator.ruleScopes(rules[index], entry: entry, domain: domain)
                    }
                }
            }
            let scopes = AndroidTranslator.covering(ruleScopes)
            guard !domain.emit.androidDynamicRules else { return .init(value: scopes, diagnostics: []) }
            let rules = positions.flatMap { position in entries[position].rules.map { (entries[position], $0) } }
            return .init(
                value: scopes, diagnostics: AndroidTranslator.ignoredExclusions(rules, scopes: scopes, domain: domain))
        }
    }

    /// The translation under `key` in `table`: the one an environment before made, else made
    /// now. Either way recorded as used, so the compilation carries it (`DomainCompilation`).
    fileprivate mutating func translated<Value>(
        _ table: WritableKeyPath<RuleTranslations, [RuleTranslations.Key: RuleTranslations.Made<Value>]>,
        _ key: RuleTranslations.Key, make: () -> RuleTranslations.Made<Value>
    ) -> Value {
        let made = translations[keyPath: table][key] ?? make()
        translations[keyPath: table][key] = made
        used[keyPath: table][key] = made
        return made.value
    }
}

extension AppDefinition {
    fileprivate var compiledSchemes: [CompiledScheme] {
        schemes.map { CompiledScheme(name: $0.name.value, purpose: $0.purpose.value) }
    }
}
