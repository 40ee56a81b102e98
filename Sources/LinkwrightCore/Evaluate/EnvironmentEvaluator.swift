/// Decides what a URL does in one compiled environment, per platform and app, the way devices
/// do: the app must claim the host (entitlement or intent filter), and the association file the
/// device fetches for that claim must let the URL open it.
public struct EnvironmentEvaluator: Sendable {
    public let environment: CompiledEnvironment
    /// Compiled association files by the name of the host that serves them.
    private let aasa: [String: CompiledAASA]
    private let assetLinks: [String: CompiledAssetLinks]

    public init(_ environment: CompiledEnvironment) {
        self.environment = environment
        var aasa: [String: CompiledAASA] = [:]
        var assetLinks: [String: CompiledAssetLinks] = [:]
        for site in environment.sites {
            aasa[site.fileHost.name] = site.aasa.map(CompiledAASA.init)
            assetLinks[site.fileHost.name] = site.assetLinks.map(CompiledAssetLinks.init)
        }
        self.aasa = aasa
        self.assetLinks = assetLinks
    }

    /// How an app claims a URL's host.
    public enum Claim: Sendable, Equatable {
        /// The entitlement or intent-filter host is the URL's host.
        case exact(String)
        /// A `*.` wildcard covers the URL's host.
        case wildcard(String)
        case none

        public var declared: String? {
            switch self {
            case .exact(let host), .wildcard(let host): host
            case .none: nil
            }
        }
    }

    /// What one app does with one URL.
    public struct Verdict: Sendable {
        public var platform: Expectation.Platform
        /// The logical app name.
        public var app: String
        /// `TEAMID.bundle` on iOS, the package on Android.
        public var identity: String
        public var claim: Claim
        /// The host whose association file decides; `nil` when the app does not claim the host.
        public var fileHost: String?
        /// The intent-filter scope that accepted the path (Android).
        public var scope: PathScope?
        public var decision: LinkDecision
        /// Whether the link opens the app.
        public var opens: Bool { claim != .none && decision.outcome == .match }
    }

    /// Every app of the environment on `platform`, in declaration order, with what it does with
    /// `url` (which must have a host).
    public func verdicts(for url: LinkURL, platform: Expectation.Platform, tracing: Bool = false) -> [Verdict] {
        guard let host = url.host else { return [] }
        switch platform {
        case .ios:
            return environment.iosApps.map { app in
                let claim = Self.iosClaim(app.associatedDomains, host: host)
                // Apple: domain matching takes the longest entry; an exact entry fetches the host's own
                // file, a wildcard its root's (TN3155).
                let fileHost = claim.declared.map { $0.hasPrefix("*.") ? String($0.dropFirst(2)) : $0 }
                let decision =
                    fileHost.flatMap { aasa[$0]?.decision(for: url, appID: app.appID, tracing: tracing) }
                    ?? LinkDecision(outcome: .noMatch)
                return Verdict(
                    platform: .ios, app: app.name, identity: app.appID, claim: claim, fileHost: fileHost, scope: nil,
                    decision: decision)
            }
        case .android:
            return environment.androidApps.map { app in
                var claim = Claim.none
                var scope: PathScope?
                for filter in app.intentFilters {
                    guard let index = filter.matchingScope(for: url) else { continue }
                    let declared =
                        filter.hosts.first { $0.name == host }
                        ?? filter.hosts.first { HostPattern.androidFilter($0.name, matches: host) }
                    guard let declared else { continue }
                    claim = declared.isWildcard ? .wildcard(declared.name) : .exact(declared.name)
                    scope = filter.scopes[index]
                    break
                }
                // Android verifies a wildcard host against its root (add-applinks; AOSP StatementUtils).
                let fileHost = claim.declared.map { $0.hasPrefix("*.") ? String($0.dropFirst(2)) : $0 }
                let decision =
                    fileHost.flatMap { assetLinks[$0]?.decision(for: url, package: app.package, tracing: tracing) }
                    ?? LinkDecision(outcome: .noMatch)
                return Verdict(
                    platform: .android, app: app.name, identity: app.package, claim: claim, fileHost: fileHost,
                    scope: scope,
                    decision: decision)
            }
        }
    }

    /// The longest applinks entry covering `host`: exact beats wildcard ("Domain matching is based
    /// on the longest substring in the applinks entries", App Search Programming Guide).
    static func iosClaim(_ entries: [String], host: String) -> Claim {
        let hosts = entries.compactMap { entry -> String? in
            guard entry.hasPrefix("applinks:") else { return nil }
            return String(entry.dropFirst("applinks:".count).prefix { $0 != "?" })
        }
        let covering = hosts.filter { HostPattern.appleEntitlement($0, matches: host) }
        guard let best = covering.max(by: { $0.count < $1.count }) else { return .none }
        return best.hasPrefix("*.") ? .wildcard(best) : .exact(best)
    }

    /// The bindings of this environment that serve `host` (the host itself, or a wildcard over it).
    public func servingHosts(for host: String) -> [Host] {
        environment.sites.flatMap(\.servedHosts).filter { served in
            served.name == host || (served.isWildcard && HostPattern.appleEntitlement(served.name, matches: host))
        }
    }
}
