/// A host, app or signing key of a staging or development environment used by a production one.
struct NonProductionHostInProductionRule: PolicyRule {
    let info = RuleInfo(
        id: .nonProductionHostInProduction, defaultSeverity: .error,
        purpose:
            "A production environment uses a host, bundle ID, package or signing key of a staging or development one.",
        rationale: """
            Staging hosts serve unreviewed rules and staging builds carry debug keys: in production they let a \
            test build claim real users' links, or make production links depend on a server nobody monitors.
            """,
        examples: [
            RuleExample(
                "the staging host is served by production", reportsAt: ["environments/production.yaml:13:3"],
                head: RuleExampleConfiguration.replacing(
                    "  shop.example: shop\n", with: "  shop.example: shop\n  staging.shop.example: shop\n",
                    in: "environments/production.yaml")),
            RuleExample(
                "the staging signing key is trusted in production", reportsAt: ["environments/production.yaml:11:17"],
                head: RuleExampleConfiguration.replacing(
                    "        play-signing: \"\(RuleExampleConfiguration.fingerprint)\"\n",
                    with: "        play-signing: \"\(RuleExampleConfiguration.fingerprint)\"\n"
                        + "        upload: \"\(RuleExampleConfiguration.stagingFingerprint)\"\n",
                    in: "environments/production.yaml")),
            RuleExample("separate hosts, apps and keys", reportsAt: [], head: RuleExampleConfiguration.files),
        ])

    func check(_ context: PolicyContext) -> [Finding] {
        let environments = context.head.configuration.environments
        var owners: [String: String] = [:]
        for environment in environments where environment.tier.value != .production {
            for binding in environment.hosts { owners["host " + binding.host.value.name] = environment.name }
            for app in environment.apps {
                if let ios = app.ios { owners["bundle ID " + ios.bundleID.value] = environment.name }
                if let android = app.android {
                    owners["package " + android.package.value] = environment.name
                    for key in android.fingerprints {
                        owners["signing key " + key.fingerprint.value.value] = environment.name
                    }
                }
            }
        }
        var findings: [Finding] = []
        for environment in environments where environment.tier.value == .production {
            var used: [(String, SourceLocation)] = environment.hosts.map {
                ("host " + $0.host.value.name, $0.host.location)
            }
            for app in environment.apps {
                if let ios = app.ios { used.append(("bundle ID " + ios.bundleID.value, ios.bundleID.location)) }
                if let android = app.android {
                    used.append(("package " + android.package.value, android.package.location))
                    used += android.fingerprints.map {
                        ("signing key " + $0.fingerprint.value.value, $0.fingerprint.location)
                    }
                }
            }
            for (thing, location) in used {
                guard let owner = owners[thing] else { continue }
                findings.append(
                    Finding(
                        rule: info.id.rawValue, severity: info.defaultSeverity,
                        message: "production environment \(environment.name) uses \(thing), which belongs to \(owner)",
                        location: location, hint: "give production its own value, or remove it from \(owner)",
                        environment: environment.name, identity: [environment.name, thing]))
            }
        }
        return findings
    }
}
