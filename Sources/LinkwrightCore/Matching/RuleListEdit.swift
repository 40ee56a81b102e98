/// How a rule list relates to an earlier one it is an edit of: the rules both begin and end
/// with, compared in place, are kept, and those between are the edit. A changelog's next
/// revision of a file inserts, deletes or rewrites a few rules among hundreds, and what was
/// made of the kept ones (proof rules, compiled patterns, a match index) serves again.
enum RuleListEdit {
    /// Whether two files' substitution variables are the same names with the same values, each
    /// text exactly (a file holds a few): patterns read them, so only then do equal texts
    /// compile alike.
    static func sameVariables(_ one: [String: [String]], _ other: [String: [String]]) -> Bool {
        one.count == other.count
            && one.allSatisfy { name, values in
                other.contains { ExactText.equal($0.key, name) && ExactText.equal($0.value, values) }
            }
    }

    /// For each of `sources`, the position in `earlier` of a rule it keeps, in order: the
    /// prefix and suffix both share (`alike`), and between them the longest run, in the order of
    /// both lists, of rules each written once there in both lists (`key` tells which are
    /// candidates, `alike` decides), so an edit touching a few rules far apart, or moving one,
    /// keeps the rest. `nil` for a rule not kept. Kept positions increase with the position.
    /// `alike` reads both rules where they lie (`keptPositions`).
    static func keptInOrder<Source, Key: Hashable>(
        _ sources: [Source], from earlier: [Source],
        alike: (UnsafePointer<Source>, UnsafePointer<Source>) -> Bool, key: (Source) -> Key
    ) -> [Int?] {
        var kept = keptPositions(sources, from: earlier, alike: alike)
        guard let first = kept.firstIndex(of: nil) else { return kept }
        let last = kept.lastIndex(of: nil)!
        // The earlier rules between the shared ends.
        let earlierMiddle = first..<(last + 1 + earlier.count - sources.count)
        var once: [Key: (earlier: Int?, source: Int?, repeated: Bool)] = [:]
        for position in earlierMiddle {
            once[key(earlier[position]), default: (nil, nil, false)].repeated = once[key(earlier[position])] != nil
            once[key(earlier[position])]!.earlier = position
        }
        for position in first...last {
            let key = key(sources[position])
            guard let known = once[key], !known.repeated else { continue }
            once[key] = known.source == nil ? (known.earlier, position, false) : (nil, nil, true)
        }
        let pairs = (first...last).compactMap { position -> (source: Int, earlier: Int)? in
            guard let known = once[key(sources[position])], !known.repeated, known.source == position,
                let earlierPosition = known.earlier, Self.alike(sources, position, earlier, earlierPosition, alike)
            else { return nil }
            return (position, earlierPosition)
        }
        for pair in longestIncreasingRun(pairs) { kept[pair.source] = pair.earlier }
        return kept
    }

    /// The rules of an edit, one per position of `kept` (as `keptInOrder` gives it): made from
    /// the earlier rule by `keep(position, earlierPosition)` where the edit keeps one, by
    /// `fresh(position)` elsewhere.
    static func rules<Rule>(_ kept: [Int?], keep: (Int, Int) -> Rule, fresh: (Int) -> Rule) -> [Rule] {
        var rules: [Rule] = []
        rules.reserveCapacity(kept.count)
        for position in kept.indices { rules.append(kept[position].map { keep(position, $0) } ?? fresh(position)) }
        return rules
    }

