import Testing

@testable import LinkwrightCore

/// `DiffedLists` knows a pair of rule lists by their storage and diffs it once: whatever lists it
/// is asked about, shared, copied, edited or made anew after others were dropped, its edits must
/// be those `SequenceDiff.changes` finds for the pair alone.
@Suite struct DiffedListsTests {
    /// Each edit with everything the structural diff reads of it: kind, texts, paths, origins.
    static func described(_ edits: [SequenceDiff.Edit]) -> [String] {
        edits.map { edit in
            [edit.before, edit.after].map { rule in
                rule.map { [$0.text, $0.path, $0.origin?.description ?? "-"].joined(separator: "|") } ?? "none"
            }.joined(separator: " -> ") + " \(edit.kind)"
        }
    }

    /// Seeded pools of lists: some the very array of another (the apps and hosts reading one
    /// file), some equal in other storage, some edited by a rule or a few (inserted, removed,
    /// moved, changed in place or written elsewhere), asked about in a shuffled order, again and
    /// again, and some made and dropped one after another, whose storage the allocator hands on.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func editsAreThoseOfEachPairDiffedAlone(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var serial = 0
        func rule(line: Int) -> RuleSignature {
            serial += 1
            var rule = RuleSignature(
                legacyPath: "/\(["shop", "sale", "news"].randomElement(using: &generator)!)\(serial)")
            rule.origin = SourceLocation(file: "domains/shop.yaml", line: line, column: 7)
            return rule
        }
        func edited(_ list: [RuleSignature]) -> [RuleSignature] {
            var list = list.map { $0 }
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let position = Int.random(in: 0..<max(list.count, 1), using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: list.insert(rule(line: position), at: min(position, list.count))
                case 1 where !list.isEmpty: list.remove(at: position)
                case 2 where !list.isEmpty:
                    let moved = list.remove(at: position)
                    list.insert(moved, at: Int.random(in: 0...list.count, using: &generator))
                case 3 where !list.isEmpty:
                    // The same path under another rule: a change in place.
                    var changed = RuleSignature(legacyPath: "NOT " + list[position].path)
                    changed.origin = list[position].origin
                    list[position] = changed
                default:
                    if !list.isEmpty { list[position].origin?.line += 1 }
                }
            }
            return list
        }
        var diffed = DiffedLists()
        func check(_ old: [RuleSignature], _ new: [RuleSignature], _ note: String) {
            #expect(
                Self.described(diffed.edits(from: old, to: new))
                    == Self.described(SequenceDiff.changes(from: old, to: new)), "\(note)")
        }
        let first = (0..<Int.random(in: 1...40, using: &generator)).map { rule(line: $0) }
        var pool = [first, first, first.map { $0 }]
        for _ in 0..<12 {
            let list = pool.randomElement(using: &generator)!
            pool.append(Bool.random(using: &generator) ? list : edited(list))
        }
        for round in 0..<200 {
            let (old, new) = (pool.randomElement(using: &generator)!, pool.randomElement(using: &generator)!)
            check(old, new, "seed \(seed) round \(round)")
        }
        for round in 0..<50 {
            let old = (0..<Int.random(in: 1...12, using: &generator)).map { rule(line: $0) }
            check(old, edited(old), "seed \(seed) dropped \(round)")
        }
    }
}
