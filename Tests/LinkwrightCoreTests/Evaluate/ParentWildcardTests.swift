import Testing

@testable import LinkwrightCore

/// The parent wildcards Android looks up for a host (`EnvironmentEvaluator.parentWildcards`):
/// found among the bytes of a host whose characters are bytes, they are those of the search by
/// characters, on seeded hosts of dots, letters, non-ASCII letters and combining marks.
@Suite struct ParentWildcardTests {
    @Test func theBytesGiveWhatTheCharactersGive() {
        let pieces = [".", ".", "a", "shop", "-", "*", "é", "\u{301}", "\u{0600}", "x9"]
        var generator = SplitMix64(seed: 60)
        for _ in 0..<5_000 {
            let host = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            let searched = EnvironmentEvaluator.parentWildcardsByCharacters(of: host)
            #expect(EnvironmentEvaluator.parentWildcards(of: host) == searched, "\(host)")
        }
        #expect(EnvironmentEvaluator.parentWildcards(of: "a.b.shop.example") == ["*.b.shop.example", "*.shop.example"])
    }
}
