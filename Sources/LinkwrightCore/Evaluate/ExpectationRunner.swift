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
    ///
    /// The decision path carries numbers: each group's apps decide through rule lists numbered
    /// once per group (`SharedDecisions`), the apps that open a URL are a set of positions, and
    /// what an outcome says is named once per set of apps (`OutcomeTexts`); an outcome's text is
    /// made into a string only when the outcome is first met.
    private static func domainChecks(
        _ domain: Domain, _ groups: [Situations.Group], of situations: Situations, keeping detail: Detail
    ) -> (checks: [Check], tally: Tally) {
        var tally = Tally()
        // By position in `situations.evaluators`: named once, at the end.
        var checkedEnvironments = Array(repeating: false, count: situations.evaluators.count)
        var shared = SharedDecisions()
        var texts = OutcomeTexts()
        var checks: [Check] = []
        let routes = domain.routesByRule
        // Groups of any environments deciding every path alike on a platform share a number,
        // and a path expectation is observed once per number: production, staging and
        // development usually serve the same rules to apps of the same names.
        var alikeNumbers: [EnvironmentEvaluator.DecidingKey: Int] = [:]
        // Per platform (iOS first), per group: its number of alike groups, and the rule list
        // each of its apps decides through (`SharedDecisions.lists`).
        var alikeByGroup = Array(
            repeating: [(number: Int, lists: [Int?])?](repeating: nil, count: groups.count), count: 2)
        func alike(_ index: Int, on platform: Platform) -> (number: Int, lists: [Int?]) {
            let row = platform == .ios ? 0 : 1
            if let known = alikeByGroup[row][index] { return known }
            let environment = groups[index].environmentIndex
            let evaluator = situations.evaluators[environment]
            let claims = groups[index].claims(on: platform)
            let key = evaluator.decidingKey(claims) { app, file in
                shared.rules((environment, platform, app, file), in: evaluator)
            }
            let number = alikeNumbers[key] ?? alikeNumbers.count
            alikeNumbers[key] = number
            let known = (number, shared.lists(claims, in: environment, of: evaluator))
            alikeByGroup[row][index] = known
            return known
        }
        // Each path expectation is decided through the files the groups' claims name: with enough
        // of them, the files' rule indexes are built before the first. Read in place: a domain
        // holds thousands of expectations, each of a dozen strings.
        var urlsOn = [0, 0]
        for position in domain.expectations.indices {
            for platform in domain.expectations[position].platforms { urlsOn[platform == .ios ? 0 : 1] += 1 }
        }
        for platform in Platform.allCases {
            for group in groups.indices
            where situations.evaluators[groups[group].environmentIndex].platforms.contains(platform) {
                situations.evaluators[groups[group].environmentIndex].anticipate(
                    urls: urlsOn[platform == .ios ? 0 : 1], through: groups[group].claims(on: platform))
            }
        }
        // Reused for every check: the text numbers of its outcomes, in order, and the observation
        // of each number of alike groups met so far.
        var outcomeTexts: [Int] = []
        var observedAlike: [(number: Int, observed: Observation?)] = []
        for position in domain.expectations.indices {
            // Lint reports a URL that does not parse.
            guard let written = LinkURL(domain.expectations[position].url.value) else { continue }
            let asked = Asked(domain.expectations[position])
            for platform in domain.expectations[position].platforms {
                // One URL in every group below, up to its host, which no decision reads.
                shared.beginURL()
                var check = Check(
                    location: domain.expectations[position].location, url: written, platform: platform,
                    expected: asked.expected, comment: domain.expectations[position].comment, outcomes: [])
                outcomeTexts.removeAll(keepingCapacity: true)
                func add(_ observed: Observation, _ places: [Place], in environment: Int) {
                    tally.checks += places.count
                    checkedEnvironments[environment] = true
                    let keep = detail == .everyPlace || !observed.passed
                    if let index = check.outcomes.indices.first(where: {
                        outcomeTexts[$0] == observed.actual && check.outcomes[$0].passed == observed.passed
                            && check.outcomes[$0].decidingRule == observed.decidingRule
                    }) {
                        check.outcomes[index].count += places.count
                        if keep { check.outcomes[index].places.append(contentsOf: places) }
                    } else {
                        outcomeTexts.append(observed.actual)
                        check.outcomes.append(
                            Outcome(
                                actual: texts[observed.actual], passed: observed.passed,
                                decidingRule: observed.decidingRule, places: keep ? PlaceList(places) : [],
                                count: places.count))
                    }
                }
                observedAlike.removeAll(keepingCapacity: true)
                // By position: a group holds its places and claims, copied for every expectation.
                for index in groups.indices
                where Resolution.applies(
                    domain.expectations[position].environments, to: groups[index].environment)
                {
                    let environment = groups[index].environmentIndex
                    if let own = written.host {
                        // An absolute URL is checked on its own host, on the bindings that serve it;
                        // it is the same URL on each, so it is decided once.
                        let serving = groups[index].places.filter {
                            HostPattern.appleEntitlement($0.host, matches: own)
                        }
                        guard !serving.isEmpty else { continue }
                        let evaluator = situations.evaluators[environment]
                        let claims = evaluator.claims(of: own, on: platform)
                        guard
                            let observed = observe(
                                asked, written, claims, deciding: shared.lists(claims, in: environment, of: evaluator),
                                in: environment, of: situations, sharing: &shared, naming: &texts, routes)
                        else { continue }
                        add(
                            observed,
                            serving.map { place in
                                var checked = place
                                checked.urlHost = own
                                return checked
                            }, in: environment)
                    } else {
                        let (number, lists) = alike(index, on: platform)
                        let observed: Observation?
                        if let known = observedAlike.first(where: { $0.number == number }) {
                            observed = known.observed
                        } else {
                            // Decided as written: the claims say what the group's host does.
                            observed = observe(
                                asked, written, groups[index].claims(on: platform), deciding: lists,
                                in: environment, of: situations, sharing: &shared, naming: &texts, routes)
                            observedAlike.append((number, observed))
                        }
                        guard let observed else { continue }
                        add(observed, groups[index].places, in: environment)
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
            // Read until both are found, in place and without hashing: a fleet's 100,000
            // expectations need not be flattened, and often name one platform only.
            var used = (ios: false, android: false)
            for domain in configuration.domains where !(used.ios && used.android) {
                for position in domain.expectations.indices where !(used.ios && used.android) {
                    for platform in domain.expectations[position].platforms {
                        if platform == .ios { used.ios = true } else { used.android = true }
                    }
                }
            }
            let platforms = Set(Platform.allCases.filter { $0 == .ios ? used.ios : used.android })
            let environments = compiled.environments.compactMap { environment in
                configuration.environment(named: environment.name).map { (compiled: environment, declared: $0) }
            }
            guard let first = environments.first else { return }
            // The first environment compiles its domains' files on every core. The others mostly
            // take them with their app IDs, one core's work each: they are evaluated side by side.
            var files = EnvironmentEvaluator.CompiledFiles()
            let firstEvaluator = EnvironmentEvaluator(first.compiled, platforms: platforms, sharing: &files)
            let compiledFiles = files
            evaluators =
                [firstEvaluator]
                + (1..<environments.count).parallelMap { position in
                    var files = compiledFiles
                    return EnvironmentEvaluator(environments[position].compiled, platforms: platforms, sharing: &files)
                }
            declared = environments.map(\.declared)
            // How the apps claim each host, found on every core (a fleet binds thousands), then
            // grouped in binding order.
            let bindings = environments.indices.flatMap { environment in
                environments[environment].declared.hosts.indices.map { (environment: environment, position: $0) }
            }
            let mentioned = declared.map(\.boundHostNames)
            let found = bindings.parallelMap { [evaluators, declared] binding in
                let evaluator = evaluators[binding.environment]
                let bound = declared[binding.environment].hosts[binding.position]
                let urlHost = URLSamples.host(for: bound.host.value, avoiding: mentioned[binding.environment])
                let ios = evaluator.claims(of: urlHost, on: .ios)
                let android = evaluator.claims(of: urlHost, on: .android)
                return (
                    place: Place(
                        environment: evaluator.environment.name, host: bound.host.value.name, urlHost: urlHost),
                    ios: ios, android: android, situation: evaluator.situation(ios: ios, android: android)
                )
            }
            var index: [Key: Int] = [:]
            for (binding, host) in zip(bindings, found) {
                // Groups are an environment's own.
                if binding.position == 0 { index.removeAll(keepingCapacity: true) }
                let domain = declared[binding.environment].hosts[binding.position].domain.value
                let key = Key(domain: domain, situation: host.situation)
                if let position = index[key] {
                    byDomain[domain]![position].places.append(host.place)
                } else {
                    index[key] = byDomain[domain, default: []].count
                    byDomain[domain, default: []].append(
                        Group(
                            environment: host.place.environment, environmentIndex: binding.environment,
                            places: [host.place], iosClaims: host.ios, androidClaims: host.android))
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
        /// By rule list number, the decision for the URL being checked; nil while not made.
        private var decided: [LinkDecision?] = []
        /// The rule lists `decided` holds a decision of.
        private var decidedLists: [Int] = []

        /// Forgets the decisions of the URL checked before.
        mutating func beginURL() {
            for list in decidedLists { decided[list] = nil }
            decidedLists.removeAll(keepingCapacity: true)
        }

        /// `make`'s decision, or the one made already for the URL through the rule list numbered
        /// `list` (nil: no rules to share).
        mutating func decision(through list: Int?, make: () -> LinkDecision) -> LinkDecision {
            guard let list else { return make() }
            if let known = decided[list] { return known }
            let decision = make()
            decided[list] = decision
            decidedLists.append(list)
            return decision
        }

        /// Per app of `claims`, in position order, the number of the rules it decides through
        /// on that host (`rules`); nil when it cannot claim the host or its file gives none.
        mutating func lists(
            _ claims: EnvironmentEvaluator.HostClaims, in environment: Int, of evaluator: EnvironmentEvaluator
        ) -> [Int?] {
            (0..<claims.appCount).map { app in
                claims.decidingFile(app: app).flatMap { rules((environment, claims.platform, app, $0), in: evaluator) }
            }
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
            decided.append(nil)
            return numbers.count - 1
        }
    }

    /// The positions of an environment's apps of one platform, in order: the apps a URL opens.
    private struct AppSet: Hashable {
        /// Positions below 64, one bit each: an environment declares a handful of apps.
        private var bits: UInt64 = 0
        /// Positions from 64, in the order inserted.
        private var beyond: [Int] = []

        var isEmpty: Bool { bits == 0 && beyond.isEmpty }

        /// Adds `position`, greater than any added before.
        mutating func insert(_ position: Int) {
            if position < 64 { bits |= 1 << UInt64(position) } else { beyond.append(position) }
        }

        /// The positions, in increasing order.
        var positions: [Int] { (0..<64).filter { bits & (1 << UInt64($0)) != 0 } + beyond }
    }

    /// What outcomes say they got, each text numbered once: the apps that open a URL are
    /// named once per environment, platform and set of apps, not once per observation.
    private struct OutcomeTexts {
        private struct Opening: Hashable {
            var environment: Int
            var platform: Platform
            var apps: AppSet
        }

        private var byOpening: [Opening: Int] = [:]
        /// The opening named last: most observations of a domain open the apps the one before did.
        private var last: (opening: Opening, number: Int)?
        private var byText: [String: Int] = [:]
        private var texts: [String] = []

        subscript(number: Int) -> String { texts[number] }

        /// The number of "web", or of the names of `apps` of the environment at `environment`
        /// on `platform`, comma-separated.
        mutating func number(
            opening apps: AppSet, in environment: Int, on platform: Platform, of evaluator: EnvironmentEvaluator
        ) -> Int {
            let key = Opening(environment: environment, platform: platform, apps: apps)
            if let last, last.opening == key { return last.number }
            if let known = byOpening[key] {
                last = (key, known)
                return known
            }
            let text =
                apps.isEmpty
                ? "web" : apps.positions.map { evaluator.appName($0, on: platform) }.joined(separator: ", ")
            let number = number(text)
            byOpening[key] = number
            last = (key, number)
            return number
        }

        /// The number of `text`.
        mutating func number(_ text: String) -> Int {
            if let known = byText[text] { return known }
            byText[text] = texts.count
            texts.append(text)
            return texts.count - 1
        }
    }

    /// What an expectation asks, read once for every host and platform it is checked on.
    private struct Asked {
        enum Opening {
            case web
            case anyApp
            case app(named: String)
        }

        var opening: Opening
        var route: RouteValue?
        /// What every outcome of the expectation names as expected: "web", "an app" or the
        /// app's name, with the route expected.
        var expected: String

        init(_ expectation: Expectation) {
            switch expectation.outcome {
            case .opensWeb: (opening, expected) = (.web, "web")
            case .opensApp(nil): (opening, expected) = (.anyApp, "an app")
            case .opensApp(let name?): (opening, expected) = (.app(named: name.value), name.value)
            }
            route = expectation.route?.value
            // Every outcome names the route expected, so outcomes of one check share `expected`.
            if let route { expected += " at \(route)" }
        }
    }

    /// What one expectation did on one host.
    private struct Observation {
        /// What it got, as `OutcomeTexts` numbers it.
        var actual: Int
        var passed: Bool
        var decidingRule: SourceLocation?
    }

    /// The expectation decided for `url` on the host `claims` were found for, in the environment
    /// at `environment` of `situations`, each app through the rule list `lists` numbers at its
    /// position; nil when there is nothing to check (an app without a build on the platform
    /// there). `url` names that host or none.
    private static func observe(
        _ asked: Asked, _ url: LinkURL, _ claims: EnvironmentEvaluator.HostClaims, deciding lists: [Int?],
        in environment: Int, of situations: Situations, sharing shared: inout SharedDecisions,
        naming texts: inout OutcomeTexts, _ routes: [SourceLocation: Route]
    ) -> Observation? {
        let platform = claims.platform
        let evaluator = situations.evaluators[environment]
        // The position of the app the expectation names, when it has a build here.
        var named: Int?
        if case .app(let name) = asked.opening {
            // An app without a build on this platform in this environment has nothing to check.
            guard
                situations.declared[environment].apps.contains(where: {
                    $0.name.value == name && (platform == .ios ? $0.ios != nil : $0.android != nil)
                })
            else { return nil }
            named = (0..<claims.appCount).first { evaluator.appName($0, on: platform) == name }
        }
        // What an observation needs of the verdicts, read as they are made: the apps that open,
        // and the rule of the decision it names.
        var opening = AppSet()
        var namedOpens = false
        var subject: (found: Bool, rule: SourceLocation?) = (false, nil)
        evaluator.forEachApp(deciding: url, on: claims) { app, _, make in
            shared.decision(through: lists[app], make: make)
        } _: { position, claim, _, _, decision in
            let opens = EnvironmentEvaluator.Verdict.opens(claim, decision)
            if opens { opening.insert(position) }
            if position == named {
                namedOpens = namedOpens || opens
                if !subject.found { subject = (true, decision.origin) }
            }
            switch asked.opening {
            case .web where opens && !subject.found: subject = (true, decision.origin)
            case .anyApp where decision.origin != nil && !subject.found: subject = (true, decision.origin)
            default: break
            }
        }
        let passed: Bool
        switch asked.opening {
        case .web: passed = opening.isEmpty
        case .anyApp: passed = !opening.isEmpty
        case .app: passed = namedOpens
        }
        var observed = Observation(
            actual: texts.number(opening: opening, in: environment, on: platform, of: evaluator), passed: passed,
            decidingRule: subject.rule)
        if let route = asked.route, observed.passed {
            var actual = texts[observed.actual]
            checkRoute(
                route, of: &observed.passed, actual: &actual, decidingRule: observed.decidingRule, url: url,
                routes: routes)
            observed.actual = texts.number(actual)
        }
        return observed
    }

    /// With the app right, the route the deciding rule leads to must be the expected one.
    private static func checkRoute(
        _ expected: RouteValue, of passed: inout Bool, actual: inout String, decidingRule: SourceLocation?,
        url: LinkURL, routes: [SourceLocation: Route]
    ) {
        guard let origin = decidingRule, let route = routes[origin] else {
            actual += " with no route (the deciding rule names none)"
            passed = false
            return
        }
        switch RouteResolver.resolve(route, url: url) {
        case .success(let value):
            actual += " at \(value)"
            passed = value.satisfies(expected)
        case .failure(let problem):
            actual += " with no destination: \(problem.message)"
            passed = false
        }
    }
}
