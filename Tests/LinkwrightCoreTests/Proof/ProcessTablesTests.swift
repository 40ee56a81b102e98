import Testing

@testable import LinkwrightCore

/// Tables the proofs keep per process because every pair of a changelog's revisions makes them
/// again (`ProofAlphabet.of`, `DecodingTables.of`, `PartView.keptClasses`, a rule's copies
/// sharing its content): each kept one must be the one made fresh, for every input that
/// reaches it.
@Suite struct ProcessTablesTests {
    /// Seeded distinctions from a small pool of scalars and sets, so that many share their
    /// scalars and differ in their sets only, or the other way round.
    static func distinctions(_ generator: inout SplitMix64) -> ScalarDistinctions {
        let scalars: [UInt32] = [0x20, 0x25, 0x2F, 0x41, 0x61, 0x7A, 0x7F, 0xE9, 0x4E2D, 0x1F600]
        let sets = [
            ScalarSet([0x30...0x39]), ScalarSet([0x41...0x5A, 0x61...0x7A]), ScalarSet([0x80...0x10_FFFF]),
            ScalarSet([0x2F...0x2F]), ScalarSet([0x00...0x2E, 0x30...0x10_FFFF]),
        ]
        var distinctions = ScalarDistinctions()
        for scalar in scalars where Int.random(in: 0..<3, using: &generator) == 0 {
            distinctions.scalars.insert(scalar)
        }
        for set in sets where Int.random(in: 0..<3, using: &generator) == 0 { distinctions.sets.insert(set) }
        return distinctions
    }

    static let texts: [TextKind] = [.part(.path), .part(.query), .part(.queryItem), .part(.fragment), .itemName]

    /// Distinctions, texts and decoding drawn again and again, so kept alphabets are asked for
    /// with every other text and decoding of the same distinctions.
    @Test(arguments: [UInt64(1), 2, 3])
    func keptAlphabetsAreThoseMadeFresh(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let pool = (0..<12).map { _ in Self.distinctions(&generator) }
        for step in 0..<300 {
            let distinctions = pool.randomElement(using: &generator)!
            let text = Self.texts.randomElement(using: &generator)!
            let decoded = Bool.random(using: &generator)
            #expect(
                ProofAlphabet.of(distinctions, text: text, decoded: decoded).scalars
                    == ProofAlphabet(distinctions, text: text, decoded: decoded).scalars,
                "seed \(seed), step \(step)")
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func keptDecodingTablesAreThoseMadeFresh(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let pool = (0..<12).map { _ in Self.distinctions(&generator) }
        for step in 0..<200 {
            let distinctions = pool.randomElement(using: &generator)!
            let kept = DecodingTables.of(distinctions)
            let fresh = DecodingTables(distinctions)
            #expect(kept.escapedByteKeys == fresh.escapedByteKeys, "seed \(seed), step \(step)")
            #expect(kept.otherScalar == fresh.otherScalar, "seed \(seed), step \(step)")
            #expect(
                kept.trie.map { "\($0.children.sorted { $0.key < $1.key }) \(String(describing: $0.scalar))" }
                    == fresh.trie.map { "\($0.children.sorted { $0.key < $1.key }) \(String(describing: $0.scalar))" },
                "seed \(seed), step \(step)")
        }
    }

    /// Alphabets and machines' distinctions drawn again and again, so kept classes are asked for
    /// with every other alphabet of the same distinctions and the other way round.
    @Test(arguments: [UInt64(1), 2, 3])
    func keptSymbolClassesAreThoseMadeFresh(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let pool = (0..<10).map { _ in Self.distinctions(&generator) }
        let alphabets = (0..<6).map { _ in
            ProofAlphabet(
                pool.randomElement(using: &generator)!, text: Self.texts.randomElement(using: &generator)!,
                decoded: Bool.random(using: &generator))
        }
        for step in 0..<300 {
            let alphabet = alphabets.randomElement(using: &generator)!
            let distinctions = pool.randomElement(using: &generator)!
            #expect(
                PartView.keptClasses(of: alphabet, distinctions) == PartView.classes(of: alphabet, distinctions),
                "seed \(seed), step \(step)")
        }
    }

    /// A rule written again elsewhere (`ProofRule.init(_:origin:matches:)`) answers as the rule
    /// made fresh from the same tests, and shares its distinctions; rules' outcome numbers are
    /// equal exactly where their outcomes are.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func aRuleWrittenAgainIsTheRuleMadeFresh(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var outcomes: [(outcome: String?, number: Int)] = []
        for step in 0..<40 {
            let opens = Int.random(in: 0..<3, using: &generator) != 0
            let route = Bool.random(using: &generator) ? "route\(step % 3)" : nil
            let isExclusion = !opens && Bool.random(using: &generator)
            let made = try DistinctionRunsTests.rule(&generator)
            func fresh() -> ProofRule {
                ProofRule(
                    opens: opens, route: route, isExclusion: isExclusion, path: made.path, query: made.query,
                    fragment: made.fragment, origin: nil, label: made.label
                ) { _ in false }
            }
            let original = fresh()
            let origin = SourceLocation(file: "domains/x.yaml", line: step + 1, column: 1)
            let copy = ProofRule(original, origin: origin) { _ in true }
            for rule in [original, copy] {
                let expected = fresh()
                #expect(rule.key == expected.key && rule.testKey == expected.testKey, "seed \(seed), step \(step)")
                #expect(
                    rule.opens == opens && rule.route == expected.route && rule.outcome == expected.outcome
                        && rule.isExclusion == isExclusion && rule.label == made.label,
                    "seed \(seed), step \(step)")
                outcomes.append((rule.outcome, rule.outcomeNumber))
                #expect(
                    rule.outcome == (opens ? "open\u{4}" + (route ?? "") : nil) && rule.path?.key == made.path?.key
                        && rule.query?.key == made.query?.key && rule.fragment?.key == made.fragment?.key,
                    "seed \(seed), step \(step)")
                #expect(
                    rule.pathPrefixes == expected.pathPrefixes && rule.pathTexts == expected.pathTexts
                        && rule.pathSuffix == expected.pathSuffix,
                    "seed \(seed), step \(step)")
            }
            var values = ComparedValues(LinkURL("https://example.com/")!)
            #expect(copy.origin == origin && copy.matches(&values) && !original.matches(&values))
            #expect(copy.sharedDistinctions === original.sharedDistinctions, "seed \(seed), step \(step)")
            // Made again from the same tests, outcome and label (for another app or release),
            // a rule shares the content; with another label or outcome it does not.
            #expect(fresh().sharesContent(with: original), "seed \(seed), step \(step)")
            let relabelled = ProofRule(
                opens: opens, route: route, isExclusion: isExclusion, path: made.path, query: made.query,
                fragment: made.fragment, origin: nil, label: made.label + " again"
            ) { _ in false }
            let otherwise = ProofRule(
                opens: !opens, route: route, isExclusion: false, path: made.path, query: made.query,
                fragment: made.fragment, origin: nil, label: made.label
            ) { _ in false }
            #expect(
                !relabelled.sharesContent(with: original) && relabelled.label == made.label + " again"
                    && !otherwise.sharesContent(with: original) && otherwise.opens == !opens,
                "seed \(seed), step \(step)")
        }
        for one in outcomes {
            #expect((one.outcome == nil) == (one.number == 0))
            for other in outcomes { #expect((one.outcome == other.outcome) == (one.number == other.number)) }
        }
    }
}
