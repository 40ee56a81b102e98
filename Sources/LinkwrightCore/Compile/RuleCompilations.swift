/// What each rule of a domain compiles to for Android on its own (its dynamic components and
/// their diagnostics, its intent-filter scopes), kept by rule text across the revisions of one
/// `RevisionCache`: a changelog's revisions insert a few rules among hundreds, and translating
/// every rule of the domain again was a tenth of the walk. A rule that moved keeps what it
/// compiled to, placed where it now is: its components' origin and its diagnostics' locations
/// are its own. Texts compare exactly (`ExactText`), so a rule respelt in another Unicode form
/// is compiled anew.
final class RuleCompilations: Sendable {
    private let byDomain = LockedValue([String: DomainRules]())

    init() {}

    /// The rules kept for `domain`'s name, made with the same substitution variables (names and
    /// values, exactly): dynamic components expand them. A domain whose variables changed
    /// starts afresh.
    func rules(of domain: Domain) -> DomainRules {
        let variables = domain.variables.map { [$0.name.value] + $0.values.map(\.value) }
        return byDomain.withLock { kept in
            if let rules = kept[domain.name], rules.variables.count == variables.count,
                zip(rules.variables, variables).allSatisfy({ ExactText.equal($0, $1) })
            {
                return rules
            }
            let rules = DomainRules(variables: variables)
            kept[domain.name] = rules
            return rules
        }
    }
}

/// The rules of one domain with given substitution variables, compiled so far.
final class DomainRules: Sendable {
    /// Each variable's name, then its values.
    fileprivate let variables: [[String]]
    private let dynamic = LockedValue([DynamicKey: Dynamic]())
    private let scopes = LockedValue([ScopeKey: [PathScope]]())

    fileprivate init(variables: [[String]]) { self.variables = variables }

    /// Everything `AndroidTranslator.dynamicComponents` reads of a rule and its entry, bar
    /// where the rule is written.
    private struct DynamicKey: Hashable {
        /// The rule as Apple reads it, without its origin.
        var rule: AASAComponent
        var flags: EffectiveFlags
        var androidSemantics: Bool

        init(_ rule: Rule, in entry: AppLinksEntry, of domain: Domain) {
            var component = rule.aasaComponent
            component.origin = nil
            self.rule = component
            flags = rule.effectiveFlags(in: entry, of: domain)
            androidSemantics = entry.androidSemantics?.value == true
        }
    }

    /// A rule's dynamic components and diagnostics, each diagnostic made at the rule's location
    /// or at its query's (`anchors`).
    private struct Dynamic {
        enum Anchor { case rule, query }

        var components: [DynamicComponent]
        var diagnostics: [Diagnostic]
        var anchors: [Anchor]

        /// `made`, translated from `rule`, kept by the places it names; nil when one of them is
        /// neither the rule's location nor its query's, or both are one place (it could not be
        /// placed again).
        init?(_ made: AndroidTranslator.Translation, of rule: Rule) {
            let query = rule.query?.location
            guard query != rule.location, made.components.allSatisfy({ $0.origin == rule.location }) else {
                return nil
            }
            var anchors: [Anchor] = []
            for diagnostic in made.diagnostics {
                switch diagnostic.location {
                case rule.location: anchors.append(.rule)
                case query where query != nil: anchors.append(.query)
                default: return nil
                }
            }
            (components, diagnostics, self.anchors) = (made.components, made.diagnostics, anchors)
        }

        /// What `rule`, written where it is, compiles to.
        func placed(at rule: Rule) -> AndroidTranslator.Translation {
            var made = AndroidTranslator.Translation(components: components, diagnostics: diagnostics)
            for index in made.components.indices { made.components[index].origin = rule.location }
            for (index, anchor) in anchors.enumerated() {
                made.diagnostics[index].location = anchor == .rule ? rule.location : rule.query!.location
            }
            return made
        }
    }

    private struct ScopeKey: Hashable {
        /// The rule's path pattern, with its leading slash.
        var pattern: ExactText
        var flags: EffectiveFlags
    }

    /// `rule`'s dynamic components and what translating it diagnosed (`AndroidTranslator`).
    func dynamicComponents(for rule: Rule, in entry: AppLinksEntry, of domain: Domain)
        -> AndroidTranslator.Translation
    {
        let key = DynamicKey(rule, in: entry, of: domain)
        if let kept = dynamic.withLock({ $0[key] }) { return kept.placed(at: rule) }
        let made = AndroidTranslator.dynamicComponents(for: rule, in: entry, of: domain)
        if let kept = Dynamic(made, of: rule) { dynamic.withLock { $0[key] = kept } }
        return made
    }

    /// The intent-filter scopes of the positive `rule` (`AndroidTranslator.ruleScopes`).
    func scopes(of rule: Rule, in entry: AppLinksEntry, of domain: Domain) -> [PathScope] {
        let key = ScopeKey(
            pattern: ExactText(AndroidTranslator.scopedPattern(rule)), flags: rule.effectiveFlags(in: entry, of: domain)
        )
        if let kept = scopes.withLock({ $0[key] }) { return kept }
        let made = AndroidTranslator.ruleScopes(rule, entry: entry, domain: domain)
        scopes.withLock { $0[key] = made }
        return made
    }
}
