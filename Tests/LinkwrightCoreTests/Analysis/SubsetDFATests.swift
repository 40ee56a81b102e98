import Testing

@testable import LinkwrightCore

/// `SubsetDFA` keeps its transitions on ASCII scalars in a table per state and the others in a
/// `StepTable`. On seeded texts mixing both, it must accept what its automaton does, give the
/// same state for the same text every time, and build each transition once: a step taken
/// again adds no construction work (the proof's budget counts that work).
@Suite struct SubsetDFATests {
    @Test(arguments: ["/a/*", "*é?b*", "/$(lang)/x?", "*", "/ab"])
    func answersAsItsAutomatonAndBuildsEachTransitionOnce(pattern: String) throws {
        let automaton = try PatternMatcher(pattern, variables: ["lang": ["en", "fr"]]).automaton
        let dfa = SubsetDFA(automaton)
        let scalars = Array("/abenfrxé\u{212A}中".unicodeScalars)
        var generator = SplitMix64(seed: 0xDFA)
        var states: [[Unicode.Scalar]: Int] = [[]: dfa.start]
        for round in 0..<2_000 {
            let text = (0..<Int.random(in: 0...7, using: &generator)).map { _ in
                scalars.randomElement(using: &generator)!
            }
            var state = dfa.start
            for (length, scalar) in text.enumerated() {
                let before = dfa.constructionWork
                let next = dfa.step(state, scalar)
                if let known = states[Array(text[...length])] {
                    #expect(next == known, "\(pattern) round \(round)")
                    #expect(dfa.constructionWork == before, "\(pattern) round \(round): stepped again")
                }
                states[Array(text[...length])] = next
                state = next
            }
            #expect(
                dfa.accepts(state) == automaton.matches(text), "\(pattern) on \(String(String.UnicodeScalarView(text)))"
            )
        }
    }
}
