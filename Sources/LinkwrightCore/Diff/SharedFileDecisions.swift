/// The file decisions of one comparison, made once for every host, environment and side whose
/// app reads the same rules (`EnvironmentEvaluator.DecidingRules`): the proof of lists with the
/// same rules is shared by hosts and environments (`BehaviourDiff`), so each of them decides the
/// same witnesses, where a decision reads the URL's path, query and fragment and never its host.
/// Staging's apps reading production's rules under other IDs get production's decisions, as
/// `test` shares them. With caching switched off (`Caching`), every decision is made afresh.
final class SharedFileDecisions: Sendable {
    /// A URL's path, query and fragment, compared exactly (`ExactText`), with their hash made
    /// once: every app of a host and side looks the same URL up, and hashing the three texts
    /// for each lookup cost more than the lookup.
    struct URLParts: Hashable {
        let path: String
        let query: String?
        let fragment: String?
        private let hash: Int

        init(_ url: LinkURL) {
            (path, query, fragment) = (url.path, url.query, url.fragment)
            var hasher = Hasher()
            hasher.combine(ExactText(path))
            hasher.combine(query.map(ExactText.init))
            hasher.combine(fragment.map(ExactText.init))
            hash = hasher.finalize()
        }

        static func == (left: URLParts, right: URLParts) -> Bool {
            left.hash == right.hash && ExactText.equal(left.path, right.path)
                && ExactText.equal(left.query, right.query) && ExactText.equal(left.fragment, right.fragment)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    private struct Key: Hashable {
        var rules: Int
        var url: URLParts
    }

    private let numbers = LockedValue<[EnvironmentEvaluator.DecidingRules: Int]>([:])
    private let decided = LockedValue<[Key: LinkDecision]>([:])

    /// Per app of `claims`, in position order, the number of the rules it decides through on
    /// their host with `evaluator`; nil where it cannot claim the host or its file gives none.
    func rules(of claims: EnvironmentEvaluator.HostClaims, in evaluator: EnvironmentEvaluator) -> [Int?] {
        (0..<claims.appCount).map { app in
            claims.decidingFile(app: app).flatMap { file in
                evaluator.decidingRules(app: app, platform: claims.platform, file: file).map { rules in
                    numbers.withLock { numbers in
                        if let known = numbers[rules] { return known }
                        numbers[rules] = numbers.count
                        return numbers.count - 1
                    }
                }
            }
        }
    }

    /// `make`'s decision of the URL with `parts`, or the one made already for it through the
    /// rules numbered `rules` (nil: no rules to share).
    func decision(of parts: URLParts, through rules: Int?, make: () -> LinkDecision) -> LinkDecision {
        guard let rules, Caching.isEnabled else { return make() }
        let key = Key(rules: rules, url: parts)
        if let known = decided.withLock({ $0[key] }) { return known }
        let decision = make()
        decided.withLock { $0[key] = decision }
        return decision
    }
}

/// Both sides of one environment deciding URLs on one host and platform: how each side's apps
/// claim the host, found once for all its URLs, and each app's file decision shared
/// (`SharedFileDecisions`) with the hosts, environments and sides whose app reads the same rules.
struct SharedHostDecisions: Sendable {
    let old: EnvironmentEvaluator
    let new: EnvironmentEvaluator
    let shared: SharedFileDecisions
    private let claims: (old: EnvironmentEvaluator.HostClaims, new: EnvironmentEvaluator.HostClaims)
    /// The rules each side's apps decide through on the host, by their number in `shared`.
    private let rules: (old: [Int?], new: [Int?])

    init(
        host: String, platform: Platform, old: EnvironmentEvaluator, new: EnvironmentEvaluator,
        sharing shared: SharedFileDecisions
    ) {
        (self.old, self.new, self.shared) = (old, new, shared)
        claims = (old.claims(of: host, on: platform), new.claims(of: host, on: platform))
        rules = (shared.rules(of: claims.old, in: old), shared.rules(of: claims.new, in: new))
    }

    /// How the two sides' apps decide the host's URLs (`EnvironmentEvaluator.DecidingKey`, its
    /// rules numbered as `shared` numbers them).
    struct DecidingKeys: Hashable {
        let old: EnvironmentEvaluator.DecidingKey
        let new: EnvironmentEvaluator.DecidingKey
    }

    /// The keys of the host's deciding, equal for hosts of one environment and platform whose
    /// apps open each path, query and fragment alike on each side: whether an app opens a URL
    /// reads how it claims the host and its file's decision, which `shared` makes once for every
    /// host whose app reads the same rules. Nil where an app could claim the host through a file
    /// whose decision is not shared (no rules compiled for it).
    func decidingKeys() -> DecidingKeys? {
        func key(_ evaluator: EnvironmentEvaluator, _ claims: EnvironmentEvaluator.HostClaims, _ rules: [Int?])
            -> EnvironmentEvaluator.DecidingKey?
        {
            for app in rules.indices where rules[app] == nil && claims.decidingFile(app: app) != nil { return nil }
            return evaluator.decidingKey(claims) { app, _ in rules[app] }
        }
        guard let old = key(old, claims.old, rules.old), let new = key(new, claims.new, rules.new) else { return nil }
        return DecidingKeys(old: old, new: new)
    }

    /// Every app's verdict on `url` on the side `old` or `new`, as the side's evaluator decides
    /// it alone; a URL on another host is decided alone.
    func verdicts(_ url: LinkURL, onNewSide: Bool) -> [EnvironmentEvaluator.Verdict] {
        let (evaluator, claims, rules) = onNewSide ? (new, claims.new, rules.new) : (old, claims.old, rules.old)
        guard url.host == claims.host else { return evaluator.verdicts(for: url, claims: claims) }
        let parts = SharedFileDecisions.URLParts(url)
        return evaluator.verdicts(for: url, claims: claims) { app, _, make in
            shared.decision(of: parts, through: rules[app], make: make)
        }
    }
}
