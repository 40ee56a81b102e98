import Testing

@testable import LinkwrightCore

/// `SubsetDFA` finds its transitions again in a `StepTable`: through every growth it must
/// answer as a dictionary does, for keys that differ only in the state (the high half) or only
/// in the scalar.
@Suite struct StepTableTests {
    @Test func answersAsADictionaryThroughEveryGrowth() {
        var generator = SplitMix64(seed: 0x57_E97A)
        var table = StepTable()
        var reference: [UInt64: Int] = [:]
        func key(_ state: Int, _ scalar: UInt32) -> UInt64 { UInt64(state) << 32 | UInt64(scalar) }
        for round in 0..<20_000 {
            // Runs of one scalar over many states, and of one state over many scalars.
            let state = round % 3 == 0 ? round : Int.random(in: 0..<300, using: &generator)
            let scalar: UInt32 = round % 3 == 1 ? 0x2F : UInt32.random(in: 0...0x10_FFFF, using: &generator)
            let probe = key(state, scalar)
            #expect(table[probe] == reference[probe])
            if reference[probe] == nil {
                table.insert(probe, round)
                reference[probe] = round
            }
        }
        for (probe, value) in reference { #expect(table[probe] == value) }
        #expect(table[key(1 << 30, 0x41)] == nil)
        #expect(reference.count > 10_000)
    }
}
