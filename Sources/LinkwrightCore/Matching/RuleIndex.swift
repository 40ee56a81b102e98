/// The rules of one `details` entry (or one list of Android dynamic rules) indexed for the
/// untraced decision. Every distinct pattern they compare (path, whole query, each query item,
/// fragment) runs in one `AutomatonUnion` per part and way of preparing it (case folding,
/// decoding), so one pass per part names every pattern a URL satisfies. Each rule is filed
/// under its most selective pattern, the one the fewest rules share; only rules filed under a
/// satisfied pattern are candidates, tried in order until one has all its patterns satisfied.
/// Deciding a URL then costs the same for 10 rules as for 10,000 whatever the rules compare
/// (issues 8 and 13): a thousand components that share `ref: "?*"` and differ in another item,
/// or differ only in their fragment, are not tried one by one.
///
/// A pattern that accepts every value (`*` where an absent part reads as empty) constrains
/// nothing and is left out; a rule with no pattern left matches every URL.
final class RuleIndex: Sendable {
    /// One part a rule compares and how its value is read from a URL.
    struct Part: Hashable, Sendable {
        enum Kind: Hashable, Sendable {
            case path, query, fragment
            /// Named exactly: `café` precomposed and decomposed are two items, as `itemValues`
            /// compares them, and must not share one group of patterns.
            case item(ExactText)
            /// Android's whole `name=value` query items (`ComparedValues.androidQueryItems`), one
            /// of which must match.
            case queryPieces
        }

        let kind: Kind
        /// Their semantics also says how an absent part reads: Apple reads an absent fragment or
        /// item as the empty string and needs every occurrence of an item to match; Android
        /// fails an absent fragment or item and needs one occurrence to match (see
        /// `CompiledAASA` and `CompiledDynamicRules` for the sources).
        let options: PatternOptions
    }

    /// One pattern one rule compares.
    struct Constraint {
        let part: Part
        let matcher: PatternMatcher
    }

    private struct Group: Sendable {
        let part: Part
        /// Labelled with pattern numbers.
        let union: AutomatonUnion
        /// What the union accepts of the empty value: the answer for an absent part, which
        /// Apple reads as empty, without a pass.
        let acceptsEmpty: [Int32]

        init(part: Part, union: AutomatonUnion) {
            self.part = part
            self.union = union
            acceptsEmpty = union.accepting([])
        }
    }

    private let groups: [Group]
    /// Per rule, the numbers of the patterns it needs satisfied.
    private let patternsOfRule: [[Int32]]
    /// Per pattern number, the rules filed under it, in order.
    private let filed: [[Int32]]
    /// The rules that constrain nothing, which match every URL, in order.
    private let unconstrained: [Int32]

    /// `rules[i]` lists the constraints of rule `i`, or is `nil` when the rule never matches
    /// (a pattern of it does not compile).
    init(_ rules: [[Constraint]?]) {
        /// Exact (`ExactText`): `/café` spelt NFC and NFD are two patterns, matching different
        /// paths, and must not share one number.
        struct PatternKey: Hashable {
            let part: Part
            let pattern: ExactText
        }
        // Per part, in order of first use, its patterns and their numbers.
        var parts: [Part] = []
        var partPositions: [Part: Int] = [:]
        var members: [(matchers: [PatternMatcher], numbers: [Int32])] = []
        // About a pattern per rule: reserved, the table is not rehashed as it grows.
        var numbers: [PatternKey: Int32] = [:]
        numbers.reserveCapacity(rules.count)
        var sharedBy: [Int] = []
        var patternsOfRule = Array(repeating: [Int32](), count: rules.count)
        var unconstrained: [Int32] = []
        for (position, constraints) in rules.enumerated() {
            guard let constraints else { continue }
            for constraint in constraints where !RuleIndex.holdsAlways(constraint) {
                let key = PatternKey(part: constraint.part, pattern: ExactText(constraint.matcher.pattern))
                // Looked up and, for a new pattern (nearly every one), added with one hash of
                // the key: hashing its part and text cost more than the rest of filing it.
                let next = Int32(sharedBy.count)
                let number = { (number: inout Int32) in number }(&numbers[key, default: next])
                if number == next {
                    sharedBy.append(0)
                    let part =
                        partPositions[constraint.part]
                        ?? {
                            partPositions[constraint.part] = parts.count
                            parts.append(constraint.part)
                            members.append(([], []))
                            return parts.count - 1
                        }()
                    members[part].matchers.append(constraint.matcher)
                    members[part].numbers.append(number)
                }
                if !patternsOfRule[position].contains(number) {
                    patternsOfRule[position].append(number)
                    sharedBy[Int(number)] += 1
                }
            }
            if patternsOfRule[position].isEmpty { unconstrained.append(Int32(position)) }
        }
        var filed = Array(repeating: [Int32](), count: sharedBy.count)
        for (position, patterns) in patternsOfRule.enumerated() {
            guard let rarest = patterns.min(by: { sharedBy[Int($0)] < sharedBy[Int($1)] }) else { continue }
            filed[Int(rarest)].append(Int32(position))
        }
        groups = zip(parts, members).map { part, members in
            Group(part: part, union: AutomatonUnion(members.matchers, labels: members.numbers))
        }
        self.patternsOfRule = patternsOfRule
        self.filed = filed
        self.unconstrained = unconstrained
    }

