/// A URL expectation of a domain that the compiled configuration does not meet.
struct ExpectationFailedRule: PolicyRule {
    let info = RuleInfo(
        id: .expectationFailed, defaultSeverity: .error,
        purpose: "A domain's opens_app / opens_web expectation fails on some host, platform or environment.",
        rationale: """
            Expectations are the contract the app's router and marketing links rely on; a change that breaks one \
            sends real URLs to the wrong place.
            """,
        examples: [
            RuleExample(
                "an exclusion that swallows an expected link",
                reportsAt: [
                    "domains/shop.yaml:10:5", "domains/shop.yaml:10:5", "domains/shop.yaml:10:5",
                    "domains/shop.yaml:10:5",
                ],
                head: RuleExampleConfiguration.files.replacing(
                    "      - path: /admin/*\n", with: "      - path: /*\n", in: "domains/shop.yaml"
                ).appending("expectations:\n  - url: /products/42\n    opens_app: shop\n", to: "domains/shop.yaml")),
            RuleExample(
                "a met expectation", reportsAt: [],
                head: RuleExampleConfiguration.files.appending(
                    "expectations:\n  - url: /products/42\n    opens_app: shop\n  - url: /admin/users\n    opens_web: true\n",
                    to: "domains/shop.yaml")),
        ])

    func check(_ context: PolicyContext) -> [Finding] {
        var failures: [ExpectationRunner.Result] = []
        ExpectationRunner.forEach(context.head.configuration, context.head.compiled, includingPassed: false) {
            failures.append($0)
        }
        return failures.map { result in
            Finding(
                rule: info.id.rawValue, severity: info.defaultSeverity,
                message: result.failureMessage(
                    namingEnvironment: false, decidingRule: result.decidingRule?.description),
                location: result.location, hint: "fix the rules, or the expectation if the new behaviour is intended",
                witnesses: [result.url], environment: result.environment, host: result.host,
                platform: result.platform,
                identity: [result.environment, result.url, result.platform.rawValue])
        }
    }
}
