import Synchronization

/// A rule list's `RuleIndex`, built once the list has tried enough rules one by one.
///
/// Building the index costs as much as trying every rule in turn on dozens to hundreds of URLs
/// (more the cheaper the rules are to try), and many lists decide only a few: a changelog
/// compiles each of hundreds of revisions of a long file to decide its witnesses and examples,
/// and a `check` compiles two revisions for the URLs its behaviour diff found. So URLs first try the rules in order,
/// which gives the same first match (the traced decision does the same, and `RuleIndexTests`
/// compares both ways on seeded rule lists), until `triesPerRule` times the rule count have
/// been tried, and the index is built for the next URL: a list deciding many URLs pays a
/// fraction of an index more. A URL longer than `linearScalars` divided by the rule count
/// gets the index at once: the index decides any URL in time linear in its length, while
/// trying 10,000 `*ab*cd*…` rules in turn on a 100 KB path would take minutes.
///
/// A list made as an edit of another (a changelog's next revision of a file: `init(_:editing:kept:)`)
/// shares the other's index, built or not, with its tries: the rules both lists hold decide
/// through it, the few rules only the new list holds are tried in turn in front of the rule it
/// finds, and the rules only the other held are left out of its answer. Once the rules not in
/// the shared index grow past `freshLimit`, the edit gets an index of its own.
final class LazyRuleIndex: @unchecked Sendable {
    /// Rules tried per rule of the list before the index is built.
    static let triesPerRule = 32
    /// The most rule count × URL length (in UTF-8 bytes) one URL is decided rule by rule at.
    static let linearScalars = 65_536
    /// Tests set it (0 builds the index for the first URL).
    @TaskLocal static var triesPerRuleForTests: Int? = nil

    /// The list an index is built for, shared by the lists made as edits of it.
    private final class Base: @unchecked Sendable {
        let constraints: [[RuleIndex.Constraint]?]
        /// Rules tried one by one before the index is built.
        let linearTries: Int
        /// Rules tried one by one so far, by every thread and every list sharing it.
        let tried: Atomic<Int>
        /// A thread arriving while the index is built waits rather than builds it too.
        let built = Once<RuleIndex>()

        /// With `buildAtFirstURL`, the index is built for the first URL decided.
        init(_ constraints: [[RuleIndex.Constraint]?], buildAtFirstURL: Bool = false) {
            self.constraints = constraints
            linearTries = constraints.count * (LazyRuleIndex.triesPerRuleForTests ?? LazyRuleIndex.triesPerRule)
            tried = Atomic(buildAtFirstURL ? linearTries : 0)
        }
    }

    private let base: Base
    /// Per rule of this list, the position of the same rule in `base`, or -1 for a rule only
    /// this list holds; `nil` when this list is the base.
    private let baseOfRule: [Int32]?
    /// Per rule of `base`, its position in this list, or -1 for one this list does not hold.
    private let ruleOfBase: [Int32]
    /// The positions of the rules only this list holds, in order.
    private let fresh: [Int]

    /// `constraints[i]` lists what rule `i` compares (see `RuleIndex.init`).
    init(_ constraints: [[RuleIndex.Constraint]?]) {
        base = Base(constraints)
        (baseOfRule, ruleOfBase, fresh) = (nil, [], [])
    }

    /// The index of a list made as an edit of `earlier`'s list: `kept[i]` is the position in
    /// that list of a rule testing URLs as rule `i` does, increasing with `i`
    /// (`RuleListEdit.keptInOrder`), `nil` for a rule it did not hold. `constraints` lists what
    /// each rule compares, asked for only when the edit gets an index of its own, which is then
    /// built at the first URL if `earlier`'s was.
    init(_ constraints: () -> [[RuleIndex.Constraint]?], editing earlier: LazyRuleIndex, kept: [Int?]) {
        var baseOfRule = [Int32](repeating: -1, count: kept.count)
        var fresh: [Int] = []
        for (position, earlierPosition) in kept.enumerated() {
            guard let earlierPosition else {
                fresh.append(position)
                continue
            }
            baseOfRule[position] = earlier.baseOfRule?[earlierPosition] ?? Int32(earlierPosition)
            if baseOfRule[position] < 0 { fresh.append(position) }
        }
        guard fresh.count <= Self.freshLimit(rules: kept.count), fresh.count <= kept.count - fresh.count else {
            base = Base(constraints(), buildAtFirstURL: earlier.isBuilt)
            (self.baseOfRule, ruleOfBase, self.fresh) = (nil, [], [])
            return
        }
        base = earlier.base
        var ruleOfBase = [Int32](repeating: -1, count: earlier.base.constraints.count)
        for (position, basePosition) in baseOfRule.enumerated() where basePosition >= 0 {
            ruleOfBase[Int(basePosition)] = Int32(position)
        }
        (self.baseOfRule, self.ruleOfBase, self.fresh) = (baseOfRule, ruleOfBase, fresh)
    }

