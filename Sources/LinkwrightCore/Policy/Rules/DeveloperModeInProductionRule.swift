/// `?mode=developer` in a production environment.
struct DeveloperModeInProductionRule: PolicyRule {
    let info = RuleInfo(
        id: .developerModeInProduction, defaultSeverity: .error,
        purpose: "A production environment declares its entitlements with ?mode=developer.",
        rationale: """
            Developer mode works only on devices with Associated Domains Development switched on and only for \
            development-signed builds (Associated Domains Entitlement documentation): shipped to the App Store it \
            disables the links for every user.
            """,
        examples: [
            RuleExample(
                "production in developer mode", reportsAt: ["environments/production.yaml:2:20"],
                head: RuleExampleConfiguration.replacing(
                    "tier: production\n", with: "tier: production\nentitlements_mode: developer\n",
                    in: "environments/production.yaml")),
            RuleExample(
                "production in managed mode", reportsAt: [],
                head: RuleExampleConfiguration.replacing(
                    "tier: production\n", with: "tier: production\nentitlements_mode: managed\n",
                    in: "environments/production.yaml")),
            RuleExample("staging in developer mode", reportsAt: [], head: RuleExampleConfiguration.files),
        ])

    func check(_ context: PolicyContext) -> [Finding] {
        context.head.configuration.environments.compactMap { environment in
            guard environment.tier.value == .production, let mode = environment.mode,
                mode.value == .developer || mode.value == .developerAndManaged
            else { return nil }
            return Finding(
                rule: info.id.rawValue, severity: info.defaultSeverity,
                message:
                    "production environment \(environment.name) declares entitlements with ?mode=\(mode.value.rawValue)",
                location: mode.location, hint: "remove entitlements_mode from \(environment.file)",
                environment: environment.name, identity: [environment.name, mode.value.rawValue])
        }
    }
}
