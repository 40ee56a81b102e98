/// The behaviour diff could not settle, within its work budget, whether some URLs decide
/// differently: the check fails safe instead of passing on an answer it did not prove.
struct BehaviourUnprovenRule: PolicyRule {
    let readsBehaviourDiff = true
    let info = RuleInfo(
        id: .behaviourUnproven, defaultSeverity: .error,
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
                reportsAt: Array(repeating: "domains/shop.yaml:4:9", count: 2),
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
        ],
        isAboutChange: true)

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

    /// One finding per app, host and platform, however many rule pairs the budget left there
    /// (a toggled `percent_encoded` can leave hundreds): it names their count and the first
    /// pair, at that pair's place. Its fingerprint covers exactly those pairs, so the same pairs
    /// on the other hosts of a domain are one finding, and approving it approves no pair added
    /// later.
    func check(_ context: PolicyContext) -> [Finding] {
        let tiers = Dictionary(
            context.head.compiled.environments.map { ($0.name, $0.tier) }, uniquingKeysWith: { first, _ in first })
        return BehaviourDiff.Unproven.byScope(context.behaviourComparison().unproven).map { regions in
            let first = regions[0]
            let blocks = tiers[first.environment] == .production || regions.contains(where: \.touchesExclusion)
            let pairs = regions.map { [$0.location?.file ?? "", $0.baseRule ?? "", $0.headRule ?? ""] }
            let many = regions.count > 1 ? "\(regions.count) rule pairs, the first: " : ""
            var finding = Finding(
                rule: info.id.rawValue, severity: blocks ? .error : .warning,
                message: "not proven within the work budget: \(many)\(first.pair) may open differently",
                location: first.location, side: first.side,
                hint: "raise proof_budget in policies/, write the patterns with fewer `*`, or approve the finding",
                environment: first.environment, host: first.host, platform: first.platform, app: first.identity,
                identity: regions.count == 1
                    ? pairs[0]
                    : [
                        pairs[0][0],
                        StableHash.hex(pairs.map { $0.joined(separator: "\u{1F}") }.joined(separator: "\u{1E}")),
                    ])
            finding.scopes = [
                FindingScope(
                    environment: first.environment, host: first.host, platform: first.platform, app: first.identity)
            ]
            return finding
        }
    }
}
