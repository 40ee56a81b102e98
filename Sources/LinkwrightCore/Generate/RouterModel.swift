/// What one app's generated router decides, read from the compiled configuration rather than the
/// YAML, so the router compares exactly what the association files the devices fetch compare:
/// the hosts the app claims, and for each the ordered rules of the file fetched for that claim
/// (defaults, flags and substitution variables resolved), each with the route its URLs lead to.
public struct RouterModel: Sendable, Equatable {
    /// The app's logical name (`museo`).
    public var app: String
    /// The environments whose hosts the router serves, in configuration order.
    public var environments: [String]
    /// Every destination the rules name, in the order they first appear.
    public var destinations: [RouterDestination]
    /// Distinct rule lists; hosts point into this array.
    public var ruleLists: [RouterRuleList]
    /// Hosts the app claims exactly, sorted, each with the index of its rule list.
    public var exactHosts: [RouterHost]
    /// Roots of `*.` claims, longest first (the longest claim decides, as on Apple devices), each
    /// with the index of its rule list.
    public var wildcardRoots: [RouterHost]
    /// The configuration files the router is made from, sorted: the generated file's header.
    public var sourceFiles: [String]
    /// The custom schemes the app declares with routes, sorted, each with the index of its rule
    /// list in `ruleLists`.
    public var schemes: [RouterScheme] = []
}

/// A custom scheme the app declares with `routes:`, and the rules deciding its URLs.
public struct RouterScheme: Sendable, Equatable {
    /// As declared: lowercase.
    public var scheme: String
    public var ruleList: Int
}

/// A destination of the router with its typed parameters.
public struct RouterDestination: Sendable, Equatable {
    public var name: String
    public var parameters: [RouterParameter]
}

public struct RouterParameter: Sendable, Equatable {
    public var name: String
    public var isOptional: Bool
    public var source: RouteParameter.Source
    public var type: RouteParameter.ValueType
}

extension RouterParameter {
    /// The call reading the parameter from the link `link` in both routers, whose links have
    /// the same two readers: `link.segment(2)`, `link.queryItem("source")` (the name written by
    /// `literal`).
    func read(from link: String, quoting literal: (String) -> String) -> String {
        switch source {
        case .pathSegment(let position): "\(link).segment(\(position))"
        case .queryItem(let item): "\(link).queryItem(\(literal(item)))"
        }
    }
}

/// A host, or the root of a wildcard claim, and the rules deciding its URLs.
public struct RouterHost: Sendable, Equatable {
    public var host: String
    public var ruleList: Int
}

/// The rules one association file applies to the app, in the order the device tries them, and
/// the substitution variables they use (custom ones, then Apple's predefined ones they name).
public struct RouterRuleList: Sendable, Equatable {
    /// `museoProduction`, or `museo` when every environment serves the domain the same way.
    public var name: String
    public var rules: [RouterRule]
    public var variables: [Variable]

    public struct Variable: Sendable, Equatable {
        public var name: String
        public var values: [String]
    }
}

/// One component with everything it inherits resolved.
public struct RouterRule: Sendable, Equatable {
    public var path: String
    public var query: Query
    public var fragment: String
    public var exclude: Bool
    public var flags: EffectiveFlags
    /// The destination and where its parameters come from; `nil` for exclusions, `route: none`
    /// and rules of a domain that names no routes: the app opens without a destination.
    public var route: RouterRoute?
    /// Where the rule is written (`domains/museo.yaml:24`), for the generated comment.
    public var origin: String?

    public enum Query: Sendable, Equatable {
        case whole(String)
        case items([QueryItemPattern])
        /// A dictionary Apple ignores (it holds a value that is not a string): nothing compared.
        case notCompared
    }

    public struct QueryItemPattern: Sendable, Equatable {
        public var name: String
        public var pattern: String
    }
}

