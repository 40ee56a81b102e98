/// URLs an exclusion kept on the web at the base open an app at the head.
struct ExclusionReorderedRule: PolicyRule {
    let info = RuleInfo(
        id: "EXCLUSION_REORDERED", defaultSeverity: .error,
        purpose:
            "URLs that an exclusion kept on the web now open an app: the exclusion moved below an overlapping rule, a rule was inserted above it, or it was deleted.",
        rationale: """
            The first matching rule decides (Apple's Components documentation; Android's dynamic rules likewise), \
            so an exclusion only works above the rules it carves out of. Moving it is a one-line change in review \
            and sends back-office, payment or login URLs into the app after release.
            """,
        examples: [
            RuleExample(
                "the exclusion moved below a catch-all", triggers: true,
                base: RuleExampleConfiguration.files.replacing(
                    "      - path: /products/*\n", with: "      - path: /*\n", in: "domains/shop.yaml"),
                head: RuleExampleConfiguration.files.replacing(
                    "      - path: /admin/*\n        exclude: true\n      - path: /products/*\n",
                    with: "      - path: /*\n      - path: /admin/*\n        exclude: true\n", in: "domains/shop.yaml")),
            RuleExample(
                "the exclusion was deleted while a catch-all follows", triggers: true,
                base: RuleExampleConfiguration.files.replacing(
                    "      - path: /products/*\n", with: "      - path: /*\n", in: "domains/shop.yaml"),
                head: RuleExampleConfiguration.files.replacing(
                    "      - path: /admin/*\n        exclude: true\n      - path: /products/*\n",
                    with: "      - path: /*\n",
                    in: "domains/shop.yaml")),
            RuleExample(
                "reordering rules that do not overlap", triggers: false, base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.files.replacing(
                    "      - path: /admin/*\n        exclude: true\n      - path: /products/*\n",
                    with: "      - path: /products/*\n      - path: /admin/*\n        exclude: true\n",
                    in: "domains/shop.yaml")),
        ])

    func check(_ context: PolicyContext) -> [Finding] {
        var findings: [Finding] = []
        var index: [String: Int] = [:]
        for observation in context.behaviourObservations()
        where observation.before?.decision.outcome == .exclude && observation.opensAfter {
            let key = "\(observation.environment) \(observation.host) \(observation.platform) \(observation.identity)"
            if let existing = index[key] {
                if findings[existing].witnesses.count < 5 { findings[existing].witnesses.append(observation.url) }
                continue
            }
            index[key] = findings.count
            let excluded = observation.before?.decision.origin.map { " (by the exclusion at \($0) in the base)" } ?? ""
            findings.append(
                Finding(
                    rule: info.id, severity: info.defaultSeverity,
                    message: "URLs an exclusion kept on the web\(excluded) now open \(observation.identity) on "
                        + "\(observation.platform.rawValue) (\(observation.host) in \(observation.environment))",
                    location: observation.after?.decision.origin,
                    hint: "move the exclusion above this rule, or approve the change if these URLs should open the app",
                    witnesses: [observation.url], environment: observation.environment, host: observation.host,
                    platform: observation.platform.rawValue, app: observation.identity,
                    identity: [
                        observation.environment, observation.host, observation.platform.rawValue, observation.identity,
                    ]))
        }
        return findings
    }
}
