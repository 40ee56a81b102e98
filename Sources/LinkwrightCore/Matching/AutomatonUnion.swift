/// Many patterns run as one: one pass over an input answers "which patterns match it", at a
/// cost per scalar that does not grow with the number of patterns, for every shape of pattern
/// (issues 8 and 13).
///
/// Design, after RE2's and Rust regex's lazy DFAs and Hyperscan's decomposition of pattern sets:
/// - Patterns share their common beginnings (`PatternTrie`), so a DFA state holds as many nodes
///   as the patterns still in play have distinct positions, not one per pattern.
/// - A pattern that has matched whatever follows (its ending `*` reached) is reported on the
///   transition and leaves the state (`LazyDFA`), so finished prefixes never multiply states.
/// - Patterns are split into two DFAs run side by side: those anchored by a literal beginning
///   (`/shop/*/detail/????`, active only on inputs that start that way) and floating ones, whose
///   `*` comes within the first scalar (`*/checkout`, `/*/product/*`, active on nearly every
///   input). In one DFA, each anchored pattern's progress would combine with every floating
///   position into states of its own; apart, each DFA's states are a trie's positions.
/// - Each DFA's cache is bounded (`LazyDFA.Limits`): on adversarial sets (`*a*b*c*…` by the
///   hundred) it starts over rather than grow, and a scalar costs at most building one state.
final class AutomatonUnion: Sendable {
    /// The number of patterns.
    let count: Int
    private let lanes: [LazyDFA]

    /// The union of `matchers`, where `labels[i]` (by default `i`) names `matchers[i]` in answers.
    /// Inputs must be prepared as every matcher's options prepare them.
    init(_ matchers: [PatternMatcher], labels: [Int32]? = nil, limits: LazyDFA.Limits = .standard) {
        count = matchers.count
        let labels = labels ?? matchers.indices.map(Int32.init)
        struct LaneKey: Hashable {
            let floating: Bool
            let variables: [String: [String]]
        }
        var keys: [LaneKey] = []
        var tries: [LaneKey: PatternTrie] = [:]
        for (matcher, label) in zip(matchers, labels) {
            let key = LaneKey(floating: Self.floats(matcher.tokens), variables: matcher.variables)
            if tries[key] == nil { keys.append(key) }
            tries[key, default: PatternTrie()].insert(matcher, label: label)
        }
        lanes = keys.map { LazyDFA(tries[$0]!.compile(variables: $0.variables), limits: limits) }
    }

    /// Whether a pattern's first `*` comes before any literal beyond its first scalar (usually the
    /// leading `/`): such a pattern is active on nearly every input.
    static func floats(_ tokens: [PatternToken]) -> Bool {
        var literals = 0
        for token in tokens {
            switch token {
            case .literal: literals += 1
            case .any: return literals < 2
            case .one, .variable: continue
            }
        }
        return false
    }

    /// The labels of the members that accept all of `input`, in increasing order.
    func accepting(_ input: [Unicode.Scalar]) -> [Int32] {
        var labels: [Int32] = []
        for lane in lanes { lane.accepting(input, into: &labels) }
        Self.removeRepeats(&labels)
        return labels
    }

    /// Sorts `labels` and keeps each once.
    static func removeRepeats(_ labels: inout [Int32]) {
        guard labels.count > 1 else { return }
        labels.sort()
        var unique = 1
        for index in 1..<labels.count where labels[index] != labels[unique - 1] {
            labels[unique] = labels[index]
            unique += 1
        }
        labels.removeLast(labels.count - unique)
    }
}
