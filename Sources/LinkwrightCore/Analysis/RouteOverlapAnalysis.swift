/// Rules of one `details` entry, or entries of one custom scheme's `routes:`, that lead to
/// different router destinations and can match one URL (`ROUTE_OVERLAP`). The earlier rule
/// decides such a URL, so the later rule's destination never sees it: usually a pattern written
/// wider than meant. Found like the rule analyses: a shortest
/// common value per part, searched on the matching automata, then the whole URL decided again
/// as the device decides it, so every reported witness really goes to the earlier rule's route.
public struct RouteOverlapAnalysis: Sendable {
    public var analysis: RuleAnalysis

    public init(analysis: RuleAnalysis = RuleAnalysis()) { self.analysis = analysis }

    public func diagnostics(_ configuration: Configuration, _ compiled: CompiledConfiguration) -> [Diagnostic] {
        var diagnostics = DiagnosticBag()
        // One report per pair of rules, whatever the environments and hosts that share them.
        var reported: Set<[SourceLocation]> = []
        for environment in compiled.environments {
            let evaluator = EnvironmentEvaluator(environment)
            let mentioned = environment.boundHostNames
            for site in environment.sites {
                guard let document = site.aasa, let domain = configuration.domain(named: site.domain),
                    let host = site.servedHosts.first
                else { continue }
                let routes = domain.routesByRule
                guard !routes.isEmpty else { continue }
                for entry in CompiledAASA(document).entries {
                    report(
                        Self.routed(entry.rules, routes), noun: "rule",
                        url: { LinkURL($0)?.on(host: URLSamples.host(for: host, avoiding: mentioned)) },
                        decidedBy: { url, earlier in
                            evaluator.verdicts(for: url, platform: .ios).contains {
                                $0.opens && $0.decision.origin == earlier.origin
                            }
                        }, reported: &reported, into: &diagnostics)
                }
            }
        }
        // A custom scheme's entries are one ordered list too, and its router returns the first
        // matching entry's destination (`CompiledSchemeRoutes`).
        let checked = Set(compiled.environments.map(\.name))
        for environment in configuration.environments where checked.contains(environment.name) {
            for scheme in environment.apps.flatMap(\.schemes) {
                let router = CompiledSchemeRoutes(scheme)
                let routes = Dictionary(
                    scheme.routes.compactMap { rule in rule.route.map { (rule.location, $0) } },
                    uniquingKeysWith: { first, _ in first })
                report(
                    Self.routed(router.rules, routes), noun: "entry",
                    url: { LinkURL.customScheme(scheme.name.value + ":" + $0) },
                    decidedBy: { url, earlier in router.answer(for: url).origin == earlier.origin },
                    reported: &reported, into: &diagnostics)
            }
        }
        return diagnostics.sorted
    }

    /// The rules that open with a destination, in order, each with the destination's name.
    private static func routed(_ rules: [CompiledAASA.Rule], _ routes: [SourceLocation: Route])
        -> [(rule: CompiledAASA.Rule, route: String)]
    {
        rules.compactMap { rule in
            guard !rule.exclude, let origin = rule.origin, let name = routes[origin]?.destination else { return nil }
            return (rule, name)
        }
    }

    /// Reports each pair of `routed` leading to different destinations at the later one, with a
    /// common URL (`url` makes it whole) that `decidedBy` confirms the earlier one decides.
    private func report(
        _ routed: [(rule: CompiledAASA.Rule, route: String)], noun: String, url: (String) -> LinkURL?,
        decidedBy: (LinkURL, CompiledAASA.Rule) -> Bool, reported: inout Set<[SourceLocation]>,
        into diagnostics: inout DiagnosticBag
    ) {
        for (laterIndex, (later, laterRoute)) in routed.enumerated() {
            for (earlier, earlierRoute) in routed[..<laterIndex] where earlierRoute != laterRoute {
                let pair = [earlier.origin!, later.origin!]
                guard !reported.contains(pair), let witness = commonURL(earlier, later).flatMap(url),
                    decidedBy(witness, earlier)
                else { continue }
                reported.insert(pair)
                diagnostics.report(
                    .routeOverlap,
                    "\(witness) matches this \(noun) (route \(laterRoute)) but goes to route \(earlierRoute): the \(noun) at \(earlier.origin!) decides it first",
                    at: later.origin!,
                    hint:
                        "make the patterns disjoint (a narrower pattern, or an exclude first), or lead both \(noun == "rule" ? "rules" : "entries") to one route"
                )
            }
        }
    }

    /// A shortest URL, part by part, that both rules match, or `nil` when there is none, the
    /// search stopped at its budget, or the rules read the URL differently (case or
    /// percent-encoding), where their automata cannot be run side by side.
    func commonURL(_ first: CompiledAASA.Rule, _ second: CompiledAASA.Rule) -> String? {
        guard first.flags == second.flags else { return nil }
        let a = RuleLanguages(first)
        let b = RuleLanguages(second)
        func common(_ x: LanguageView, _ y: LanguageView, paths: Bool) -> String? {
            let search = LanguageSearch([x, y], pathsOnly: paths, workLimit: analysis.workLimit, guide: 0)
            guard case .found(let value, _) = search.first(where: { $0[0] && $0[1] }) else { return nil }
            return value
        }
        guard let path = common(a.path, b.path, paths: true),
            let fragment = common(a.fragment, b.fragment, paths: false)
        else { return nil }
        var query: String
        if a.queryItems.isEmpty && b.queryItems.isEmpty {
            guard let whole = common(a.query, b.query, paths: false) else { return nil }
            query = whole
        } else {
            // An item one rule does not name may hold anything for it: the other's pattern decides.
            var items: [String] = []
            let names = (a.queryItems.map(\.name) + b.queryItems.map(\.name)).uniqued()
            for name in names {
                let x = a.queryItems.first { $0.name == name }?.pattern ?? RuleLanguages.everything
                let y = b.queryItems.first { $0.name == name }?.pattern ?? RuleLanguages.everything
                guard let value = common(x, y, paths: false) else { return nil }
                items.append("\(name)=\(value)")
            }
            query = items.joined(separator: "&")
            guard a.query.accepts(query), b.query.accepts(query) else { return nil }
        }
        return path + (query.isEmpty ? "" : "?" + query) + (fragment.isEmpty ? "" : "#" + fragment)
    }
}
