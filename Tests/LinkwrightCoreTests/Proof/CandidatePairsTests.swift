import Testing

@testable import LinkwrightCore

/// `BehaviourProof.pairs` enumerates the rule pairs that can decide differently from what
/// changed; it must give exactly the pairs the definition does (the type's documentation):
/// a rule on one side only with any rule of the other or none, and rules on both sides that
/// the sides put in opposite orders.
@Suite struct CandidatePairsTests {
    /// The definition, tried on every pair.
    static func definition(inNew: [Int], inOld: [Int]) -> [[Int]] {
        var pairs: [[Int]] = []
        for oldIndex in 0...inNew.count {
            for newIndex in 0...inOld.count {
                let aStays = oldIndex < inNew.count && inNew[oldIndex] >= 0
                let bWasThere = newIndex < inOld.count && inOld[newIndex] >= 0
                if oldIndex == inNew.count && (newIndex == inOld.count || bWasThere) { continue }
                if newIndex == inOld.count && aStays { continue }
                if aStays && bWasThere && !(inNew[oldIndex] > newIndex && inOld[newIndex] > oldIndex) { continue }
                pairs.append([oldIndex, newIndex])
            }
        }
        return pairs
    }

    /// A list of keys (repeats allowed) and an edit of it as histories make them: insertions,
    /// removals, moves and, sometimes, a copy; every fourth round the list shuffled first.
    static func seededEdit(round: Int, using generator: inout SplitMix64) -> (base: [Int], head: [Int]) {
        let base = (0..<Int.random(in: 0...9, using: &generator)).map { _ in Int.random(in: 0..<12, using: &generator) }
        var head = round % 4 == 0 ? base.shuffled(using: &generator) : base
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                head.insert(
                    Int.random(in: 0..<16, using: &generator), at: Int.random(in: 0...head.count, using: &generator))
            case 1: if !head.isEmpty { head.remove(at: Int.random(in: 0..<head.count, using: &generator)) }
            default: if head.count > 1 { head.swapAt(Int.random(in: 0..<head.count, using: &generator), 0) }
            }
        }
        return (base, head)
    }

    /// Each key's first position in `list`, for every key of `other` (-1: absent).
    static func positions(of other: [Int], in list: [Int]) -> [Int] {
        other.map { key in list.firstIndex(of: key) ?? -1 }
    }

    @Test func pairsAreExactlyThoseOfTheDefinition() {
        var generator = SplitMix64(seed: 0xCA_4D1D)
        for round in 0..<2000 {
            let (base, head) = Self.seededEdit(round: round, using: &generator)
            let inNew = Self.positions(of: base, in: head)
            let inOld = Self.positions(of: head, in: base)
            let found = BehaviourProof.pairs(inNew: inNew, inOld: inOld).map { [$0.old, $0.new] }
            #expect(found == Self.definition(inNew: inNew, inOld: inOld), "base \(base), head \(head)")
        }
    }

    /// Given outcomes, the pairs are those of the definition whose rules decide otherwise ("no
    /// rule" deciding as the web does): seeded edits as above, with a few outcomes shared by
    /// many rules, as a changelog's lists have.
    @Test func pairsGivenOutcomesAreThoseOfTheDefinitionDecidingOtherwise() {
        var generator = SplitMix64(seed: 0x0C_7C0E)
        for round in 0..<2000 {
            let (base, head) = Self.seededEdit(round: round, using: &generator)
            // A key's outcome is the same on both sides, as a rule's key holds what it decides.
            let outcomeOfKey = (0..<16).map { _ in Int.random(in: 0..<3, using: &generator) }
            let outcomes = (old: base.map { outcomeOfKey[$0] } + [0], new: head.map { outcomeOfKey[$0] } + [0])
            let inNew = Self.positions(of: base, in: head)
            let inOld = Self.positions(of: head, in: base)
            let found = BehaviourProof.pairs(inNew: inNew, inOld: inOld, outcomes: outcomes).map { [$0.old, $0.new] }
            let expected = Self.definition(inNew: inNew, inOld: inOld).filter {
                outcomes.old[$0[0]] != outcomes.new[$0[1]]
            }
            #expect(found == expected, "base \(base), head \(head), outcomes \(outcomes)")
        }
    }

    /// Positions found through the prefix and suffix two lists of unique keys share are those a
    /// lookup of every key finds: seeded edits as histories make them (insertions, removals,
    /// moves, swaps, whole lists shuffled or replaced), the middle anywhere or empty.
    @Test func positionsThroughTheSharedEndsAreThoseOfEveryKeyLookedUp() {
        var generator = SplitMix64(seed: 0xED_17)
        for round in 0..<3000 {
            let base = (0..<Int.random(in: 0...14, using: &generator)).map { "r\($0)" }.shuffled(using: &generator)
            var head = round % 7 == 0 ? base.shuffled(using: &generator) : base
            var serial = 100
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0:
                    serial += 1
                    head.insert("r\(serial)", at: Int.random(in: 0...head.count, using: &generator))
                case 1: if !head.isEmpty { head.remove(at: Int.random(in: 0..<head.count, using: &generator)) }
                case 2:
                    if !head.isEmpty {
                        let moved = head.remove(at: Int.random(in: 0..<head.count, using: &generator))
                        head.insert(moved, at: Int.random(in: 0...head.count, using: &generator))
                    }
                default:
                    if head.count > 1 {
                        head.swapAt(
                            Int.random(in: 0..<head.count, using: &generator),
                            Int.random(in: 0..<head.count, using: &generator))
                    }
                }
            }
            let edited = BehaviourProof.positions(base, head, unique: true)
            let lookedUp = BehaviourProof.positions(base, head, unique: false)
            #expect(edited.inNew == lookedUp.inNew && edited.inOld == lookedUp.inOld, "base \(base), head \(head)")
            #expect(lookedUp.inNew == base.map { head.firstIndex(of: $0) ?? -1 })
        }
    }

    /// Rules added in front of a long list pair with each old rule once: linear, not quadratic.
    @Test func rulesAddedInFrontPairLinearly() {
        let old = Array(0..<900)
        let new = Array(1000..<1009) + old
        let pairs = BehaviourProof.pairs(
            inNew: Self.positions(of: old, in: new), inOld: Self.positions(of: new, in: old))
        #expect(pairs.count == 9 * 901)
    }
}
