/// A rule that matches every URL of a site, new with this change.
struct CatchAllAddedRule: PolicyRule {
    let info = RuleInfo(
        id: .catchAllAdded, defaultSeverity: .error,
        purpose: "A rule now matches every URL of a site: every link opens the app, or (an exclusion) none does.",
        rationale: """
            A catch-all hands the app pages it cannot show (login, OAuth callbacks, legal pages, files), and an \
            excluded catch-all silently turns every universal link of the site into a web page. Either can be \
            right, but never by accident: approve it in policies/ when it is meant.
            """,
        examples: [
            RuleExample(
                "products widened to everything", reportsAt: ["domains/shop.yaml:6:9", "domains/shop.yaml:6:9"],
                base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "      - path: /products/*\n", with: "      - path: \"*\"\n", in: "domains/shop.yaml")),
            RuleExample(
                "an exclusion of every URL", reportsAt: ["domains/shop.yaml:4:9", "domains/shop.yaml:4:9"],
                base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "      - path: /admin/*\n", with: "      - path: /*\n", in: "domains/shop.yaml")),
            RuleExample(
                "a catch-all except for one query item is not one", reportsAt: [],
                base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "      - path: /products/*\n", with: "      - path: \"*\"\n        query: {ref: \"?*\"}\n",
                    in: "domains/shop.yaml")),
        ],
        isAboutChange: true)

    func check(_ context: PolicyContext) -> [Finding] {
        context.newRuleFindings(.catchAll).map {
            $0.finding(of: info, hint: "narrow the rule, or approve the catch-all in policies/")
        }
    }
}
