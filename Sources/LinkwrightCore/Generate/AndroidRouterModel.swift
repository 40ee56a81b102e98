/// What one app's generated Android router decides, read from the compiled configuration as
/// `EnvironmentEvaluator` reads it for Android: per environment, the hosts of the app's verified
/// intent filters in filter order with their path scopes, and for each the dynamic rules of the
/// assetlinks.json fetched for it, every pattern as each `AndroidRelease` hands it to
/// `PatternMatcher`, each rule with the route its URLs lead to.
public struct AndroidRouterModel: Sendable, Equatable {
    /// The app's logical name (`museo`).
    public var app: String
    /// Per environment the router serves, in configuration order, the claims of its build.
    public var environments: [Environment]
    /// Every destination the rules name, in the order they first appear.
    public var destinations: [RouterDestination]
    /// Distinct sites; claims point into this array.
    public var sites: [Site]
    /// The configuration files the router is made from, sorted: the generated file's header.
    public var sourceFiles: [String]
    /// The custom schemes the app declares with routes, sorted, each with the index of its rule
    /// list in `schemeLists`.
    public var schemes: [RouterScheme] = []
    /// The routes of the schemes, read as Apple reads rules on both platforms (`CompiledSchemeRoutes`).
    public var schemeLists: [RouterRuleList] = []

    public struct Environment: Sendable, Equatable {
        public var name: String
        /// The application ID of the app's build in this environment.
        public var package: String
        /// One per host of each verified intent filter, in filter order: a URL opens the app
        /// when one whose host covers the URL's accepts its path, and the rules of the site its
        /// host looks up then decide (`EnvironmentEvaluator.claims(of:on:)`).
        public var claims: [Claim]
    }

    /// A host of a verified intent filter (`*.museo.example` as declared) and its path scopes.
    public struct Claim: Sendable, Equatable {
        public var host: String
        /// The filter's `<data>` path attributes as `PatternMatcher` reads them (the resource
        /// compiler's `\` escapes undone): `path` a literal, `pathPrefix` a prefix,
        /// `pathPattern` a simple glob.
        public var scopes: [AndroidFilter]
        /// Index into `AndroidRouterModel.sites`.
        public var site: Int
    }

    /// What the assetlinks.json a claim fetches says about the app.
    public struct Site: Sendable, Equatable {
        /// `museoProduction`, or `museo` when every environment serves the domain the same way.
        public var name: String
        /// The first statement's `dynamic_app_link_components`, in order; `nil` when the file has
        /// none for the app (the intent filters alone decide, for domains that name no routes).
        public var rules: [Rule]?
    }

    /// One dynamic rule; `route` is `nil` for exclusions and rules that name no destination.
    public struct Rule: Sendable, Equatable {
        public var path: Pattern?
        /// One per `?` entry, over whole `name=value` items.
        public var queryItems: [Pattern]
        public var fragment: Pattern?
        public var exclude: Bool
        public var route: RouterRoute?
        /// Where the rule is written (`domains/museo.yaml:24`), for the generated comment.
        public var origin: String?
    }

    /// A dynamic-rule pattern as each release's `DalComponentParser` hands it to `PatternMatcher`.
    public struct Pattern: Sendable, Equatable {
        public var latest: AndroidFilter
        public var android15Initial: AndroidFilter

        init(_ expression: String) {
            latest = AndroidFilter(expression: expression, release: .latest)
            android15Initial = AndroidFilter(expression: expression, release: .android15Initial)
        }
    }
}

