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
}

public struct AndroidApp: Sendable, Equatable {
    public var package: Located<String>
    /// Signing certificates by channel (`play-signing`, `upload`, `debug`…), in file order.
    public var fingerprints: [SigningKey]
    public var location: SourceLocation
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

/// `domains/<name>.yaml`: the link contract of a site, the same in every environment.
public struct Domain: Sendable, Equatable {
    public var name: String
    public var file: String
    public var flags: MatchFlags
    public var variables: [SubstitutionVariable]
    public var applinks: [AppLinksEntry]
    /// The apps each of the other services lists (`AssociatedService.appListServices`).
    public var serviceApps: [AssociatedService: [Located<String>]]
    /// Statements of assetlinks.json beside those the apps' links and credentials make.
    public var assetStatements: [DeclaredAssetStatement]
    public var emit: EmitOptions
    public var expectations: [Expectation]

    /// The apps `service`'s list names, in the file's order.
    public func apps(of service: AssociatedService) -> [Located<String>] { serviceApps[service] ?? [] }
}

/// One `asset_statements` entry: relations the site grants another site (`site`), or an app of
/// the environment (`app`, by its name) beyond App Links and shared credentials. An imported
/// file's statements are carried here so the build serves them again.
public struct DeclaredAssetStatement: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        /// `https://example.com`: a web site (Digital Asset Links' `web` namespace).
        case site(Located<String>)
        /// An app of the environment: its Android package and signing keys, where it has them.
        case app(Located<String>)
    }

    public var relations: [Located<String>]
    public var target: Target
    public var location: SourceLocation

    /// The app granted the relations, when it is one.
    public var app: Located<String>? {
        if case .app(let name) = target { return name }
        return nil
    }
}

/// The component flags a rule or `defaults` block writes, where written. Unwritten flags
/// inherit from the level above, then Apple's default (`ComponentFlag.appleDefault`).
public typealias MatchFlags = ComponentFlags<Located<Bool>>

extension Rule {
    /// The rule's flags after its entry's and then its domain's `defaults`.
    public func effectiveFlags(in entry: AppLinksEntry, of domain: Domain) -> EffectiveFlags {
        flags.values.effective(inheriting: [entry.flags.values, domain.flags.values])
    }
}

public struct SubstitutionVariable: Sendable, Equatable {
    public var name: Located<String>
    public var values: [Located<String>]
}

/// One `applinks.details` entry: apps that share an ordered list of rules.
public struct AppLinksEntry: Sendable, Equatable {
    public var apps: [Located<String>]
    public var flags: MatchFlags
    public var rules: [Rule]
    /// The rules are written as Android's dynamic rules read them (lazy `*`, no Apple path
    /// quirks), so they are emitted for Android as they are. For Android-only apps.
    public var androidSemantics: Located<Bool>?
    public var environments: [Located<String>]?
    public var location: SourceLocation
}

/// One component of a `components` array.
public struct Rule: Sendable, Equatable {
    public var path: Located<String>?
    public var query: Located<QueryPattern>?
    public var fragment: Located<String>?
    public var exclude: Bool
    public var comment: String?
    public var flags: MatchFlags
    /// Environments this rule is limited to; `nil` means every environment.
    public var environments: [Located<String>]?
    public var location: SourceLocation
    /// Where the app's router takes the URLs this rule opens.
    public var route: Route? = nil
}

/// The destination of the app's router that a rule's URLs lead to, and how its parameters are
/// read from the URL.
public struct Route: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        /// A destination of the router, by its name (`exhibition`).
        case destination(String)
        /// `route: none`: the app opens without a destination, for the written reason.
        case none(reason: String)
    }

    public var target: Located<Target>
    public var parameters: [RouteParameter]

    public var destination: String? {
        if case .destination(let name) = target.value { return name }
        return nil
    }
}

/// One typed parameter of a route: `slug: segment 2`, `source?: query source`, `id: segment 2 as int`.
public struct RouteParameter: Sendable, Equatable {
    /// Where in the URL the value is read.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// The n-th segment of the path, from 1 (`/exhibitions/monet`: 2 is `monet`).
        case pathSegment(Int)
        /// The first query item with this name.
        case queryItem(String)

        public var description: String {
            switch self {
            case .pathSegment(let position): "segment \(position)"
            case .queryItem(let name): "query \(name)"
            }
        }
    }

    public enum ValueType: String, Sendable, CaseIterable {
        case string
        case int
    }

    public var name: Located<String>
    /// Written with a trailing `?`: the router passes `nil` when the value is absent.
    public var isOptional: Bool
    public var source: Source
    public var type: ValueType

    /// `slug: String`, `source: String?`: how reports show the parameter.
    public var signature: String { "\(name.value)\(isOptional ? "?" : ""): \(type.rawValue)" }
}

public enum QueryPattern: Sendable, Equatable {
    /// A pattern for the whole query string.
    case whole(String)
    /// Patterns for named query items, in file order.
    case items([QueryItemPattern])
}

