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
/// - A floating pattern with a further `*` before more text (`/*/shoes/*/reviews`, `*a*b*c`)
///   would still multiply states: each input that reaches its second `*` carries it through the
///   rest of the floating positions. Such a pattern is found through a literal it requires (the
///   run of literal scalars fewest such patterns share, `/shoes/`): a third DFA looks for all
///   those literals at once (`*literal*`, reported on the transition that completes it), and
///   only the patterns whose literal occurs are run on the input, each alone. When that would
///   cost more than one pass (many candidates on a long input: `*ab*cd*…` files), the staged
///   patterns' own DFA answers instead, so the worst case stays the DFA's.
/// - Each DFA's cache is bounded (`LazyDFA.Limits`): on adversarial sets (`*a*b*c*…` by the
///   hundred) it starts over rather than grow, and a scalar costs at most building one state.
final class AutomatonUnion: Sendable {
    /// The number of patterns.
    let count: Int
    private let lanes: [LazyDFA]
    /// Reports the labels of the staged patterns whose required literal occurs in an input.
    private let literalFinder: LazyDFA?
    /// The staged patterns, by label, run on the inputs holding their literal.
    private let staged: [Int32: [PatternMatcher]]
    /// All staged patterns as DFAs, for inputs where running candidates alone costs more.
    private let stagedLanes: [LazyDFA]
    /// Candidates times input scalars up to which candidates are run alone.
    private let candidateScalars: Int

    /// The union of `matchers`, where `labels[i]` (by default `i`) names `matchers[i]` in answers.
    /// Inputs must be prepared as every matcher's options prepare them.
    init(
        _ matchers: [PatternMatcher], labels: [Int32]? = nil, limits: LazyDFA.Limits = .standard,
        candidateScalars: Int = 4_096
    ) {
        count = matchers.count
        self.candidateScalars = candidateScalars
        let labels = labels ?? matchers.indices.map(Int32.init)
        struct LaneKey: Equatable {
            let floating: Bool
            /// Found through a literal, answered by this lane only on long inputs.
            let staged: Bool
            let variables: [String: [String]]
        }
        // A union has a few lanes, and its members' variables are nearly always one file's
        // dictionary: searched in order, a key compares storage, where hashing read every variable.
        var keys: [LaneKey] = []
        // Per member its lane, and per lane the tokens of its members: each lane's trie is made
        // as large as they make it at once.
        var laneOfMember: [Int] = []
        laneOfMember.reserveCapacity(matchers.count)
        var laneTokens: [Int] = []
        var literals = PatternTrie()
        var staged: [Int32: [PatternMatcher]] = [:]
        // A staged pattern is filed under its rarest literal among the staged patterns (the
        // longest of those), so that `/reviews/`, shared by many, does not make every input
        // holding it a candidate for all of them.
        let floating = matchers.map { Self.floats($0.tokens) }
        let runs = zip(matchers, floating).map { $1 ? Self.literalRuns(ofStaged: $0.tokens) : [] }
        var sharedBy: [[Unicode.Scalar]: Int] = [:]
        for patternRuns in runs { for run in Set(patternRuns) { sharedBy[run, default: 0] += 1 } }
        for (index, (matcher, label)) in zip(matchers, labels).enumerated() {
            let literal = runs[index].min { (sharedBy[$0]!, -$0.count) < (sharedBy[$1]!, -$1.count) }
            if let literal {
                let anywhere = PatternOptions(caseSensitive: matcher.options.caseSensitive)
                literals.insert([.any] + literal.map(PatternToken.literal) + [.any], options: anywhere, label: label)
                staged[label, default: []].append(matcher)
            }
            let key = LaneKey(floating: floating[index], staged: literal != nil, variables: matcher.variables)
            let lane =
                keys.firstIndex(of: key)
                ?? {
                    keys.append(key)
                    laneTokens.append(0)
                    return keys.count - 1
                }()
            laneOfMember.append(lane)
            laneTokens[lane] += matcher.tokens.count
        }
        var tries = laneTokens.map { PatternTrie(reservingSteps: $0) }
        for (lane, (matcher, label)) in zip(laneOfMember, zip(matchers, labels)) {
            tries[lane].insert(matcher, label: label)
        }
        func dfas(staged: Bool) -> [LazyDFA] {
            keys.indices.filter { keys[$0].staged == staged }.map {
                LazyDFA(tries[$0].compile(variables: keys[$0].variables), limits: limits)
            }
        }
        lanes = dfas(staged: false)
        stagedLanes = dfas(staged: true)
        literalFinder = staged.isEmpty ? nil : LazyDFA(literals.compile(variables: [:]), limits: limits)
        self.staged = staged
    }

    /// For a pattern with a `*` that more text follows after its first one, the runs of literal
    /// scalars every match contains, long enough to single out inputs (two scalars or more: a
    /// lone `/` is in every path); none for other patterns.
    static func literalRuns(ofStaged tokens: [PatternToken]) -> [[Unicode.Scalar]] {
        let stars = tokens.indices.filter { tokens[$0] == .any }
        guard stars.count >= 2, stars[1] < tokens.count - 1 else { return [] }
        var runs: [[Unicode.Scalar]] = []
        var run: [Unicode.Scalar] = []
        for token in tokens + [.any] {
            if case .literal(let scalar) = token {
                run.append(scalar)
            } else {
                if run.count >= 2 { runs.append(run) }
                run = []
            }
        }
        return runs
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
        accepting(input, into: &labels)
        return labels
    }

    /// Appends `accepting(input)` to `found`: a caller gathering the answers of several unions
    /// makes one list, not one per union.
    func accepting(_ input: [Unicode.Scalar], into found: inout [Int32]) {
        // The passes below sort and thin out the whole list they fill.
        guard found.isEmpty else {
            found += accepting(input)
            return
        }
        for lane in lanes { lane.accepting(input, into: &found) }
        if let literalFinder {
            var candidates: [Int32] = []
            literalFinder.accepting(input, into: &candidates)
            Self.removeRepeats(&candidates)
            if candidates.count * input.count <= candidateScalars {
                for label in candidates where staged[label]!.contains(where: { $0.matches(input) }) {
                    found.append(label)
                }
            } else {
                for lane in stagedLanes { lane.accepting(input, into: &found) }
            }
        }
        Self.removeRepeats(&found)
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
