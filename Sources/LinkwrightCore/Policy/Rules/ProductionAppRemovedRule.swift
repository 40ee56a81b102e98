/// An app ID, Android package or signing fingerprint that a production host served at the base
/// is gone at the head.
struct ProductionAppRemovedRule: PolicyRule {
    let info = RuleInfo(
        id: "PRODUCTION_APP_REMOVED", defaultSeverity: .error,
        purpose: "A production host stops serving an app, package or signing key it served before.",
        rationale: """
            Installed apps re-verify their domains: once a production association file stops listing an app \
            (or the key it is signed with), its links open the browser for every user, with no error anywhere.
            """,
        examples: [
            RuleExample(
                "the domain keeps the app to staging",
                reportsAt: ["environments/production.yaml:12:3", "environments/production.yaml:12:3"],
                base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "  - apps: [shop]\n", with: "  - apps: [shop]\n    environments: [staging]\n",
                    in: "domains/shop.yaml")),
            RuleExample(
                "the production host disappears",
                reportsAt: ["environments/production.yaml:12:3", "environments/production.yaml:12:3"],
                base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "  shop.example: shop\n", with: "  store.example: shop\n", in: "environments/production.yaml")),
            RuleExample(
                "the Play signing key is replaced", reportsAt: ["environments/production.yaml:12:3"],
                base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "play-signing: \"14:6D", with: "play-signing: \"15:6D", in: "environments/production.yaml")),
            RuleExample(
                "a staging host disappears", reportsAt: [], base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "  staging.shop.example: shop\n", with: "  preview.shop.example: shop\n",
                    in: "environments/staging.yaml")),
            RuleExample(
                "a rule is added", reportsAt: [], base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "      - path: /products/*\n", with: "      - path: /products/*\n      - path: /offers/*\n",
                    in: "domains/shop.yaml")),
        ])

    func check(_ context: PolicyContext) -> [Finding] {
        guard let base = context.base else { return [] }
        var findings: [Finding] = []
        for before in base.compiled.environments where before.tier == .production {
            let after = context.head.compiled.environments.first { $0.name == before.name && $0.tier == .production }
            let headBindings = context.head.configuration.environment(named: before.name)?.bindingsByFileHost() ?? [:]
            let baseBindings = base.configuration.environment(named: before.name)?.bindingsByFileHost() ?? [:]
            var afterSites: [Host: CompiledSite] = [:]
            for site in after?.sites ?? [] where afterSites[site.fileHost] == nil { afterSites[site.fileHost] = site }
            for site in before.sites {
                let afterSite = afterSites[site.fileHost]
                let oldParties = SiteParties(site)
                let newParties = afterSite.map(SiteParties.init) ?? SiteParties()
                // Point at the head's host binding while the host exists, else at the base's.
                let headBinding = headBindings[site.fileHost]
                let baseBinding = baseBindings[site.fileHost]
                let (location, side): (SourceLocation?, RevisionSide) =
                    headBinding.map { ($0.host.location, .head) } ?? (baseBinding?.host.location, .base)
                let hostGone = afterSite == nil ? " (the host is no longer served)" : ""
                func report(_ what: String, _ identity: [String], app: String, platform: Platform) {
                    var finding = Finding(
                        rule: info.id, severity: info.defaultSeverity,
                        message: "\(site.fileHost) in \(before.name) no longer serves \(what)\(hostGone)",
                        location: location, side: side,
                        hint: "restore it, or approve the removal in policies/ with this finding's fingerprint",
                        environment: before.name, host: site.fileHost.name, platform: platform, app: app,
                        identity: [before.name, site.fileHost.name] + identity)
                    // One app gone from an environment is one problem, however many hosts served it.
                    finding.cause = [before.name, app]
                    findings.append(finding)
                }
                for removed in oldParties.iosServices.subtracting(newParties.iosServices).sorted() {
                    report(
                        "\(removed.appID) for \(removed.service)", [removed.service, removed.appID], app: removed.appID,
                        platform: .ios)
                }
                for (package, fingerprints) in oldParties.androidKeys.sorted(by: { $0.key < $1.key }) {
                    guard let kept = newParties.androidKeys[package] else {
                        report("the Android package \(package)", [package], app: package, platform: .android)
                        continue
                    }
                    for fingerprint in fingerprints.subtracting(kept).sorted() {
                        report(
                            "signing key \(fingerprint) of \(package)", [package, fingerprint], app: package,
                            platform: .android)
                    }
                }
            }
        }
        return findings
    }
}
