/// The rules of the decision lists made last, from which the next revision's are made as an
/// edit: per file host, app and (Android) intent filter and release, the compiled rules a run of
/// proof rules was made from and the proof rules. The compiled rules both revisions' runs begin
/// and end with, compared in place (not looked up by text), take the earlier run's proof rules
/// with the new positions (`origin`, what the rule is tested by); only the rules between them are
/// made anew. A changelog's history inserts a few rules in front of hundreds: their tests, keys
/// and labels are then the very strings of the revision before, which the proof's comparisons
/// of them stop at.
///
/// Any earlier run serves: an edit is found against whatever was made last for the key, on
/// whichever thread, and shares with it only rules equal in all but where they are written and
/// the route that position names, which is looked up anew. Owned by `RevisionCache`, which keeps
/// one run per key (and through its rules' tests, the compiled rules of the revision that made
/// it): memory follows the files and apps, not the revisions. A cache made afresh (a revision
/// made alone) starts empty.
final class DecisionListLineage: Sendable {
    /// The filter's scopes are in the rules taken (their path tests), so they are keyed exactly
    /// (`ExactText.key`): `/café/*` spelt NFC is another filter than spelt NFD. The file host and
    /// package only choose which run to edit from.
    struct AndroidKey: Hashable {
        let fileHost: String
        let scopes: [String]
        let package: String
        let release: AndroidRelease

        init(fileHost: String, scopes: [String], package: String, release: AndroidRelease) {
            (self.fileHost, self.package, self.release) = (fileHost, package, release)
            self.scopes = scopes.map(ExactText.key)
        }
    }

    struct AppleKey: Hashable {
        let fileHost: String
        let appID: String
    }

    /// Compiled rules and what each was made into (`nil`: a pattern that does not compile).
    struct Run<Source> {
        let sources: [Source]
        let rules: [ProofRule?]
    }

    private let android = LockedValue<[AndroidKey: Run<DynamicComponent>]>([:])
    private let apple = LockedValue<[AppleKey: (variables: [String: [String]], run: Run<CompiledAASA.Rule>)]>([:])

    init() {}

    /// The dynamic rules of an Android block made from `components`, as an edit of the last
    /// block made for `key`; `make` makes the rule of a component outside the edit's common
    /// prefix and suffix.
    func androidRules(
        _ key: AndroidKey, _ components: [DynamicComponent], origins: [SourceLocation?], routes: [String?],
        matches: (Int) -> (inout ComparedValues) -> Bool, make: (Int) -> ProofRule
    ) -> [ProofRule] {
        let earlier = android.withLock { $0[key] }
        let made = Self.edit(
            components, earlier: earlier, alike: DynamicComponent.testAlike, origins: origins, routes: routes,
            matches: matches, make: make)
        android.withLock { $0[key] = Run(sources: components, rules: made) }
        return made.compactMap { $0 }
    }

    /// The proof rules of the compiled AASA rules `rules` (those naming the app, in file order, of
    /// a file with `variables`), as an edit of the last run made for `key` from a file with the
    /// same variables, exactly; `make` makes those outside the common prefix and suffix.
    func appleRules(
        _ key: AppleKey, _ rules: [CompiledAASA.Rule], variables: [String: [String]], routes: [String?],
        matches: (Int) -> (inout ComparedValues) -> Bool, make: (Int) -> ProofRule?
    ) -> [ProofRule] {
        let earlier = apple.withLock { $0[key] }.flatMap {
            RuleListEdit.sameVariables($0.variables, variables) ? $0.run : nil
        }
        let made = Self.edit(
            rules, earlier: earlier, alike: { $0.pointee.testsAlike($1.pointee) }, origins: rules.map(\.origin),
            routes: routes,
            matches: matches, make: make)
        apple.withLock { $0[key] = (variables, Run(sources: rules, rules: made)) }
        return made.compactMap { $0 }
    }

    /// Each of `sources` made into a proof rule: one in the prefix or suffix `earlier` shares
    /// with them (`alike`) takes the earlier rule written at its own origin, when the route at
    /// that origin is the earlier rule's; the others are made (`make`).
    private static func edit<Source>(
        _ sources: [Source], earlier: Run<Source>?, alike: (UnsafePointer<Source>, UnsafePointer<Source>) -> Bool,
        origins: [SourceLocation?],
        routes: [String?], matches: (Int) -> (inout ComparedValues) -> Bool, make: (Int) -> ProofRule?
    ) -> [ProofRule?] {
        guard let earlier else { return sources.indices.map(make) }
        let kept = RuleListEdit.keptPositions(sources, from: earlier.sources, alike: alike)
        return sources.indices.map { index in
            guard let position = kept[index] else { return make(index) }
            // A rule that did not compile then does not now: its texts and flags are the same.
            guard let rule = earlier.rules[position] else { return nil }
            guard rule.route == (rule.opens ? routes[index] : nil) else { return make(index) }
            return ProofRule(rule, origin: origins[index], matches: matches(index))
        }
    }
}
