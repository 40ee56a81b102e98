import Testing

@testable import LinkwrightCore

/// `PrefixIndex` finds exactly the rules whose prefix a text starts with, as trying every
/// prefix in turn does: seeded prefixes over a small alphabet, so they share, repeat, nest and
/// include the empty prefix.
@Suite struct PrefixIndexTests {
    @Test func findsTheRulesEveryPrefixTriedInTurnFinds() {
        var generator = SplitMix64(seed: 0x9E1F)
        let alphabet: [Unicode.Scalar] = ["/", "a", "b", "é"]
        func text(_ length: ClosedRange<Int>) -> [Unicode.Scalar] {
            (0..<Int.random(in: length, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
        }
        for _ in 0..<200 {
            let entries = (0..<Int.random(in: 0...40, using: &generator)).map { (rule: $0, prefix: text(0...5)) }
            let index = PrefixIndex(entries)
            for _ in 0..<30 {
                let path = text(0...8)
                let expected = entries.filter { path.starts(with: $0.prefix) }.map(\.rule)
                #expect(index.rules(along: path).sorted() == expected, "\(path) in \(entries)")
            }
        }
    }
}

/// A prefix index made as an edit of an earlier one (`PrefixIndex.editing`,
/// `PrefixIndexEdits`) is the index made whole.
@Suite struct PrefixIndexEditTests {
    /// Seeded entries, some kept under new numbers in their order, others dropped, and entries
    /// added under the numbers left: the edit is the index of what is kept and added.
    @Test(arguments: [UInt64(1), 2, 3])
    func anEditIsTheIndexMadeWhole(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let alphabet: [Unicode.Scalar] = ["/", "a", "b", "é"]
        func text() -> [Unicode.Scalar] {
            (0..<Int.random(in: 0...4, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
        }
        for step in 0..<200 {
            let earlier = (0..<Int.random(in: 0...30, using: &generator)).map { (rule: $0, prefix: text()) }
            // Numbers after the edit: each earlier rule kept or not, rules added anywhere.
            var numbers: [Int?] = []
            var added: [PrefixIndex.Entry] = []
            var next = 0
            for _ in earlier {
                while Int.random(in: 0..<4, using: &generator) == 0 {
                    added.append((next, text()))
                    next += 1
                }
                if Int.random(in: 0..<5, using: &generator) == 0 {
                    numbers.append(nil)
                } else {
                    numbers.append(next)
                    next += 1
                }
            }
            while Bool.random(using: &generator) {
                added.append((next, text()))
                next += 1
            }
            let kept: [PrefixIndex.Entry] = earlier.compactMap { entry in
                numbers[entry.rule].map { (rule: $0, prefix: entry.prefix) }
            }
            #expect(
                PrefixIndex(earlier).editing(kept: { numbers[$0] }, adding: added.shuffled(using: &generator))
                    == PrefixIndex(kept + added), "seed \(seed), step \(step)")
        }
    }

    /// A seeded chain of lists, each an edit of the one before as `DecisionListLineage` makes
    /// them (kept rules written again, sharing their content): rules inserted, removed, moved
    /// and repeated, some without a path test, lists emptied and regrown. Each list's index made
    /// as an edit of the one before, and as the list's own (an edit of a recent list's), is
    /// the index made whole.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func aListsEditedIndexIsTheIndexMadeWhole(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        func rule(_ generator: inout SplitMix64) throws -> ProofRule {
            guard Int.random(in: 0..<8, using: &generator) != 0 else {
                return ProofRule(
                    opens: false, isExclusion: true, path: nil, query: nil, fragment: nil, origin: nil,
                    label: "everything"
                ) { _ in true }
            }
            return try DistinctionRunsTests.rule(&generator)
        }
        var rules: [ProofRule] = try (0..<30).map { _ in try rule(&generator) }
        var earlier: PrefixIndexEdits.Indexed?
        for step in 0..<60 {
            try DistinctionRunsTests.edit(&rules, step: step, &generator, fresh: rule)
            let whole = PrefixIndexEdits.index(of: rules, editing: nil)
            #expect(PrefixIndexEdits.index(of: rules, editing: earlier) == whole, "seed \(seed), step \(step)")
            let list = DecisionList(identity: "app", blocks: [(nil, rules)])
            #expect(
                list.prefixIndex == PrefixIndexEdits.index(of: list.rules, editing: nil), "seed \(seed), step \(step)")
            earlier = (rules, whole)
        }
    }
}
