/// The result of compiling a configuration: every environment with what each host serves and
/// what each app declares. Artifacts (bytes) are rendered from this by `ArtifactRenderer`.
public struct CompiledConfiguration: Sendable {
    public var environments: [CompiledEnvironment]

    public init(environments: [CompiledEnvironment]) { self.environments = environments }
}

public struct CompiledEnvironment: Sendable {
    public var name: String
    public var tier: Tier
    public var mode: EntitlementMode?
    /// One per host that serves association files (wildcard hosts share their root's).
    public var sites: [CompiledSite]
    public var iosApps: [CompiledIOSApp]
    public var androidApps: [CompiledAndroidApp]

    /// The site whose files decide links on `host` (its own, or its root's for a wildcard match).
    /// For many lookups, make a `SiteLookup` once.
    public func site(serving host: String) -> CompiledSite? { SiteLookup(self).site(serving: host) }

    /// Every host name the environment binds, wildcards as written: what a sample standing for
    /// a wildcard avoids (`URLSamples.host(for:avoiding:)`).
    public var boundHostNames: Set<String> { Set(sites.flatMap { $0.servedHosts.map(\.name) }) }
}

/// An environment's sites by the hosts they serve: a host's own site (the first serving it by
/// name), else the first site with a wildcard covering it. Made once per environment, it answers
/// each lookup without walking every site (a rule asking for each of thousands of hosts walked
/// them all, which made it cubic in hosts).
public struct SiteLookup {
    private let sites: [CompiledSite]
    private let exact: [String: Int]
    /// Each host that files are fetched from: a wildcard's root serves its site's files even
    /// where a wider wildcard also covers it (`*.eu.x` beside `*.x`).
    private let fileHosts: [String: Int]
    /// `.root` suffixes of wildcard hosts, in site order.
    private let wildcards: [(suffix: String, site: Int)]

    public init(_ environment: CompiledEnvironment) {
        sites = environment.sites
        var exact: [String: Int] = [:]
        var wildcards: [(suffix: String, site: Int)] = []
        var fileHosts: [String: Int] = [:]
        for (position, site) in environment.sites.enumerated() {
            if fileHosts[site.fileHost.name] == nil { fileHosts[site.fileHost.name] = position }
            for host in site.servedHosts {
                if exact[host.name] == nil { exact[host.name] = position }
                if host.isWildcard { wildcards.append(("." + host.fileHost.name, position)) }
            }
        }
        self.exact = exact
        self.fileHosts = fileHosts
        self.wildcards = wildcards
    }

    public func site(serving host: String) -> CompiledSite? {
        if let position = exact[host] { return sites[position] }
        return wildcards.first { host.hasSuffix($0.suffix) }.map { sites[$0.site] }
    }

    /// The site whose files a claim naming `fileHost` fetches (`Host.fileHost`): the one
    /// fetched from that host, as devices and `EnvironmentEvaluator` read it, else as `serving`.
    public func site(fetchedFrom fileHost: String) -> CompiledSite? {
        fileHosts[fileHost].map { sites[$0] } ?? site(serving: fileHost)
    }
}

/// The association files of one host.
public struct CompiledSite: Sendable {
    /// The host the files are fetched from.
    public var fileHost: Host
    /// The hosts whose links these files decide: the root and/or `*.root`, or a single host.
    public var servedHosts: [Host]
    /// The domain contract. Every site of one domain in an environment carries the same files
    /// (they depend on the domain and environment only), which renderers and evaluators rely on
    /// to do the work once per domain.
    public var domain: String
    /// `nil` when no iOS app takes part on this host.
    public var aasa: AASADocument?
    /// `nil` when no Android app takes part on this host.
    public var assetLinks: AssetLinksDocument?
}

public struct CompiledIOSApp: Sendable, Equatable {
    public var name: String
    public var appID: String
    public var isAppClip: Bool
    /// `com.apple.developer.associated-domains` entries, in emission order.
    public var associatedDomains: [String]
    /// The custom schemes the app declares in Info.plist `CFBundleURLTypes`, in file order.
    public var urlSchemes: [CompiledScheme] = []
}

/// A custom URL scheme as both platforms declare it.
public struct CompiledScheme: Sendable, Equatable {
    public var name: String
    public var purpose: SchemePurpose
}

public struct CompiledAndroidApp: Sendable, Equatable {
    public var name: String
    public var package: String
    public var intentFilters: [IntentFilter]
    /// The custom schemes the app declares, one unverified `<intent-filter>` each.
    public var schemes: [CompiledScheme] = []
}

/// One `<intent-filter android:autoVerify="true">`: the hosts of one domain contract and the
/// static path scope that covers its rules (the scope Android 15 dynamic rules may only narrow).
public struct IntentFilter: Sendable, Equatable {
    public var domain: String
    public var hosts: [Host]
    public var scopes: [PathScope]
}
