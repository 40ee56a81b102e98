/// Runs the enabled rules and applies the settings: severities, ignores, approvals.
public struct PolicyEngine: Sendable {
    public let rules: [any PolicyRule]

    public init(rules: [any PolicyRule] = PolicyRules.all) { self.rules = rules }

    public func run(_ context: PolicyContext) -> PolicyReport {
        var findings: [Finding] = []
        // Rules are pure and share their costly work through the context's locked memos (a rule
        // asking for work another is doing waits for it), so they run on every core; their
        // findings are taken in the rules' order, and sorted below.
        let enabled = rules.filter { context.settings.enabled.contains($0.info.id) }
        for (rule, checked) in zip(enabled, enabled.parallelMap { $0.check(context) }) {
            for var finding in checked {
                finding.severity = context.settings.severities[rule.info.id] ?? finding.severity
                finding.ignoredBecause = context.settings.ignores.first { $0.covers(finding) }?.reason
                finding.approval = context.settings.approvals[finding.fingerprint]?.reason
                findings.append(finding)
            }
        }
        findings = Self.mergingScopes(findings)
        var seen: Set<String> = []
        let unique = findings.sorted().filter { seen.insert($0.fingerprint + "\u{1F}" + $0.message).inserted }
        let used = Set(unique.map(\.fingerprint))
        let unusedApprovals = context.settings.approvals.values.filter { !used.contains($0.fingerprint.value) }
            .sorted { $0.fingerprint.location < $1.fingerprint.location }
        return PolicyReport(findings: unique, unusedApprovals: unusedApprovals)
    }
}

extension PolicyEngine {
    /// Findings reported per cause: those of one rule with one fingerprint and the same outcome
    /// (blocking, approved or ignored: ignores apply per scope) become one, with every scope
    /// listed after the message and up to five witnesses; environment, host, platform and app
    /// stay set only where all scopes agree.
    static func mergingScopes(_ findings: [Finding]) -> [Finding] {
        var merged: [Finding] = []
        // Findings merge when they are the same finding treated the same way.
        struct Treatment: Hashable {
            var fingerprint: String
            var ignoredBecause: String?
            var severity: Severity
        }
        var index: [Treatment: Int] = [:]
        for finding in findings {
            guard !finding.scopes.isEmpty else {
                merged.append(finding)
                continue
            }
            let key = Treatment(
                fingerprint: finding.fingerprint, ignoredBecause: finding.ignoredBecause, severity: finding.severity)
            guard let existing = index[key] else {
                index[key] = merged.count
                merged.append(finding)
                continue
            }
            var group = merged[existing]
            group.scopes += finding.scopes.filter { !group.scopes.contains($0) }
            for witness in finding.witnesses where group.witnesses.count < 5 && !group.witnesses.contains(witness) {
                group.witnesses.append(witness)
            }
            merged[existing] = group
        }
        return merged.map { finding in
            guard !finding.scopes.isEmpty else { return finding }
            var finding = finding
            func common<Value: Hashable>(_ value: (FindingScope) -> Value) -> Value? {
                Set(finding.scopes.map(value)).count == 1 ? value(finding.scopes[0]) : nil
            }
            finding.environment = common(\.environment)
            finding.host = common(\.host)
            finding.platform = common(\.platform)
            finding.app = common(\.app)
            finding.message += " (" + FindingScope.summary(finding.scopes) + ")"
            return finding
        }
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
