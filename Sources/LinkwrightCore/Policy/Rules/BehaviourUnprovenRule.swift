/// The behaviour diff could not settle, within its work budget, whether some URLs decide
/// differently: the check fails safe instead of passing on an answer it did not prove.
struct BehaviourUnprovenRule: PolicyRule {
    let readsBehaviourDiff = true
    let info = RuleInfo(
        id: "BEHAVIOUR_UNPROVEN", defaultSeverity: .error,
        purpose:
            "The behaviour diff ran out of its work budget before proving whether the URLs two rules decide changed.",
        rationale: """
            A check that passes without knowing is worse than none: release engineers stop reading the diff. \
            Where the proof stops at its budget (policies' proof_budget; docs/semantics.md says what it counts), \
            the URLs in question are named by the rules deciding them on each side. It blocks when an exclusion or \
            a production environment is involved, and warns otherwise; raise the budget, simplify the patterns, \
            or approve the finding.
            """,
        examples: [
            RuleExample(
                "a rule with many wildcards inserted above an exclusion, with a tiny budget",
                reportsAt: Array(repeating: "domains/shop.yaml:4:9", count: 5)
                    + Array(repeating: "domains/shop.yaml:7:9", count: 8)
                    + Array(repeating: "domains/shop.yaml:6:9", count: 8),
                base: budget(RuleExampleConfiguration.files),
                head: budget(
                    RuleExampleConfiguration.replacing(
                        "      - path: /admin/*\n",
                        with: "      - path: \"\(manyWildcards)\"\n      - path: /admin/*\n",
                        in: "domains/shop.yaml"))),
            RuleExample(
                "the same change within the standard budget", reportsAt: [], base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "      - path: /admin/*\n", with: "      - path: \"\(manyWildcards)\"\n      - path: /admin/*\n",
                    in: "domains/shop.yaml")),
        ])

    /// A suffix rule with a wildcard between every letter: its region is larger than the
    /// smallest budget.
    private static let manyWildcards = "*/" + "abcdefghijklmnopqrstuvwxyz".map(String.init).joined(separator: "*")

    /// `files` with the smallest proof budget a policy may set.
    private static func budget(_ files: [String: String]) -> [String: String] {
        files.merging([
            "policies/budget.yaml":
                "proof_budget:\n  region_steps: \(ProofLimits.minimumSteps)\n  total_steps: \(ProofLimits.minimumSteps)\n"
        ]) { $1 }
    }

    func check(_ context: PolicyContext) -> [Finding] {
        let tiers = Dictionary(
            context.head.compiled.environments.map { ($0.name, $0.tier) }, uniquingKeysWith: { first, _ in first })
        return context.behaviourComparison().unproven.map { region in
            let blocks = region.touchesExclusion || tiers[region.environment] == .production
            var finding = Finding(
                rule: info.id, severity: blocks ? .error : .warning,
                message: "not proven within the work budget: URLs the base decides with "
                    + "\(region.baseRule ?? "no rule") and the head with \(region.headRule ?? "no rule") may open "
                    + "differently",
                location: region.location, side: region.side,
                hint: "raise proof_budget in policies/, write the patterns with fewer `*`, or approve the finding",
                environment: region.environment, host: region.host, platform: region.platform,
                app: region.identity,
                identity: [region.location?.file ?? "", region.baseRule ?? "", region.headRule ?? ""])
            finding.scopes = [
                FindingScope(
                    environment: region.environment, host: region.host, platform: region.platform,
                    app: region.identity)
            ]
            return finding
        }
    }
}
