/// Findings with one cause: one rule at one place (or with one `Finding.cause`) in one
/// revision, treated alike (blocking, approved with one reason, ignored with one reason, or
/// reported at one severity). A changed line that breaks a URL on 34 hosts and two platforms is
/// one cause, so it is one annotation, one SARIF result, one JUnit case and one table row,
/// listing where it applies; the first finding's place stands for the cause.
public struct FindingGroup: Sendable {
    /// In report order; never empty.
    public var findings: [Finding]
    public var blocks: Bool

    public var first: Finding { findings[0] }
    public var rule: String { first.rule }
    public var severity: Severity { first.severity }
    public var location: SourceLocation? { first.location }
    public var side: RevisionSide { first.side }
    public var approval: String? { first.approval }
    public var ignoredBecause: String? { first.ignoredBecause }

    /// The first finding's message, and how many more there are.
    public var headline: String {
        findings.count == 1 ? first.message : "\(first.message) (and \(findings.count - 1) more like it)"
    }

    /// Every distinct message after the first.
    public var otherMessages: [String] { findings.dropFirst().map(\.message).uniqued() }

    /// Up to `limit` witnesses of every finding, each once.
    public func witnesses(_ limit: Int) -> [String] {
        Array(findings.flatMap(\.witnesses).uniqued().prefix(limit))
    }

    public var fingerprints: [String] { findings.map(\.fingerprint).uniqued() }

    /// Whether `approvals:` in policies/ can approve it: policy findings can, diagnostics about
    /// the input cannot.
    public var isApprovable: Bool { RuleID(rawValue: rule) != nil }

    /// Hosts `places` names in each environment before it counts the rest.
    static let hostsNamed = 10

    /// "production: museo.example (ios, android), *.museo.example (ios); staging: …", from the
    /// findings' own scope; `nil` when none names one.
    public var places: String? {
        var environments: [String] = []
        var hosts: [String: [String]] = [:]
        var platforms: [EnvironmentHost: [String]] = [:]
        for finding in findings {
            let scopes =
                finding.scopes.isEmpty
                ? [(finding.environment, finding.host, finding.platform)]
                : finding.scopes.map { ($0.environment, $0.host, $0.platform) }
            for (environment, host, platform) in scopes {
                guard let environment else { continue }
                if !environments.contains(environment) { environments.append(environment) }
                guard let host else { continue }
                if !hosts[environment, default: []].contains(host) { hosts[environment, default: []].append(host) }
                let place = EnvironmentHost(environment: environment, host: host)
                if let platform, !platforms[place, default: []].contains(platform.rawValue) {
                    platforms[place, default: []].append(platform.rawValue)
                }
            }
        }
        guard !environments.isEmpty else { return nil }
        return environments.map { environment in
            let all = hosts[environment, default: []]
            var named = all.prefix(Self.hostsNamed).map { host in
                let shown = platforms[EnvironmentHost(environment: environment, host: host), default: []]
                return shown.isEmpty ? host : host + " (" + shown.joined(separator: ", ") + ")"
            }
            if all.count > Self.hostsNamed { named.append("and \(all.count - Self.hostsNamed) more hosts") }
            return named.isEmpty ? environment : environment + ": " + named.joined(separator: ", ")
        }.joined(separator: "; ")
    }

    /// Groups `findings` by cause, most important first: blocking causes, then by severity, by the
    /// rule's rank (`rank`, policy rules in `PolicyRules.all` order: a dropped production app
    /// before a catch-all before an expectation), then head before base and by place.
    static func groups(_ findings: [Finding], in report: some Report) -> [FindingGroup] {
        var groups: [FindingGroup] = []
        var index: [Cause: Int] = [:]
        for finding in findings {
            let cause = Cause(
                rule: finding.rule, cause: finding.cause, location: finding.cause == nil ? finding.location : nil,
                side: finding.side, severity: finding.severity, approval: finding.approval,
                ignoredBecause: finding.ignoredBecause)
            if let existing = index[cause] {
                groups[existing].findings.append(finding)
            } else {
                index[cause] = groups.count
                groups.append(FindingGroup(findings: [finding], blocks: report.blocks(finding)))
            }
        }
        let ranks = Dictionary(report.rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        return groups.enumerated().sorted { left, right in
            let (l, r) = (left.element, right.element)
            if l.blocks != r.blocks { return l.blocks }
            if l.severity != r.severity { return l.severity > r.severity }
            let (lr, rr) = (ranks[l.rule] ?? Int.max, ranks[r.rule] ?? Int.max)
            if lr != rr { return lr < rr }
            if l.side != r.side { return l.side == .head }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// What findings of one cause share.
    private struct Cause: Hashable {
        var rule: String
        var cause: [String]?
        var location: SourceLocation?
        var side: RevisionSide
        var severity: Severity
        var approval: String?
        var ignoredBecause: String?
    }
}
