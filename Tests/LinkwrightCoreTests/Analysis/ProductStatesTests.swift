import Testing

@testable import LinkwrightCore

/// A search's product states (`ProductStates`) must answer as a set of arrays does, through
/// every growth of the table: each state new once, numbered in order of discovery, its row
/// holding it, for widths from one view to several and values from -1 (a literal's dead state)
/// up.
@Suite struct ProductStatesTests {
    @Test(arguments: [1, 2, 3, 7])
    func answersAsASetOfArraysThroughEveryGrowth(width: Int) {
        var generator = SplitMix64(seed: 0x9A0D_0000 + UInt64(width))
        var table = ProductStates(width: width)
        var reference: [[Int32]: Int] = [:]
        for round in 0..<6_000 {
            // Few values early, so states repeat; more later, so the table grows.
            let values = Int32(2 + round / 20)
            let state = (0..<width).map { _ in Int32.random(in: -1..<values, using: &generator) }
            let isNew = reference[state] == nil
            #expect(table.insert(state) == isNew, "round \(round): \(state)")
            if isNew { reference[state] = reference.count }
        }
        #expect(table.count == reference.count)
        for (state, row) in reference {
            #expect(Array(table.rows[(row * width)..<((row + 1) * width)]) == state)
        }
        #expect(reference.count > 250)
    }
}
