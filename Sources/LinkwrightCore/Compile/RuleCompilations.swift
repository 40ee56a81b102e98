/// What each rule of a domain compiles to for Android on its own (its dynamic components and
/// their diagnostics, its intent-filter scopes), kept by rule text across the revisions of one
/// `RevisionCache`: a changelog's revisions insert a few rules among hundreds, and translating
/// every rule of the domain again was a tenth of the walk. A rule that moved keeps what it
/// compiled to, placed where it now is: its components' origin and its diagnostics' locations
/// are its own. Texts compare exactly (`ExactText`), so a rule respelt in another Unicode form
/// is compiled anew. An entry's dynamic components are an edit of those the entry in the same
/// place was translated to last: its kept rules, compared in place with the earlier ones, are
/// not keyed (making and hashing each rule's key cost more than translating the new rules).
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
    /// Keyed by hashes taken once: a rule not kept yet is looked up, then kept, and hashing its
    /// texts for each cost a tenth of translating a domain's rules.
    private let dynamic = LockedValue([HashedKey<DynamicKey>: Dynamic]())
    private let scopes = LockedValue([HashedKey<ScopeKey>: [PathScope]]())
    /// Per slot, the entry whose rules were translated last, with what each rule gave.
    private let lastTranslated = LockedValue([Slot: Translated]())
    /// Per slot, the rules whose AASA components were made last, with those components.
    private let lastComponents = LockedValue([Slot: (rules: [Rule], components: [AASAComponent])]())
    /// The sizes of the AASA components the domain's files hold.
    let componentSizes = AASAComponentSizes()

    /// Where an entry is read: the environment compiling it and its position among the
    /// entries that apply there. A revision's entry in a slot is translated as an edit of the
    /// entry in the same slot before.
    struct Slot: Hashable {
        var environment: String
        var entry: Int
    }

    /// An entry (its rules, flags and Android semantics), its domain's flags, and what each
    /// rule was translated to (nil for one whose translation could not be placed again).
    private struct Translated {
        var entry: AppLinksEntry
        var domainFlags: MatchFlags
        var translations: [Dynamic?]

        /// For each rule of `entry`, the position of an earlier rule it keeps
        /// (`RuleListEdit.keptInOrder`): one that translates alike, read in place, in an entry
        /// and domain whose flags and semantics are the same. A kept rule's translation is the
        /// earlier one's, which the rule's key would find, without making and hashing the key.
        func kept(by entry: AppLinksEntry, of domain: Domain) -> [Int?] {
            guard Self.sameFlags(self.entry.flags, entry.flags),
                Self.sameFlags(domainFlags, domain.flags),
                (self.entry.androidSemantics?.value == true) == (entry.androidSemantics?.value == true)
            else { return Array(repeating: nil, count: entry.rules.count) }
            return RuleListEdit.keptInOrder(
                entry.rules, from: self.entry.rules, alike: Self.translateAlike, key: { $0.path?.value })
        }

        static func sameFlags(_ one: MatchFlags, _ other: MatchFlags) -> Bool {
            ComponentFlag.allCases.allSatisfy { one[$0]?.value == other[$0]?.value }
        }

        /// Whether two rules are one `DynamicKey` in the same entry and domain: the same texts
        /// exactly, exclusion and written flags, wherever written. Read in place: a copy of each
        /// rule retained every text and location it holds.
        static func translateAlike(_ one: UnsafePointer<Rule>, _ other: UnsafePointer<Rule>) -> Bool {
            guard one.pointee.exclude == other.pointee.exclude,
                ExactText.equal(one.pointee.path?.value, other.pointee.path?.value),
                ExactText.equal(one.pointee.fragment?.value, other.pointee.fragment?.value),
                ExactText.equal(one.pointee.comment, other.pointee.comment),
                sameFlags(one.pointee.flags, other.pointee.flags)
            else { return false }
            switch (one.pointee.query?.value, other.pointee.query?.value) {
            case (nil, nil): return true
            case (.whole(let one)?, .whole(let other)?): return ExactText.equal(one, other)
            case (.items(let one)?, .items(let other)?):
                return one.count == other.count
                    && zip(one, other).allSatisfy {
                        ExactText.equal($0.name, $1.name) && ExactText.equal($0.pattern, $1.pattern)
                    }
            default: return false
            }
        }
    }

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

        /// Appends what the rule written at `location` (its query at `query`) compiles to:
        /// each component copied once, straight into the entry's list (placing a copy of the
        /// kept array first made and freed an array per rule).
        func append(
            placedAt location: SourceLocation, query: SourceLocation?, to placed: inout [DynamicComponent],
            diagnostics reported: inout DiagnosticBag
        ) {
            for var component in components {
                component.origin = location
                placed.append(component)
            }
            for (var diagnostic, anchor) in zip(diagnostics, anchors) {
                diagnostic.location = anchor == .rule ? location : query!
                reported.add(diagnostic)
            }
        }
    }

    private struct ScopeKey: Hashable {
        /// The rule's path pattern, with its leading slash.
        var pattern: ExactText
        var flags: EffectiveFlags
    }

    /// Appends `rule`'s dynamic components and what translating it diagnosed
    /// (`AndroidTranslator`), and returns what is kept of them when they can be placed again.
    private func appendDynamic(
        for rule: Rule, in entry: AppLinksEntry, of domain: Domain, to components: inout [DynamicComponent],
        diagnostics: inout DiagnosticBag
    ) -> Dynamic? {
        let key = HashedKey(DynamicKey(rule, in: entry, of: domain))
        if let kept = dynamic.withLock({ $0[key] }) {
            kept.append(
                placedAt: rule.location, query: rule.query?.location, to: &components, diagnostics: &diagnostics)
            return kept
        }
        let made = AndroidTranslator.dynamicComponents(for: rule, in: entry, of: domain)
        components += made.components
        diagnostics.add(contentsOf: made.diagnostics)
        let kept = Dynamic(made, of: rule)
        if let kept { dynamic.withLock { $0[key] = kept } }
        return kept
    }

    /// Appends the translation of each rule of `entry`, read in `slot`, in order
    /// (`appendDynamic(for:in:of:to:diagnostics:)`): as an edit of the entry translated last
    /// there, whose kept rules give theirs placed where the rules now are.
    func appendDynamicComponents(
        ofRulesIn entry: AppLinksEntry, at slot: Slot, of domain: Domain, to components: inout [DynamicComponent],
        diagnostics: inout DiagnosticBag
    ) {
        let earlier = lastTranslated.withLock { $0[slot] }
        let kept = earlier?.kept(by: entry, of: domain) ?? Array(repeating: nil, count: entry.rules.count)
        var values: [Dynamic?] = []
        values.reserveCapacity(entry.rules.count)
        for index in entry.rules.indices {
            if let position = kept[index], let value = earlier!.translations[position] {
                values.append(value)
                value.append(
                    placedAt: entry.rules[index].location, query: entry.rules[index].query?.location,
                    to: &components, diagnostics: &diagnostics)
            } else {
                values.append(
                    appendDynamic(
                        for: entry.rules[index], in: entry, of: domain, to: &components, diagnostics: &diagnostics))
            }
        }
        let translated = Translated(entry: entry, domainFlags: domain.flags, translations: values)
        lastTranslated.withLock { $0[slot] = translated }
    }

    /// The AASA components of `entry`'s rules (`Rule.aasaComponent`), read in `slot`: as an
    /// edit of the rules made there last, whose kept rules (`RuleListEdit.keptInOrder`, by
    /// `Translated.translateAlike`, which compares every field a component reads but the
    /// rule's location) give their components placed where the rules now are. Those hold the
    /// earlier components' very texts, so whatever compares a revision's components with the
    /// earlier ones (their sizes, signatures and compiled rules) tells them at once by their
    /// bits, rather than comparing their texts.
    func aasaComponents(ofRulesIn entry: AppLinksEntry, at slot: Slot) -> [AASAComponent] {
        let earlier = lastComponents.withLock { $0[slot] }
        let kept =
            earlier.map {
                RuleListEdit.keptInOrder(
                    entry.rules, from: $0.rules, alike: Translated.translateAlike, key: { $0.path?.value })
            } ?? Array(repeating: nil, count: entry.rules.count)
        let components = entry.rules.withUnsafeBufferPointer { rules in
            RuleListEdit.rules(
                kept,
                keep: { position, earlierPosition in
                    var component = earlier!.components[earlierPosition]
                    component.origin = rules[position].location
                    return component
                },
                // Read in place: a copy of each rule retained every text it holds.
                fresh: { rules[$0].aasaComponent })
        }
        lastComponents.withLock { $0[slot] = (entry.rules, components) }
        return components
    }

    /// The intent-filter scopes of the positive `rule` (`AndroidTranslator.ruleScopes`).
    func scopes(of rule: Rule, in entry: AppLinksEntry, of domain: Domain) -> [PathScope] {
        let key = HashedKey(
            ScopeKey(
                pattern: ExactText(AndroidTranslator.scopedPattern(rule)),
                flags: rule.effectiveFlags(in: entry, of: domain)))
        if let kept = scopes.withLock({ $0[key] }) { return kept }
        let made = AndroidTranslator.ruleScopes(rule, entry: entry, domain: domain)
        scopes.withLock { $0[key] = made }
        return made
    }
}

