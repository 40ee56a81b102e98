/// A rule of an association file that decides a URL when all its parts match: Apple's
/// components and legacy paths, Android's dynamic rules. Both platforms try their rules in
/// order and the first match decides, so one loop (`LazyRuleIndex.firstMatch(among:…)`) serves both.
protocol DecidingRule: AnyObject {
    var kind: RuleTrace.Kind { get }
    /// Zero-based index within its list.
    var index: Int { get }
    var origin: SourceLocation? { get }
    var exclude: Bool { get }
    var flags: EffectiveFlags { get }
    /// Whether every part matches. With `checks`, every part is compared and recorded even
    /// after one fails, so a trace shows the whole picture; without, the first failure stops.
    func matches(_ values: inout ComparedValues, checks: inout [PartCheck]?) -> Bool
}

extension RuleIndex {
    /// The first of `rules` that matches, each rule up to it tried in turn and recorded in
    /// `trace` with every comparison it made.
    static func tracedFirstMatch<Rule: DecidingRule>(
        among rules: [Rule], _ values: inout ComparedValues, entryIndex: Int, trace: inout [RuleTrace]?
    ) -> Rule? {
        for rule in rules {
            var checks: [PartCheck]? = []
            let matched = rule.matches(&values, checks: &checks)
            trace?.append(
                RuleTrace(
                    kind: rule.kind, entryIndex: entryIndex, ruleIndex: rule.index, origin: rule.origin,
                    flags: rule.flags, exclude: rule.exclude,
                    checks: checks ?? [], matched: matched))
            if matched { return rule }
        }
        return nil
    }
}

extension LinkDecision {
    /// The decision `rule` makes for a URL it matches, in entry (Apple) or statement (Android)
    /// `entryIndex`, with the rules tried before it when traced.
    init(decidedBy rule: some DecidingRule, entryIndex: Int, trace: [RuleTrace]?) {
        self.init(
            outcome: rule.exclude ? .exclude : .match, entryIndex: entryIndex, ruleIndex: rule.index,
            origin: rule.origin, trace: trace ?? [])
    }
}