public struct RouterRoute: Sendable, Equatable {
    /// Index into `RouterModel.destinations`.
    public var destination: Int
    /// The parameters in the destination's order, each read where this rule reads it.
    public var parameters: [RouterParameter]
}

/// Why no router can be made as asked.
public struct RouterModelError: Error, Sendable, Equatable {
    public var message: String
    public var hint: String

    /// No environment builds `app` on `platform`.
    static func unknownApp(_ app: String, on platform: Platform, in configuration: Configuration) -> Self {
        let known = configuration.environments.flatMap { environment in
            environment.apps.filter { platform == .ios ? $0.ios != nil : $0.android != nil }.map(\.name.value)
        }
        let kind = platform == .ios ? "an iOS" : "an Android"
        return RouterModelError(
            message: "no environment builds \(kind) app named \"\(app)\"",
            hint: known.isEmpty
                ? "declare an app with \(platform.rawValue):"
                : "choose one of: \(known.uniqued().joined(separator: ", "))")
    }

    /// Where the problem is written, when in the configuration: the generate command shows these
    /// from the current directory.
    public var locations: [SourceLocation] = []

    /// The error for a router of `app` that would have no destination, or `nil` when that router
    /// is what the configuration asks for: every rule opening the app says `route: none`, so each
    /// of its URLs opens the app at its start. A rule opening the app with no route at all, or no
    /// rule opening it, is what `init` and `import` left to finish, so the error names the first
    /// such rule of each domain file and what to write there.
    static func nothingToRoute(_ app: String, domains: [Domain], hasSchemeRoutes: Bool) -> Self? {
        var unrouted: [SourceLocation] = []
        var opensWithoutDestination = hasSchemeRoutes
        for domain in domains {
            let rules = domain.applinks.filter { $0.apps.contains { $0.value == app } }.flatMap(\.rules)
            if let first = rules.first(where: { !$0.exclude && $0.route == nil }) { unrouted.append(first.location) }
            opensWithoutDestination = opensWithoutDestination || rules.contains { !$0.exclude && $0.route != nil }
        }
        let fix =
            "name where its URLs lead with route: <destination> (and params:), or write route: none with a reason: "
            + "to open the app at its start (docs/configuration.md, Routes)"
        if !unrouted.isEmpty {
            return RouterModelError(
                message: "no rule opening \(app) names a route, so its router would have no destination",
                hint: "give every rule of \(unrouted.count == 1 ? "that file" : "those files") that opens \(app) a "
                    + "route: \(fix)",
                locations: unrouted.sorted())
        }
        guard opensWithoutDestination else {
            return RouterModelError(
                message: "no rule of \(app)'s hosts opens it, so its router would have nothing to route",
                hint: "add a rule for \(app) to a domain its hosts serve, and \(fix)")
        }
        return nil
    }
}

extension RouterModel {
    /// The router of `app` on iOS over `environments` (every compiled environment when empty).
    /// A host two environments decide with different rules makes the router ambiguous: that is
    /// an error asking for one environment.
    public static func ios(
        app: String, configuration: Configuration, compiled: CompiledConfiguration
    ) throws(RouterModelError) -> RouterModel {
        var builder = Builder(app: app, configuration: configuration)
        for environment in compiled.environments {
            guard let iosApp = environment.iosApps.first(where: { $0.name == app }) else { continue }
            builder.environments.append(environment.name)
            if let file = configuration.environment(named: environment.name)?.file { builder.files.insert(file) }
            let lookup = SiteLookup(environment)
            for entry in iosApp.associatedDomains where entry.hasPrefix("applinks:") {
                let claimed = String(entry.dropFirst("applinks:".count).prefix { $0 != "?" }).lowercased()
                let isWildcard = claimed.hasPrefix("*.")
                let fileHost = isWildcard ? String(claimed.dropFirst(2)) : claimed
                guard let site = lookup.site(fetchedFrom: fileHost), let document = site.aasa else { continue }
                let list = try builder.ruleList(
                    document, appID: iosApp.appID, domain: site.domain, environment: environment.name)
                try builder.claim(claimed, ruleList: list, environment: environment.name)
            }
        }
        guard !builder.environments.isEmpty else { throw .unknownApp(app, on: .ios, in: configuration) }
        var schemes = RouterSchemes(app: app)
        for environment in builder.environments {
            try schemes.add(configuration.environment(named: environment), destinations: &builder.destinations)
        }
        if builder.destinations.all.isEmpty,
            let error = RouterModelError.nothingToRoute(
                app, domains: builder.domains.compactMap(configuration.domain(named:)),
                hasSchemeRoutes: !schemes.isEmpty)
        {
            throw error
        }
        var model = builder.model()
        model.schemes = schemes.schemes(listsFrom: model.ruleLists.count)
        model.ruleLists += schemes.namedLists
        return model
    }