/// The size of each entry's AASA components as written (`JSONRenderedSize`), per position among
/// a file's entries, made as an edit of the components sized last there: those both lists begin
/// and end with (`RuleListEdit.keptPositions`, compared in place) take the earlier ones' sizes,
/// which do not depend on where they are written; only the others are counted. Apple's size
/// limit is checked on every file compiled, and counting every text of each of a changelog's
/// revisions cost more than the files' new rules.
final class AASAComponentSizes: Sendable {
    private struct Sized {
        let components: [AASAComponent]
        let sizes: [JSONRenderedSize]
    }

    private let last = LockedValue([Int: Sized]())

    /// The size of `components`, those of the entry at `position`, as an array
    /// (`JSONRenderedSize.array` of each one's).
    func size(of components: [AASAComponent], entry position: Int) -> JSONRenderedSize {
        let earlier = last.withLock { $0[position] }
        let kept =
            earlier.map {
                RuleListEdit.keptPositions(components, from: $0.components, alike: AASAComponent.sameButWhere)
            } ?? Array(repeating: nil, count: components.count)
        let sizes = RuleListEdit.rules(
            kept, keep: { earlier!.sizes[$1] }, fresh: { components[$0].json(as: JSONRenderedSize.self) })
        last.withLock { $0[position] = Sized(components: components, sizes: sizes) }
        return .array(sizes)
    }
}
