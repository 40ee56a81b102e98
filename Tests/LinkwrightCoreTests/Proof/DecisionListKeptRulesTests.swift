import Testing

@testable import LinkwrightCore

/// A decision list keeps the first rule of each test in each block, telling repeated tests apart
/// through the hashes its rules took once (`DecisionList.init`). Over seeded lists of blocks,
/// from empty to hundreds of rules drawn from pools of tests small and large (so tests repeat
/// often or seldom, and crowd the table's slots), with scopes repeated (a block with the scopes
/// of an earlier one is left out), the list keeps exactly the rules a plain set keeps, in order,
/// in the same blocks.
@Suite struct DecisionListKeptRulesTests {
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func listsKeepTheRulesAPlainSetKeeps(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let automaton = try PatternMatcher("/a", options: PatternOptions()).automaton
        let preparation = Preparation(PatternOptions())
        func test(_ key: String) -> PatternTest {
            PatternTest(key: key, automaton: automaton, preparation: preparation)
        }
        for _ in 0..<60 {
            let groups: [(scopes: PatternTest?, rules: [ProofRule])] = (0..<Int.random(in: 0...4, using: &generator))
                .map { _ in
                    let scopes =
                        Bool.random(using: &generator)
                        ? test("scopes \(Int.random(in: 0..<3, using: &generator))") : nil
                    let tests = Int.random(in: 1...300, using: &generator)
                    let rules = (0..<Int.random(in: 0...300, using: &generator)).map { line in
                        ProofRule(
                            opens: Bool.random(using: &generator), isExclusion: false,
                            path: PathTest(scopes: scopes, pattern: nil),
                            query: .pattern(test("q\(Int.random(in: 0..<tests, using: &generator))")), fragment: nil,
                            origin: SourceLocation(file: "f", line: line, column: 1), label: "rule"
                        ) { _ in false }
                    }
                    return (scopes, rules)
                }
            let list = DecisionList(identity: "app", blocks: groups)
            var kept: [ProofRule] = []
            var blocks: [(start: Int, count: Int)] = []
            var seenScopes: Set<String> = []
            for group in groups {
                if let scopes = group.scopes, !seenScopes.insert(scopes.key).inserted { continue }
                var seen: Set<String> = []
                let start = kept.count
                kept += group.rules.filter { seen.insert($0.testKey).inserted }
                blocks.append((start, kept.count - start))
            }
            #expect(list.rules.count == kept.count)
            #expect(zip(list.rules, kept).allSatisfy { $0 === $1 })
            #expect(list.blocks.map(\.start) == blocks.map(\.start))
            #expect(list.blocks.map(\.count) == blocks.map(\.count))
        }
    }
}