    /// Said in a destination type without cases: every rule opening the app says `route: none`.
    static let noDestinationNote =
        "No rule names a destination yet (route: none): a link that opens the app opens it at its start."

    /// The name of the rules one domain's file applies in `environments`: `museoProduction`, or
    /// `museo` when no environment is named because every one serves the domain alike.
    static func listName(domain: String, environments: [String]) -> String {
        let name = ([domain] + environments).map(GeneratedTypeName.of).joined()
        return name.prefix(1).lowercased() + name.dropFirst()
    }
}

/// The destinations a router's rules name, in the order they first appear; the routers of both
/// platforms gather theirs alike.
struct RouterDestinations {
    private(set) var all: [RouterDestination] = []

    /// The route to `name`, adding the destination the first time. Validation has made every
    /// rule leading to one destination declare the same parameters; their order is the first
    /// rule's.
    mutating func route(_ name: String, _ written: [RouteParameter]) -> RouterRoute {
        let parameters = written.map {
            RouterParameter(name: $0.name.value, isOptional: $0.isOptional, source: $0.source, type: $0.type)
        }
        if let index = all.firstIndex(where: { $0.name == name }) {
            let ordered = all[index].parameters.compactMap { declared in
                parameters.first { $0.name == declared.name }
            }
            return RouterRoute(destination: index, parameters: ordered)
        }
        all.append(RouterDestination(name: name, parameters: parameters))
        return RouterRoute(destination: all.count - 1, parameters: parameters)
    }
}

/// The rule lists of the custom schemes an app declares with routes, environment by
/// environment; the routers of both platforms gather theirs alike. A scheme's entries are
/// rules with Apple's default flags and no fragment, as `CompiledSchemeRoutes` matches them.
struct RouterSchemes {
    let app: String
    private var lists: [RouterRuleList] = []
    /// Each list's rules without their origins.
    private var writtenRules: [[RouterRule]] = []
    private var claimed: [String: (list: Int, environment: String)] = [:]

    init(app: String) { self.app = app }

    /// The schemes `app` declares with routes in `environment`.
    mutating func add(_ environment: Environment?, destinations: inout RouterDestinations) throws(RouterModelError) {
        guard let environment, let declared = environment.app(named: app) else { return }
        for scheme in declared.schemes where !scheme.routes.isEmpty {
            let rules = scheme.routes.map { rule in
                RouterRule(
                    path: rule.path?.value ?? "*",
                    query: {
                        guard case .items(let items)? = rule.query?.value else { return .whole("*") }
                        return .items(items.map { .init(name: $0.name, pattern: $0.pattern) })
                    }(), fragment: "*", exclude: rule.exclude, flags: .appleDefaults,
                    route: rule.exclude
                        ? nil
                        : rule.route.flatMap { route in
                            route.destination.map { destinations.route($0, route.parameters) }
                        },
                    origin: "\(rule.location.file):\(rule.location.line)")
            }
            // Two environment files writing the same routes share a list, commented from the first.
            let written = rules.map { rule in
                var unplaced = rule
                unplaced.origin = nil
                return unplaced
            }
            var list = writtenRules.firstIndex(of: written)
            if list == nil {
                lists.append(RouterRuleList(name: "", rules: rules, variables: []))
                writtenRules.append(written)
                list = lists.count - 1
            }
            if let known = claimed[scheme.name.value], known.list != list {
                throw RouterModelError(
                    message:
                        "the scheme \(scheme.name.value) of \(app) has different routes in \(known.environment) and \(environment.name)",
                    hint: "generate one router per environment with --env")
            }
            claimed[scheme.name.value] = claimed[scheme.name.value] ?? (list!, environment.name)
        }
    }

