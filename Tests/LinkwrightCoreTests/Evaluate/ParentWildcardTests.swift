import Testing

@testable import LinkwrightCore

/// The parent wildcards Android looks up for a host (`EnvironmentEvaluator.parentWildcards`):
/// found among the bytes of a host whose characters are bytes, they are those of the search by
/// characters, on seeded hosts of dots, letters, non-ASCII letters and combining marks.
@Suite struct ParentWildcardTests {
    /// The search by characters, for any host.
    private static func searched(_ host: String) -> [String] {
        var wildcards: [String] = []
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: "."), rest[rest.index(after: dot)...].contains(".") {
            rest = rest[rest.index(after: dot)...]
            wildcards.append("*." + rest)
        }
        return wildcards
    }

    @Test func theBytesGiveWhatTheCharactersGive() {
        let pieces = [".", ".", "a", "shop", "-", "*", "é", "\u{301}", "\u{0600}", "x9"]
        var generator = SplitMix64(seed: 60)
        for _ in 0..<5_000 {
            let host = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            #expect(EnvironmentEvaluator.parentWildcards(of: host) == Self.searched(host), "\(host)")
        }
        #expect(EnvironmentEvaluator.parentWildcards(of: "a.b.shop.example") == ["*.b.shop.example", "*.shop.example"])
    }
}
