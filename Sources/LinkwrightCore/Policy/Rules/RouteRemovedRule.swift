/// A change removes a router destination while production rules still open the app for its URLs.
struct RouteRemovedRule: PolicyRule {
    let info = RuleInfo(
        id: "ROUTE_REMOVED", defaultSeverity: .error,
        purpose:
            "A change removes a route while a production rule still opens an app for the URLs it led to.",
        rationale: """
            The generated router drops a destination when its last rule goes. If the association files still open \
            the app for the destination's links, installed versions and the next release disagree: users land on \
            another screen or on none. Remove the rule (or exclude the URLs) with the route, or approve the change \
            once the app handles them elsewhere.
            """,
        examples: [
            RuleExample(
                "the product route becomes route: none", reportsAt: ["domains/shop.yaml:6:9"],
                base: Self.routed,
                head: RuleExampleConfiguration.replacing(
                    "      - path: /products/*\n",
                    with:
                        "      - path: /products/*\n        route: none\n        reason: the catalogue screen is gone\n",
                    in: "domains/shop.yaml")),
            RuleExample(
                "the rule goes with its route", reportsAt: [], base: Self.routed,
                head: RuleExampleConfiguration.replacing(
                    "      - path: /products/*\n", with: "", in: "domains/shop.yaml")),
            RuleExample("the route stays", reportsAt: [], base: Self.routed, head: Self.routed),
        ])

    private static let routed = RuleExampleConfiguration.replacing(
        "      - path: /products/*\n", with: "      - path: /products/*\n        route: product\n",
        in: "domains/shop.yaml")

    func check(_ context: PolicyContext) -> [Finding] {
        guard let base = context.base else { return [] }
        let head = context.head
        var findings: [Finding] = []
        for domain in head.configuration.domains {
            guard let old = base.configuration.domain(named: domain.name) else { continue }
            let kept = Set(domain.applinks.flatMap(\.rules).compactMap { $0.route?.destination })
            let headRoutes = domain.routesByRule
            // One sample URL per removed destination's rule, the way the rule spells it.
            let removed = old.applinks.flatMap(\.rules).compactMap { rule -> (String, String)? in
                guard let name = rule.route?.destination, !kept.contains(name) else { return nil }
                return (name, sample(of: rule, variables: old))
            }
            for environment in head.compiled.environments where environment.tier == .production {
                guard let declared = head.configuration.environment(named: environment.name) else { continue }
                let evaluator = EnvironmentEvaluator(environment)
                let hosts = declared.hosts.filter { $0.domain.value == domain.name }.map(\.host.value)
                var seen: Set<String> = []
                for (name, sample) in removed where seen.insert(name).inserted {
                    let opened = hosts.flatMap { host -> [(String, EnvironmentEvaluator.Verdict)] in
                        guard let url = LinkURL(sample)?.on(host: URLSamples.host(for: host)) else { return [] }
                        return Platform.allCases.flatMap { evaluator.verdicts(for: url, platform: $0) }
                            .filter(\.opens).map { (url.description, $0) }
                    }
                    guard let (_, first) = opened.first else { continue }
                    let now =
                        first.decision.origin.flatMap { headRoutes[$0] }.map {
                            $0.destination.map { "route \($0)" } ?? "route: none"
                        } ?? "no route"
                    findings.append(
                        Finding(
                            rule: info.id, severity: info.defaultSeverity,
                            message:
                                "route \(name) is removed, but production still opens \(first.app) for its URLs in \(environment.name) (now \(now))",
                            location: first.decision.origin ?? .file(domain.file),
                            hint: "remove or exclude the URLs together with the route, or approve the change",
                            witnesses: opened.map(\.0).uniqued(), environment: environment.name, app: first.app,
                            identity: [environment.name, domain.name, name]))
                }
            }
        }
        return findings
    }

    /// A URL path (with the query items the rule requires) that the rule matches.
    private func sample(of rule: Rule, variables domain: Domain) -> String {
        let variables = domain.variables.map { AASAVariable(name: $0.name.value, values: $0.values.map(\.value)) }
        var url = URLSamples.instance(of: rule.path?.value ?? "/", variables: variables)
        switch rule.query?.value {
        case .items(let items):
            url +=
                "?"
                + items.map { "\($0.name)=\(URLSamples.instance(of: $0.pattern, variables: variables))" }
                .joined(separator: "&")
        case .whole(let pattern):
            url += "?" + URLSamples.instance(of: pattern, variables: variables)
        case nil:
            break
        }
        if let fragment = rule.fragment { url += "#" + URLSamples.instance(of: fragment.value, variables: variables) }
        return url
    }
}
