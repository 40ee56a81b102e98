/// Checks every `opens_app` / `opens_web` expectation of every domain on every host of every
/// environment that serves it, on each platform it concerns, then the expectations of custom
/// schemes (`schemeChecks`).
public enum ExpectationRunner {
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

    /// What `checks` keeps of what it decides: a large configuration makes millions of checks
    /// (every path expectation on every host), which only some reports list.
    public enum Detail: Sendable {
        /// Failed outcomes only; checks that passed everywhere are counted and left out.
        case failures
        /// Every check and outcome; the places of passing outcomes are counted, not listed.
        case everyCheck
        /// Every check, outcome and place.
        case everyPlace
    }

    /// Hands each check to `body` as a `Result`, in expectation order (`checks`). Without
    /// `includingPassed` only failed checks are made into results; the rest are counted.
    @discardableResult
    public static func forEach(
        _ configuration: Configuration, _ compiled: CompiledConfiguration, includingPassed: Bool = true,
        _ body: (Result) -> Void
    ) -> Tally {
        let (checks, tally) = self.checks(configuration, compiled, keeping: includingPassed ? .everyPlace : .failures)
        for check in checks {
            for outcome in check.outcomes {
                for place in outcome.places { body(check.result(outcome, at: place)) }
            }
        }
        return tally
    }

    /// Every expectation on every platform it concerns, with its outcomes, in the order of the
    /// configuration's domains and of each domain's expectations, keeping what `detail` says.
    ///
    /// Every host of a domain in one situation (`EnvironmentEvaluator.Situation`: the same
    /// claims, through the same files) decides a path alike, and so do the groups of such hosts
    /// in other environments whose apps of the same names claim through the same rules
    /// (`EnvironmentEvaluator.DecidingKey`): a path expectation is observed once per such key,
    /// and its outcome holds for each host. Each file's decision is made once per distinct rule
    /// list (`SharedDecisions`): the environments of a domain usually serve the same rules to
    /// apps of other IDs, or of other names.
    public static func checks(
        _ configuration: Configuration, _ compiled: CompiledConfiguration, keeping detail: Detail
    ) -> (checks: [Check], tally: Tally) {
        let situations = Situations(configuration, compiled)
        // Domains are independent: each is checked on its own thread, and the results joined
        // in domain order, so the report is the same whichever finishes first.
        let perDomain = configuration.domains.parallelMap { domain in
            domainChecks(domain, situations.byDomain[domain.name] ?? [], of: situations, keeping: detail)
        }
        var tally = Tally()
        var checks: [Check] = []
        for part in perDomain {
            checks += part.checks
            tally.checks += part.tally.checks
            tally.environments.formUnion(part.tally.environments)
        }
        checks += schemeChecks(configuration, compiled, keeping: detail, tally: &tally)
        releaseInBackground(consume situations)
        return (checks, tally)
    }

