/// Examples in release notes that read like the rules' own URLs: the proof's shortest witness
/// (`/callbackx/y`) is exact but made up, so each behaviour change is shown first with a URL
/// written from a rule of the host ([ReadableURLs]), the rule the change points at tried first,
/// when one shows the same change on both sides as devices decide it, and reaches the same
/// destination of the app's router; the change's route is then the readable URL's.
public enum ReleaseNoteWitnesses {
    public static func readable(_ changes: [LinkChange], base: PolicySnapshot?, head: PolicySnapshot) -> [LinkChange] {
        guard let base else { return changes }
        let routes = (old: base.configuration.routesByRule, new: head.configuration.routesByRule)
        var sides: [String: (old: EnvironmentEvaluator, new: EnvironmentEvaluator)] = [:]
        // Every rule's URLs, once per environment and host: a release changes many URLs of one host.
        var written: [String: [RuleURLs]] = [:]
        return changes.map { change in
            guard change.kind.isBehaviour, let configured = change.host, let platform = change.platform,
                case .success(let host) = Host.parse(configured),
                let after = head.compiled.environments.first(where: { $0.name == change.environment }),
                let before = base.compiled.environments.first(where: { $0.name == change.environment })
            else { return change }
            let evaluators = sides[change.environment] ?? (EnvironmentEvaluator(before), EnvironmentEvaluator(after))
            sides[change.environment] = evaluators
            let concrete = URLSamples.host(for: host)
            let sites = [after.site(serving: concrete), before.site(serving: concrete)].compactMap { $0 }
            let key = change.environment + "\u{1}" + concrete
            let rules = written[key] ?? ruleURLs(sites)
            written[key] = rules
            let readable = ordered(rules, first: change.location).lazy.compactMap { LinkURL($0)?.on(host: concrete) }
                .first { url in
                    shows(change, at: url, platform: platform, evaluators)
                        && reachesTheSameDestination(
                            change, route(change, at: url, platform: platform, evaluators, routes))
                }
            guard let readable else { return change }
            var improved = change
            improved.witnesses = Array(([readable.description] + change.witnesses).uniqued().prefix(5))
            (improved.routeBefore, improved.routeAfter) = route(
                change, at: readable, platform: platform, evaluators, routes)
            return improved
        }
    }

    typealias RuleURLs = (origin: SourceLocation?, urls: [String])

    /// The URLs of `rules`, the rule at `location` first.
    static func ordered(_ rules: [RuleURLs], first location: SourceLocation?) -> [String] {
        let ordered = rules.filter { location != nil && $0.origin == location } + rules
        return ordered.flatMap(\.urls).uniqued()
    }

    /// The URLs written from each rule of the sites' files, in file order.
    static func ruleURLs(_ sites: [CompiledSite]) -> [RuleURLs] {
        var rules: [RuleURLs] = []
        for site in sites {
            let variables = site.aasa?.applinks?.substitutionVariables ?? []
            for details in site.aasa?.applinks?.details ?? [] {
                for component in details.components ?? [] {
                    let query: QueryPattern? =
                        switch component.query {
                        case .whole(let pattern): .whole(pattern)
                        case .items(let items): .items(items.map(queryItem))
                        case .ignoredDictionary, nil: nil
                        }
                    let urls = ReadableURLs.candidates(
                        path: component.path, query: query, fragment: component.fragment, variables: variables)
                    rules.append((component.origin, urls))
                }
                for path in details.paths ?? [] {
                    let pattern = path.hasPrefix("NOT ") ? String(path.dropFirst(4)) : path
                    rules.append(
                        (nil, ReadableURLs.candidates(path: pattern, query: nil, fragment: nil, variables: [])))
                }
            }
            for statement in site.assetLinks?.statements ?? [] {
                for component in statement.dynamicComponents ?? [] {
                    let urls = ReadableURLs.candidates(
                        path: component.path, query: component.query.map { .items($0.map(queryItem)) },
                        fragment: component.fragment, variables: [])
                    rules.append((component.origin, urls))
                }
            }
        }
        return rules
    }

    static func queryItem(_ item: AASAQueryItem) -> QueryItemPattern {
        QueryItemPattern(name: item.name, pattern: item.pattern, location: .file(""))
    }

    /// Where the app's router takes `url` on each side of a gained, lost or moved link that
    /// opens it, as the behaviour diff words it (`BehaviourDiff.route`); other changes keep theirs.
    static func route(
        _ change: LinkChange, at url: LinkURL, platform: Platform,
        _ evaluators: (old: EnvironmentEvaluator, new: EnvironmentEvaluator),
        _ routes: (old: [SourceLocation: Route], new: [SourceLocation: Route])
    ) -> (before: String?, after: String?) {
        func decided(_ evaluator: EnvironmentEvaluator, _ routes: [SourceLocation: Route], for app: String?)
            -> String?
        {
            let verdict = evaluator.verdicts(for: url, platform: platform).first { $0.identity == app }
            return BehaviourDiff.route(of: verdict, routes, url)
        }
        switch change.kind {
        case .opensApp: return (nil, decided(evaluators.new, routes.new, for: change.app))
        case .opensWeb: return (decided(evaluators.old, routes.old, for: change.app), nil)
        case .changesApp:
            return (
                decided(evaluators.old, routes.old, for: change.before),
                decided(evaluators.new, routes.new, for: change.after)
            )
        default: return (change.routeBefore, change.routeAfter)
        }
    }

    /// Whether `route` names the change's destinations (arguments aside): a readable URL that
    /// reaches another screen would not illustrate the sentence.
    static func reachesTheSameDestination(_ change: LinkChange, _ route: (before: String?, after: String?)) -> Bool {
        BehaviourDiff.destination(route.before) == BehaviourDiff.destination(change.routeBefore)
            && BehaviourDiff.destination(route.after) == BehaviourDiff.destination(change.routeAfter)
    }

    /// Whether the two sides decide `url` for the change's apps as the change says.
    static func shows(
        _ change: LinkChange, at url: LinkURL, platform: Platform,
        _ evaluators: (old: EnvironmentEvaluator, new: EnvironmentEvaluator)
    ) -> Bool {
        let before = evaluators.old.verdicts(for: url, platform: platform).filter(\.opens).map(\.identity)
        let after = evaluators.new.verdicts(for: url, platform: platform).filter(\.opens).map(\.identity)
        let gained = after.filter { !before.contains($0) }
        let lost = before.filter { !after.contains($0) }
        switch change.kind {
        case .opensApp: return lost.isEmpty && change.app.map(gained.contains) == true
        case .opensWeb: return gained.isEmpty && change.app.map(lost.contains) == true
        case .changesApp:
            return change.after.map(gained.contains) == true && change.before.map(lost.contains) == true
        default: return false
        }
    }
}
