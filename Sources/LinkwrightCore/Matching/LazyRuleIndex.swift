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
final class LazyRuleIndex: @unchecked Sendable {
    /// Rules tried per rule of the list before the index is built.
    static let triesPerRule = 32
    /// The most rule count × URL length (in UTF-8 bytes) one URL is decided rule by rule at.
    static let linearScalars = 65_536
    /// Tests set it (0 builds the index for the first URL).
    @TaskLocal static var triesPerRuleForTests: Int? = nil

    private let constraints: [[RuleIndex.Constraint]?]
    /// Rules tried one by one before the index is built.
    private let linearTries: Int
    /// Rules tried one by one so far, by every thread.
    private let tried = Atomic<Int>(0)
    /// A thread arriving while the index is built waits rather than builds it too.
    private let built = Once<RuleIndex>()

    /// `constraints[i]` lists what rule `i` compares (see `RuleIndex.init`).
    init(_ constraints: [[RuleIndex.Constraint]?]) {
        self.constraints = constraints
        linearTries = constraints.count * (Self.triesPerRuleForTests ?? Self.triesPerRule)
    }

    /// Whether the index has been built.
    var isBuilt: Bool { built.made != nil }

    /// Builds the index now for a caller about to decide `urls` distinct URLs with the list:
    /// tried one by one, URLs decided halfway down the list would build it after twice
    /// `triesPerRule` of them, each trying half the rules first (`test` decides every path
    /// expectation of a domain with its files). The index decides as the rules tried in turn do
    /// (`RuleIndexTests`).
    func anticipate(urls: Int) {
        guard urls >= 2 * (Self.triesPerRuleForTests ?? Self.triesPerRule), built.made == nil else { return }
        _ = built.value { RuleIndex(constraints) }
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
            return index.firstMatch(&values, skipping: skipped).map { rules[Int($0)] }
        }
        var tries = 0
        defer { tried.add(tries, ordering: .relaxed) }
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
        if let index = built.made { return index }
        if tried.load(ordering: .relaxed) < linearTries && rules * (url.length + 1) <= Self.linearScalars { return nil }
        return built.value { RuleIndex(constraints) }
    }
}

extension LinkURL {
    /// The length in UTF-8 bytes of what rules compare: path, query and fragment.
    var length: Int { path.utf8.count + (query?.utf8.count ?? 0) + (fragment?.utf8.count ?? 0) }
}