    /// `checks` for one domain, whose hosts are `groups`.
    private static func domainChecks(
        _ domain: Domain, _ groups: [Situations.Group], of situations: Situations, keeping detail: Detail
    ) -> (checks: [Check], tally: Tally) {
        var tally = Tally()
        // By position in `situations.evaluators`: named once, at the end.
        var checkedEnvironments = Array(repeating: false, count: situations.evaluators.count)
        var shared = SharedDecisions()
        var checks: [Check] = []
        let routes = domain.routesByRule
        // Groups of any environments deciding every path alike on a platform share a number,
        // and a path expectation is observed once per number: production, staging and
        // development usually serve the same rules to apps of the same names.
        var alikeNumbers: [EnvironmentEvaluator.DecidingKey: Int] = [:]
        // Per platform (iOS first), per group.
        var alikeByGroup = Array(repeating: [Int?](repeating: nil, count: groups.count), count: 2)
        func alike(_ index: Int, on platform: Platform) -> Int {
            let row = platform == .ios ? 0 : 1
            if let known = alikeByGroup[row][index] { return known }
            let group = groups[index]
            let evaluator = situations.evaluators[group.environmentIndex]
            let key = evaluator.decidingKey(group.claims(on: platform)) { app, file in
                shared.rules((group.environmentIndex, platform, app, file), in: evaluator)
            }
            let number = alikeNumbers[key] ?? alikeNumbers.count
            alikeNumbers[key] = number
            alikeByGroup[row][index] = number
            return number
        }
        // Each path expectation is decided through the files the groups' claims name: with enough
        // of them, the files' rule indexes are built before the first.
        for platform in Platform.allCases {
            let urls = domain.expectations.count { $0.platforms.contains(platform) }
            for group in groups where situations.evaluators[group.environmentIndex].platforms.contains(platform) {
                situations.evaluators[group.environmentIndex].anticipate(
                    urls: urls, through: group.claims(on: platform))
            }
        }
        for expectation in domain.expectations {
            // Lint reports a URL that does not parse.
            guard let written = LinkURL(expectation.url.value) else { continue }
            for platform in expectation.platforms {
                // One URL in every group below, up to its host, which no decision reads.
                shared.beginURL()
                var check = Check(
                    location: expectation.location, url: written, platform: platform, expected: "",
                    comment: expectation.comment, outcomes: [])
                func add(_ observed: Observation, _ places: [Place], in environment: Int) {
                    tally.checks += places.count
                    checkedEnvironments[environment] = true
                    check.expected = observed.expected
                    let keep = detail == .everyPlace || !observed.passed
                    if let index = check.outcomes.firstIndex(where: {
                        $0.actual == observed.actual && $0.passed == observed.passed
                            && $0.decidingRule == observed.decidingRule
                    }) {
                        check.outcomes[index].count += places.count
                        if keep { check.outcomes[index].places.append(contentsOf: places) }
                    } else {
                        check.outcomes.append(
                            Outcome(
                                actual: observed.actual, passed: observed.passed,
                                decidingRule: observed.decidingRule, places: keep ? PlaceList(places) : [],
                                count: places.count))
                    }
                }
                // The observation of each number of alike groups met so far.
                var observedAlike: [(number: Int, observed: Observation?)] = []
                // By position: a group holds its places and claims, copied for every expectation.
                for index in groups.indices
                where Resolution.applies(expectation.environments, to: groups[index].environment) {
                    if let own = written.host {
                        let group = groups[index]
                        // An absolute URL is checked on its own host, on the bindings that serve it;
                        // it is the same URL on each, so it is decided once.
                        let serving = group.places.filter { HostPattern.appleEntitlement($0.host, matches: own) }
                        guard !serving.isEmpty else { continue }
                        let claims = situations.evaluators[group.environmentIndex].claims(of: own, on: platform)
                        guard
                            let observed = observe(
                                expectation, written, claims, in: group.environmentIndex, of: situations,
                                sharing: &shared, routes)
                        else { continue }
                        add(
                            observed,
                            serving.map { place in
                                var checked = place
                                checked.urlHost = own
                                return checked
                            }, in: group.environmentIndex)
                    } else {
                        let number = alike(index, on: platform)
                        let observed: Observation?
                        if let known = observedAlike.first(where: { $0.number == number }) {
                            observed = known.observed
                        } else {
                            // Decided as written: the claims say what the group's host does.
                            observed = observe(
                                expectation, written, groups[index].claims(on: platform),
                                in: groups[index].environmentIndex, of: situations, sharing: &shared, routes)
                            observedAlike.append((number, observed))
                        }
                        guard let observed else { continue }
                        add(observed, groups[index].places, in: groups[index].environmentIndex)
                    }
                }
                if detail == .failures { check.outcomes.removeAll(where: \.passed) }
                if !check.outcomes.isEmpty { checks.append(check) }
            }
        }
        tally.environments = Set(
            checkedEnvironments.indices.filter { checkedEnvironments[$0] }.map { situations.declared[$0].name })
        return (checks, tally)
    }

    /// The hosts of each domain, per environment, grouped by situation: hosts in one situation
    /// decide every path alike.
    private struct Situations {
        struct Group {
            var environment: String
            /// Its position in `evaluators` and `declared`: kept apart so that walking the groups
            /// for every expectation copies no evaluator.
            var environmentIndex: Int
            /// In binding order; never empty.
            var places: [Place]
            /// How the environment's apps claim the first place's URL host, on each platform.
            var iosClaims: EnvironmentEvaluator.HostClaims
            var androidClaims: EnvironmentEvaluator.HostClaims

