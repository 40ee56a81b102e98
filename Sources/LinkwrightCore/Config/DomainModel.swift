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
    /// The file's bytes when any of them is outside ASCII, else empty. Swift's `String` equality
    /// holds canonically equivalent texts equal (`café` as `e` + U+0301 and as `é`, `K` and the
    /// Kelvin sign), though their bytes, and the URLs they match, differ: with this, a domain
    /// respelt from one form to the other is not the domain it was, so no compilation kept
    /// across revisions (`DomainCompilations`) answers for it. An ASCII file's texts already
    /// compare exactly.
    public var exactSpelling: [UInt8] = []

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
        flags.effective(inheriting: entry.flags, domain.flags)
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