    /// Whether a constraint holds for every URL: a lone `*` on a part that reads as a value
    /// even when absent (Apple's every part, anyone's path). Under Apple's path rules the
    /// pattern `*` is compiled as `/*`, and prepared paths always start with `/`.
    private static func holdsAlways(_ constraint: Constraint) -> Bool {
        let tokens = constraint.matcher.tokens
        let matchesAll =
            tokens == [.any] || (constraint.matcher.options.appleSlashRules && tokens == [.literal("/"), .any])
        return matchesAll && (constraint.part.options.semantics == .apple || constraint.part.kind == .path)
    }

    /// The position of the first rule whose patterns are all satisfied by the URL of `values`,
    /// leaving out the rules `skipped` names (an older Android release's, which it reads
    /// otherwise and tries in turn, and those a list made as an edit no longer holds).
    func firstMatch(_ values: inout ComparedValues, skipping skipped: (Int32) -> Bool) -> Int32? {
        var satisfied: [Int32] = []
        // By position: a copy of each group for each URL cost more than most of its pass.
        for group in groups.indices { self.satisfied(group, &values, into: &satisfied) }
        // Pattern numbers are unique across groups: sorted, they are a set to search (each
        // group's come sorted).
        if groups.count > 1 { satisfied.sort() }
        func isSatisfied(_ pattern: Int32) -> Bool {
            var low = 0
            var high = satisfied.count
            while low < high {
                let middle = (low + high) / 2
                if satisfied[middle] < pattern { low = middle + 1 } else { high = middle }
            }
            return low < satisfied.count && satisfied[low] == pattern
        }
        var first = unconstrained.first { !skipped($0) }
        for pattern in satisfied {
            for rule in filed[Int(pattern)] {
                if let found = first, rule >= found { break }
                if skipped(rule) { continue }
                if patternsOfRule[Int(rule)].allSatisfy(isSatisfied) {
                    first = rule
                    break
                }
            }
        }
        return first
    }

    /// Appends the patterns of the group at `position` the URL satisfies to `satisfied`, in
    /// increasing order.
    private func satisfied(_ position: Int, _ values: inout ComparedValues, into satisfied: inout [Int32]) {
        let part = groups[position].part
        let union = groups[position].union
        let apple = part.options.semantics == .apple
        switch part.kind {
        case .path: union.accepting(values.path(options: part.options), into: &satisfied)
        case .query:
            // An absent query reads as empty (see `ComparedValues.query`).
            if values.url.query == nil {
                satisfied += groups[position].acceptsEmpty
            } else {
                union.accepting(values.query(options: part.options), into: &satisfied)
            }
        case .fragment:
            if let fragment = values.fragment(options: part.options) {
                union.accepting(fragment, into: &satisfied)
            } else if apple {
                satisfied += groups[position].acceptsEmpty
            }
        case .queryPieces:
            satisfied += Set(values.androidQueryItems().flatMap { union.accepting($0) }).sorted()
        case .item(let name):
            let occurrences = values.itemValues(named: name.text, options: part.options)
            guard let first = occurrences.first else {
                if apple { satisfied += groups[position].acceptsEmpty }
                return
            }
            guard occurrences.count > 1 else {
                union.accepting(first, into: &satisfied)
                return
            }
            var result = Set(union.accepting(first))
            for occurrence in occurrences.dropFirst() {
                let accepted = union.accepting(occurrence)
                if apple { result.formIntersection(accepted) } else { result.formUnion(accepted) }
            }
            satisfied += result.sorted()
        }
    }
}
