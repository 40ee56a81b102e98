/// The whole configuration: every environment, domain contract and policy file, with the
/// location of everything the user wrote.
public struct Configuration: Sendable {
    public var environments: [Environment]
    public var domains: [Domain] { didSet { domainPositions = NamePositions() } }
    public var policies: [PolicyFile]
    /// Where each domain name first appears in `domains`, built on the first lookup: thousands
    /// of hosts and domains each asking for a domain by name made validation quadratic.
    private var domainPositions = NamePositions()

    public init(environments: [Environment], domains: [Domain], policies: [PolicyFile]) {
        self.environments = environments
        self.domains = domains
        self.policies = policies
    }

    public func environment(named name: String) -> Environment? { environments.first { $0.name == name } }
    public func domain(named name: String) -> Domain? {
        domainPositions.position(of: name, in: domains.map(\.name)).map { domains[$0] }
    }
}

/// The position of each name's first occurrence in a list, computed once on first use and
/// shared by copies of the value holding it (a fresh one replaces it when the list changes).
final class NamePositions: Sendable {
    private let positions = Once<[String: Int]>()

    /// `names` is read only on the first call: it must be the list every call means.
    func position(of name: String, in names: @autoclosure () -> [String]) -> Int? {
        positions.value {
            var made: [String: Int] = [:]
            for (index, name) in names().enumerated() where made[name] == nil { made[name] = index }
            return made
        }[name]
    }
}

public enum Tier: String, Sendable, CaseIterable, Codable {
    case production
    case staging
    case development
}

/// The alternate mode of associated-domain entitlements (`applinks:host?mode=developer`),
/// from Apple's Associated Domains Entitlement documentation.
public enum EntitlementMode: String, Sendable, CaseIterable {
    case developer
    case managed
    case developerAndManaged = "developer+managed"
}

/// `environments/<name>.yaml`: the apps, identities and hosts of one deployment.
public struct Environment: Sendable, Equatable {
    public var name: String
    public var file: String
    public var tier: Located<Tier>
    public var teamID: Located<String>?
    public var mode: Located<EntitlementMode>?
    public var apps: [AppDefinition]
    public var hosts: [HostBinding]

    public func app(named name: String) -> AppDefinition? { apps.first { $0.name.value == name } }

    /// Every host name the environment binds, wildcards as written: what a sample standing for
    /// a wildcard avoids (`URLSamples.host(for:avoiding:)`).
    public var boundHostNames: Set<String> { Set(hosts.map(\.host.value.name)) }

    /// Each file host's first binding (`*.a.example` and `a.example` share one file host), for
    /// rules that look up a binding per site: a search per site was quadratic in hosts.
    public func bindingsByFileHost() -> [Host: HostBinding] {
        var found: [Host: HostBinding] = [:]
        for binding in hosts where found[binding.host.value.fileHost] == nil {
            found[binding.host.value.fileHost] = binding
        }
        return found
    }
}

/// An app under its logical name, with its identity on each platform it ships on.
public struct AppDefinition: Sendable, Equatable {
    public var name: Located<String>
    public var ios: IOSApp?
    public var android: AndroidApp?
    /// Custom URL schemes the app owns, in file order.
    public var schemes: [CustomScheme] = []
}

/// What a custom URL scheme is for. Policies read it: an OAuth callback must come back on the
/// scheme, never on a verified HTTPS link.
public enum SchemePurpose: String, Sendable, CaseIterable {
    /// The redirect URI of an OAuth or OpenID Connect sign-in (RFC 8252, section 7.1).
    case oauthCallback = "oauth-callback"
    /// Links from other apps, notifications or QR codes that open a screen of the app.
    case deepLinks = "deep-links"
    /// Replies from another app the app called (payments, sharing, x-callback-url).
    case appCallback = "app-callback"
}

/// A custom URL scheme (`es.emergencias.app:`) an app declares in Info.plist `CFBundleURLTypes`
/// and in an Android `<intent-filter>` without `autoVerify`. Unlike a universal link, any app
/// can declare the same scheme: nothing verifies who owns it.
public struct CustomScheme: Sendable, Equatable {
    /// Lowercase, as RFC 3986 section 3.1 spells a scheme.
    public var name: Located<String>
    public var purpose: Located<SchemePurpose>
    /// For an OAuth callback, the redirect URI's path (`/oauth/callback` in
    /// `es.emergencias.app:/oauth/callback`): the path no verified HTTPS link may open.
    public var callbackPath: Located<String>?
    /// `routes:`: where the app's router takes the scheme's URLs, tried in order as a domain's
    /// rules are (path and query items only; no fragment, flags or variables). Empty: the
    /// scheme names no destinations, and its URLs open the app at none.
    public var routes: [Rule] = []
    /// `routes_from:`: the environment whose same app's scheme of the same purpose lends its
    /// `routes` (`SchemeRouteSharing` copies them in after loading, entries keeping their
    /// locations there).
    public var routesFrom: Located<String>? = nil
    /// `expectations:`: URLs of the scheme and the route they must reach, for `linkwright test`.
    public var expectations: [Expectation] = []
}

public struct IOSApp: Sendable, Equatable {
    public var bundleID: Located<String>
    /// Overrides the environment's team ID for this app.
    public var teamID: Located<String>?
    public var isAppClip: Bool
    public var location: SourceLocation
    /// `entitlements:`: the app's entitlements file, from the configuration folder, that `sync`
    /// keeps in step.
    public var entitlementsFile: Located<String>? = nil
    /// `info_plist:`: the app's Info.plist, from the configuration folder, that `sync` keeps in step.
    public var infoPlistFile: Located<String>? = nil
}

public struct AndroidApp: Sendable, Equatable {
    public var package: Located<String>
    /// Signing certificates by channel (`play-signing`, `upload`, `debug`…), in file order.
    public var fingerprints: [SigningKey]
    public var location: SourceLocation
    /// `manifest:` and `activity:`: the flavor's manifest, from the configuration folder, and
    /// the activity in it whose intent filters `sync` keeps in step.
    public var manifest: AppManifest? = nil
}

/// A flavor's `AndroidManifest.xml` and the activity (as its `android:name` is written) that
/// opens the links.
public struct AppManifest: Sendable, Equatable {
    public var file: Located<String>
    public var activity: Located<String>
}

public struct SigningKey: Sendable, Equatable {
    public var channel: Located<String>
    public var fingerprint: Located<Fingerprint>
}

/// `host: domain` in an environment: this host serves that domain contract.
public struct HostBinding: Sendable, Equatable {
    public var host: Located<Host>
    public var domain: Located<String>
}
