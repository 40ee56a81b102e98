/// A rule that earlier rules always decide first, new with this change.
struct UnreachableRuleRule: PolicyRule {
    let info = RuleInfo(
        id: .unreachableRule, defaultSeverity: .error,
        purpose: "A rule is never reached: earlier rules of its entry decide every URL it matches first.",
        rationale: """
            Apple takes the first rule that matches (Universal Links components, TN3155), so a rule below a broader \
            one does nothing. The author meant something by it, usually an exclusion or a different app for those \
            URLs, and the change does not do it. Found exactly on the matching automata for paths and fragments, \
            conservatively where query dictionaries are involved.
            """,
        examples: [
            RuleExample(
                "a sale exclusion added below the rule that already opens it",
                reportsAt: ["domains/shop.yaml:7:9", "domains/shop.yaml:7:9"],
                base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "      - path: /products/*\n",
                    with: "      - path: /products/*\n      - path: /products/sale/*\n        exclude: true\n",
                    in: "domains/shop.yaml")),
            RuleExample(
                "the same exclusion above it", reportsAt: [],
                base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "      - path: /products/*\n",
                    with: "      - path: /products/sale/*\n        exclude: true\n      - path: /products/*\n",
                    in: "domains/shop.yaml")),
            RuleExample(
                "an unreachable rule the base already had, moved down a line", reportsAt: [],
                base: RuleExampleConfiguration.replacing(
                    "      - path: /products/*\n", with: "      - path: /products/*\n      - path: /products/new\n",
                    in: "domains/shop.yaml"),
                head: RuleExampleConfiguration.replacing(
                    "      - path: /products/*\n",
                    with: "      - path: /products/*\n\n      - path: /products/new\n        comment: shadowed\n",
                    in: "domains/shop.yaml")),
            RuleExample(
                "both environments' files change, one gets an unreachable rule",
                reportsAt: ["domains/shop.yaml:8:9"],
                base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "      - path: /products/*\n",
                    with: "      - path: /products/*\n      - path: /offers/*\n      - path: /products/staff\n"
                        + "        environments: [staging]\n",
                    in: "domains/shop.yaml")),
        ],
        isAboutChange: true)

    func check(_ context: PolicyContext) -> [Finding] {
        context.newRuleFindings(.unreachableRule).map {
            $0.finding(of: info, hint: "move it above the rules that decide first, or remove it")
        }
    }
}
