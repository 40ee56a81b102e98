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
        var states: [Int32: Machine.State] = [:]
        for round in 0..<400 {
            var viewState = view.start
            var state = machine.start
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                let symbol = Int.random(in: 0..<alphabet.scalars.count, using: &generator)
                viewState = view.step(viewState, symbol)
                state = machine.step(state, alphabet.scalars[symbol])
                #expect(numbers[state, default: viewState] == viewState, "\(label) round \(round)")
                #expect(states[viewState, default: state] == state, "\(label) round \(round)")
                numbers[state] = viewState
                states[viewState] = state
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
        // States that are not integers are packed into one (`PartMachine.packed`), or go
        // through the dictionary.
        let slashed = AppleSlashStage(inner: PatternMachine(matcher.automaton))
        Self.agree(slashed, Self.alphabet([slashed]), seed: 0x9A48, "slashed \(pattern)")
        let folded = FoldStage(inner: AppleSlashStage(inner: PatternMachine(matcher.automaton)))
        Self.agree(folded, Self.alphabet([folded]), seed: 0x9A4A, "folded \(pattern)")
        let unpacked = Unpacked(inner: AppleSlashStage(inner: PatternMachine(matcher.automaton)))
        Self.agree(unpacked, Self.alphabet([unpacked]), seed: 0x9A4B, "unpacked \(pattern)")
    }

    /// Packed states are numbered as the dictionary numbers them: on the same seeded texts, a
    /// view of a machine packing its states and one of the same machine not packing them give
    /// every state the same number and verdicts.
    @Test(arguments: ["/a/*", "/ab?/é*", "*b/a", "/a$(lang)/b", "*/*/x*"])
    func packedStatesAreNumberedAsTheDictionaryNumbersThem(pattern: String) throws {
        let matcher = try PatternMatcher(pattern, variables: ["lang": ["en", "fr"]])
        let packing = FoldStage(inner: AppleSlashStage(inner: PatternMachine(matcher.automaton)))
        let plain = Unpacked(inner: FoldStage(inner: AppleSlashStage(inner: PatternMachine(matcher.automaton))))
        let alphabet = Self.alphabet([packing])
        let (fast, slow) = (PartView(packing, alphabet: alphabet), PartView(plain, alphabet: alphabet))
        var generator = SplitMix64(seed: 0x9A4C)
        var packedStates = 0
        for round in 0..<400 {
            var (fastState, slowState, state) = (fast.start, slow.start, packing.start)
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                let symbol = Int.random(in: 0..<alphabet.scalars.count, using: &generator)
                (fastState, slowState) = (fast.step(fastState, symbol), slow.step(slowState, symbol))
                state = packing.step(state, alphabet.scalars[symbol])
                if packing.packed(state) != nil { packedStates += 1 }
                #expect(fastState == slowState, "\(pattern) round \(round)")
                #expect(fast.accepts(fastState) == slow.accepts(slowState), "\(pattern) round \(round)")
                #expect(fast.isDead(fastState) == slow.isDead(slowState), "\(pattern) round \(round)")
            }
        }
        #expect(packedStates > 0, "\(pattern): no state was packed")
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

/// `Inner` with its states never packed (`PartMachine.packed`), so its view numbers them
/// through the dictionary.
struct Unpacked<Inner: PartMachine>: PartMachine {
    let inner: Inner
    var start: Inner.State { inner.start }
    func start(innermost subset: Int) -> Inner.State { inner.start(innermost: subset) }
    func step(_ state: Inner.State, _ scalar: Unicode.Scalar) -> Inner.State { inner.step(state, scalar) }
    func accepts(_ state: Inner.State) -> Bool { inner.accepts(state) }
    func isDead(_ state: Inner.State) -> Bool { inner.isDead(state) }
    func isUniversal(_ state: Inner.State) -> Bool { inner.isUniversal(state) }
    func distinctions(into distinctions: inout ScalarDistinctions) { inner.distinctions(into: &distinctions) }
    var constructionWork: Int { inner.constructionWork }
}
