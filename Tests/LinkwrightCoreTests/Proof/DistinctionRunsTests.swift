import Testing

@testable import LinkwrightCore

/// A list's distinctions are the union of its rules' taken by runs of rules, each run's union
/// kept per process by the identity of its rules' distinctions (`RulesDistinctions.init(rules:)`).
@Suite struct DistinctionRunsTests {
    /// A rule over one of a few texts and scalar classes, read as written or decoded, folded or
    /// not, some with a query dictionary or a fragment: rules whose distinctions differ.
    /// One step of a seeded chain of lists, each an edit of the one before as
    /// `DecisionListLineage` makes them: one to four rules inserted anywhere (`fresh`), removed,
    /// moved, repeated or appended, the list now and then emptied at every twentieth step; then
    /// the kept rules written again, as an edit takes them (copies sharing their content).
    static func edit(
        _ rules: inout [ProofRule], step: Int, _ generator: inout SplitMix64,
        fresh: (inout SplitMix64) throws -> ProofRule
    ) rethrows {
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let position = Int.random(in: 0...rules.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: rules.insert(try fresh(&generator), at: position)
            case 1 where !rules.isEmpty: rules.remove(at: min(position, rules.count - 1))
            case 2 where !rules.isEmpty:
                let moved = rules.remove(at: min(position, rules.count - 1))
                rules.insert(moved, at: Int.random(in: 0...rules.count, using: &generator))
            case 3 where !rules.isEmpty: rules.insert(rules[min(position, rules.count - 1)], at: position)
            case 4 where step % 20 == 19: rules = []
            default: rules.insert(try fresh(&generator), at: rules.count)
            }
        }
        rules = rules.map { ProofRule($0, origin: nil, matches: $0.matches) }
    }

    static func rule(_ generator: inout SplitMix64) throws -> ProofRule {
        let word = ["caf\u{E9}", "shoes", "Sale", "x%2Fy", "\u{4E2D}"].randomElement(using: &generator)!
        let path = ["/\(word)/*", "/\(word)?", "*/\(word).html", "/\(word)"].randomElement(using: &generator)!
        let options = PatternOptions(
            semantics: Bool.random(using: &generator) ? .apple : .androidDynamic,
            caseSensitive: Bool.random(using: &generator), decoded: Bool.random(using: &generator))
        let preparation = Preparation(options)
        func test(_ pattern: String) throws -> PatternTest {
            PatternTest(try PatternMatcher(pattern, options: options), preparation: preparation)
        }
        let query: QueryTest? =
            Int.random(in: 0..<3, using: &generator) == 0
            ? .items(names: [word], values: [try test("?*")], decode: options.decoded, quantifier: .some) : nil
        let fragment =
            Int.random(in: 0..<4, using: &generator) == 0
            ? FragmentTest(pattern: try test("\(word)*"), absentReadsAsEmpty: true) : nil
        return ProofRule(
            opens: true, isExclusion: false, path: PathTest(scopes: nil, pattern: try test(path)), query: query,
            fragment: fragment, origin: nil, label: path
        ) { _ in false }
    }

    /// Every scalar and set told apart, in a fixed order.
    static func described(_ distinctions: ProofViews.RulesDistinctions) -> [String] {
        func described(_ machine: ProofViews.MachineDistinctions) -> String {
            [machine.raw, machine.decoded].map { distinctions in
                "\(Array(distinctions.scalars).sorted()) \(distinctions.sets.map { "\($0.ranges)" }.sorted())"
            }.joined(separator: " | ")
        }
        return (distinctions.parts + [distinctions.names, distinctions.values]).map(described)
    }

    /// A seeded chain of lists, each an edit of the one before as `DecisionListLineage` makes
    /// them (kept rules are copies sharing their distinctions, written elsewhere): rules
    /// inserted, removed, moved and repeated, lists emptied and regrown. Each list's union by
    /// runs, with runs of about four rules so that every edit meets several, must be the union
    /// of its rules' own.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func aListsUnionByRunsIsTheUnionOfItsRules(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var rules: [ProofRule] = try (0..<30).map { _ in try Self.rule(&generator) }
        for step in 0..<60 {
            try Self.edit(&rules, step: step, &generator, fresh: Self.rule)
            var union = ProofViews.RulesDistinctions()
            for rule in rules { union.formUnion(rule.distinctions) }
            #expect(
                Self.described(ProofViews.RulesDistinctions(rules: rules, runMask: 3)) == Self.described(union),
                "seed \(seed), step \(step)")
        }
    }
}