    /// The longest subsequence of `pairs` (in increasing `source` order) whose `earlier`
    /// positions increase too (patience sorting).
    private static func longestIncreasingRun(_ pairs: [(source: Int, earlier: Int)]) -> [(source: Int, earlier: Int)] {
        // `tails[k]`: the pair ending the best run of length k + 1 found so far.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: pairs.count)
        for (index, pair) in pairs.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if pairs[tails[middle]].earlier < pair.earlier { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [(source: Int, earlier: Int)] = []
        var index = tails.last ?? -1
        while index >= 0 {
            run.append(pairs[index])
            index = previous[index]
        }
        return run.reversed()
    }

    /// For each of `sources`, its position in `earlier` when it lies in the prefix or suffix
    /// both share (`alike`), else `nil`. `alike` reads both rules where they lie: passed by
    /// value, each rule was copied for every comparison (a retain per text), which cost more
    /// than comparing the texts a carried rule shares with the earlier one.
    static func keptPositions<Source>(
        _ sources: [Source], from earlier: [Source], alike: (UnsafePointer<Source>, UnsafePointer<Source>) -> Bool
    ) -> [Int?] {
        let (prefix, suffix) = sources.withUnsafeBufferPointer { sources in
            earlier.withUnsafeBufferPointer { earlier in
                let shorter = min(sources.count, earlier.count)
                var prefix = 0
                while prefix < shorter && alike(sources.baseAddress! + prefix, earlier.baseAddress! + prefix) {
                    prefix += 1
                }
                var suffix = 0
                while suffix < shorter - prefix
                    && alike(
                        sources.baseAddress! + sources.count - 1 - suffix,
                        earlier.baseAddress! + earlier.count - 1 - suffix)
                {
                    suffix += 1
                }
                return (prefix, suffix)
            }
        }
        let shift = earlier.count - sources.count
        return sources.indices.map { index in
            if index < prefix { return index }
            if index >= sources.count - suffix { return index + shift }
            return nil
        }
    }

    /// `alike` of `sources[position]` and `earlier[earlierPosition]`, read in place.
    private static func alike<Source>(
        _ sources: [Source], _ position: Int, _ earlier: [Source], _ earlierPosition: Int,
        _ alike: (UnsafePointer<Source>, UnsafePointer<Source>) -> Bool
    ) -> Bool {
        sources.withUnsafeBufferPointer { sources in
            earlier.withUnsafeBufferPointer { earlier in
                alike(sources.baseAddress! + position, earlier.baseAddress! + earlierPosition)
            }
        }
    }
}

extension DynamicComponent {
    /// Whether `other` tests URLs as this does: the same texts, exactly (`ExactText`), and
    /// exclusion; where either is written and its comments aside.
    func testsAlike(_ other: DynamicComponent) -> Bool {
        exclude == other.exclude && ExactText.equal(path, other.path) && ExactText.equal(fragment, other.fragment)
            && query == other.query
    }

    /// `testsAlike` of the components at `one` and `other`, read in place: a component carried
    /// from an earlier revision holds the very storage of its texts (`RuleCompilations`), told
    /// at once by its bits (`sameBitsButWhere`); the others are compared.
    static func testAlike(_ one: UnsafePointer<Self>, _ other: UnsafePointer<Self>) -> Bool {
        sameBitsButWhere(one, other) || one.pointee.testsAlike(other.pointee)
    }

    /// What `testsAlike` compares, as a key for `RuleListEdit.keptInOrder`: `String`'s hash
    /// takes NFC and NFD spellings for one, which `testsAlike` then tells apart.
    var testKey: TestKey { TestKey(path: path, query: query, fragment: fragment, exclude: exclude) }

    struct TestKey: Hashable {
        let path: String?
        let query: [AASAQueryItem]?
        let fragment: String?
        let exclude: Bool
    }
}

extension CompiledAASA.Rule {
    /// Whether `other` tests URLs as this does, in a file with the same substitution variables:
    /// the same kind, flags and exclusion, and the same pattern texts, exactly; where either is
    /// written aside. `texts == other.texts`, compared field by field without making either.
    func testsAlike(_ other: CompiledAASA.Rule) -> Bool {
        guard kind == other.kind, exclude == other.exclude, flags == other.flags,
            ExactText.equal(path.text, other.path.text), ExactText.equal(fragment?.text, other.fragment?.text)
        else { return false }
        switch (query, other.query) {
        case (.whole(let one), .whole(let other)): return ExactText.equal(one.text, other.text)
        case (.items(let one), .items(let other)):
            return one.count == other.count
                && zip(one, other).allSatisfy {
                    ExactText.equal($0.name, $1.name) && ExactText.equal($0.pattern.text, $1.pattern.text)
                }
        case (.ignoredDictionary, .ignoredDictionary), (.notCompared, .notCompared): return true
        default: return false
        }
    }
}
