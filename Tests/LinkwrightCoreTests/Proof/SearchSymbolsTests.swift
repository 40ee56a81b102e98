import Testing

@testable import LinkwrightCore

/// A search steps one symbol per class of symbols all its views read alike
/// (`DimensionSearch.firstOfEachClass`): the first symbol of each combination of the views'
/// classes, as grouping the symbols by all their classes at once finds them.
@Suite struct SearchSymbolsTests {
    /// Few views of few classes, and many of many, whose classes taken together outgrow one
    /// 64-bit number (`firstOfEachClass` numbers them afresh there).
    @Test(arguments: [(UInt64(1), 5, 6), (2, 5, 6), (3, 5, 6), (4, 40, 40), (5, 40, 40)])
    func theFirstOfEachClassIsTheFirstOfEachCombinationOfClasses(seed: UInt64, views: Int, classes: Int) {
        var generator = SplitMix64(seed: seed)
        for step in 0..<300 {
            let symbols = Int.random(in: 0...40, using: &generator)
            // Each view's classes numbered in order of first appearance, as `PartView` numbers them.
            let views = (0..<Int.random(in: 1...views, using: &generator)).map { _ in
                let drawn = Int.random(in: 1...classes, using: &generator)
                var numbers: [Int: Int32] = [:]
                return (0..<symbols).map { _ in
                    let raw = Int.random(in: 0..<drawn, using: &generator)
                    if let known = numbers[raw] { return known }
                    numbers[raw] = Int32(numbers.count)
                    return Int32(numbers.count - 1)
                }
            }
            var seen: Set<[Int32]> = []
            let expected = (0..<symbols).filter { symbol in seen.insert(views.map { $0[symbol] }).inserted }
            #expect(DimensionSearch.firstOfEachClass(views) == expected, "seed \(seed), step \(step)")
        }
    }

    /// Many views of several classes each, that read the symbols of a group alike: the classes
    /// of all views outgrow one 64-bit number (`firstOfEachClass` numbers them afresh there)
    /// while symbols still share them.
    @Test(arguments: [UInt64(6), 7, 8])
    func classesOutgrowingOneNumberAreStillShared(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for step in 0..<200 {
            let symbols = Int.random(in: 1...60, using: &generator)
            let groups = Int.random(in: 1...8, using: &generator)
            let group = (0..<symbols).map { _ in Int.random(in: 0..<groups, using: &generator) }
            let views = (0..<Int.random(in: 20...40, using: &generator)).map { _ in
                let classOfGroup = (0..<groups).map { _ in Int.random(in: 0..<40, using: &generator) }
                var numbers: [Int: Int32] = [:]
                return group.map { group in
                    if let known = numbers[classOfGroup[group]] { return known }
                    numbers[classOfGroup[group]] = Int32(numbers.count)
                    return Int32(numbers.count - 1)
                }
            }
            var seen: Set<[Int32]> = []
            let expected = (0..<symbols).filter { symbol in seen.insert(views.map { $0[symbol] }).inserted }
            #expect(DimensionSearch.firstOfEachClass(views) == expected, "seed \(seed), step \(step)")
        }
    }
}