    /// Whether the app declares no scheme with routes.
    var isEmpty: Bool { claimed.isEmpty }

    /// Each scheme with its list's index, the lists placed from `first` on.
    func schemes(listsFrom first: Int) -> [RouterScheme] {
        claimed.keys.sorted().map { RouterScheme(scheme: $0, ruleList: first + claimed[$0]!.list) }
    }

    /// The lists, each named after the dot-separated segments its schemes start with:
    /// `esEmergenciasAppScheme` for `es.emergencias.app` and `es.emergencias.app.staging`.
    var namedLists: [RouterRuleList] {
        lists.indices.map { index in
            let schemes = claimed.keys.sorted().filter { claimed[$0]!.list == index }.map { $0.split(separator: ".") }
            var common = schemes.first ?? []
            for scheme in schemes.dropFirst() { common = Array(zip(common, scheme).prefix { $0 == $1 }.map(\.0)) }
            var list = lists[index]
            list.name = RouterModel.listName(domain: common.joined(separator: "."), environments: []) + "Scheme"
            return list
        }
    }
}

/// Gathers rule lists, hosts and destinations environment by environment.
private struct Builder {
    let app: String
    let configuration: Configuration
    var environments: [String] = []
    var files: Set<String> = []
    /// The domains whose rules the router reads, in the order first read.
    var domains: [String] = []
    var destinations = RouterDestinations()
    var lists: [RouterRuleList] = []
    /// Which domain and environments each list came from, to name it.
    var listOrigins: [(domain: String, environments: [String])] = []
    var exact: [String: (list: Int, environment: String)] = [:]
    var wildcards: [String: (list: Int, environment: String)] = [:]

    init(app: String, configuration: Configuration) {
        self.app = app
        self.configuration = configuration
    }

    /// The index of the rule list `document` applies to `appID`, added unless an equal one is known.
    mutating func ruleList(_ document: AASADocument, appID: String, domain: String, environment: String)
        throws(RouterModelError) -> Int
    {
        let domainConfiguration = configuration.domain(named: domain)
        if let file = domainConfiguration?.file { files.insert(file) }
        if !domains.contains(domain) { domains.append(domain) }
        let routes = domainConfiguration?.routesByRule ?? [:]
        let applinks = document.applinks
        var rules: [RouterRule] = []
        // Entries are tried in order and one that decides nothing passes on: for one app that is
        // the entries holding it, one after the other (CompiledAASA).
        for details in applinks?.details ?? [] where details.effectiveAppIDs.contains(appID) {
            for component in details.components ?? [] {
                rules.append(
                    rule(component, levels: [component, details.defaults, applinks?.defaults], routes: routes))
            }
        }
        let variables = Self.variables(used: rules, custom: applinks?.substitutionVariables ?? [])
        let candidate = RouterRuleList(name: "", rules: rules, variables: variables)
        if let known = lists.firstIndex(where: { $0.rules == rules && $0.variables == variables }) {
            if !listOrigins[known].environments.contains(environment) {
                listOrigins[known].environments.append(environment)
            }
            return known
        }
        lists.append(candidate)
        listOrigins.append((domain, [environment]))
        return lists.count - 1
    }

