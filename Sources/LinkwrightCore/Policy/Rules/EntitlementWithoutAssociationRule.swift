/// An entitlement for a host whose association file does not list the app, or the reverse.
struct EntitlementWithoutAssociationRule: PolicyRule {
    private static let production = "environments/production.yaml"
    let info = RuleInfo(
        id: .entitlementWithoutAssociation, defaultSeverity: .error,
        purpose:
            "An app's entitlements name a host whose association file does not list it, or a file lists an app for a host its entitlements lack.",
        rationale: """
            iOS verifies both halves (Supporting associated domains): the app must claim the host and the host must \
            list the app. Half an association is a link that never opens the app.
            """,
        examples: [
            RuleExample(
                "an App Clip served only through a wildcard host", reportsAt: ["environments/production.yaml:14:3"],
                head: RuleExampleConfiguration.files
                    .replacing("  shop.example: shop\n", with: "  \"*.shop.example\": shop\n", in: Self.production)
                    .replacing("apps:\n", with: "apps:\n" + Self.clip, in: Self.production)
                    .appending("appclips: [clip]\n", to: "domains/shop.yaml")),
            RuleExample(
                "an App Clip on a concrete host", reportsAt: [],
                head: RuleExampleConfiguration.files
                    .replacing("apps:\n", with: "apps:\n" + Self.clip, in: Self.production)
                    .appending("appclips: [clip]\n", to: "domains/shop.yaml")),
        ])

    private static let clip = "  clip:\n    ios: {bundle_id: com.example.shop.Clip, app_clip: true}\n"

    func check(_ context: PolicyContext) -> [Finding] {
        var findings: [Finding] = []
        for environment in context.head.compiled.environments {
            let declared = context.head.configuration.environment(named: environment.name)
            let bindings = declared?.bindingsByFileHost() ?? [:]
            let lookup = SiteLookup(environment)
            for app in environment.iosApps {
                let location = declared?.app(named: app.name)?.ios?.location
                for entry in app.associatedDomains {
                    let (service, host) = Self.split(entry)
                    let listed = lookup.site(serving: host).map { SiteParties($0).iosServices } ?? []
                    if !listed.contains(SiteParties.Service(service: service, appID: app.appID)) {
                        findings.append(
                            finding(
                                "\(app.appID) declares \(service):\(host) but \(host) does not list it for \(service)",
                                location: location, environment: environment.name, host: host, app: app.appID))
                    }
                }
            }
            // Per app ID (its first app), each service and the file host its entitlements reach.
            var claims: [String: Set<Claim>] = [:]
            for app in environment.iosApps where claims[app.appID] == nil {
                claims[app.appID] = Set(
                    app.associatedDomains.compactMap { entry in
                        let (service, host) = Self.split(entry)
                        return lookup.site(serving: host).map { Claim(service: service, fileHost: $0.fileHost) }
                    })
            }
            for site in environment.sites {
                for party in SiteParties(site).iosServices.sorted() {
                    let claimed = claims[party.appID]?.contains(Claim(service: party.service, fileHost: site.fileHost))
                    guard claimed != true else { continue }
                    let binding = bindings[site.fileHost]
                    findings.append(
                        finding(
                            "\(site.fileHost) lists \(party.appID) for \(party.service), but no host it serves is in the app's entitlements",
                            location: binding?.host.location, environment: environment.name, host: site.fileHost.name,
                            app: party.appID))
                }
            }
        }
        return findings
    }

    private struct Claim: Hashable {
        var service: String
        var fileHost: Host
    }

    private func finding(_ message: String, location: SourceLocation?, environment: String, host: String, app: String)
        -> Finding
    {
        Finding(
            rule: info.id.rawValue, severity: info.defaultSeverity, message: message, location: location,
            hint: "serve the app on a concrete host of this domain, or remove it from the service",
            environment: environment, host: host, platform: .ios, app: app, identity: [environment, message])
    }

    /// `applinks:host?mode=developer` → ("applinks", "host").
    static func split(_ entry: String) -> (service: String, host: String) {
        let service = String(entry.prefix { $0 != ":" })
        let host = entry.dropFirst(service.count + 1).prefix { $0 != "?" }
        return (service, String(host))
    }
}
