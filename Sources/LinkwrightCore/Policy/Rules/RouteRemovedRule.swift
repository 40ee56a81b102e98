/// A change removes a router destination while production rules still open the app for its URLs,
/// or while production still declares the custom scheme whose entries led to it.
struct RouteRemovedRule: PolicyRule {
    let info = RuleInfo(
        id: .routeRemoved, defaultSeverity: .error,
        purpose:
            "A change removes a route while a production rule, or a custom scheme production still declares, opens an app for the URLs it led to.",
        rationale: """
            The generated router drops a destination when its last rule goes. If the association files still open \
            the app for the destination's links, installed versions and the next release disagree: users land on \
            another screen or on none. Every URL of a declared custom scheme opens the app, so a destination whose \
            last entry of a scheme goes while production still declares the scheme is reported too: an OAuth \
            provider or another app keeps sending those URLs. Remove the rule (or exclude the URLs) with the route, \
            stop declaring the scheme, or approve the change once the app handles them elsewhere.
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
            RuleExample(
                "the scheme's last entry leading to signInFailed goes",
                reportsAt: ["environments/production.yaml:12:7"],
                base: Self.scheme(Self.signIn + Self.failed), head: Self.scheme(Self.signIn)),
            RuleExample(
                "the scheme's entry for signInFailed now excludes", reportsAt: ["environments/production.yaml:19:13"],
                base: Self.scheme(Self.signIn + Self.failed),
                head: Self.scheme(Self.signIn + "          - path: /oauth/callback\n            exclude: true\n")),
            RuleExample(
                "the scheme goes with its routes", reportsAt: [], base: Self.scheme(Self.signIn + Self.failed),
                head: RuleExampleConfiguration.files),
            RuleExample(
                "signInFailed moves to another entry of the scheme", reportsAt: [],
                base: Self.scheme(Self.signIn + Self.failed),
                head: Self.scheme(
                    Self.failed.replacingOccurrences(of: "{error: \"?*\"}", with: "{error: \"*\"}") + Self.signIn)),
            RuleExample(
                "a staging scheme loses the route", reportsAt: [],
                base: Self.scheme(Self.signIn + Self.failed, in: "staging"),
                head: Self.scheme(Self.signIn, in: "staging")),
        ],
        isAboutChange: true)

    private static let routed = RuleExampleConfiguration.replacing(
        "      - path: /products/*\n", with: "      - path: /products/*\n        route: product\n",
        in: "domains/shop.yaml")

    /// The shop declaring `com.example.shop` in `environment` with `routes` (entries indented by
    /// ten spaces; the first at line 16 in production, the scheme's name at line 12).
    private static func scheme(_ routes: String, in environment: String = "production") -> [String: String] {
        RuleExampleConfiguration.declaringSchemes(
            "      com.example.shop:\n        purpose: oauth-callback\n        callback: /oauth/callback\n"
                + "        routes:\n" + routes, in: environment)
    }

    private static let signIn =
        "          - path: /oauth/callback\n            query: {code: \"?*\"}\n            route: signedIn\n"
    private static let failed =
        "          - path: /oauth/callback\n            query: {error: \"?*\"}\n            route: signInFailed\n"

    func check(_ context: PolicyContext) -> [Finding] {
        guard let base = context.base else { return [] }
        let head = context.head
        var findings = schemeFindings(base: base.snapshot, head: head.snapshot)
        for domain in head.configuration.domains {
            guard let old = base.configuration.domain(named: domain.name) else { continue }
            let kept = Set(domain.applinks.flatMap(\.rules).compactMap { $0.route?.destination })
            let headRoutes = domain.routesByRule
            // One sample URL per removed destination's rule, the way the rule spells it.
            let removed = old.applinks.flatMap(\.rules).compactMap { rule -> (String, String)? in
                guard let name = rule.route?.destination, !kept.contains(name) else { return nil }
                return (name, sample(of: rule, variables: old))
            }
            guard !removed.isEmpty else { continue }
            for environment in head.compiled.environments where environment.tier == .production {
                // The snapshot's evaluator, made once for every rule and domain asking.
                guard let declared = head.configuration.environment(named: environment.name),
                    let evaluator = head.evaluator(environment.name)
                else { continue }
                let bound = declared.boundHostNames
                let hosts = declared.hosts.filter { $0.domain.value == domain.name }.map {
                    URLSamples.host(for: $0.host.value, avoiding: bound)
                }
                var seen: Set<String> = []
                for (name, sample) in removed where seen.insert(name).inserted {
                    let opened = hosts.flatMap { host -> [(String, EnvironmentEvaluator.Verdict)] in
                        guard let url = LinkURL(sample)?.on(host: host) else { return [] }
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
                            rule: info.id.rawValue, severity: info.defaultSeverity,
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

    /// For each production environment, app and scheme declared on both sides: each destination
    /// the base's entries led to and the head's no longer do, with a URL its entry matched and
    /// where the head's router takes it now (every URL of the scheme still opens the app).
    private func schemeFindings(base: PolicySnapshot, head: PolicySnapshot) -> [Finding] {
        var findings: [Finding] = []
        for declared in SchemeOnBothSides.all(base: base, head: head) where declared.environment.tier == .production {
            let (environment, app, scheme) = (declared.environment.name, declared.app.name.value, declared.new)
            let kept = Set(scheme.routes.compactMap { $0.route?.destination })
            let router = CompiledSchemeRoutes(scheme)
            var seen: Set<String> = []
            for rule in declared.old.routes {
                guard let name = rule.route?.destination, !kept.contains(name), seen.insert(name).inserted,
                    let url = LinkURL.customScheme(scheme.name.value + ":" + sample(of: rule))
                else { continue }
                let answer = router.answer(for: url)
                let now = answer.value.destination.map { "route \($0)" } ?? "no destination"
                findings.append(
                    Finding(
                        rule: info.id.rawValue, severity: info.defaultSeverity,
                        message:
                            "route \(name) is removed from scheme \(scheme.name.value), but production still declares it for \(app) in \(environment), and its URLs open the app (now \(now))",
                        location: answer.origin ?? scheme.name.location,
                        hint:
                            "stop declaring the scheme, lead its URLs to a destination the app keeps, or approve the change",
                        witnesses: [url.description], environment: environment, app: app,
                        identity: [environment, app, scheme.name.value, name]))
            }
        }
        return findings
    }

    /// A URL path (with the query items the rule requires) that the rule matches, its
    /// substitution variables (a domain's) replaced by a value.
    private func sample(of rule: Rule, variables domain: Domain? = nil) -> String {
        let variables =
            domain?.variables.map { AASAVariable(name: $0.name.value, values: $0.values.map(\.value)) } ?? []
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