    private mutating func rule(_ component: AASAComponent, levels: [AASAComponent?], routes: [SourceLocation: Route])
        -> RouterRule
    {
        let levels = levels.compactMap { $0 }
        func effective<Value>(_ key: KeyPath<AASAComponent, Value?>) -> Value? {
            levels.lazy.compactMap { $0[keyPath: key] }.first
        }
        let query: RouterRule.Query
        switch effective(\.query) ?? .whole("*") {
        case .whole(let pattern): query = .whole(pattern)
        case .items(let items): query = .items(items.map { .init(name: $0.name, pattern: $0.pattern) })
        case .ignoredDictionary: query = .notCompared
        }
        let exclude = effective(\.exclude) ?? false
        var route: RouterRoute?
        if !exclude, let origin = component.origin, let written = routes[origin], let name = written.destination {
            route = destinations.route(name, written.parameters)
        }
        return RouterRule(
            path: effective(\.path) ?? "*", query: query, fragment: effective(\.fragment) ?? "*", exclude: exclude,
            flags: component.flags.effective(inheriting: levels.dropFirst().map(\.flags)), route: route,
            origin: component.origin.map { "\($0.file):\($0.line)" })
    }

    /// The custom variables the rules name, then the predefined ones they name that no custom
    /// variable replaces, sorted by name.
    private static func variables(used rules: [RouterRule], custom: [AASAVariable]) -> [RouterRuleList.Variable] {
        var patterns: [String] = []
        for rule in rules {
            patterns += [rule.path, rule.fragment]
            switch rule.query {
            case .whole(let pattern): patterns.append(pattern)
            case .items(let items): patterns += items.map(\.pattern)
            case .notCompared: break
            }
        }
        let names = Set(patterns.flatMap(PatternSyntax.variableNames))
        let customValues = Dictionary(custom.map { ($0.name, $0.values) }, uniquingKeysWith: { $1 })
        return names.sorted().compactMap { name in
            if let values = customValues[name] { return .init(name: name, values: values) }
            return PredefinedVariables.values(of: name).map { .init(name: name, values: $0) }
        }
    }

    mutating func claim(_ claimed: String, ruleList: Int, environment: String) throws(RouterModelError) {
        let isWildcard = claimed.hasPrefix("*.")
        let host = isWildcard ? String(claimed.dropFirst(2)) : claimed
        let known = isWildcard ? wildcards[host] : exact[host]
        if let known, known.list != ruleList {
            throw RouterModelError(
                message:
                    "\(claimed) is served to \(app) by \(known.environment) and by \(environment) with different rules",
                hint: "generate one router per environment with --env")
        }
        if known == nil {
            if isWildcard { wildcards[host] = (ruleList, environment) } else { exact[host] = (ruleList, environment) }
        }
    }

    func model() -> RouterModel {
        var named = lists
        for index in named.indices {
            let (domain, listEnvironments) = listOrigins[index]
            let shared = listOrigins.filter { $0.domain == domain }.count == 1
            named[index].name = RouterModel.listName(domain: domain, environments: shared ? [] : listEnvironments)
        }
        return RouterModel(
            app: app, environments: environments, destinations: destinations.all, ruleLists: named,
            exactHosts: exact.keys.sorted().map { RouterHost(host: $0, ruleList: exact[$0]!.list) },
            wildcardRoots: wildcards.keys.sorted { ($0.count, $1) > ($1.count, $0) }.map {
                RouterHost(host: $0, ruleList: wildcards[$0]!.list)
            },
            sourceFiles: files.sorted())
    }
}

extension PredefinedVariables {
    /// The values of a predefined variable as alternatives: each character of a class, or the
    /// codes of `$(lang)` and `$(region)`.
    static func values(of name: String) -> [String]? {
        if let codes = codeLists[name] { return codes }
        guard let set = characterClasses[name] else { return nil }
        return (0...0x7F).compactMap { Unicode.Scalar($0) }.filter { set.contains($0) }.map { String($0) }
    }
}
