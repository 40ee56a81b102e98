import Testing

@testable import LinkwrightCore

/// `AndroidTranslator.expand` gives a pattern without `$` back as it is; it must give what
/// reading it token by token gives (`expandByTokens`), the same texts byte for byte and the
/// same widening, over seeded patterns of wildcards, variables expanded and widened, `$` and
/// parentheses that make no variable, and `é` composed and decomposed.
@Suite struct AndroidExpansionTests {
    private static let pieces = [
        "/", "a", "*", "?", "?*", "$", "(", ")", "$(", "$()", "$(section)", "$(alpha)", "$(lang)", "$(many)",
        "$(unknown)", "\u{E9}", "e\u{301}", "$\u{301}(", ".",
    ]

    private static let translator: AndroidTranslator = {
        let place = SourceLocation.file("domains/shop.yaml")
        func variable(_ name: String, _ values: [String]) -> SubstitutionVariable {
            SubstitutionVariable(name: Located(name, at: place), values: values.map { Located($0, at: place) })
        }
        let domain = Domain(
            name: "shop", file: place.file, flags: MatchFlags(),
            variables: [
                variable("section", ["news", "caf\u{E9}", "a*"]),
                // More values than `expansionLimit`: widened, not expanded.
                variable("many", (0...AndroidTranslator.expansionLimit).map { "v\($0)" }),
            ],
            applinks: [], serviceApps: [:], assetStatements: [], emit: EmitOptions(), expectations: [])
        return AndroidTranslator(domain: domain)
    }()

    @Test(arguments: 1...40)
    func expandsAsReadByTokens(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var withoutDollar = 0
        for round in 0..<100 {
            let count = Int.random(in: 0...6, using: &generator)
            let pattern = (0..<count).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            if !pattern.unicodeScalars.contains("$") { withoutDollar += 1 }
            var (fastWidened, plainWidened) = (false, false)
            let fast = Self.translator.expand(pattern, widened: &fastWidened)
            let plain = Self.translator.expandByTokens(pattern, widened: &plainWidened)
            let place = "seed \(seed), round \(round): \(pattern)"
            #expect(fast.map { Array($0.utf8) } == plain.map { Array($0.utf8) }, "\(place)")
            #expect(fastWidened == plainWidened, "\(place)")
        }
        #expect(withoutDollar > 10, "seed \(seed)")
    }
}
