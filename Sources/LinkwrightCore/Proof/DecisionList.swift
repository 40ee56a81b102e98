/// What one app does with the URLs of one host, as an ordered list of rules where the first
/// rule matching a URL decides (opens the app or keeps it on the web) and no match keeps it on
/// the web. Built from the same claims and compiled files `EnvironmentEvaluator` decides with:
///
/// - iOS: the entries of the file the app's claim reads that name the app, in file order, each
///   entry's components or legacy paths in order (`CompiledAASA`). No claim: no rule.
/// - Android: for each intent filter naming the host, in order, the dynamic rules of the file
///   that filter's host reads, each narrowed to the filter's path scopes, then a rule keeping
///   the rest of the scopes on the web (the first filter whose scopes accept the path claims the
///   URL, and its file alone decides). A file vouching for the app without dynamic rules opens
///   the whole scope; a file not vouching for it opens nothing.
///
/// Rules that can never match (a pattern that does not compile) are left out, and so is a rule
/// repeating an earlier one's test: the earlier one decides every URL it matches.
public struct DecisionList: Sendable {
    private(set) var identity: String
    let rules: [ProofRule]
    /// Runs of rules that share one claim: Android's intent filters, each ending with its scope
    /// rule (`scopeRule`); one block without scopes on iOS. Every rule of a block is tried only
    /// within the block's scopes, so in front of a rule stand the scope rules of the earlier
    /// blocks and the rules of its own block before it.
    let blocks: [Block]
    /// The rules, each with where it is written: equal signatures decide every URL alike for
    /// their apps, and a proof's answer names the same rules. Made once: every host and proof
    /// key of a comparison asks for it, and hashed once: it holds every rule.
    let rulesSignature: HashedKey<[SignedRule]>
    /// The rules' keys alone: equal ones decide every URL alike, wherever the rules are written.
    let ruleKeys: HashedKey<[String]>
    /// Whether no two rules have the same key: a block keeps one rule per test, and rules of
    /// blocks with scopes have their block's in their path test (blocks of equal scopes are left
    /// out), so one block, or blocks that all have scopes, hold each key once.
    let keysAreUnique: Bool
    /// What proofs make of the rules alone, made on first use and shared by the list's copies
    /// (`named`): a list takes part in several proofs (the newest release's against the base's
    /// and against an older release's), and a changelog proves each revision in two pairs.
    private let madeFromRules = MadeFromRules()

    private final class MadeFromRules: Sendable {
        let prefixIndex = Once<[Preparation: PrefixIndex]>()
        let distinctions = Once<ProofViews.RulesDistinctions>()
    }

    /// A rule's key and where it is written, compared as they are rather than written out as
    /// one text: a list made as an edit shares its kept rules' key strings, which compare at
    /// once.
    struct SignedRule: Hashable {
        let key: String
        let origin: SourceLocation?
    }

    /// The test keys of the rules kept so far in one block, found by the hash each rule took
    /// once (`ProofRule.keyHashes`): a `Set` hashed that hash again, with its seed, for every
    /// rule of every list, and a changelog makes each revision's lists of a thousand rules.
    private struct KeptTests {
        /// Open addressing: per slot, a kept rule's test key hash and its position in the list
        /// plus one (0: an empty slot).
        private var hashes: [Int]
        private var positions: [Int32]
        private var mask: Int

        /// Room for `count` rules, at most half the slots full.
        init(count: Int) {
            var size = 8
            while size < 2 * count { size *= 2 }
            (hashes, positions, mask) = ([Int](repeating: 0, count: size), [Int32](repeating: 0, count: size), size - 1)
        }

        /// Records `rule`, the `position`th of `rules`, unless a rule of `rules` recorded before
        /// has its test key; whether it was recorded.
        mutating func insert(_ rule: ProofRule, at position: Int, of rules: [ProofRule]) -> Bool {
            let hash = rule.keyHashes.testKey
            var slot = hash & mask
            while positions[slot] != 0 {
                if hashes[slot] == hash && rules[Int(positions[slot]) - 1].testKey == rule.testKey { return false }
                slot = (slot + 1) & mask
            }
            (hashes[slot], positions[slot]) = (hash, Int32(position + 1))
            return true
        }
    }

    struct Block {
        /// The first rule's index in `rules`, and the number of rules.
        var start: Int
        var count: Int
        /// Android: the filter's scopes (every rule of the block has them as `path.scopes`).
        var scopes: PatternTest?
    }

