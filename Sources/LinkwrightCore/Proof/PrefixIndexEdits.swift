/// The prefix indexes of the decision lists made last (`DecisionList.prefixIndex`), from which
/// the next list's is made as an edit: a changelog's revision inserts a few rules in front of
/// a thousand, whose prefixes are then sorted again for each list. The rules a list begins and
/// ends with that have the content of an earlier list's (`ProofRule.sharesContent`: its rules
/// written again, as `DecisionListLineage` makes them) take that list's entries, in its order;
/// only the rules between them are sorted and merged in. Any list made lately serves, on
/// whichever thread.
final class PrefixIndexEdits: Sendable {
    static let shared = PrefixIndexEdits()

    /// A list's rules and their index; the rules keep their contents, which the next list's are
    /// compared with, alive.
    typealias Indexed = (rules: [ProofRule], index: [Preparation: PrefixIndex])

    private let recent = LockedValue<[Indexed]>([])
    /// Lists kept: the lists of a changelog's pair of revisions on two threads, per platform
    /// and release.
    private static let kept = 8

    /// `rules`' index, made as an edit of the latest list sharing at least half of them at its
    /// ends: comparing two lists' ends goes through every rule they share, so the first list
    /// that serves is taken (a list of another platform or app parts ways at once).
    func index(of rules: [ProofRule]) -> [Preparation: PrefixIndex] {
        guard Caching.isEnabled, !rules.isEmpty else { return Self.index(of: rules, editing: nil) }
        var edited: (earlier: Indexed, ends: (prefix: Int, suffix: Int))?
        for earlier in recent.withLock({ $0 }).reversed() {
            let ends = Self.sharedEnds(earlier.rules, rules)
            if (ends.prefix + ends.suffix) * 2 >= rules.count {
                edited = (earlier, ends)
                break
            }
        }
        let index = Self.index(of: rules, editing: edited?.earlier, ends: edited?.ends)
        recent.withLock { recent in
            recent.append((rules, index))
            if recent.count > Self.kept { recent.removeFirst() }
        }
        return index
    }

    /// The rules `earlier` and `rules` begin with and end with that share their content, as
    /// counts (the ends do not overlap).
    static func sharedEnds(_ earlier: [ProofRule], _ rules: [ProofRule]) -> (prefix: Int, suffix: Int) {
        let shorter = min(earlier.count, rules.count)
        var prefix = 0
        while prefix < shorter && earlier[prefix].sharesContent(with: rules[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix
            && earlier[earlier.count - 1 - suffix].sharesContent(with: rules[rules.count - 1 - suffix])
        {
            suffix += 1
        }
        return (prefix, suffix)
    }

    /// `rules`' index: made whole, or as an edit of `earlier`'s, which it equals; `ends` are
    /// their `sharedEnds` when known.
    static func index(
        of rules: [ProofRule], editing earlier: Indexed?, ends: (prefix: Int, suffix: Int)? = nil
    ) -> [Preparation: PrefixIndex] {
        guard let earlier else {
            return DecisionList.prefixEntries(rules, rules.indices).mapValues(PrefixIndex.init)
        }
        let (prefix, suffix) = ends ?? sharedEnds(earlier.rules, rules)
        let shift = rules.count - earlier.rules.count
        let earlierSuffix = earlier.rules.count - suffix
        let kept = { (rule: Int) -> Int? in rule < prefix ? rule : rule >= earlierSuffix ? rule + shift : nil }
        let added = DecisionList.prefixEntries(rules, prefix..<(rules.count - suffix))
        var index: [Preparation: PrefixIndex] = [:]
        for (preparation, entries) in earlier.index {
            let edited = entries.editing(kept: kept, adding: added[preparation] ?? [])
            if !edited.isEmpty { index[preparation] = edited }
        }
        for (preparation, entries) in added where earlier.index[preparation] == nil {
            index[preparation] = PrefixIndex(entries)
        }
        return index
    }
}
