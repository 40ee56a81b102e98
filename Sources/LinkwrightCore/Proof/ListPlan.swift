/// The union of a list of patterns of one preparation, where the union of only the first k of
/// them is a start state of the same view: every prefix of a decision list shares one lazily
/// built DFA, so the rules in front of hundreds of candidate pairs cost one construction.
final class PrefixUnion {
    let view: PartView
    private let dfa: SubsetDFA
    private let starts: [Int]
    private var cache: [Int: Int] = [:]

    init(_ patterns: [PatternTest], dimension: URLDimension, views: ProofViews) {
        let (automaton, starts) = Automaton.unionWithStarts(patterns.map(\.automaton))
        let machine = PatternMachine(automaton)
        dfa = machine.dfa
        self.starts = starts
        view = ProofViews.decorated(machine, patterns[0].preparation).view(dimension, absent: nil, views: views)
    }

    /// The lane where the first `count` patterns are under way.
    func lane(members count: Int) -> DimensionSearch.Lane {
        if let known = cache[count] { return DimensionSearch.Lane(view, innermost: known) }
        let subset = dfa.state(closureOf: Array(starts[..<count]))
        cache[count] = subset
        return DimensionSearch.Lane(view, innermost: subset)
    }
}

/// How the rules of one decision list stand in regions' way: the rules in front of a rule are
/// the scopes of the earlier blocks and the earlier rules of its block (`DecisionList.prefix`).
/// Rules comparing the path alone (besides the block's scopes, which the region requires) are
/// gathered into prefix unions per block and preparation; the others are taken one by one.
/// Everything is made on first use: most regions meet few of a list's rules.
final class ListPlan {
    let list: DecisionList
    private unowned let views: ProofViews

    enum Kind {
        /// Matches every URL within its block's scopes.
        case catchAll
        /// Compares the path alone: member `member` of the union `union` of its block.
        case path(union: Int, member: Int)
        /// Compares more than the path, or the query or fragment alone.
        case other
    }

    private var partsCache: [RuleParts?]
    /// Per block, once a whole prefix of it is needed: its path unions and each rule's kind.
    private var blockPlans: [Int: (unions: [PrefixUnion], kinds: [Kind])] = [:]
    private var scopesCache: PrefixUnion??

    init(_ list: DecisionList, views: ProofViews) {
        self.list = list
        self.views = views
        partsCache = Array(repeating: nil, count: list.rules.count)
    }

    /// The compared parts of rule `index`.
    func parts(_ index: Int) -> RuleParts {
        if let known = partsCache[index] { return known }
        let parts = views.parts(list.rules[index])
        partsCache[index] = parts
        return parts
    }

    /// The scopes of the blocks, in order (Android).
    var scopes: PrefixUnion? {
        if let known = scopesCache { return known }
        let blockScopes = list.blocks.compactMap(\.scopes)
        let union =
            blockScopes.count == list.blocks.count && !blockScopes.isEmpty
            ? PrefixUnion(blockScopes, dimension: .path, views: views) : nil
        scopesCache = .some(union)
        return union
    }

    /// The path unions of block `block` and the kind of each of its rules.
    func blockPlan(_ block: Int) -> (unions: [PrefixUnion], kinds: [Kind]) {
        if let known = blockPlans[block] { return known }
        let range = list.blocks[block].start..<(list.blocks[block].start + list.blocks[block].count)
        var groups: [Preparation: [PatternTest]] = [:]
        var order: [Preparation] = []
        var kinds: [Kind] = []
        for index in range {
            let ruleParts = parts(index)
            guard ruleParts.compared == [.path], let pattern = list.rules[index].path?.pattern else {
                kinds.append(ruleParts.compared.isEmpty ? .catchAll : .other)
                continue
            }
            if groups[pattern.preparation] == nil { order.append(pattern.preparation) }
            groups[pattern.preparation, default: []].append(pattern)
            kinds.append(
                .path(union: order.firstIndex(of: pattern.preparation)!, member: groups[pattern.preparation]!.count - 1)
            )
        }
        let plan = (order.map { PrefixUnion(groups[$0]!, dimension: .path, views: views) }, kinds)
        blockPlans[block] = plan
        return plan
    }

    /// The rules of `prefix` matching the URL of `values` (a scope rule by its scopes, a rule of
    /// a block within the block's scopes).
    func matching(_ values: inout ComparedValues, in prefix: ListPrefix) -> [Int] {
        var found: [Int] = []
        for (preparation, index) in list.prefixIndex {
            found += index.rules(along: values.path(options: preparation.options)).filter(prefix.contains)
        }
        found.sort()
        // A rule found under two of its prefixes is tested once.
        var previous = -1
        return found.filter { rule in
            defer { previous = rule }
            return rule != previous && list.rules[rule].matches(&values)
        }
    }
}