    /// One block per `groups` element: its scopes and rules, the last being the scope rule on
    /// Android. A block with the scopes of an earlier one is never reached and is left out, and
    /// so is a rule repeating an earlier rule's test in its block.
    init(identity: String, blocks groups: [(scopes: PatternTest?, rules: [ProofRule])]) {
        self.identity = identity
        var rules: [ProofRule] = []
        rules.reserveCapacity(groups.reduce(0) { $0 + $1.rules.count })
        var blocks: [Block] = []
        var seenScopes: Set<String> = []
        for group in groups {
            if let scopes = group.scopes, !seenScopes.insert(scopes.key).inserted { continue }
            var kept = KeptTests(count: group.rules.count)
            let start = rules.count
            for rule in group.rules where kept.insert(rule, at: rules.count, of: rules) { rules.append(rule) }
            blocks.append(Block(start: start, count: rules.count - start, scopes: group.scopes))
        }
        self.rules = rules
        self.blocks = blocks
        // Hashed from each rule's key hashes taken once, and where it is written by line and
        // column: a list's rules are written in one or a few files.
        var signature = Hasher()
        var keys = Hasher()
        signature.combine(rules.count)
        keys.combine(rules.count)
        var signed: [SignedRule] = []
        var ruleKeys: [String] = []
        signed.reserveCapacity(rules.count)
        ruleKeys.reserveCapacity(rules.count)
        for rule in rules {
            let (key, origin) = (rule.key, rule.origin)
            // One round per rule: line and column folded into one word with the key's hash.
            signature.combine(rule.keyHashes.key ^ (origin.map { $0.line << 24 ^ $0.column } ?? -1))
            keys.combine(rule.keyHashes.key)
            signed.append(SignedRule(key: key, origin: origin))
            ruleKeys.append(key)
        }
        rulesSignature = HashedKey(signed, hash: signature.finalize())
        self.ruleKeys = HashedKey(ruleKeys, hash: keys.finalize())
        keysAreUnique = blocks.count <= 1 || blocks.allSatisfy { $0.scopes != nil }
        // Candidate pairs map positions through the shared ends of two lists only when this
        // holds (`BehaviourProof.positions`): every list the test suite makes checks it.
        assert(!keysAreUnique || Set(rules.map(\.key)).count == rules.count, "a list's keys claimed unique are not")
    }

    /// Literal texts one of which starts every path a rule accepts (prepared, per preparation),
    /// indexed: the rules that may match a URL are those with a prefix its path starts with.
    /// Made as an edit of a list's made lately (`PrefixIndexEdits`). A rule may be filed
    /// under several prefixes, and found under more than one.
    var prefixIndex: [Preparation: PrefixIndex] {
        madeFromRules.prefixIndex.value { PrefixIndexEdits.shared.index(of: rules) }
    }

    /// The entries of `rules[positions]` in their prefix indexes.
    static func prefixEntries(_ rules: [ProofRule], _ positions: Range<Int>) -> [Preparation: [PrefixIndex.Entry]] {
        var entries: [Preparation: [PrefixIndex.Entry]] = [:]
        let anything = Preparation(PatternOptions())
        for index in positions {
            let rule = rules[index]
            // A rule testing its query or fragment may match whatever the path; one testing
            // its path only, within its block's scopes, by its pattern or else by its scopes.
            let pattern =
                rule.path?.pattern ?? (rule.query == nil && rule.fragment == nil ? rule.path?.scopes : nil)
            // A pattern's literal ways rather than its forced prefix alone: `/$(section)/x*` is
            // filed under `/shop/x` and `/news/x`, not under `/`, where every path would find it
            // and run its test (`ListPlan.matching`). A way repeated (`/shop*` ends at `/shop`
            // twice) is filed once.
            var prefixes = (rule.path?.pattern != nil ? rule.pathPrefixes : pattern.map { [$0.forcedPrefix] }) ?? [[]]
            if prefixes.count > 1 {
                var seen: Set<[Unicode.Scalar]> = []
                prefixes = prefixes.filter { seen.insert($0).inserted }
            }
            entries[pattern?.preparation ?? anything, default: []].append(
                contentsOf: prefixes.map { (index, $0) })
        }
        return entries
    }