extension AndroidRouterModel {
    /// The router of `app` on Android over the compiled environments. A host two environments
    /// claim with different scopes or rules makes the router ambiguous: an error asking for one
    /// environment. A domain that names routes must emit dynamic rules: without them Android
    /// decides by the intent filters alone, and no rule says which destination a URL reaches.
    public static func android(
        app: String, configuration: Configuration, compiled: CompiledConfiguration
    ) throws(RouterModelError) -> AndroidRouterModel {
        var destinations = RouterDestinations()
        var sites: [(site: Site, domain: String, environments: [String])] = []
        var environments: [Environment] = []
        var files: Set<String> = []
        var domains: [String] = []
        var claimedBy: [String: (claim: Claim, environment: String)] = [:]
        for environment in compiled.environments {
            guard let androidApp = environment.androidApps.first(where: { $0.name == app }) else { continue }
            if let file = configuration.environment(named: environment.name)?.file { files.insert(file) }
            var claims: [Claim] = []
            let lookup = SiteLookup(environment)
            for filter in androidApp.intentFilters {
                let scopes = filter.scopes.map(Self.filter)
                for host in filter.hosts {
                    guard let site = lookup.site(fetchedFrom: host.fileHost.name) else { continue }
                    let domain = configuration.domain(named: site.domain)
                    if let file = domain?.file { files.insert(file) }
                    if !domains.contains(site.domain) { domains.append(site.domain) }
                    let rules = try Self.rules(
                        of: site, package: androidApp.package, routes: domain?.routesByRule ?? [:],
                        destinations: &destinations)
                    let index: Int
                    if let known = sites.firstIndex(where: { $0.domain == site.domain && $0.site.rules == rules }) {
                        index = known
                        if !sites[index].environments.contains(environment.name) {
                            sites[index].environments.append(environment.name)
                        }
                    } else {
                        sites.append((Site(name: "", rules: rules), site.domain, [environment.name]))
                        index = sites.count - 1
                    }
                    let claim = Claim(host: host.name, scopes: scopes, site: index)
                    if let known = claimedBy[host.name], known.claim != claim {
                        throw RouterModelError(
                            message:
                                "\(host.name) is served to \(app) by \(known.environment) and by \(environment.name) with different rules",
                            hint: "generate one router per environment with --env")
                    }
                    claimedBy[host.name] = claimedBy[host.name] ?? (claim, environment.name)
                    claims.append(claim)
                }
            }
            environments.append(Environment(name: environment.name, package: androidApp.package, claims: claims))
        }
        guard !environments.isEmpty else { throw .unknownApp(app, on: .android, in: configuration) }
        var schemes = RouterSchemes(app: app)
        for environment in environments {
            try schemes.add(configuration.environment(named: environment.name), destinations: &destinations)
        }
        if destinations.all.isEmpty,
            let error = RouterModelError.nothingToRoute(
                app, domains: domains.compactMap(configuration.domain(named:)), hasSchemeRoutes: !schemes.isEmpty)
        {
            throw error
        }
        for index in sites.indices {
            let (_, domain, siteEnvironments) = sites[index]
            let shared = sites.filter { $0.domain == domain }.count == 1
            sites[index].site.name = RouterModel.listName(domain: domain, environments: shared ? [] : siteEnvironments)
        }
        return AndroidRouterModel(
            app: app, environments: environments, destinations: destinations.all, sites: sites.map(\.site),
            sourceFiles: files.sorted(), schemes: schemes.schemes(listsFrom: 0), schemeLists: schemes.namedLists)
    }

    /// A `<data>` path attribute as `PatternMatcher` reads it.
    private static func filter(_ scope: PathScope) -> AndroidFilter {
        switch scope {
        case .path(let path): AndroidFilter(kind: .literal, filter: unescaped(path))
        case .prefix(let prefix): AndroidFilter(kind: .prefix, filter: unescaped(prefix))
        case .pattern(let pattern): AndroidFilter(kind: .simpleGlob, filter: unescaped(pattern))
        }
    }

    private static func unescaped(_ text: String) -> String {
        String(String.UnicodeScalarView(AndroidPathAttribute.unescaped(text)))
    }

    /// The dynamic rules `site`'s assetlinks.json gives `package`, as `CompiledAssetLinks.decision`
    /// reads it: the first statement with dynamic rules decides; `nil` when none has any.
    private static func rules(
        of site: CompiledSite, package: String, routes: [SourceLocation: Route],
        destinations: inout RouterDestinations
    ) throws(RouterModelError) -> [Rule]? {
        let statement = site.assetLinks?.statements.first { statement in
            guard statement.relations.contains(AssetStatement.handleAllURLs), statement.dynamicComponents != nil,
                case .androidApp(let name, _) = statement.target
            else { return false }
            return name == package
        }
        // An empty list is no rules, as StatementService stores none for it (`CompiledAssetLinks`).
        guard let components = statement?.dynamicComponents, !components.isEmpty else {
            if routes.values.contains(where: { $0.destination != nil }) {
                throw RouterModelError(
                    message:
                        "domain \(site.domain) names routes but emits no Android dynamic rules, so on Android its intent filters alone decide and no rule says which destination a URL reaches",
                    hint: "set emit: {android_dynamic_rules: true} in the domain (docs/configuration.md, Routes)")
            }
            return nil
        }
        return components.map { component in
            var route: RouterRoute?
            if !component.exclude, let origin = component.origin, let written = routes[origin],
                let name = written.destination
            {
                route = destinations.route(name, written.parameters)
            }
            return Rule(
                path: component.path.map(Pattern.init),
                queryItems: (component.query ?? []).map { Pattern("\($0.name)=\($0.pattern)") },
                fragment: component.fragment.map(Pattern.init), exclude: component.exclude, route: route,
                origin: component.origin.map { "\($0.file):\($0.line)" })
        }
    }

    /// The Kotlin package the router is declared in when none is given: the dot-separated
    /// segments every environment's application ID starts with (`com.example.museo` for
    /// `com.example.museo` and `com.example.museo.staging`), when at least two.
    public var defaultKotlinPackage: String? {
        let packages = environments.map { $0.package.split(separator: ".") }
        guard var common = packages.first else { return nil }
        for package in packages.dropFirst() {
            common = Array(zip(common, package).prefix { $0 == $1 }.map(\.0))
        }
        return common.count >= 2 ? common.joined(separator: ".") : nil
    }
}
