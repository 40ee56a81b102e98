/// A rule whose hash apart from where it is written can be taken alone (`hashButWhere`, a part
/// of what `sameButWhere` compares), so a list's hash can be made from its rules' hashes.
protocol HashableButWhere: Locatable, Hashable {
    func hashButWhere(into hasher: inout Hasher)
}

/// A list of rules hashed from each rule's hash apart from where it is written and the line and
/// column it is written at (`key`), which is what every key of such a list is hashed by: equal
/// lists get equal hashes only when all are hashed alike. Made as an edit of an earlier list,
/// the rules both begin and end with (`RuleListEdit.keptPositions`, compared in place) take the
/// earlier rules' hashes: a changelog's next revision of a file writes the same hundreds of rules
/// a few lines further, and hashing each of their texts again for every revision cost more than
/// compiling the few new ones.
struct HashedRules<Rule: HashableButWhere> {
    let key: HashedKey<[Rule]>
    /// Each rule's `hashButWhere`.
    private let ruleHashes: [Int]

    init(_ rules: [Rule], editing earlier: HashedRules? = nil) {
        let kept =
            earlier.map { RuleListEdit.keptPositions(rules, from: $0.key.value, alike: Rule.sameButWhere) }
            ?? Array(repeating: nil, count: rules.count)
        // By position: a copy of each rule retained every text it holds.
        let ruleHashes = RuleListEdit.rules(
            kept, keep: { earlier!.ruleHashes[$1] }, fresh: { Self.hashButWhere(rules[$0]) })
        var hasher = Hasher()
        hasher.combine(rules.count)
        for index in rules.indices {
            hasher.combine(ruleHashes[index])
            // The line and column in one word.
            hasher.combine((rules[index].origin?.line ?? -1) &<< 32 ^ (rules[index].origin?.column ?? -1))
        }
        self.ruleHashes = ruleHashes
        key = HashedKey(rules, hash: hasher.finalize())
    }

    private static func hashButWhere(_ rule: Rule) -> Int {
        var hasher = Hasher()
        rule.hashButWhere(into: &hasher)
        return hasher.finalize()
    }
}

extension HashedRules: Sendable where Rule: Sendable {}

extension AASAComponent: HashableButWhere {}
extension DynamicComponent: HashableButWhere {}
