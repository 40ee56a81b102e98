import Testing

@testable import LinkwrightCore

/// A view numbers its machine's states and keeps its transitions per class of symbols
/// (`PartView`); states that are small integers (a DFA's, a literal's position from -1) are
/// numbered through an array, the others through a dictionary. On seeded texts over the
/// view's alphabet, each view must give the verdicts of its machine stepped directly, and a
/// state reached twice must get the same number.
@Suite struct PartViewTests {
    /// Steps `view` and `machine` side by side over random symbol sequences.
    static func agree<Machine: PartMachine>(
        _ machine: Machine, _ alphabet: ProofAlphabet, seed: UInt64, _ label: String
    ) {
        let view = PartView(machine, alphabet: alphabet)
        var generator = SplitMix64(seed: seed)
        var numbers: [Machine.State: Int32] = [:]
        for round in 0..<400 {
            var viewState = view.start
            var state = machine.start
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                let symbol = Int.random(in: 0..<alphabet.scalars.count, using: &generator)
                viewState = view.step(viewState, symbol)
                state = machine.step(state, alphabet.scalars[symbol])
                #expect(numbers[state, default: viewState] == viewState, "\(label) round \(round)")
                numbers[state] = viewState
                #expect(view.accepts(viewState) == machine.accepts(state), "\(label) round \(round)")
                #expect(view.isDead(viewState) == machine.isDead(state), "\(label) round \(round)")
                #expect(view.isUniversal(viewState) == machine.isUniversal(state), "\(label) round \(round)")
            }
        }
        #expect(numbers.count >= 3, "\(label): the texts reach few states")
    }

    static func alphabet(_ machines: [some PartMachine]) -> ProofAlphabet {
        var distinctions = ScalarDistinctions()
        for machine in machines { machine.distinctions(into: &distinctions) }
        return ProofAlphabet(distinctions, text: .part(.path))
    }

    @Test(arguments: ["/a/*", "/ab?/é*", "*b/a", "/a$(lang)/b"])
    func patternViewsGiveTheirMachinesVerdicts(pattern: String) throws {
        let matcher = try PatternMatcher(pattern, variables: ["lang": ["en", "fr"]])
        let machine = PatternMachine(matcher.automaton)
        Self.agree(machine, Self.alphabet([machine]), seed: 0x9A47, pattern)
        // States that are not integers go through the dictionary.
        let slashed = AppleSlashStage(inner: PatternMachine(matcher.automaton))
        Self.agree(slashed, Self.alphabet([slashed]), seed: 0x9A48, "slashed \(pattern)")
    }

    /// A view makes its machine's escaped byte keys on first use (most views of decoding rules
    /// are read decoded and never ask): they must be the machine's, asked before any step or
    /// after many, and none for a machine that does not decode.
    @Test(arguments: ["/a/*", "/ab?/é*", "*b/a", "/%41$(lang)/b"])
    func escapedByteKeysAreTheMachines(pattern: String) throws {
        let matcher = try PatternMatcher(pattern, variables: ["lang": ["en", "fr"]])
        let decoding = PercentDecodeStage(PatternMachine(matcher.automaton))
        let folded = PercentDecodeStage(FoldStage(inner: PatternMachine(matcher.automaton)))
        let alphabet = Self.alphabet([decoding])
        let expected = try #require(decoding.escapedByteKeys)
        #expect(PartView(decoding, alphabet: alphabet).escapedByteKeys == expected, "\(pattern)")
        let stepped = PartView(decoding, alphabet: alphabet)
        var state = stepped.start
        for symbol in alphabet.scalars.indices { state = stepped.step(state, symbol) }
        #expect(stepped.escapedByteKeys == expected, "\(pattern)")
        let foldedView = PartView(folded, alphabet: Self.alphabet([folded]))
        #expect(foldedView.escapedByteKeys == folded.escapedByteKeys, "\(pattern)")
        #expect(PartView(PatternMachine(matcher.automaton), alphabet: alphabet).escapedByteKeys == nil, "\(pattern)")
    }

    @Test func literalViewsGiveTheirMachinesVerdicts() {
        for (text, isPrefix) in [("/ab/a", false), ("/b", true)] {
            let machine = LiteralMachine(text: Array(text.unicodeScalars), isPrefix: isPrefix)
            Self.agree(machine, Self.alphabet([machine]), seed: 0x9A49, text)
        }
    }
}
