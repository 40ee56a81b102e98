/// A production app declares a custom scheme of a staging or development build.
struct NonProductionSchemeInProductionRule: PolicyRule {
    let info = RuleInfo(
        id: .nonProductionSchemeInProduction, defaultSeverity: .error,
        purpose:
            "A production app declares a custom scheme that a staging or development environment declares, or one named for a test build (museo-staging).",
        rationale: """
            Test builds sit on the same devices as the store build. If both declare one scheme, the device picks \
            either for every link of it, and a scheme named for staging in a store build sends users' links into \
            test flows (or is one a test build can answer). Production keeps schemes of its own.
            """,
        examples: [
            RuleExample(
                "a staging scheme in the store build", reportsAt: ["environments/production.yaml:12:7"],
                head: RuleExampleConfiguration.declaringSchemes(
                    "      com.example.shop-staging:\n        purpose: deep-links\n")
            ),
            RuleExample(
                "production declares the scheme the staging build declares",
                reportsAt: ["environments/production.yaml:12:7"],
                head: RuleExampleConfiguration.declaringSchemes(Self.shopScheme).declaringSchemes(
                    Self.shopScheme, in: "staging")),
            RuleExample(
                "each environment declares its own scheme", reportsAt: [],
                head: RuleExampleConfiguration.declaringSchemes(Self.shopScheme).declaringSchemes(
                    "      com.example.shop.staging:\n        purpose: deep-links\n", in: "staging")),
        ])

    private static let shopScheme = "      com.example.shop:\n        purpose: deep-links\n"

    /// Words that name a test build, compared with each label of a scheme split at `.`, `-` and
    /// `+`, so `com.example.shop.staging` and `museo-staging` are caught but `com.devon.shop` is not.
    static let testBuildWords: Set<String> = [
        "alpha", "beta", "debug", "dev", "develop", "development", "internal", "preprod", "preview", "qa",
        "sandbox", "stage", "staging", "stg", "test", "testing", "uat",
    ]

    func check(_ context: PolicyContext) -> [Finding] {
        let declared = context.head.configuration.declaredSchemes
        var owners: [String: String] = [:]
        for other in declared where other.environment.tier.value != .production {
            owners[other.name] = other.environment.name
        }
        return declared.compactMap { declared in
            guard declared.environment.tier.value == .production else { return nil }
            let reason: String
            if let owner = owners[declared.name] {
                reason = "which \(owner) also declares"
            } else if let word = declared.name.split(whereSeparator: { ".-+".contains($0) }).first(where: {
                Self.testBuildWords.contains(String($0))
            }) {
                reason = "named for a test build (\(word))"
            } else {
                return nil
            }
            return declared.finding(
                info,
                message:
                    "production app \(PrintableText.quoted(declared.app.name.value)) in \(declared.environment.name) declares scheme \(PrintableText.quoted(declared.name)), \(reason)",
                hint: "give the production build a scheme of its own, and each test build another")
        }
    }
}
