/// Expectations that pin what an imported configuration decides today, so `linkwright test`
/// has something to check from the first run and fails when a later edit changes a decision:
/// per rule a URL it decides and what it decides (an app, or the web for an exclusion), the URL
/// written as a person would ([ReadableURLs]). Every candidate is decided as devices decide it
/// on every host of the domain before it is kept, and the written block is checked again by
/// `ExpectationRunner`: an expectation the configuration would fail is never written.
public enum ExpectationSeeder {
    /// One written expectation: a URL and what it does on some platforms (all when `platforms`
    /// is nil).
    struct Seed: Equatable {
        var url: String
        var outcome: Outcome
        var platforms: [Platform]?
        var comment: String
    }

    enum Outcome: Hashable {
        case app(String)
        case web
    }

    /// `files` (the whole configuration, imported files included) with an `expectations:` block
    /// appended to each domain file in `domainFiles`, for the rules `environment` serves, and
    /// how many expectations were written.
    public static func seed(_ files: [SourceFile], domainFiles: [String], environment: String) -> (
        files: [SourceFile], expectations: Int
    ) {
        guard let snapshot = PolicySnapshot.make(files).snapshot,
            let compiled = snapshot.compiled.environments.first(where: { $0.name == environment }),
            let declared = snapshot.configuration.environment(named: environment)
        else { return (files, 0) }
        let evaluator = EnvironmentEvaluator(compiled)
        var seeds: [String: [Seed]] = [:]
        let bound = declared.boundHostNames
        for domain in snapshot.configuration.domains where domainFiles.contains(domain.file) {
            // The host each URL stands on: a binding's own, or a subdomain for a wildcard.
            let hosts = declared.hosts.filter { $0.domain.value == domain.name }.map {
                URLSamples.host(for: $0.host.value, avoiding: bound)
            }
            // Only the domain's apps claim its hosts: a platform none of them ships on opens nothing there.
            let apps = domain.applinks.flatMap(\.apps).compactMap { declared.app(named: $0.value) }
            let platforms = Platform.allCases.filter { platform in
                apps.contains { platform == .ios ? $0.ios != nil : $0.android != nil }
            }
            seeds[domain.file] = self.seeds(
                domain, environment: environment, hosts: hosts, platforms: platforms, evaluator: evaluator)
        }
        func written(_ seeds: [String: [Seed]]) -> [SourceFile] {
            files.map { file in
                seeds[file.path].map { SourceFile(path: file.path, bytes: file.bytes + Array(block($0).utf8)) } ?? file
            }
        }
        // The blocks are checked as `test` checks them; what fails is left out.
        guard let checked = PolicySnapshot.make(written(seeds)).snapshot else { return (files, 0) }
        let failing = Set(
            ExpectationRunner.run(checked.configuration, checked.compiled).filter { !$0.passed }.map(\.location))
        for domain in checked.configuration.domains where seeds[domain.file] != nil {
            let failed = Set(
                domain.expectations.indices.filter { failing.contains(domain.expectations[$0].location) })
            seeds[domain.file] = seeds[domain.file]!.indices.filter { !failed.contains($0) }.map {
                seeds[domain.file]![$0]
            }
        }
        return (written(seeds), seeds.values.map(\.count).reduce(0, +))
    }

    /// One seed per rule that decides some URL of its own in `environment`, in file order.
    static func seeds(
        _ domain: Domain, environment: String, hosts: [String], platforms: [Platform], evaluator: EnvironmentEvaluator
    ) -> [Seed] {
        let variables = domain.variables.map { AASAVariable(name: $0.name.value, values: $0.values.map(\.value)) }
        var seeds: [Seed] = []
        var urls: Set<String> = []
        for entry in domain.applinks where Resolution.applies(entry.environments, to: environment) {
            for rule in entry.rules where Resolution.applies(rule.environments, to: environment) {
                let candidates = ReadableURLs.candidates(
                    path: rule.path?.value, query: rule.query?.value, fragment: rule.fragment?.value,
                    variables: variables)
                for candidate in candidates where !urls.contains(candidate) {
                    guard
                        let outcomes = decided(
                            candidate, by: rule, preferring: entry.apps.map(\.value), on: hosts, platforms: platforms,
                            evaluator: evaluator)
                    else { continue }
                    urls.insert(candidate)
                    let comment = (rule.exclude ? "pins the exclusion " : "pins the rule ") + describe(rule)
                    if Set(outcomes.map(\.outcome)).count == 1 {
                        seeds.append(
                            Seed(url: candidate, outcome: outcomes[0].outcome, platforms: nil, comment: comment))
                    } else {
                        seeds += outcomes.map {
                            Seed(url: candidate, outcome: $0.outcome, platforms: [$0.platform], comment: comment)
                        }
                    }
                    break
                }
            }
        }
        return seeds
    }

    /// What `candidate` does on each platform when `rule` decides it on at least one and every
    /// host decides it alike; `nil` otherwise (an earlier rule takes it, or hosts differ).
    static func decided(
        _ candidate: String, by rule: Rule, preferring apps: [String], on hosts: [String], platforms: [Platform],
        evaluator: EnvironmentEvaluator
    ) -> [(platform: Platform, outcome: Outcome)]? {
        guard let parsed = LinkURL(candidate), !hosts.isEmpty else { return nil }
        var agreed: [(platform: Platform, outcome: Outcome)]?
        for host in hosts {
            let url = parsed.on(host: host)
            var decidedByRule = false
            var outcomes: [(platform: Platform, outcome: Outcome)] = []
            for platform in platforms {
                let verdicts = evaluator.verdicts(for: url, platform: platform)
                decidedByRule = decidedByRule || verdicts.contains { $0.decision.origin == rule.location }
                let opening = verdicts.filter(\.opens).map(\.app)
                let app = apps.first(where: opening.contains) ?? opening.first
                outcomes.append((platform, app.map(Outcome.app) ?? .web))
            }
            guard decidedByRule else { return nil }
            if let agreed, !agreed.elementsEqual(outcomes, by: { $0 == $1 }) { return nil }
            agreed = outcomes
        }
        return agreed
    }

    /// The rule as its parts are written: `/users/*/callback?next=*#top`.
    static func describe(_ rule: Rule) -> String {
        RuleLabel(
            path: rule.path?.value ?? "", query: rule.query?.value.label(sortingItems: false),
            fragment: rule.fragment?.value
        ).text(separator: "")
    }

    /// The `expectations:` block, or nothing when there is nothing to pin.
    static func block(_ seeds: [Seed]) -> String {
        guard !seeds.isEmpty else { return "" }
        var text = "# Each rule's URL, pinned to what it decides today: linkwright test checks them on every\n"
        text += "# host of the domain. Keep them, and add your own.\nexpectations:\n"
        for seed in seeds {
            text += "  - url: \(YAMLWriter.scalar(seed.url))\n"
            switch seed.outcome {
            case .app(let name): text += "    opens_app: \(YAMLWriter.scalar(name))\n"
            case .web: text += "    opens_web: true\n"
            }
            if let platforms = seed.platforms {
                text += "    platforms: \(YAMLWriter.flowList(platforms.map(\.rawValue)))\n"
            }
            text += "    comment: \(YAMLWriter.scalar(seed.comment))\n"
        }
        return text
    }
}
