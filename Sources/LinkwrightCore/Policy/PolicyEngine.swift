/// Runs the enabled rules and applies the settings: severities, ignores, approvals.
public struct PolicyEngine: Sendable {
    public let rules: [any PolicyRule]

    public init(rules: [any PolicyRule] = PolicyRules.all) { self.rules = rules }

    public func run(_ context: PolicyContext) -> PolicyReport {
        var findings: [Finding] = []
        for rule in rules where context.settings.enabled.contains(rule.info.id) {
            for var finding in rule.check(context) {
                finding.severity = context.settings.severities[rule.info.id] ?? finding.severity
                finding.ignoredBecause = context.settings.ignores.first { $0.covers(finding) }?.reason
                finding.approval = context.settings.approvals[finding.fingerprint]?.reason
                findings.append(finding)
            }
        }
        var seen: Set<String> = []
        let unique = findings.sorted().filter { seen.insert($0.fingerprint + "\u{1F}" + $0.message).inserted }
        let used = Set(unique.map(\.fingerprint))
        let unusedApprovals = context.settings.approvals.values.filter { !used.contains($0.fingerprint.value) }
            .sorted { $0.fingerprint.location < $1.fingerprint.location }
        return PolicyReport(findings: unique, unusedApprovals: unusedApprovals)
    }
}

extension PolicyIgnore {
    func covers(_ finding: Finding) -> Bool {
        rule.value == finding.rule && (environment == nil || environment?.value == finding.environment)
            && (host == nil || host?.value == finding.host)
    }
}

/// The findings of a check, sorted, and the approvals that matched nothing (stale approvals are
/// reported so they do not silently approve a future finding).
public struct PolicyReport: Sendable {
    public var findings: [Finding]
    public var unusedApprovals: [PolicyApproval]

    public var blocks: Bool { findings.contains(where: \.blocks) }
}
