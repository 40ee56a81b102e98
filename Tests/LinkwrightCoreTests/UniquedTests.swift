import Testing

@testable import LinkwrightCore

/// `uniqued` searches its first distinct elements in place, then keeps a set: seeded lists below,
/// at and past that count, with many repeats and texts equal only as Swift compares them (NFC and
/// NFD), keep the elements a set keeps, in the order they first appear, read in one pass.
@Suite struct UniquedTests {
    private static let texts = ["a", "b", "caf\u{E9}", "cafe\u{301}", "", "A", "\u{212B}", "\u{C5}"]

    /// Each element once, kept as a set first meets it.
    private static func bySet<Element: Hashable>(_ elements: [Element]) -> [Element] {
        var seen: Set<Element> = []
        return elements.filter { seen.insert($0).inserted }
    }

    @Test func seededListsKeepWhatASetKeeps() {
        for seed in 0..<600 {
            var generator = SplitMix64(seed: UInt64(seed))
            let distinct = Int.random(in: 1...(uniquedInPlace * 3), using: &generator)
            let count = Int.random(in: 0...(uniquedInPlace * 6), using: &generator)
            let numbers = (0..<count).map { _ in Int.random(in: 0..<distinct, using: &generator) }
            #expect(numbers.uniqued() == Self.bySet(numbers), "seed \(seed)")
            let texts = numbers.map { Self.texts[$0 % Self.texts.count] + String($0 / Self.texts.count) }
            #expect(texts.uniqued() == Self.bySet(texts), "seed \(seed)")
        }
    }

    /// A sequence that can be read only once, past the count searched in place.
    @Test func aSequenceIsReadOnce() {
        let values = (0..<(3 * uniquedInPlace)).map { ($0 * 7) % (2 * uniquedInPlace) }
        var unread = values[...]
        let once = AnySequence { AnyIterator { unread.popFirst() } }
        #expect(once.uniqued() == Self.bySet(values))
    }
}
