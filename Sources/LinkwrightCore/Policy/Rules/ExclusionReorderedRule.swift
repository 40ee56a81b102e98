/// URLs an exclusion kept on the web at the base open an app at the head.
struct ExclusionReorderedRule: PolicyRule {
    let readsBehaviourDiff = true
    let info = RuleInfo(
        id: .exclusionReordered, defaultSeverity: .error,
        purpose:
            "URLs that an exclusion kept on the web now open an app: the exclusion moved below an overlapping rule, a rule was inserted above it, or it was deleted.",
        rationale: """
            The first matching rule decides (Apple's Components documentation; Android's dynamic rules likewise), \
            so an exclusion only works above the rules it carves out of. Moving it is a one-line change in review \
            and sends back-office, payment or login URLs into the app after release. One finding per exclusion, \
            at its line, lists every environment, host, platform and app it affects.
            """,
        examples: [
            RuleExample(
                "the exclusion moved below a catch-all", reportsAt: ["domains/shop.yaml:5:9"],
                base: RuleExampleConfiguration.files.replacing(
                    "      - path: /products/*\n", with: "      - path: /*\n", in: "domains/shop.yaml"),
                head: RuleExampleConfiguration.files.replacing(
                    "      - path: /admin/*\n        exclude: true\n      - path: /products/*\n",
                    with: "      - path: /*\n      - path: /admin/*\n        exclude: true\n", in: "domains/shop.yaml")),
            RuleExample(
                "the exclusion was deleted while a catch-all follows", reportsAt: ["domains/shop.yaml:4:9"],
                base: RuleExampleConfiguration.files.replacing(
                    "      - path: /products/*\n", with: "      - path: /*\n", in: "domains/shop.yaml"),
                head: RuleExampleConfiguration.files.replacing(
                    "      - path: /admin/*\n        exclude: true\n      - path: /products/*\n",
                    with: "      - path: /*\n",
                    in: "domains/shop.yaml")),
            RuleExample(
                "a suffix rule moved above the exclusion it overlaps", reportsAt: ["domains/shop.yaml:5:9"],
                base: RuleExampleConfiguration.files.replacing(
                    "      - path: /products/*\n", with: "      - path: /products/*\n      - path: \"*/login\"\n",
                    in: "domains/shop.yaml"),
                head: RuleExampleConfiguration.files.replacing(
                    "      - path: /admin/*\n        exclude: true\n      - path: /products/*\n",
                    with: "      - path: \"*/login\"\n      - path: /admin/*\n        exclude: true\n"
                        + "      - path: /products/*\n",
                    in: "domains/shop.yaml")),
            RuleExample(
                "reordering rules that do not overlap", reportsAt: [], base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.files.replacing(
                    "      - path: /admin/*\n        exclude: true\n      - path: /products/*\n",
                    with: "      - path: /products/*\n      - path: /admin/*\n        exclude: true\n",
                    in: "domains/shop.yaml")),
        ],
        isAboutChange: true)

    func check(_ context: PolicyContext) -> [Finding] {
        guard let base = context.base else { return [] }
        return context.behaviourObservations().compactMap { observation in
            guard let before = observation.before, before.decision.outcome == .exclude, observation.opensAfter,
                let excluded = before.decision.origin
            else { return nil }
            let exclusion = base.configuration.rule(at: excluded)
            let pattern = exclusion?.rule.summary ?? "at \(excluded)"
            // The cause sits at the exclusion where it now is, or, deleted, at the rule now opening.
            let moved = exclusion.flatMap { context.head.configuration.sameRule(as: $0.rule, in: $0.domain) }
            let opening = observation.after?.decision.origin
            var finding = Finding(
                rule: info.id.rawValue, severity: info.defaultSeverity,
                message:
                    "URLs the exclusion \(pattern.replacing(" (exclude)", with: "")) kept on the web now open an app"
                    + (moved == nil ? " (the exclusion was removed)" : ""),
                location: moved?.location ?? opening ?? excluded,
                side: moved == nil && opening == nil ? .base : .head,
                hint: moved == nil
                    ? "restore the exclusion above the rules that now open these URLs, or approve the change"
                    : "move the exclusion above the rules that now open these URLs (e.g. the one at "
                        + "\(opening.map(\.description) ?? "the head")), or approve the change",
                witnesses: [observation.url], environment: observation.environment, host: observation.host,
                platform: observation.platform, app: observation.identity,
                identity: [exclusion?.domain.file ?? excluded.file, pattern])
            finding.scopes = [
                FindingScope(
                    environment: observation.environment, host: observation.host,
                    platform: observation.platform, app: observation.identity)
            ]
            return finding
        }
    }
}

extension Configuration {
    /// The domain rule written at `location`.
    func rule(at location: SourceLocation) -> (domain: Domain, rule: Rule)? {
        for domain in domains where domain.file == location.file {
            for entry in domain.applinks {
                if let rule = entry.rules.first(where: { $0.location == location }) { return (domain, rule) }
            }
        }
        return nil
    }

    /// The rule of the domain in file `domain.file` written as `rule` is (it may have moved).
    func sameRule(as rule: Rule, in domain: Domain) -> Rule? {
        domains.first { $0.file == domain.file }?.applinks.lazy.flatMap(\.rules).first {
            $0.summary == rule.summary
        }
    }
}

extension Rule {
    /// The rule as written, for messages and identities: `/admin/* (exclude)`.
    var summary: String {
        RuleLabel(
            path: path?.value ?? "*", query: query?.value.label(sortingItems: true), fragment: fragment?.value,
            notes: exclude ? ["exclude"] : []
        ).text()
    }
}
