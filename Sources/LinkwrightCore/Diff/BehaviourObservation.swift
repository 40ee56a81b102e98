/// What the behaviour diff reports: each URL decided on both sides, and what it could not prove.
extension BehaviourDiff {
    /// One URL decided for one app on both sides.
    public struct Observation: Sendable {
        public var environment: String
        /// The host as configured (`*.x` for a wildcard binding, tried on a subdomain).
        public var host: String
        public var platform: Platform
        public var identity: String
        public var url: String
        public var before: EnvironmentEvaluator.Verdict? { didSet { openedBefore = before?.opens ?? false } }
        public var after: EnvironmentEvaluator.Verdict? { didSet { opensAfter = after?.opens ?? false } }
        /// Whether every rule pair on this host and platform was settled, so no URL there changes
        /// in a way the observations do not show.
        public var exhaustive: Bool
        /// Set for a change only an older Android release makes; `identity` then names it
        /// (`BehaviourDiff.labelled`).
        public var androidRelease: AndroidRelease?

        /// The app's identity without the release's name.
        public var appIdentity: String {
            androidRelease.map { String(identity.dropLast(BehaviourDiff.label($0).count)) } ?? identity
        }

        /// Whether `before` and `after` open the app, kept as they are set: read from the
        /// verdicts, they copied a whole verdict each time (`changes(from:)` read them 68,424
        /// times over a 100-tag changelog).
        public private(set) var openedBefore: Bool
        public private(set) var opensAfter: Bool
        /// Where the app's router takes the URL on each side that opens it (`RouteValue`, `none`,
        /// or why it has no destination), when the deciding rule names a route.
        public var routeBefore: String?
        public var routeAfter: String?

        public init(
            environment: String, host: String, platform: Platform, identity: String, url: String,
            before: EnvironmentEvaluator.Verdict?, after: EnvironmentEvaluator.Verdict?, exhaustive: Bool = false,
            androidRelease: AndroidRelease? = nil, routeBefore: String? = nil, routeAfter: String? = nil
        ) {
            (self.environment, self.host, self.platform, self.identity, self.url) =
                (environment, host, platform, identity, url)
            openedBefore = before?.opens ?? false
            opensAfter = after?.opens ?? false
            (self.before, self.after) = (before, after)
            (self.exhaustive, self.androidRelease) = (exhaustive, androidRelease)
            (self.routeBefore, self.routeAfter) = (routeBefore, routeAfter)
        }

        /// Both sides open the app, and its router takes the URL to another destination. A
        /// router giving no destination on both sides (`none`, or a value it cannot read) does
        /// the same thing with the URL, whatever the reason.
        public var changesRoute: Bool {
            openedBefore && opensAfter && routeBefore != routeAfter
                && !(LinkChange.reachesNoDestination(routeBefore) && LinkChange.reachesNoDestination(routeAfter))
        }
    }

    /// Rules on a host that may decide some URLs differently, left unsettled by the budget.
    public struct Unproven: Sendable, Equatable {
        public var environment: String
        public var host: String
        public var platform: Platform
        public var identity: String
        /// The rules deciding such URLs on each side, as written (`nil`: none).
        public var baseRule: String?
        public var headRule: String?
        /// The head rule's location, else the base rule's.
        public var location: SourceLocation?
        public var side: RevisionSide
        /// Whether an exclusion decides on one side: such URLs are the ones policies protect.
        public var touchesExclusion: Bool
        /// Set for rules as an older Android release reads them; `identity` then names it.
        public var androidRelease: AndroidRelease? = nil

        /// One line for people.
        public var summary: String {
            "\(environment) \(host) \(platform.rawValue): not proven for \(identity): \(pair)"
        }

        /// The two rules, for people: `URLs the base decides with /a and the head with /b`.
        public var pair: String {
            "URLs the base decides with \(baseRule ?? "no rule") and the head with \(headRule ?? "no rule")"
        }

        /// The regions of each app on each host and platform, in the order first met: a budget
        /// running out on a toggled flag leaves hundreds of pairs on one scope, which people
        /// read as one entry with its count, not hundreds.
        public static func byScope(_ regions: [Unproven]) -> [[Unproven]] {
            var scopes: [[Unproven]] = []
            var position: [[String]: Int] = [:]
            for region in regions {
                let key = [region.environment, region.host, region.platform.rawValue, region.identity]
                if let known = position[key] {
                    scopes[known].append(region)
                } else {
                    position[key] = scopes.count
                    scopes.append([region])
                }
            }
            return scopes
        }

        /// One line for a scope's regions (`byScope`): how many pairs, and the first.
        public static func summary(ofScope regions: [Unproven]) -> String {
            guard let first = regions.first else { return "" }
            guard regions.count > 1 else { return first.summary }
            return "\(first.environment) \(first.host) \(first.platform.rawValue): \(regions.count) rule pairs not "
                + "proven for \(first.identity), the first: \(first.pair)"
        }
    }
}
