import Testing

@testable import LinkwrightCore

/// The DFA cache stays within its limits whatever the inputs, and its answers do not depend on
/// it: the memory bound docs/matching.md states (65,536 states, 16M cells per DFA) holds only if
/// starting over really happens.
@Suite struct LazyDFABoundTests {
    static let letters: [Unicode.Scalar] = ["a", "b", "c", "d", "e"]

    /// `*a*c*b*…`: each pattern's progress is independent of the others', so distinct inputs
    /// make new states at almost every scalar and the full DFA has far more states than the limits.
    static func adversarialPatterns() -> [PatternMatcher] {
        var generator = SplitMix64(seed: 0xB0B)
        return (0..<24).map { _ in
            let middle = (0..<6).map { _ in String(letters.randomElement(using: &generator)!) }
            return try! PatternMatcher("*" + middle.joined(separator: "*") + "*", options: PatternOptions())
        }
    }

    /// Limits small enough for the inputs to reach them: by states, or by cells with states to spare.
    static let limits = [
        LazyDFA.Limits(states: 40, cells: 1 << 20), LazyDFA.Limits(states: 1 << 16, cells: 4_000),
    ]

    /// `thrashing`: whether a full cache whose states were hardly reused hands inputs to
    /// simulation (the standard behaviour), or always starts over and keeps building states.
    @Test(arguments: [false, true], limits.indices)
    func theCacheNeverHoldsMoreThanItsLimits(thrashing: Bool, limit: Int) {
        let matchers = Self.adversarialPatterns()
        var trie = PatternTrie()
        for (label, matcher) in matchers.enumerated() { trie.insert(matcher, label: Int32(label)) }
        var limits = Self.limits[limit]
        limits.simulatedInputs = 5
        limits.scalarsPerState = thrashing ? 10 : 0
        let dfa = LazyDFA(trie.compile(variables: [:]), limits: limits)
        var generator = SplitMix64(seed: 0xCAC4E)
        var fullest = 0.0
        var startedOver = 0
        var previous = dfa.cacheSize.states
        for _ in 0..<400 {
            let input = (0..<Int.random(in: 1...30, using: &generator)).map { _ in
                Self.letters.randomElement(using: &generator)!
            }
            var labels: [Int32] = []
            dfa.accepting(input, into: &labels)
            AutomatonUnion.removeRepeats(&labels)
            let expected = matchers.indices.filter { matchers[$0].matchesByAutomaton(input) }.map(Int32.init)
            #expect(labels == expected, "\(String(String.UnicodeScalarView(input)))")
            let size = dfa.cacheSize
            #expect(size.states <= limits.states, "\(size.states) states")
            #expect(size.cells <= limits.cells, "\(size.cells) cells")
            fullest = max(
                fullest, Double(size.states) / Double(limits.states), Double(size.cells) / Double(limits.cells))
            if size.states < previous { startedOver += 1 }
            previous = size.states
        }
        // The inputs did fill the cache, more than once: the bound was exercised, not just unmet.
        #expect(fullest > 0.5)
        #expect(startedOver > 10)
    }

    @Test func theStandardLimitsAreTheDocumentedOnes() {
        #expect(LazyDFA.Limits.standard.states == 65_536)
        // Four bytes a cell: 64 MB.
        #expect(LazyDFA.Limits.standard.cells * 4 == 64 << 20)
    }
}