    /// What the rules' tests tell apart (`ProofViews.RulesDistinctions`).
    var distinctions: ProofViews.RulesDistinctions {
        madeFromRules.distinctions.value { ProofViews.RulesDistinctions(rules: rules) }
    }

    /// The rules in front of rule `index` (`rules.count`: all of them): the scopes of the first
    /// `scopeBlocks` blocks, and the first `count` rules of block `block`.
    func prefix(before index: Int) -> (scopeBlocks: Int, block: Int?, count: Int) {
        guard index < rules.count else {
            guard let last = blocks.last else { return (0, nil, 0) }
            return last.scopes == nil ? (0, blocks.count - 1, last.count) : (blocks.count, nil, 0)
        }
        let block = blocks.lastIndex { $0.start <= index }!
        return (blocks[block].scopes == nil ? 0 : block, block, index - blocks[block].start)
    }

    /// What one app's list is made of: equal keys make equal lists, whatever the app is called.
    enum ListKey: Hashable {
        /// iOS: what the file the claim reads was compiled from, apart from app IDs, and its
        /// entries naming the app.
        case ios(rules: HashedKey<AppLinksSection>?, entries: [Int])
        /// Android: per intent filter of the claim, its scopes and what decides within them.
        case android([Block])

        struct Block: Hashable {
            let scopes: [String]
            let decider: Decider
        }

        enum Decider: Hashable {
            /// No statement vouches for the package (the block names it).
            case nothing(package: String)
            /// A statement without dynamic rules.
            case everything
            /// Dynamic rules, as a release reads them.
            case rules(HashedKey<[DynamicComponent]>, AndroidRelease)
        }
    }

    /// The same rules deciding for another app.
    func named(_ identity: String) -> DecisionList {
        var list = self
        list.identity = identity
        return list
    }

    /// Every app of `platform` in `evaluator`'s environment with its list for `host`. Lists
    /// depend on the rules that decide for the app, not on the host or the app's name: `made`
    /// keeps those made already, so the hosts of one domain and the apps one file's rules serve
    /// share them. Keys name the rules the lists read, so environments reading the same rules
    /// with the same `routes` may share one `made`.
    static func lists(
        _ evaluator: EnvironmentEvaluator, host: String, platform: Platform, routes: RouteLabels = RouteLabels(),
        lineage: DecisionListLineage? = nil, made: inout [ListKey: DecisionList]
    ) -> [DecisionList] {
        let environment = evaluator.environment
        let claims = evaluator.claims(of: host, on: platform)
        switch platform {
        case .ios:
            return environment.iosApps.indices.map { position in
                let app = environment.iosApps[position]
                let fileHost = claims.iosFileHost(app: position)
                let file = fileHost.flatMap(evaluator.compiledAASA)
                let naming =
                    file.map { file in file.entries.indices.filter { file.entries[$0].appIDs.contains(app.appID) } }
                    ?? []
                let key = ListKey.ios(rules: file?.compiledFrom, entries: naming)
                if let known = made[key] { return known.named(app.appID) }
                let list = DecisionList(
                    identity: app.appID,
                    blocks: file.map { file in
                        let lineage = lineage.flatMap { lineage in fileHost.map { (lineage, $0) } }
                        return [(nil, appleRules(file, appID: app.appID, routes: routes, lineage: lineage))]
                    } ?? [])
                made[key] = list
                return list
            }
        case .android:
            return environment.androidApps.indices.map { position in
                let app = environment.androidApps[position]
                let chain = claims.android[position]
                let files = chain.map { evaluator.compiledAssetLinks(fileHost: $0.fileHost) }
                let key = ListKey.android(
                    zip(chain, files).map { link, file in
                        let decider: ListKey.Decider =
                            switch file?.deciding(package: app.package) {
                            case nil: .nothing(package: app.package)
                            case .some((_, nil)): .everything
                            case .some((_, _)) where !link.file.readsRules: .everything
                            case .some((_, let rules?)): .rules(rules.components, rules.release)
                            }
                        return ListKey.Block(scopes: link.filter.scopes.map(\.attribute), decider: decider)
                    })
                if let known = made[key] { return known.named(app.package) }
                let blocks = zip(chain, files).map { link, file in
                    androidBlock(
                        link.filter, file: file, package: app.package, readingRules: link.file.readsRules,
                        routes: routes, lineage: lineage.map { ($0, link.fileHost) })
                }
                let list = DecisionList(identity: app.package, blocks: blocks)
                made[key] = list
                return list
            }
        }
    }

