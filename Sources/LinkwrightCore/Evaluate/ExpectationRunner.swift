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

    /// How many checks were made, and in which environments.
    public struct Tally: Sendable {
        public var checks = 0
        public var environments: Set<String> = []
    }

    /// Hands each result to `body` as it is found, for callers that need not keep them all: a
    /// large configuration makes millions (every path expectation on every host). Without
    /// `includingPassed` only failed checks are made into results; the rest are counted.
    ///
    /// Every host of a domain in one situation (`EnvironmentEvaluator.Situation`: the same
    /// claims, through the same files) decides a path alike, so a path expectation is decided
    /// once per situation and its outcome holds for each such host.
    @discardableResult
    public static func forEach(
        _ configuration: Configuration, _ compiled: CompiledConfiguration, includingPassed: Bool = true,
        _ body: (Result) -> Void
    ) -> Tally {
        var tally = Tally()
        let platforms = Platform.allCases
        var domains: [String: DomainExpectations] = [:]
        for environment in compiled.environments {
            guard let declared = configuration.environment(named: environment.name) else { continue }
            let evaluator = EnvironmentEvaluator(environment)
            var outcomes: [SituationKey: [Outcome?]] = [:]
            for binding in declared.hosts {
                guard let domain = configuration.domain(named: binding.domain.value) else { continue }
                let expectations =
                    domains[domain.name]
                    ?? DomainExpectations(domain, platforms: platforms.count)
                domains[domain.name] = expectations
                let sampleHost = URLSamples.host(for: binding.host.value)
                let key = SituationKey(domain: domain.name, situation: evaluator.situation(of: sampleHost))
                var known = outcomes[key] ?? Array(repeating: nil, count: expectations.slots)
                defer { outcomes[key] = known }
                for (index, expectation) in domain.expectations.enumerated()
                where Resolution.applies(expectation.environments, to: environment.name) {
                    guard let written = expectations.urls[index] else { continue }
                    let url: LinkURL
                    if let own = written.host {
                        guard HostPattern.appleEntitlement(binding.host.value.name, matches: own) else { continue }
                        url = written
                    } else {
                        url = written.on(host: sampleHost)
                    }
                    for platform in expectation.platforms {
                        let slot = index * platforms.count + platforms.firstIndex(of: platform)!
                        let outcome: Outcome
                        if written.host == nil, let cached = known[slot] {
                            outcome = cached
                        } else {
                            var result = check(expectation, url: url, platform: platform, evaluator, declared, binding)
                            if var decided = result, decided.passed, let route = expectation.route {
                                checkRoute(route.value, of: &decided, url: url, routes: expectations.routes)
                                result = decided
                            }
                            outcome = result.map(Outcome.checked) ?? .notApplicable
                            if written.host == nil { known[slot] = outcome }
                        }
                        guard case .checked(var result) = outcome else { continue }
                        tally.checks += 1
                        tally.environments.insert(environment.name)
                        guard includingPassed || !result.passed else { continue }
                        result.host = binding.host.value.name
                        result.url = url.description
                        body(result)
                    }
                }
            }
        }
        return tally
    }

    /// A domain's expectations as every host reads them: URLs parsed once, routes by rule.
    private struct DomainExpectations {
        /// Per expectation, its URL; `nil` when it does not parse (lint reports it).
        let urls: [LinkURL?]
        let routes: [SourceLocation: Route]
        /// One slot per expectation and platform.
        let slots: Int

        init(_ domain: Domain, platforms: Int) {
            urls = domain.expectations.map { LinkURL($0.url.value) }
            routes = domain.routesByRule
            slots = domain.expectations.count * platforms
        }
    }

    private struct SituationKey: Hashable {
        var domain: String
        var situation: EnvironmentEvaluator.Situation
    }

    /// What one expectation decided in one situation.
    private enum Outcome {
        /// The result, its host and URL those of the first host decided.
        case checked(Result)
        /// Nothing to check (an app without a build on the platform).
        case notApplicable
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
