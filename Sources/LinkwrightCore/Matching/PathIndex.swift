/// The path patterns of one `details` entry run as one automaton per way of preparing the path
/// (case folding, percent-decoding): a single pass over a URL's path names every rule whose path
/// matches, so deciding a URL costs the same for 10 rules as for 10,000 (issue 8), and only those
/// rules go on to compare their query and fragment.
struct PathIndex: Sendable {
    private struct Group: Sendable {
        let options: PatternOptions
        let decoded: Bool
        /// Labelled with rule positions.
        let union: AutomatonUnion
    }

    private let groups: [Group]

    private struct GroupKey: Hashable {
        let options: PatternOptions
        let decoded: Bool
    }

    init(_ rules: [CompiledAASA.Rule]) {
        var keys: [GroupKey] = []
        var members: [GroupKey: (matchers: [PatternMatcher], rules: [Int32])] = [:]
        for (position, rule) in rules.enumerated() {
            // A path that does not compile matches nothing: the rule is never a candidate.
            guard let matcher = rule.path.matcher else { continue }
            let key = GroupKey(options: matcher.options, decoded: !rule.percentEncoded)
            if members[key] == nil { keys.append(key) }
            members[key, default: ([], [])].matchers.append(matcher)
            members[key, default: ([], [])].rules.append(Int32(position))
        }
        groups = keys.map { key in
            let (matchers, rules) = members[key]!
            return Group(
                options: key.options, decoded: key.decoded, union: AutomatonUnion(matchers, labels: rules))
        }
    }

    /// The positions of the rules whose path matches, in increasing order.
    func candidates(_ values: inout ComparedValues) -> [Int32] {
        if groups.count == 1 {
            return groups[0].union.accepting(values.path(options: groups[0].options, decoded: groups[0].decoded))
        }
        var result: [Int32] = []
        for group in groups {
            let path = values.path(options: group.options, decoded: group.decoded)
            result += group.union.accepting(path)
        }
        return result.sorted()
    }
}
