/// A custom scheme's `routes:` compiled once: the destination the app's generated routers return
/// for a URL of the scheme. The system hands the app every URL of a scheme it declares (Apple's
/// "Defining a custom URL scheme for your app"; Android's `<data android:scheme>` intent
/// filters), so the router alone decides: the first entry whose path and query items match, as
/// a domain rule's `/` and `?` match on Apple devices (`CompiledAASA`, default flags: case and
/// escapes as written), on both platforms.
public struct CompiledSchemeRoutes: Sendable {
    /// The scheme as declared, lowercase.
    public let scheme: String
    private let matcher: CompiledAASA
    private let routes: [SourceLocation: Route]

    public init(_ declared: CustomScheme) {
        scheme = declared.name.value
        matcher = declared.routesMatcher
        routes = Dictionary(
            declared.routes.compactMap { rule in rule.route.map { (rule.location, $0) } },
            uniquingKeysWith: { first, _ in first })
    }

    /// The compiled entries in order, for analyses of the routes (`RouteOverlapAnalysis`).
    var rules: [CompiledAASA.Rule] { matcher.entries.flatMap(\.rules) }

    /// What the router makes of `url`, a URL of this scheme (`LinkURL.customScheme`).
    public func answer(for url: LinkURL) -> SchemeAnswer {
        // Which part of `scheme://x/y` is a path is where readings differ: no route reads one.
        guard url.host == nil else { return .withAuthority }
        let decision = matcher.decision(for: url, appID: CustomScheme.routesAppID)
        guard let origin = decision.origin else { return .noEntry }
        guard decision.outcome == .match, let route = routes[origin] else { return .excluded(origin) }
        switch RouteResolver.resolve(route, url: url) {
        case .success(let value): return .route(value, origin: origin)
        case .failure(let problem): return .unreadable(problem, origin: origin)
        }
    }
}

/// What a router makes of a URL of a declared scheme. The URL opens the app in every case; only
/// `.route` with a destination takes it somewhere.
public enum SchemeAnswer: Sendable, Equatable, CustomStringConvertible {
    /// The entry at `origin` leads to the value (`none` for `route: none`).
    case route(RouteValue, origin: SourceLocation)
    /// The entry at `origin` matches, but a parameter is absent or not an `int`.
    case unreadable(RouteProblem, origin: SourceLocation)
    /// An `exclude` entry at `origin` matches.
    case excluded(SourceLocation)
    /// No entry matches.
    case noEntry
    /// The URL has an authority (`scheme://x/path`), which the routes never read.
    case withAuthority

    /// What the router returns: `none` unless an entry leads to a destination.
    public var value: RouteValue {
        if case .route(let value, _) = self { return value }
        return RouteValue(destination: nil, arguments: [])
    }

    /// The entry that decided, when one did.
    public var origin: SourceLocation? {
        switch self {
        case .route(_, let origin), .unreadable(_, let origin), .excluded(let origin): origin
        case .noEntry, .withAuthority: nil
        }
    }

    /// How reports say it after the app's name: "at oauthCallback(code: a, state: b)".
    public var description: String {
        switch self {
        case .route(let value, _): "at \(value)"
        case .unreadable(let problem, _): "with no destination: \(problem.message)"
        case .excluded: "with no destination: an exclude entry matches"
        case .noEntry: "with no destination: no route entry matches"
        case .withAuthority: "with no destination: the URL has an authority (scheme://), which no route reads"
        }
    }
}

extension Environment {
    /// The apps of the environment that declare `url`'s scheme and ship on `platform`: the apps
    /// the system may hand the URL to. iOS reads schemes without case (RFC 3986 section 3.1);
    /// Android's `IntentFilter.matchData` compares them exactly, and declared schemes are
    /// lowercase.
    public func apps(receiving url: LinkURL, on platform: Platform) -> [(app: AppDefinition, scheme: CustomScheme)] {
        guard let written = url.scheme, url.isSchemeURL else { return [] }
        let scheme = platform == .ios ? written.lowercased() : written
        return apps.compactMap { app in
            guard platform == .ios ? app.ios != nil : app.android != nil,
                let declared = app.schemes.first(where: { $0.name.value == scheme })
            else { return nil }
            return (app, declared)
        }
    }
}
