/// A production Android app without a signing key of a required channel.
struct FingerprintChannelMissingRule: PolicyRule {
    let info = RuleInfo(
        id: .fingerprintChannelMissing, defaultSeverity: .error,
        purpose: "A production Android app lacks a required signing-key channel (play-signing unless configured).",
        rationale: """
            Google Play re-signs apps with the Play App Signing key and devices verify the certificate of the \
            installed app: a statement that lists only the upload key verifies for nobody who installed from Play.
            """,
        examples: [
            RuleExample(
                "only the upload key", reportsAt: ["environments/production.yaml:8:7"],
                head: RuleExampleConfiguration.replacing(
                    "play-signing:", with: "upload:", in: "environments/production.yaml")),
            RuleExample("the Play signing key is listed", reportsAt: [], head: RuleExampleConfiguration.files),
            RuleExample(
                "a staging app with the upload key only", reportsAt: [], head: RuleExampleConfiguration.files),
        ])

    func check(_ context: PolicyContext) -> [Finding] {
        var findings: [Finding] = []
        for environment in context.head.configuration.environments where environment.tier.value == .production {
            for app in environment.apps {
                guard let android = app.android else { continue }
                let channels = Set(android.fingerprints.map(\.channel.value))
                for required in context.settings.requiredChannels where !channels.contains(required) {
                    findings.append(
                        Finding(
                            rule: info.id.rawValue, severity: info.defaultSeverity,
                            message:
                                "production app \(app.name.value) (\(android.package.value)) has no \(required) fingerprint",
                            location: android.location,
                            hint: "add fingerprints: {\(required): …} (Play Console › App integrity › App signing)",
                            environment: environment.name, platform: .android, app: android.package.value,
                            identity: [environment.name, android.package.value, required]))
                }
            }
        }
        return findings
    }
}
