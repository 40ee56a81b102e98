/// Runs the enabled rules and applies the settings: severities, ignores, approvals.
public struct PolicyEngine: Sendable {
    public let rules: [any PolicyRule]

    public init(rules: [any PolicyRule] = PolicyRules.all) { self.rules = rules }

    /// Why a finding of a rule about a change does not count: its host was adopted with what it
    /// serves, unchanged since.
    static func liveBeforeAdoption(_ finding: Finding, _ adopted: [EnvironmentHostName: PolicyAdoption]) -> String? {
        guard !adopted.isEmpty, let environment = finding.environment, let host = finding.host,
            let adoption = adopted[EnvironmentHostName(environment: environment, host: host)]
        else { return nil }
        return "live before adoption: linkwright import proved the build for \(host) decides as "
            + (adoption.from ?? "the files it served") + " did (\(adoption.build.location.file))"
    }

    public func run(_ context: PolicyContext) -> PolicyReport {
        var findings: [FingerprintedFinding] = []
        // Rules are pure and share their costly work through the context's locked memos (a rule
        // asking for work another is doing waits for it), so they run on every core; their
        // findings are taken in the rules' order, and sorted below. A fingerprint is a hash,
        // made once per finding on the rule's core (a change to every domain of a fleet finds
        // hundreds of thousands).
        let enabled = rules.filter { context.settings.enabled.contains($0.info.id) }
        // Threads take rules in turn: the first rule reading the behaviour diff starts it at
        // once, the other rules are checked meanwhile, and the rules that would wait for the
        // diff come last, so no core idles while rules are left.
        let readers = enabled.indices.filter { enabled[$0].readsBehaviourDiff }
        let schedule =
            readers.prefix(1) + enabled.indices.filter { !enabled[$0].readsBehaviourDiff } + readers.dropFirst()
        let checkedInOrder = schedule.parallelMap { index in
            enabled[index].check(context).map { FingerprintedFinding(finding: $0, fingerprint: $0.fingerprint) }
        }
        var checked = [[FingerprintedFinding]](repeating: [], count: enabled.count)
        for (index, found) in zip(schedule, checkedInOrder) { checked[index] = found }
        let approvals = context.settings.approvals
        let adopted = context.settings.adoptions.isEmpty ? [:] : context.liveBeforeAdoption()
        findings.reserveCapacity(checked.reduce(0) { $0 + $1.count })
        for (rule, found) in zip(enabled, checked) {
            for var found in found {
                found.finding.severity = context.settings.severities[rule.info.id] ?? found.finding.severity
                found.finding.ignoredBecause =
                    context.settings.ignores.first { $0.covers(found.finding) }?.reason
                    ?? (rule.info.isAboutChange ? Self.liveBeforeAdoption(found.finding, adopted) : nil)
                found.finding.approval = approvals.isEmpty ? nil : approvals[found.fingerprint]?.reason
                findings.append(found)
            }
        }
        findings = Self.mergingScopes(findings)
        // Sorted by position, not moved: a change to every domain of a fleet finds a million
        // findings of a dozen strings each. The sort is stable, as `sorted` is.
        let order = findings.indices.sorted { findings[$0].finding < findings[$1].finding }
        struct Identity: Hashable {
            let fingerprint: String
            let message: String
        }
        // Sized once: grown insert by insert, a million findings rehashed the set twenty times.
        var seen = Set<Identity>(minimumCapacity: findings.count)
        var unique: [Finding] = []
        unique.reserveCapacity(findings.count)
        var used: Set<String> = []
        for position in order {
            let found = findings[position]
            guard seen.insert(Identity(fingerprint: found.fingerprint, message: found.finding.message)).inserted
            else { continue }
            unique.append(found.finding)
            if !approvals.isEmpty { used.insert(found.fingerprint) }
        }
        let unusedApprovals = approvals.values.filter { !used.contains($0.fingerprint.value) }
            .sorted { $0.fingerprint.location < $1.fingerprint.location }
        return PolicyReport(findings: unique, unusedApprovals: unusedApprovals)
    }

    /// A finding with its fingerprint (`Finding.fingerprint`), which merging scopes keeps.
    struct FingerprintedFinding {
        var finding: Finding
        let fingerprint: String
    }
}

extension PolicyEngine {
    /// Findings reported per cause: those of one rule with one fingerprint and the same outcome
    /// (blocking, approved or ignored: ignores apply per scope) become one, with every scope
    /// listed after the message and up to five witnesses; environment, host, platform and app
    /// stay set only where all scopes agree.
    static func mergingScopes(_ findings: [FingerprintedFinding]) -> [FingerprintedFinding] {
        var merged: [FingerprintedFinding] = []
        merged.reserveCapacity(findings.count)
        // Scopes already in each merged finding: a cause seen on thousands of hosts is not
        // searched scope by scope for each new one.
        var scopesOf: [Int: Set<FindingScope>] = [:]
        // Findings merge when they are the same finding treated the same way.
        struct Treatment: Hashable {
            var fingerprint: String
            var ignoredBecause: String?
            var severity: Severity
        }
        var index: [Treatment: Int] = [:]
        for found in findings {
            let finding = found.finding
            guard !finding.scopes.isEmpty else {
                merged.append(found)
                continue
            }
            let key = Treatment(
                fingerprint: found.fingerprint, ignoredBecause: finding.ignoredBecause, severity: finding.severity)
            guard let existing = index[key] else {
                index[key] = merged.count
                scopesOf[merged.count] = Set(finding.scopes)
                merged.append(found)
                continue
            }
            for scope in finding.scopes where scopesOf[existing]!.insert(scope).inserted {
                merged[existing].finding.scopes.append(scope)
            }
            for witness in finding.witnesses {
                let shown = merged[existing].finding.witnesses
                if shown.count < 5 && !shown.contains(witness) { merged[existing].finding.witnesses.append(witness) }
            }
        }
        return merged.map { found in
            guard !found.finding.scopes.isEmpty else { return found }
            var finding = found.finding
            func common<Value: Hashable>(_ value: (FindingScope) -> Value) -> Value? {
                Set(finding.scopes.map(value)).count == 1 ? value(finding.scopes[0]) : nil
            }
            finding.environment = common(\.environment)
            finding.host = common(\.host)
            finding.platform = common(\.platform)
            finding.app = common(\.app)
            finding.message += " (" + FindingScope.summary(finding.scopes) + ")"
            return FingerprintedFinding(finding: finding, fingerprint: found.fingerprint)
        }
    }
}

extension PolicyIgnore {
    func covers(_ finding: Finding) -> Bool {
        rule.value.rawValue == finding.rule && (environment == nil || environment?.value == finding.environment)
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
