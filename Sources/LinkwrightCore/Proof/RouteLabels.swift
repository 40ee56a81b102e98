/// The route each rule of a configuration leads to, as the behaviour proof compares rules: two
/// rules that open an app but lead to different destinations, or read their parameters from
/// different places, decide their common URLs differently for the app's router.
struct RouteLabels: Sendable {
    private var labels: [SourceLocation: String] = [:]

    /// No routes: every rule compares by what it opens only (association files read without
    /// their configuration).
    init() {}

    init(_ configuration: Configuration) {
        for domain in configuration.domains {
            for (origin, route) in domain.routesByRule { labels[origin] = Self.label(route) }
        }
    }

    /// The routes of a custom scheme's entries (`SchemeRouteDiff`).
    init(schemeRoutes rules: [Rule]) {
        for rule in rules { if let route = rule.route { labels[rule.location] = Self.label(route) } }
    }

    /// The label of the route of the rule written at `origin`; `nil` when it names none.
    func label(at origin: SourceLocation?) -> String? { origin.flatMap { labels[$0] } }

    /// The labels of a domain's rules in file order (`nil` for a rule without a route): equal
    /// on both sides, the domain's routes did not change. Read in place: the behaviour diff asks
    /// for each site of each environment on both sides, and copying every rule of the domain
    /// to read its route cost a changelog of a 66-domain history more than its proofs.
    static func sequence(of domain: String, in configuration: Configuration) -> [String?] {
        guard let applinks = configuration.domain(named: domain)?.applinks else { return [] }
        var labels: [String?] = []
        labels.reserveCapacity(applinks.reduce(0) { $0 + $1.rules.count })
        for entry in applinks.indices {
            for rule in applinks[entry].rules.indices { labels.append(applinks[entry].rules[rule].route.map(label)) }
        }
        return labels
    }

    /// `ticket(id?: int segment 2, source: string query source)`, or `none`.
    static func label(_ route: Route) -> String {
        guard let destination = route.destination else { return "none" }
        let parameters = route.parameters.map { "\($0.signature) \($0.source)" }
        return destination + "(" + parameters.joined(separator: ", ") + ")"
    }
}
