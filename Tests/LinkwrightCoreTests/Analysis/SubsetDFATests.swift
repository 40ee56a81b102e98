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

    /// `Automaton.matches` starts its buffers with room for a rule's sets. On seeded patterns of
    /// both platforms, alone and as unions whose sets outgrow that room, `matches` and the DFA
    /// must answer as the plain subset construction (`Automaton.move`, then `closure(of:)`):
    /// the same text reaches a state of the same set, states are numbered in the order their
    /// sets first appear, and a transition taken first costs the construction work of both its
    /// sets (what the proof's budget counts), again nothing.
    @Test func buildsTheStatesOfThePlainSubsetConstruction() throws {
        var generator = SplitMix64(seed: 0x5C_7A7C)
        let patternScalars: [Character] = ["a", "b", "/", "%", "*", "?"]
        let scalars = Array("ab/%x\u{E9}".unicodeScalars)
        func pattern() -> String {
            String(
                (0..<Int.random(in: 1...7, using: &generator)).map { _ in
                    patternScalars.randomElement(using: &generator)!
                })
        }
        var bigSets = 0
        for round in 0..<300 {
            let members = round % 3 == 0 ? Int.random(in: 20...80, using: &generator) : 1
            let automata = try (0..<members).map { _ in
                let text = pattern()
                return Bool.random(using: &generator)
                    ? PatternMatcher(androidDynamic: text).automaton : try PatternMatcher(text).automaton
            }
            let automaton = members == 1 ? automata[0] : Automaton.union(automata)
            let dfa = SubsetDFA(automaton)
            let start = automaton.closure(of: [automaton.start])
            var stateOfSet: [[Int]: Int] = [start: dfa.start]
            bigSets += start.count > 64 ? 1 : 0
            var taken: Set<[Int]> = []
            for _ in 0..<40 {
                let text = (0..<Int.random(in: 0...9, using: &generator)).map { _ in
                    scalars.randomElement(using: &generator)!
                }
                var (set, state) = (start, dfa.start)
                for scalar in text {
                    var moved: [Int] = []
                    automaton.move(set, on: scalar, into: &moved)
                    let next = automaton.closure(of: moved)
                    let before = dfa.constructionWork
                    let nextState = dfa.step(state, scalar)
                    let context = "round \(round), \(String(String.UnicodeScalarView(text)))"
                    if let known = stateOfSet[next] {
                        #expect(nextState == known, "\(context)")
                    } else {
                        #expect(nextState == stateOfSet.count, "new state numbered in order, \(context)")
                        stateOfSet[next] = nextState
                    }
                    let first = taken.insert([state, Int(scalar.value)]).inserted
                    #expect(dfa.constructionWork - before == (first ? set.count + next.count : 0), "\(context)")
                    #expect(dfa.accepts(nextState) == next.contains(automaton.accept), "\(context)")
                    #expect(dfa.isEmpty(nextState) == next.isEmpty, "\(context)")
                    bigSets += next.count > 64 ? 1 : 0
                    (set, state) = (next, nextState)
                }
                #expect(automaton.matches(text) == set.contains(automaton.accept), "round \(round)")
            }
        }
        // Some unions' sets outgrow the room `matches` starts with.
        #expect(bigSets > 0)
    }
}