    /// The most rules an edit tries in turn beside a shared index before it gets its own (and
    /// never more than it shares): each costs a try per URL the index decides.
    static func freshLimit(rules: Int) -> Int { max(16, rules / 16) }

    /// Whether the index has been built.
    var isBuilt: Bool { base.built.made != nil }

    /// Whether this list decides through an index made for another list it is an edit of.
    var isShared: Bool { baseOfRule != nil }

    /// Builds the index now for a caller about to decide `urls` distinct URLs with the list:
    /// tried one by one, URLs decided halfway down the list would build it after twice
    /// `triesPerRule` of them, each trying half the rules first (`test` decides every path
    /// expectation of a domain with its files). The index decides as the rules tried in turn do
    /// (`RuleIndexTests`).
    func anticipate(urls: Int) {
        guard urls >= 2 * (Self.triesPerRuleForTests ?? Self.triesPerRule), base.built.made == nil else { return }
        _ = base.built.value { RuleIndex(base.constraints) }
    }

    /// The first of `rules` (the list the constraints were made from) that matches the URL of
    /// `values`, leaving out the rules `skipped` marks. With `trace`, each rule up to it is tried
    /// in turn and recorded with every comparison it made, for `explain`.
    func firstMatch<Rule: DecidingRule>(
        among rules: [Rule], _ values: inout ComparedValues, entryIndex: Int, trace: inout [RuleTrace]?,
        skipping skipped: [Bool]? = nil
    ) -> Rule? {
        guard trace == nil else {
            return RuleIndex.tracedFirstMatch(among: rules, &values, entryIndex: entryIndex, trace: &trace)
        }
        if let index = self.index(for: values.url, rules: rules.count) {
            guard baseOfRule != nil else {
                return index.firstMatch(&values) { skipped?[Int($0)] == true }.map { rules[Int($0)] }
            }
            var found = index.firstMatch(&values) { basePosition in
                let position = ruleOfBase[Int(basePosition)]
                return position < 0 || skipped?[Int(position)] == true
            }.map { Int(ruleOfBase[Int($0)]) }
            var checks: [PartCheck]? = nil
            for position in fresh where skipped?[position] != true {
                if let found, found < position { break }
                if rules[position].matches(&values, checks: &checks) {
                    found = position
                    break
                }
            }
            return found.map { rules[$0] }
        }
        var tries = 0
        defer { base.tried.add(tries, ordering: .relaxed) }
        for (position, rule) in rules.enumerated() where skipped?[position] != true {
            tries += 1
            var checks: [PartCheck]? = nil
            if rule.matches(&values, checks: &checks) { return rule }
        }
        return nil
    }

    /// The index, built now if this URL should not try the rules one by one; `nil` when it
    /// should.
    private func index(for url: LinkURL, rules: Int) -> RuleIndex? {
        if let index = base.built.made { return index }
        if base.tried.load(ordering: .relaxed) < base.linearTries && rules * (url.length + 1) <= Self.linearScalars {
            return nil
        }
        return base.built.value { RuleIndex(base.constraints) }
    }
}

extension LinkURL {
    /// The length in UTF-8 bytes of what rules compare: path, query and fragment.
    var length: Int { path.utf8.count + (query?.utf8.count ?? 0) + (fragment?.utf8.count ?? 0) }
}
