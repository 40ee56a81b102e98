/// Checks every `opens_app` / `opens_web` expectation of every domain on every host of every
/// environment that serves it, on each platform it concerns.
public enum ExpectationRunner {
    public struct Result: Sendable {
        public var environment: String
        /// The host checked; `*.x` for a wildcard binding.
        public var host: String
        public var platform: Platform
        public var url: String
        public var expected: String
        public var actual: String
        public var passed: Bool
        /// Where the expectation is written.
        public var location: SourceLocation
        /// The rule that decided for the app the expectation is about, when one did.
        public var decidingRule: SourceLocation?
        public var comment: String?

        /// "expected shop, got web": what every report of a failed check says it found.
        public var mismatch: String { "expected \(expected), got \(actual)" }

        /// The one-line message of a failed check, the same in `check` and `test`.
        /// `namingEnvironment`: for reports that do not show the environment apart;
        /// `decidingRule`: where the deciding rule is, written as the caller prints paths.
        public func failureMessage(namingEnvironment: Bool, decidingRule: String?) -> String {
            let place = namingEnvironment ? " in \(environment)" : ""
            let decided = decidingRule.map { " (decided by \($0))" } ?? ""
            return "\(url) on \(platform.rawValue)\(place): \(mismatch)\(decided)"
        }
    }

    public static func run(_ configuration: Configuration, _ compiled: CompiledConfiguration) -> [Result] {
        var results: [Result] = []
        forEach(configuration, compiled) { results.append($0) }
        return results
    }

    /// Hands each result to `body` as it is found, for callers that need not keep them all: a
    /// large configuration makes millions (every path expectation on every host).
    public static func forEach(
        _ configuration: Configuration, _ compiled: CompiledConfiguration, _ body: (Result) -> Void
    ) {
        for environment in compiled.environments {
            guard let declared = configuration.environment(named: environment.name) else { continue }
            let evaluator = EnvironmentEvaluator(environment)
            for binding in declared.hosts {
                guard let domain = configuration.domain(named: binding.domain.value) else { continue }
                let routes = domain.routesByRule
                for expectation in domain.expectations
                where Resolution.applies(expectation.environments, to: environment.name) {
                    guard let url = url(expectation, on: binding.host.value) else { continue }
                    for platform in expectation.platforms {
                        if var result = check(expectation, url: url, platform: platform, evaluator, declared, binding) {
                            if result.passed, let route = expectation.route {
                                checkRoute(route.value, of: &result, url: url, routes: routes)
                            }
                            body(result)
                        }
                    }
                }
            }
        }
    }

    /// With the app right, the route the deciding rule leads to must be the expected one.
    private static func checkRoute(
        _ expected: RouteValue, of result: inout Result, url: LinkURL, routes: [SourceLocation: Route]
    ) {
        result.expected += " at \(expected)"
        guard let origin = result.decidingRule, let route = routes[origin] else {
            result.actual += " with no route (the deciding rule names none)"
            result.passed = false
            return
        }
        switch RouteResolver.resolve(route, url: url) {
        case .success(let value):
            result.actual += " at \(value)"
            result.passed = value.satisfies(expected)
        case .failure(let problem):
            result.actual += " with no destination: \(problem.message)"
            result.passed = false
        }
    }

    /// The expectation's URL on `host`: a path goes on every host; an absolute URL only on its own.
    /// A wildcard binding is checked on a representative subdomain.
    static func url(_ expectation: Expectation, on host: Host) -> LinkURL? {
        guard let parsed = LinkURL(expectation.url.value) else { return nil }
        if let own = parsed.host {
            return HostPattern.appleEntitlement(host.name, matches: own) ? parsed : nil
        }
        return parsed.on(host: URLSamples.host(for: host))
    }

    private static func check(
        _ expectation: Expectation, url: LinkURL, platform: Platform, _ evaluator: EnvironmentEvaluator,
        _ environment: Environment, _ binding: HostBinding
    ) -> Result? {
        let verdicts = evaluator.verdicts(for: url, platform: platform)
        let opening = verdicts.filter(\.opens)
        let actual = opening.isEmpty ? "web" : opening.map(\.app).joined(separator: ", ")
        let expected: String
        let passed: Bool
        let subject: EnvironmentEvaluator.Verdict?
        switch expectation.outcome {
        case .opensWeb:
            expected = "web"
            passed = opening.isEmpty
            subject = opening.first
        case .opensApp(nil):
            expected = "an app"
            passed = !opening.isEmpty
            subject = verdicts.first { $0.decision.origin != nil }
        case .opensApp(let name?):
            // An app without a build on this platform in this environment has nothing to check.
            let app = environment.app(named: name.value)
            guard platform == .ios ? app?.ios != nil : app?.android != nil else { return nil }
            expected = name.value
            passed = opening.contains { $0.app == name.value }
            subject = verdicts.first { $0.app == name.value }
        }
        return Result(
            environment: environment.name, host: binding.host.value.name, platform: platform, url: url.description,
            expected: expected, actual: actual, passed: passed, location: expectation.location,
            decidingRule: subject?.decision.origin, comment: expectation.comment)
    }
}