    // MARK: iOS

    /// The rules of the entries naming `appID`, in file order. With `lineage`, made as an edit of
    /// the last ones made for the same file host and app (`DecisionListLineage`).
    static func appleRules(
        _ file: CompiledAASA, appID: String, routes: RouteLabels = RouteLabels(),
        lineage: (rules: DecisionListLineage, fileHost: String)? = nil
    ) -> [ProofRule] {
        let rules = file.entries.filter { $0.appIDs.contains(appID) }.flatMap(\.rules)
        let routeLabels = rules.map { routes.label(at: $0.origin) }
        func make(_ index: Int) -> ProofRule? {
            appleRule(rules[index], variables: file.variables, route: routeLabels[index])
        }
        guard let lineage else { return rules.indices.compactMap(make) }
        return lineage.rules.appleRules(
            DecisionListLineage.AppleKey(fileHost: lineage.fileHost, appID: appID), rules, variables: file.variables,
            routes: routeLabels,
            matches: { rules[$0].test }, make: make)
    }

    /// A component or legacy path; `nil` when a pattern does not compile (it never matches).
    static func appleRule(_ rule: CompiledAASA.Rule, variables: [String: [String]], route: String? = nil)
        -> ProofRule?
    {
        let preparation = Preparation(rule.options)
        let slashed = Preparation(rule.pathOptions)
        guard let path = rule.path.matcher else { return nil }
        let query: QueryTest?
        // `*` matches every value, also absent ones: such a part is not compared, as in a legacy path.
        func matchesAll(_ pattern: CompiledAASA.CompiledPattern) -> Bool {
            !pattern.text.isEmpty && pattern.text.allSatisfy { $0 == "*" }
        }
        switch rule.query {
        case .whole(let pattern) where matchesAll(pattern):
            query = nil
        case .whole(let pattern):
            guard let matcher = pattern.matcher else { return nil }
            query = .pattern(PatternTest(matcher, preparation: preparation, variables: variables))
        case .items(let items) where items.allSatisfy({ matchesAll($0.pattern) }):
            // Every occurrence matches and an absent item reads as empty, which `*` matches too.
            query = nil
        case .items(let items):
            guard items.allSatisfy({ $0.pattern.matcher != nil }) else { return nil }
            query = .items(
                names: items.map(\.name),
                values: items.map { PatternTest($0.pattern.matcher!, preparation: preparation, variables: variables) },
                decode: preparation.decode, quantifier: .every)
        case .ignoredDictionary, .notCompared:
            query = nil
        }
        var fragment: FragmentTest?
        if let pattern = rule.fragment, !matchesAll(pattern) {
            guard let matcher = pattern.matcher else { return nil }
            fragment = FragmentTest(
                pattern: PatternTest(matcher, preparation: preparation, variables: variables), absentReadsAsEmpty: true)
        }
        return ProofRule(
            opens: !rule.exclude, route: route, isExclusion: rule.exclude,
            path: PathTest(scopes: nil, pattern: PatternTest(path, preparation: slashed, variables: variables)),
            query: query,
            fragment: fragment, origin: rule.origin, label: label(rule), matches: rule.test)
    }

    /// `/path ?query #fragment (exclude)`, as `StructuralDiff` names rules.
    static func label(_ rule: CompiledAASA.Rule) -> String {
        let query: RuleLabel.Query? =
            switch rule.query {
            case .whole(let pattern) where pattern.text != "*": .whole(pattern.text)
            case .items(let items):
                RuleLabel.sortedItems(items.map { AASAQueryItem(name: $0.name, pattern: $0.pattern.text) })
            default: nil
            }
        let fragment = rule.fragment.flatMap { $0.text == "*" ? nil : $0.text }
        let notes = (rule.exclude ? ["exclude"] : []) + rule.flags.departures.map(\.departure)
        return RuleLabel(path: rule.path.text, query: query, fragment: fragment, notes: notes).text()
    }

    // MARK: Android

