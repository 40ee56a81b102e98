import Testing

@testable import LinkwrightCore

/// `ListPlan.matching` finds, among the rules in front of a position, exactly the rules whose
/// own test matches a URL, as testing each of them in turn does: the prefix index (each rule
/// filed under its literal ways, `DecisionList.prefixEntries`) narrows what is tested, never
/// what is found.
@Suite struct ListPlanMatchingTests {
    /// Seeded lists of rules over a few words and a substitution variable, read as written or
    /// decoded, folded or not, with Apple's slash rules or not, on either platform's semantics
    /// (a variable is text on Android), some testing no path; paths made of the same words, so
    /// most meet some rule, several meet rules of other preparations.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func findsTheRulesTestingEachRuleInTurnFinds(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let words = ["shop", "news", "caf\u{E9}", "Sale", "x%2Fy"]
        let variables = ["section": ["shop", "news", "shopping"]]
        func rule() throws -> ProofRule {
            guard Int.random(in: 0..<10, using: &generator) != 0 else {
                return ProofRule(
                    opens: false, isExclusion: true, path: nil, query: nil, fragment: nil, origin: nil,
                    label: "everything"
                ) { _ in true }
            }
            let word = words.randomElement(using: &generator)!
            let pattern = [
                "/\(word)/*", "/\(word)*", "/\(word)", "/$(section)/\(word)*", "/$(section)", "*/\(word)",
                "/\(word)/?", "/$(section)/*/\(word)",
            ].randomElement(using: &generator)!
            let options = PatternOptions(
                semantics: Bool.random(using: &generator) ? .apple : .androidDynamic,
                caseSensitive: Bool.random(using: &generator), appleSlashRules: Bool.random(using: &generator),
                decoded: Bool.random(using: &generator))
            let matcher = try PatternMatcher(pattern, options: options, variables: variables)
            return ProofRule(
                opens: true, isExclusion: false,
                path: PathTest(
                    scopes: nil,
                    pattern: PatternTest(matcher, preparation: Preparation(options), variables: variables)),
                query: nil, fragment: nil, origin: nil, label: pattern
            ) { values in matcher.matches(values.path(options: options)) }
        }
        let pieces = ["shop", "news", "shopping", "caf%C3%A9", "SALE", "Sale", "x%2Fy", "shopx", "", "%2F"]
        for step in 0..<40 {
            let rules = try (0..<Int.random(in: 0...30, using: &generator)).map { _ in try rule() }
            let list = DecisionList(identity: "app", blocks: [(nil, rules)])
            let plan = ListPlan(list, views: ProofViews(lists: [list]))
            for _ in 0..<25 {
                let path =
                    (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                        "/" + pieces.randomElement(using: &generator)!
                    }.joined() + (Bool.random(using: &generator) ? "/" : "")
                let url = try #require(LinkURL("https://h.example" + path))
                let prefix = ListPrefix(plan, before: Int.random(in: 0...list.rules.count, using: &generator))
                var values = ComparedValues(url)
                let expected = list.rules.indices.filter { prefix.contains($0) && list.rules[$0].matches(&values) }
                #expect(plan.matching(&values, in: prefix) == expected, "seed \(seed), step \(step), \(path)")
            }
        }
    }
}
