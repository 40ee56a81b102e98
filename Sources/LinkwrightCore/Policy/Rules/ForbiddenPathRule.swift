/// A path that policy keeps out of association files opens an app somewhere.
struct ForbiddenPathRule: PolicyRule {
    let info = RuleInfo(
        id: .forbiddenPath, defaultSeverity: .error,
        purpose: "A path listed under forbidden_paths in policies/ opens an app on some host or platform.",
        rationale: """
            Some URLs must never be universal links: an OAuth redirect that returns on a custom scheme, a payment \
            callback, a password-reset page on a shared host. If an association file claims them, a device hands \
            the URL to whichever app claims it.
            """,
        examples: [
            RuleExample(
                "a catch-all rule swallows the OAuth callback",
                reportsAt: [
                    "domains/shop.yaml:6:9", "domains/shop.yaml:6:9", "domains/shop.yaml:6:9", "domains/shop.yaml:6:9",
                ],
                head: RuleExampleConfiguration.files.replacing(
                    "      - path: /products/*\n", with: "      - path: /*\n", in: "domains/shop.yaml"
                ).appending(Self.policy, to: "policies/merge.yaml")),
            RuleExample(
                "the callback needs a query item to open",
                reportsAt: [
                    "domains/shop.yaml:7:9", "domains/shop.yaml:7:9", "domains/shop.yaml:7:9", "domains/shop.yaml:7:9",
                ],
                head: RuleExampleConfiguration.files.replacing(
                    "      - path: /products/*\n",
                    with: "      - path: /products/*\n      - path: /oauth/*\n        query: {code: \"?*\"}\n",
                    in: "domains/shop.yaml"
                ).appending(Self.policy, to: "policies/merge.yaml")),
            RuleExample(
                "rules that leave the callback alone", reportsAt: [],
                head: RuleExampleConfiguration.files.appending(Self.policy, to: "policies/merge.yaml")),
        ])

    private static let policy = "forbidden_paths:\n  - path: /oauth/callback\n    reason: returns on a custom scheme\n"

    func check(_ context: PolicyContext) -> [Finding] {
        guard !context.settings.forbiddenPaths.isEmpty else { return [] }
        var findings: [Finding] = []
        for environment in context.head.compiled.environments {
            guard let evaluator = context.head.evaluator(environment.name) else { continue }
            for forbidden in context.settings.forbiddenPaths {
                let openings = PathOpenings.openings(
                    of: forbidden.path.value, in: environment, evaluator: evaluator,
                    configuration: context.head.configuration)
                for opening in openings {
                    let app = opening.app
                    findings.append(
                        opening.finding(
                            info,
                            message:
                                "forbidden path \(forbidden.path.value) opens \(app.identity) on \(app.platform.rawValue) in \(environment.name) (\(forbidden.reason))",
                            hint: "add an exclude rule for \(forbidden.path.value) before the rule that matches it",
                            fallback: forbidden.path.location, environment: environment.name,
                            facts: [forbidden.path.value]))
                }
            }
        }
        return findings
    }
}
