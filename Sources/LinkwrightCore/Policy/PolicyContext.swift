/// What a rule sees: the head (the change), the base it is compared with (`nil` when there is
/// none: a first introduction, or a check of the head alone), and the policy settings. Both
/// sides are revisions of the caller's `RevisionCache`, which keeps what is made of them.
public struct PolicyContext: Sendable {
    public var head: CachedRevision
    public var base: CachedRevision?
    public var settings: PolicySettings
    /// Work several rules need, done on first use and shared by them.
    let shared = SharedWork()

    public init(head: CachedRevision, base: CachedRevision?, settings: PolicySettings) {
        self.head = head
        self.base = base
        self.settings = settings
    }

    /// A reference, so copies of the context share what was computed.
    final class SharedWork: Sendable {
        let newRuleFindings = Once<[ScopedRuleFinding]>()
        let comparison = Once<BehaviourDiff.Comparison>()
    }

    /// How base and head decide URLs differently (nothing without a base), computed once for
    /// the rules and the report that need it.
    public func behaviourComparison() -> BehaviourDiff.Comparison {
        guard let base else { return BehaviourDiff.Comparison() }
        return shared.comparison.value {
            BehaviourDiff.compare(base: base, head: head, limits: settings.proofLimits)
        }
    }

    /// The URLs whose outcome differs between base and head.
    public func behaviourObservations() -> [BehaviourDiff.Observation] { behaviourComparison().observations }

    /// The behaviour changes between base and head, from the shared observations.
    public func behaviourChanges() -> [LinkChange] {
        base == nil ? [] : behaviourComparison().changes
    }

    /// The adoptions (`adopted` in policies/) that hold here, by environment and host: the
    /// base does not serve the host in the environment, and the head builds for it exactly
    /// what `import` proved to decide as the files it served. What a rule about a change finds
    /// there was live before the change.
    public func liveBeforeAdoption() -> [EnvironmentHostName: PolicyAdoption] {
        var holding: [EnvironmentHostName: PolicyAdoption] = [:]
        for adoption in settings.adoptions {
            let key = EnvironmentHostName(environment: adoption.environment.value, host: adoption.host.value)
            func serves(_ environment: CompiledEnvironment?) -> CompiledSite? {
                environment?.sites.first { $0.servedHosts.contains { $0.name == key.host } }
            }
            let base = self.base?.compiled.environments.first { $0.name == key.environment }
            guard serves(base) == nil,
                let site = serves(head.compiled.environments.first { $0.name == key.environment }),
                PolicyAdoption.digest(of: site) == adoption.build.value
            else { continue }
            holding[key] = adoption
        }
        return holding
    }
}

/// A host of an environment, by name, as findings and adoptions name them.
public struct EnvironmentHostName: Hashable, Sendable {
    public var environment: String
    public var host: String
}

extension PolicyContext {
    /// Findings of the engine's static analysis with `id` at the head that the base did not have
    /// (all of them when there is no base): a rule made unreachable or a catch-all added by this
    /// change, however the lines moved.
    func newRuleFindings(_ id: DiagnosticID) -> [ScopedRuleFinding] {
        let all = shared.newRuleFindings.value { computeNewRuleFindings() }
        return all.filter { $0.finding.id == id }
    }

    /// Only sites whose association file changed can have new findings: the analysis of an
    /// unchanged file gives the same findings on both sides, so those sites are skipped.
    private func computeNewRuleFindings() -> [ScopedRuleFinding] {
        let analysis = ConfigurationRuleAnalysis()
        // The policies asking (UNREACHABLE_RULE, CATCH_ALL_ADDED) need no Android translation.
        guard let base else { return analysis.findings(in: head.compiled, translations: false) }
        // Rendered once per domain and environment: every host of a domain serves the same file.
        func files(_ compiled: CompiledConfiguration) -> [EnvironmentHost: String] {
            var byHost: [EnvironmentHost: String] = [:]
            for environment in compiled.environments {
                var rendered: [String: String] = [:]
                for site in environment.sites {
                    let text = rendered[site.domain] ?? site.aasa.map { $0.json.rendered() } ?? ""
                    rendered[site.domain] = text
                    byHost[EnvironmentHost(environment, site)] = text
                }
            }
            return byHost
        }
        let before = files(base.compiled)
        let after = files(head.compiled)
        let changed = { (environment: CompiledEnvironment, site: CompiledSite) in
            let key = EnvironmentHost(environment, site)
            return before[key] != after[key]
        }
        let headFindings = analysis.findings(in: head.compiled, translations: false, including: changed)
        guard !headFindings.isEmpty else { return [] }
        let changedSites = Set(headFindings.map { EnvironmentHost(environment: $0.environment, host: $0.host) })
        let known = Set(
            analysis.findings(in: base.compiled, translations: false) { environment, site in
                changedSites.contains(EnvironmentHost(environment, site))
            }.map(\.identity))
        return headFindings.filter { !known.contains($0.identity) }
    }
}

extension ScopedRuleFinding {
    /// This analysis finding as a finding of the policy rule `info`, scoped to its environment,
    /// host and apps and identified without line numbers.
    func finding(of info: RuleInfo, hint: String) -> Finding {
        Finding(
            rule: info.id.rawValue, severity: info.defaultSeverity, message: "\(host): \(message)",
            location: finding.origin,
            hint: hint, environment: environment, host: host, platform: .ios, app: appIDs.joined(separator: ","),
            identity: identity)
    }
}