            func claims(on platform: Platform) -> EnvironmentEvaluator.HostClaims {
                platform == .ios ? iosClaims : androidClaims
            }
        }

        /// Per domain, in environment order and then in the order each situation is first met.
        var byDomain: [String: [Group]] = [:]
        var evaluators: [EnvironmentEvaluator] = []
        var declared: [Environment] = []

        init(_ configuration: Configuration, _ compiled: CompiledConfiguration) {
            // Read until both are found: a fleet's 100,000 expectations need not be flattened.
            var platforms: Set<Platform> = []
            for domain in configuration.domains where platforms.count < Platform.allCases.count {
                for expectation in domain.expectations { platforms.formUnion(expectation.platforms) }
            }
            var files = EnvironmentEvaluator.CompiledFiles()
            for environment in compiled.environments {
                guard let declared = configuration.environment(named: environment.name) else { continue }
                let evaluator = EnvironmentEvaluator(environment, platforms: platforms, sharing: &files)
                let environmentIndex = evaluators.count
                evaluators.append(evaluator)
                self.declared.append(declared)
                var index: [Key: Int] = [:]
                let mentioned = declared.boundHostNames
                for binding in declared.hosts {
                    let domain = binding.domain.value
                    let urlHost = URLSamples.host(for: binding.host.value, avoiding: mentioned)
                    let place = Place(environment: environment.name, host: binding.host.value.name, urlHost: urlHost)
                    let ios = evaluator.claims(of: urlHost, on: .ios)
                    let android = evaluator.claims(of: urlHost, on: .android)
                    let key = Key(domain: domain, situation: evaluator.situation(ios: ios, android: android))
                    if let position = index[key] {
                        byDomain[domain]![position].places.append(place)
                    } else {
                        index[key] = byDomain[domain, default: []].count
                        byDomain[domain, default: []].append(
                            Group(
                                environment: environment.name, environmentIndex: environmentIndex, places: [place],
                                iosClaims: ios, androidClaims: android))
                    }
                }
            }
        }

        private struct Key: Hashable {
            var domain: String
            var situation: EnvironmentEvaluator.Situation
        }
    }

    /// Decisions for the URL being checked, made once per distinct rule list: hosts of every
    /// environment whose files give an app the same rules (`EnvironmentEvaluator.DecidingRules`)
    /// get the same decision, since a decision reads the URL's path, query and fragment only.
    private struct SharedDecisions {
        private struct FileForApp: Hashable {
            var environment: Int
            var platform: Platform
            var app: Int
            /// `EnvironmentEvaluator.FileRef.number`, cheaper to hash than the host.
            var file: Int
            var readsRules: Bool
        }

        /// Each file and app's rule list, numbered in order of first use; nil when there is none.
        private var lists: [FileForApp: Int?] = [:]
        private var numbers: [EnvironmentEvaluator.DecidingRules: Int] = [:]
        /// By rule list, for the URL being checked.
        private var decided: [Int: LinkDecision] = [:]

        /// Forgets the decisions of the URL checked before.
        mutating func beginURL() { decided.removeAll(keepingCapacity: true) }

        /// `make`'s decision, or the one made already for the URL with the same rules.
        mutating func decision(
            _ file: (environment: Int, platform: Platform, app: Int, file: EnvironmentEvaluator.FileRef),
            in evaluator: EnvironmentEvaluator,
            make: () -> LinkDecision
        ) -> LinkDecision {
            guard let list = rules(file, in: evaluator) else { return make() }
            if let known = decided[list] { return known }
            let decision = make()
            decided[list] = decision
            return decision
        }