extension QueryPattern {
    /// The query as a rule's label (`RuleLabel`) writes it.
    func label(sortingItems: Bool) -> RuleLabel.Query {
        switch self {
        case .whole(let pattern): return .whole(pattern)
        case .items(let items):
            let written = items.map { AASAQueryItem(name: $0.name, pattern: $0.pattern) }
            return sortingItems ? RuleLabel.sortedItems(written) : .items(written)
        }
    }
}

public struct QueryItemPattern: Sendable, Equatable {
    public var name: String
    public var pattern: String
    public var location: SourceLocation
}

extension Domain {
    /// The routes of the domain's rules, by the rule's location: what decisions name.
    public var routesByRule: [SourceLocation: Route] {
        // Read in place: copying every rule to find the few with routes was a fortieth of a
        // fleet changelog's time, which asks for each revision's routes per pair.
        var routes: [SourceLocation: Route] = [:]
        for entry in applinks.indices {
            for rule in applinks[entry].rules.indices {
                guard let route = applinks[entry].rules[rule].route else { continue }
                let location = applinks[entry].rules[rule].location
                if routes[location] == nil { routes[location] = route }
            }
        }
        return routes
    }
}

/// Opt-in outputs and limits for a domain's files.
public struct EmitOptions: Sendable, Equatable {
    /// Also emit a legacy `paths` entry for iOS 12 and older.
    public var legacyPaths: Bool = false
    /// Emit Android 15 `dynamic_app_link_components` in assetlinks.json.
    public var androidDynamicRules: Bool = false
    /// Warn when an AASA file grows past this many bytes (Apple's hard limit is 128 KB).
    public var sizeBudget: Located<Int>?

    public init() {}
}

/// A URL and what it must do, checked by `linkwright test`.
public struct Expectation: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// Opens an app: any app when `nil`, else the app with this logical name.
        case opensApp(Located<String>?)
        case opensWeb
    }

    /// A path with optional query and fragment (`/tickets/annual?source=mail`), checked on every
    /// host serving the domain, or an absolute `https://` URL checked on that host only.
    public var url: Located<String>
    public var outcome: Outcome
    public var platforms: [Platform]
    public var environments: [Located<String>]?
    public var comment: String?
    public var location: SourceLocation
    /// With `opens_app`: the destination and arguments the app's router must reach.
    public var route: Located<RouteValue>? = nil
}

/// `policies/*.yaml`: which merge-blocking rules run and how, and what they check against.
/// Several files merge: lists add up; a rule's severity may be set in one file only.
public struct PolicyFile: Sendable {
    public var file: String
    /// Rules to run (absent: every rule).
    public var use: [Located<RuleID>]?
    /// `use` names `ALL`: every rule runs, whatever else any file's `use` lists.
    public var usesAllRules = false
    public var except: [Located<RuleID>]
    public var severities: [(rule: Located<RuleID>, severity: Located<Severity>)]
    public var ignores: [PolicyIgnore]
    public var approvals: [PolicyApproval]
    public var forbiddenPaths: [ForbiddenPath]
    /// Fingerprint channels every production Android app must have (e.g. `play-signing`).
    public var requiredChannels: [Located<String>]
    /// The behaviour diff's work budget (`proof_budget`), in automaton steps.
    public var proofRegionSteps: Located<Int>?
    public var proofTotalSteps: Located<Int>?
    /// Hosts `import` adopted, with what it built for them (`adopted`).
    public var adoptions: [PolicyAdoption] = []

    public init(file: String) {
        self.file = file
        use = nil
        except = []
        severities = []
        ignores = []
        approvals = []
        forbiddenPaths = []
        requiredChannels = []
    }
}

public struct ForbiddenPath: Sendable {
    public var path: Located<String>
    public var reason: String
}

/// Findings of a rule that do not count in some scope, for a written reason.
public struct PolicyIgnore: Sendable {
    public var rule: Located<RuleID>
    public var environment: Located<String>?
    public var host: Located<String>?
    public var reason: String
    public var location: SourceLocation
}

/// A host `linkwright import` adopted: the files it serves were proven to decide every URL as
/// the build does, whose SHA-256 (`PolicyAdoption.digest`) is `build`. While the build for the
/// host is still that one, a change that adds the host adds nothing that was not live already.
public struct PolicyAdoption: Sendable {
    public var environment: Located<String>
    public var host: Located<String>
    public var build: Located<String>
    /// The files imported, for people.
    public var from: String?

    public init(environment: Located<String>, host: Located<String>, build: Located<String>, from: String?) {
        self.environment = environment
        self.host = host
        self.build = build
        self.from = from
    }

    /// The SHA-256 of what `build` writes for `site`: its AASA, a line break, its assetlinks.json.
    public static func digest(of site: CompiledSite) -> String {
        let text = (site.aasa?.json.rendered() ?? "") + "\n" + (site.assetLinks?.json.rendered() ?? "")
        return SHA256.hex(Array(text.utf8))
    }
}

/// A deliberate breaking change, approved by recording its finding's fingerprint and a reason in
/// the same pull request. Approved findings still print, marked approved, and do not block.
public struct PolicyApproval: Sendable {
    public var fingerprint: Located<String>
    public var reason: String
}
