/// An app ID, Android package or signing fingerprint that a production host served at the base
/// is gone at the head.
struct ProductionAppRemovedRule: PolicyRule {
    /// For the URLs a dropped wildcard binding stops opening (`lostWildcards`).
    let readsBehaviourDiff = true
    let info = RuleInfo(
        id: .productionAppRemoved, defaultSeverity: .error,
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
                "the production wildcard host disappears, its root kept",
                reportsAt: ["environments/production.yaml:13:3", "environments/production.yaml:13:3"],
                base: RuleExampleConfiguration.replacing(
                    "  shop.example: shop\n", with: "  shop.example: shop\n  \"*.shop.example\": shop\n",
                    in: "environments/production.yaml"),
                head: RuleExampleConfiguration.files),
            RuleExample(
                "a production wildcard host is replaced by one of its subdomains",
                reportsAt: ["environments/production.yaml:13:3", "environments/production.yaml:13:3"],
                base: RuleExampleConfiguration.replacing(
                    "  shop.example: shop\n", with: "  shop.example: shop\n  \"*.shop.example\": shop\n",
                    in: "environments/production.yaml"),
                head: RuleExampleConfiguration.replacing(
                    "  shop.example: shop\n", with: "  shop.example: shop\n  www.shop.example: shop\n",
                    in: "environments/production.yaml")),
            RuleExample(
                "a production wildcard host is added", reportsAt: [], base: RuleExampleConfiguration.files,
                head: RuleExampleConfiguration.replacing(
                    "  shop.example: shop\n", with: "  shop.example: shop\n  \"*.shop.example\": shop\n",
                    in: "environments/production.yaml")),
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
        ],
        isAboutChange: true)

    func check(_ context: PolicyContext) -> [Finding] {
        guard let base = context.base else { return [] }
        let observations = context.behaviourObservations()
        var findings: [Finding] = []
        for before in base.compiled.environments where before.tier == .production {
            let after = context.head.compiled.environments.first { $0.name == before.name && $0.tier == .production }
            let headBindings = context.head.configuration.environment(named: before.name)?.bindingsByFileHost() ?? [:]
            let baseBindings = base.configuration.environment(named: before.name)?.bindingsByFileHost() ?? [:]
            var afterSites: [Host: CompiledSite] = [:]
            for site in after?.sites ?? [] where afterSites[site.fileHost] == nil { afterSites[site.fileHost] = site }
            findings += lostWildcards(before, after, context, observations)
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
                        rule: info.id.rawValue, severity: info.defaultSeverity,
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

    /// What a production wildcard binding claimed at the base and no binding claims at the head,
    /// while its root's files stay (a root gone with its files is reported above): `*.x` dropped
    /// from `hosts:` sends every subdomain's links to the browser, though no file changed. A
    /// subdomain still covered by a wider wildcard loses only what that wildcard does not claim.
    /// Each finding carries the URLs the behaviour diff saw stop opening the app there.
    private func lostWildcards(
        _ before: CompiledEnvironment, _ after: CompiledEnvironment?, _ context: PolicyContext,
        _ observations: [BehaviourDiff.Observation]
    ) -> [Finding] {
        guard let after else { return [] }
        let headHosts = Set(after.sites.flatMap(\.servedHosts))
        let headSites = SiteLookup(after)
        let bound = before.boundHostNames.union(after.boundHostNames)
        let baseEnvironment = context.base?.configuration.environment(named: before.name)
        var findings: [Finding] = []
        let headFileHosts = Set(after.sites.map(\.fileHost))
        for site in before.sites where headFileHosts.contains(site.fileHost) {
            for wildcard in site.servedHosts where wildcard.isWildcard && !headHosts.contains(wildcard) {
                let sample = URLSamples.host(for: wildcard, avoiding: bound)
                let covering = headSites.site(serving: sample)
                let coveringBinding = covering?.servedHosts.first {
                    $0.isWildcard && sample.hasSuffix("." + $0.fileHost.name)
                }
                let lost = WildcardClaims(before, site, wildcard)
                    .subtracting(covering.flatMap { site in coveringBinding.map { WildcardClaims(after, site, $0) } })
                guard !lost.isEmpty else { continue }
                let location = baseEnvironment?.hosts.first { $0.host.value == wildcard }?.host.location
                let lostURLs = observations.filter {
                    $0.environment == before.name && $0.host == wildcard.name && $0.openedBefore && !$0.opensAfter
                }
                func report(_ what: String, _ identity: [String], app: String, platform: Platform) {
                    var finding = Finding(
                        rule: info.id.rawValue, severity: info.defaultSeverity,
                        message:
                            "\(wildcard) in \(before.name) no longer serves \(what) (no host binding covers its subdomains)",
                        location: location, side: .base,
                        hint:
                            "restore the host binding, or approve the removal in policies/ with this finding's fingerprint",
                        witnesses: Array(
                            lostURLs.filter { $0.platform == platform && $0.identity == app }.map(\.url).prefix(3)),
                        environment: before.name, host: wildcard.name, platform: platform, app: app,
                        identity: [before.name, wildcard.name] + identity)
                    finding.cause = [before.name, app]
                    findings.append(finding)
                }
                for removed in lost.iosServices.sorted() {
                    report(
                        "\(removed.appID) for \(removed.service)", [removed.service, removed.appID], app: removed.appID,
                        platform: .ios)
                }
                for package in lost.androidPackages.sorted() {
                    report("the Android package \(package)", [package], app: package, platform: .android)
                }
            }
        }
        return findings
    }
}

/// What apps a wildcard binding claims through its root's files: the iOS services whose
/// entitlement names the wildcard and which the root's file lists, and the Android packages whose
/// intent filters name it and which the root's asset links list.
private struct WildcardClaims {
    var iosServices: Set<SiteParties.Service>
    var androidPackages: Set<String>

    init(_ environment: CompiledEnvironment, _ site: CompiledSite, _ wildcard: Host) {
        let parties = SiteParties(site)
        let entitled = Set(
            environment.iosApps.flatMap { app in
                app.associatedDomains.compactMap { entry -> SiteParties.Service? in
                    let (service, host) = (entry.prefix { $0 != ":" }, entry.drop { $0 != ":" }.dropFirst())
                    guard host.prefix(while: { $0 != "?" }) == wildcard.name else { return nil }
                    return SiteParties.Service(service: String(service), appID: app.appID)
                }
            })
        iosServices = parties.iosServices.intersection(entitled)
        androidPackages = Set(
            environment.androidApps.filter { app in
                parties.androidKeys[app.package] != nil
                    && app.intentFilters.contains { $0.hosts.contains(wildcard) }
            }.map(\.package))
    }

    var isEmpty: Bool { iosServices.isEmpty && androidPackages.isEmpty }

    func subtracting(_ other: WildcardClaims?) -> WildcardClaims {
        guard let other else { return self }
        var left = self
        left.iosServices.subtract(other.iosServices)
        left.androidPackages.subtract(other.androidPackages)
        return left
    }
}
