import Testing

@testable import LinkwrightCore

/// A pattern test's distinctions are made from its automaton's tests and what each stage of its
/// decorated machine adds (`ProofViews.distinctions(of:)`), without making the machine.
@Suite struct PatternDistinctionsTests {
    /// Seeded patterns of both platforms, with literals beyond ASCII, classes and wildcards,
    /// under every preparation: the distinctions, raw and decoded, must be the decorated
    /// machine's.
    @Test func aPatternsDistinctionsAreItsDecoratedMachines() throws {
        var generator = SplitMix64(seed: 0xD1_5714)
        let pieces = ["/", "a", "B", "x", "\u{E9}", "\u{4E2D}", "%2F", "*", "?", ".*", "[ab]", "[^x]", "$(v)"]
        var (compiled, decoded) = (0, 0)
        for round in 0..<2_000 {
            let text = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            let semantics: PatternSemantics = Bool.random(using: &generator) ? .apple : .androidDynamic
            let options = PatternOptions(
                semantics: semantics, caseSensitive: Bool.random(using: &generator),
                appleSlashRules: semantics == .apple && Bool.random(using: &generator),
                decoded: Bool.random(using: &generator))
            guard let matcher = try? PatternMatcher(text, options: options, variables: ["v": ["sh\u{F6}p", "News"]])
            else { continue }
            compiled += 1
            let pattern = PatternTest(matcher, preparation: Preparation(options))
            let machine = ProofViews.MachineDistinctions(
                ProofViews.decorated(PatternMachine(pattern.automaton), pattern.preparation))
            let made = ProofViews.distinctions(of: pattern)
            #expect(made.raw == machine.raw, "round \(round): \(text) \(options)")
            #expect(made.decoded == machine.decoded, "round \(round): \(text) \(options)")
            decoded += machine.decoded != ScalarDistinctions() ? 1 : 0
        }
        // Most patterns compile, and decoding ones, whose decoded reading is told apart, are many.
        #expect(compiled > 1_500 && decoded > 500, "\(compiled) patterns, \(decoded) decoding")
    }
}
