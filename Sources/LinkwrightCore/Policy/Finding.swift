/// A result of a policy rule: a diagnostic that knows its scope, its witnesses and a fingerprint
/// that stays the same across commits, so it can be approved in `policies/`.
public struct Finding: Sendable, Equatable {
    public var rule: String
    public var severity: Severity
    public var message: String
    public var location: SourceLocation?
    public var side: RevisionSide
    public var hint: String?
    /// Concrete URLs that show the problem.
    public var witnesses: [String]
    public var environment: String?
    public var host: String?
    public var platform: Platform?
    public var app: String?
    /// For a finding reported once per cause: every place it applies. The engine merges the
    /// findings of one rule with one fingerprint into one, listing these after the message.
    public var scopes: [FindingScope] = []
    /// Facts that identify the finding across commits (never line numbers).
    public var identity: [String]
    /// What findings reported at several places share when they are one problem (an app no
    /// longer served by any host of an environment): reports show them as one cause. `nil`: the
    /// finding's place is its cause.
    public var cause: [String]?
    /// Set when `policies/` approves the finding: the written reason.
    public var approval: String?
    /// Set when `policies/` ignores the finding in its scope: the written reason.
    public var ignoredBecause: String?

    public init(
        rule: String, severity: Severity, message: String, location: SourceLocation?, side: RevisionSide = .head,
        hint: String? = nil, witnesses: [String] = [], environment: String? = nil, host: String? = nil,
        platform: Platform? = nil, app: String? = nil, identity: [String]
    ) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.location = location
        self.side = side
        self.hint = hint
        self.witnesses = witnesses
        self.environment = environment
        self.host = host
        self.platform = platform
        self.app = app
        self.identity = identity
    }

    /// `RULE_ID/16 hex digits`, a hash of the rule and its identity.
    public var fingerprint: String {
        "\(rule)/\(StableHash.hex(([rule] + identity).joined(separator: "\u{1F}")))"
    }

    /// Whether the finding stops a merge: an error neither approved nor ignored.
    public var blocks: Bool { severity == .error && approval == nil && ignoredBecause == nil }
}

extension Finding: Comparable {
    public static func < (lhs: Finding, rhs: Finding) -> Bool {
        let left = (lhs.side == .head ? 0 : 1, lhs.location ?? .file(""), lhs.rule, lhs.message)
        let right = (rhs.side == .head ? 0 : 1, rhs.location ?? .file(""), rhs.rule, rhs.message)
        if left.0 != right.0 { return left.0 < right.0 }
        if left.1 != right.1 { return left.1 < right.1 }
        return (left.2, left.3) < (right.2, right.3)
    }
}

/// One place a finding applies: an environment, a host as configured, a platform and an app.
public struct FindingScope: Sendable, Hashable {
    public var environment: String
    public var host: String
    public var platform: Platform
    public var app: String

    public init(environment: String, host: String, platform: Platform, app: String) {
        self.environment = environment
        self.host = host
        self.platform = platform
        self.app = app
    }

    /// "production: example.com (ios, android), *.example.com (ios); staging: …; apps: …", in
    /// the order first seen.
    static func summary(_ scopes: [FindingScope]) -> String {
        var environments: [String] = []
        var hosts: [String: [String]] = [:]
        var platforms: [EnvironmentHost: [Platform]] = [:]
        var apps: [String] = []
        for scope in scopes {
            if !environments.contains(scope.environment) { environments.append(scope.environment) }
            if !hosts[scope.environment, default: []].contains(scope.host) {
                hosts[scope.environment, default: []].append(scope.host)
            }
            let place = EnvironmentHost(environment: scope.environment, host: scope.host)
            if !platforms[place, default: []].contains(scope.platform) {
                platforms[place, default: []].append(scope.platform)
            }
            if !apps.contains(scope.app) { apps.append(scope.app) }
        }
        let places = environments.map { environment in
            environment + ": "
                + hosts[environment]!.map { host in
                    let shown = platforms[EnvironmentHost(environment: environment, host: host)]!.map(\.rawValue)
                    return host + " (" + shown.joined(separator: ", ") + ")"
                }.joined(separator: ", ")
        }
        return places.joined(separator: "; ") + "; " + (apps.count == 1 ? "app " : "apps ")
            + apps.joined(separator: ", ")
    }
}

/// A host of one environment, as a dictionary key.
struct EnvironmentHost: Hashable {
    var environment: String
    var host: String
}

extension EnvironmentHost {
    /// The host `site`'s association files are served from, in `environment`.
    init(_ environment: CompiledEnvironment, _ site: CompiledSite) {
        self.init(environment: environment.name, host: site.fileHost.name)
    }
}
