/// One change between two compiled configurations, for people (`diff`, `changelog`) and machines.
public struct LinkChange: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case hostAdded = "host_added"
        case hostRemoved = "host_removed"
        case appAdded = "app_added"
        case appRemoved = "app_removed"
        case fingerprintAdded = "fingerprint_added"
        case fingerprintRemoved = "fingerprint_removed"
        case entitlementAdded = "entitlement_added"
        case entitlementRemoved = "entitlement_removed"
        case ruleAdded = "rule_added"
        case ruleRemoved = "rule_removed"
        case ruleChanged = "rule_changed"
        case ruleMoved = "rule_moved"
        /// An app of the environment declares a custom scheme it did not (`after`: its purpose).
        case schemeAdded = "scheme_added"
        /// An app of the environment no longer declares a custom scheme (`before`: its purpose).
        case schemeRemoved = "scheme_removed"
        /// A custom scheme's purpose or OAuth callback path changed.
        case schemeChanged = "scheme_changed"
        /// URLs that stayed on the web now open the app.
        case opensApp = "opens_app"
        /// URLs that opened the app now stay on the web.
        case opensWeb = "opens_web"
        /// URLs that opened one app now open another.
        case changesApp = "changes_app"
        /// URLs that still open the app, whose router now takes them to another destination.
        case changesRoute = "changes_route"

        public var isBehaviour: Bool {
            self == .opensApp || self == .opensWeb || self == .changesApp || self == .changesRoute
        }

        /// A rule added, removed, changed or moved: how the contract is written.
        public var isRuleChange: Bool {
            self == .ruleAdded || self == .ruleRemoved || self == .ruleChanged || self == .ruleMoved
        }

        /// Who a site's files vouch for: an app of a service, a signing key, a statement.
        public var isParty: Bool {
            self == .appAdded || self == .appRemoved || self == .fingerprintAdded || self == .fingerprintRemoved
        }
    }

    public var kind: Kind
    public var environment: String
    public var host: String?
    /// The custom scheme a change concerns (its declaration, or where the app's router takes its
    /// URLs); `host` and `platform` are then `nil`: both platforms' routers decide alike.
    public var scheme: String?
    /// `ios` or `android`.
    public var platform: Platform?
    /// The app ID (iOS) or package (Android) concerned; for a scheme, the app's name in the
    /// configuration.
    public var app: String?
    /// For behaviour changes `app`, `web` or an app ID (for a route change the destination with its
    /// arguments, as `RouteValue` writes it); for structural ones the old and new value.
    public var before: String?
    public var after: String?
    /// For `opens_web`, where the app's router took the first witness before; for `opens_app`,
    /// where it takes it now; for `changes_app`, both (the app that lost it before, the app that
    /// gained it now): the destination with its arguments (`RouteValue`), `none`, or
    /// `no destination (why)`. `nil` when the rule deciding the witness on that side names no
    /// route (a route change keeps its destinations in `before` and `after`).
    public var routeBefore: String?
    public var routeAfter: String?
    public var witnesses: [String]
    public var location: SourceLocation?
    public var side: RevisionSide
    /// Some rule pairs of this host and platform were left unproven (`BehaviourDiff.Unproven`):
    /// the witnesses are real, but other URLs may change too.
    public var approximate: Bool

    public init(
        kind: Kind, environment: String, host: String? = nil, scheme: String? = nil, platform: Platform? = nil,
        app: String? = nil,
        before: String? = nil, after: String? = nil, routeBefore: String? = nil, routeAfter: String? = nil,
        witnesses: [String] = [], location: SourceLocation? = nil, side: RevisionSide = .head,
        approximate: Bool = false
    ) {
        self.kind = kind
        self.environment = environment
        self.host = host
        self.scheme = scheme
        self.platform = platform
        self.app = app
        self.before = before
        self.after = after
        self.routeBefore = routeBefore
        self.routeAfter = routeAfter
        self.witnesses = witnesses
        self.location = location
        self.side = side
        self.approximate = approximate
    }

    /// Where the change is, as headings and tables name it: the host, or `scheme NAME`.
    public var place: String? { host ?? scheme.map { "scheme \($0)" } }

    /// One line for people.
    public var summary: String {
        let scope = [place, platform?.rawValue].compactMap { $0 }.joined(separator: " ")
        let subject = app.map { " \($0)" } ?? ""
        let text: String
        switch kind {
        case .hostAdded: text = "host added"
        case .hostRemoved: text = "host removed"
        case .appAdded: text = "app added:\(subject)" + (after.map { " (\($0))" } ?? "")
        case .appRemoved: text = "app removed:\(subject)" + (before.map { " (\($0))" } ?? "")
        case .fingerprintAdded: text = "signing key added for\(subject): \(after ?? "")"
        case .fingerprintRemoved: text = "signing key removed for\(subject): \(before ?? "")"
        case .entitlementAdded: text = "entitlement added for\(subject): \(after ?? "")"
        case .entitlementRemoved: text = "entitlement removed for\(subject): \(before ?? "")"
        case .ruleAdded: text = "rule added for\(subject): \(after ?? "")"
        case .ruleRemoved: text = "rule removed for\(subject): \(before ?? "")"
        case .ruleChanged: text = "rule changed for\(subject): \(before ?? "") → \(after ?? "")"
        case .ruleMoved: text = "rule moved for\(subject): \(after ?? "")"
        case .schemeAdded: text = "added for\(subject) (\(after ?? ""))"
        case .schemeRemoved: text = "removed from\(subject) (\(before ?? ""))"
        case .schemeChanged: text = "changed for\(subject): \(before ?? "") → \(after ?? "")"
        case .opensApp:
            text =
                routeAfter.map { "now opens\(subject) \(Self.destination($0)) instead of the web" }
                ?? "now opens\(subject) (was \(before ?? "web"))"
        case .opensWeb:
            text =
                routeBefore.map { "no longer opens\(subject) \(Self.destination($0)); it stays on the web" }
                ?? "now stays on the web (opened\(subject))"
        case .changesApp:
            let at = { (route: String?) in route.map { " " + Self.destination($0) } ?? "" }
            text = "now opens \(after ?? "?")\(at(routeAfter)) instead of \(before ?? "?")\(at(routeBefore))"
        case .changesRoute: text = "\(app ?? "the app") now routes to \(after ?? "?") instead of \(before ?? "?")"
        }
        return "\(environment) \(scope): \(text)"
            + (approximate ? " (not fully proven: other URLs may change too)" : "")
    }

    /// Where a route takes a URL, as a sentence says it: `at ticket(id: 42)`; for a rule whose
    /// route deliberately has no screen, `with no destination (route: none)`; for one whose
    /// parameters cannot be read from the URL, `with no destination (why)`. `code` sets the
    /// route value apart for the format; `prose` escapes the reason.
    public static func destination(
        _ route: String, code: (String) -> String = { $0 }, prose: (String) -> String = { $0 }
    ) -> String {
        if route == RouteValue(destination: nil, arguments: []).description {
            return "with no destination (route: \(code(route)))"
        }
        if route.hasPrefix(unresolvedPrefix) { return "with " + prose(route) }
        return "at " + code(route)
    }

    /// How a route that cannot take a URL anywhere is written (`BehaviourDiff.route`).
    static let unresolvedPrefix = "no destination ("

    /// Whether a router answer as `BehaviourDiff.route` writes it gives the app no destination:
    /// `none`, or a value the router cannot read. `nil` (the rule names no route) is not one.
    static func reachesNoDestination(_ route: String?) -> Bool {
        guard let route else { return false }
        return route == "none" || route.hasPrefix(unresolvedPrefix)
    }
}

extension LinkChange: JSONDescribed {
    /// The change's JSON shape, shared by `check`, `diff` and `changelog`
    /// (docs/schema/check-report.schema.json).
    public func describe(to sink: inout some JSONSink) {
        sink.object { sink in
            sink.key("environment")
            sink.string(environment)
            sink.key("host")
            sink.string(orNull: host)
            sink.key("platform")
            sink.string(orNull: platform?.rawValue)
            sink.key("app")
            sink.string(orNull: app)
            sink.key("kind")
            sink.string(kind.rawValue)
            sink.key("before")
            sink.string(orNull: before)
            sink.key("after")
            sink.string(orNull: after)
            sink.key("witnesses")
            sink.strings(witnesses)
            sink.key("exact")
            sink.bool(!approximate)
            // Present only for a custom scheme's changes, so the others read as before.
            if let scheme {
                sink.key("scheme")
                sink.string(scheme)
            }
            // Present only when a route decides the witness, so changes without routes read as before.
            if let routeBefore {
                sink.key("route_before")
                sink.string(routeBefore)
            }
            if let routeAfter {
                sink.key("route_after")
                sink.string(routeAfter)
            }
        }
    }
}
