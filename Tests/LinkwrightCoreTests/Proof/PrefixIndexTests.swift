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