        /// The number of the rules `file` gives the app, alike for every file and app with the
        /// same rules; nil when it gives none.
        mutating func rules(
            _ file: (environment: Int, platform: Platform, app: Int, file: EnvironmentEvaluator.FileRef),
            in evaluator: EnvironmentEvaluator
        ) -> Int? {
            let key = FileForApp(
                environment: file.environment, platform: file.platform, app: file.app, file: file.file.number,
                readsRules: file.file.readsRules)
            if let known = lists[key] { return known }
            // A host serving no file (number -1) has no rules, whichever it is.
            var list: Int?
            if let rules = evaluator.decidingRules(app: file.app, platform: file.platform, file: file.file) {
                list = number(rules)
            }
            lists[key] = list
            return list
        }

        private mutating func number(_ rules: EnvironmentEvaluator.DecidingRules) -> Int {
            if let number = numbers[rules] { return number }
            numbers[rules] = numbers.count
            return numbers.count - 1
        }
    }

    /// What one expectation did on one host.
    private struct Observation {
        var expected: String
        var actual: String
        var passed: Bool
        var decidingRule: SourceLocation?
    }

    /// The expectation decided for `url` on the host `claims` were found for, in the environment
    /// at `environment` of `situations`; nil when there is nothing to check (an app without a
    /// build on the platform there). `url` names that host or none.
    private static func observe(
        _ expectation: Expectation, _ url: LinkURL, _ claims: EnvironmentEvaluator.HostClaims, in environment: Int,
        of situations: Situations, sharing shared: inout SharedDecisions, _ routes: [SourceLocation: Route]
    ) -> Observation? {
        let platform = claims.platform
        let evaluator = situations.evaluators[environment]
        let named: String? = if case .opensApp(let name?) = expectation.outcome { name.value } else { nil }
        if let named {
            // An app without a build on this platform in this environment has nothing to check.
            let app = situations.declared[environment].app(named: named)
            guard platform == .ios ? app?.ios != nil : app?.android != nil else { return nil }
        }
        // What an observation needs of the verdicts, read as they are made: the opening apps'
        // names, comma-separated (nil while none opens), and the decision it names the rule of.
        var opening: String?
        var namedOpens = false
        var subject: LinkDecision?
        evaluator.forEachApp(deciding: url, on: claims) { app, file, make in
            shared.decision((environment, platform, app, file), in: evaluator, make: make)
        } _: { position, claim, _, _, decision in
            let name = evaluator.appName(position, on: platform)
            let opens = EnvironmentEvaluator.Verdict.opens(claim, decision)
            if opens { opening = opening.map { $0 + ", " + name } ?? name }
            if name == named {
                namedOpens = namedOpens || opens
                if subject == nil { subject = decision }
            }
            switch expectation.outcome {
            case .opensWeb where opens && subject == nil: subject = decision
            case .opensApp(nil) where decision.origin != nil && subject == nil: subject = decision
            default: break
            }
        }
        let actual = opening ?? "web"
        var observed: Observation
        switch expectation.outcome {
        case .opensWeb:
            observed = Observation(expected: "web", actual: actual, passed: opening == nil)
        case .opensApp(nil):
            observed = Observation(expected: "an app", actual: actual, passed: opening != nil)
        case .opensApp(let name?):
            observed = Observation(expected: name.value, actual: actual, passed: namedOpens)
        }
        observed.decidingRule = subject?.origin
        if let route = expectation.route {
            // Every outcome names the route expected, so outcomes of one check share `expected`.
            observed.expected += " at \(route.value)"
            if observed.passed { checkRoute(route.value, of: &observed, url: url, routes: routes) }
        }
        return observed
    }

    /// With the app right, the route the deciding rule leads to must be the expected one.
    private static func checkRoute(
        _ expected: RouteValue, of observed: inout Observation, url: LinkURL, routes: [SourceLocation: Route]
    ) {
        guard let origin = observed.decidingRule, let route = routes[origin] else {
            observed.actual += " with no route (the deciding rule names none)"
            observed.passed = false
            return
        }
        switch RouteResolver.resolve(route, url: url) {
        case .success(let value):
            observed.actual += " at \(value)"
            observed.passed = value.satisfies(expected)
        case .failure(let problem):
            observed.actual += " with no destination: \(problem.message)"
            observed.passed = false
        }
    }
}