    /// The block of one intent filter: the dynamic rules of the file its host reads, narrowed
    /// to its scopes, and the scope rule deciding the rest of its scopes.
    /// With `lineage`, the block is made as an edit of the last one made for the same file host,
    /// filter, package and release (`DecisionListLineage`).
    static func androidBlock(
        _ filter: IntentFilter, file: CompiledAssetLinks?, package: String, readingRules: Bool = true,
        routes: RouteLabels = RouteLabels(), lineage: (blocks: DecisionListLineage, fileHost: String)? = nil
    ) -> (scopes: PatternTest?, rules: [ProofRule]) {
        let decoded = Preparation(CompiledDynamicRules.options)
        let attributes = filter.scopes.map(\.attribute)
        let scopes = PatternTest(
            key: "scopes\u{1}" + attributes.sorted().joined(separator: "\u{1}"),
            automaton: .union(filter.scopes.map(\.automaton)), preparation: decoded)
        let inScope = { (values: inout ComparedValues) in filter.scopes.contains { $0.matches(values.url) } }
        func scopeRule(opens: Bool, _ label: String) -> ProofRule {
            ProofRule(
                opens: opens, isExclusion: false, path: PathTest(scopes: scopes, pattern: nil), query: nil,
                fragment: nil, origin: nil, label: "\(label) (intent filter \(attributes.joined(separator: " ")))",
                matches: inScope)
        }
        guard let statement = file?.deciding(package: package) else {
            return (scopes, [scopeRule(opens: false, "no statement for \(package)")])
        }
        guard readingRules else {
            return (scopes, [scopeRule(opens: true, "no dynamic rules for this host")])
        }
        guard let rules = statement.rules else {
            return (scopes, [scopeRule(opens: true, "statement without dynamic rules")])
        }
        let routeLabels = rules.rules.map { routes.label(at: $0.origin) }
        func matches(_ index: Int) -> (inout ComparedValues) -> Bool { rules.rules[index].test }
        func make(_ index: Int) -> ProofRule {
            let rule = rules.rules[index]
            return ProofRule(
                opens: !rule.exclude, route: routeLabels[index], isExclusion: rule.exclude,
                path: PathTest(scopes: scopes, pattern: rule.path.map { $0.proofTest(preparation: decoded) }),
                // Searched as items named by the entry with the value's pattern: what `name=value`
                // matches when the name is plain text (see semantics.md, "Behaviour diffs").
                query: rule.query.isEmpty
                    ? nil
                    : .items(
                        names: rule.query.map(\.name),
                        values: rule.query.map {
                            CompiledDynamicRules.Pattern($0.value, release: rules.release).proofTest(
                                preparation: decoded)
                        },
                        decode: true, quantifier: .some),
                fragment: rule.fragment.map {
                    FragmentTest(pattern: $0.proofTest(preparation: decoded), absentReadsAsEmpty: false)
                }, origin: rule.origin, label: androidLabel(rule), matches: matches(index))
        }
        let dynamic: [ProofRule]
        if let lineage {
            dynamic = lineage.blocks.androidRules(
                DecisionListLineage.AndroidKey(
                    fileHost: lineage.fileHost, scopes: attributes, package: package, release: rules.release),
                rules.components.value, origins: rules.rules.map(\.origin), routes: routeLabels, matches: matches,
                make: make)
        } else {
            dynamic = rules.rules.indices.map(make)
        }
        return (scopes, dynamic + [scopeRule(opens: false, "no dynamic rule")])
    }

    static func androidLabel(_ rule: CompiledDynamicRules.Rule) -> String {
        RuleLabel(
            path: rule.path?.matcher.pattern ?? "*",
            query: rule.query.isEmpty
                ? nil : RuleLabel.sortedItems(rule.query.map { AASAQueryItem(name: $0.name, pattern: $0.value) }),
            fragment: rule.fragment?.matcher.pattern, notes: rule.exclude ? ["exclude"] : []
        ).text()
    }
}

extension CompiledDynamicRules.Pattern {
    /// The pattern as the proof searches it: the newest reading's automaton, or the filter's own
    /// where the rules' release reads the pattern otherwise (`AndroidFilter`), keyed apart.
    func proofTest(preparation: Preparation) -> PatternTest {
        guard !readsAsNewest else {
            return PatternTest(matcher, preparation: preparation)
        }
        return PatternTest(
            key: "\(filter.kind.rawValue)\u{1}\(filter.filterText)\u{2}\(preparation.key)", automaton: filter.automaton,
            preparation: preparation)
    }
}

extension DecidingRule {
    /// The rule's own test of one URL, as a proof rule runs it (`ProofRule.matches`).
    var test: (inout ComparedValues) -> Bool {
        { values in
            var checks: [PartCheck]? = nil
            return self.matches(&values, checks: &checks)
        }
    }
}
