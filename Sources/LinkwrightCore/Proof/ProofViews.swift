/// The views of one analysis (one host and platform of two revisions), one alphabet per URL
/// part shared by all of them, each distinct test made once and kept with its transitions.
final class ProofViews {
    let alphabets: [ProofAlphabet]
    /// Per dimension, the alphabet of decoded text (what decoding views read inside).
    let decodedAlphabets: [ProofAlphabet]
    private var cache: [String: PartView] = [:]

    /// What some machines tell apart, in the text they read and, for decoding ones, in the
    /// decoded text.
    struct MachineDistinctions {
        var raw = ScalarDistinctions()
        var decoded = ScalarDistinctions()

        init() {}

        init(_ machine: AnyMachine) {
            machine.distinctions(into: &raw)
            machine.decoded?.distinctions(into: &decoded)
        }

        mutating func formUnion(_ other: MachineDistinctions) {
            raw.formUnion(other.raw)
            decoded.formUnion(other.decoded)
        }
    }

    /// What the tests of some rules tell apart: in each URL part, and in the names and values
    /// of query items read on their own (`QueryItemSearch`). The union over the lists of an
    /// analysis gives its alphabets; each list makes its own once (`DecisionList.distinctions`).
    struct RulesDistinctions {
        var parts = Array(repeating: MachineDistinctions(), count: URLDimension.allCases.count)
        var names = MachineDistinctions()
        var values = MachineDistinctions()

        init() {}

        init(rules: [ProofRule]) {
            func add(_ pattern: PatternTest, _ dimension: URLDimension) {
                parts[dimension.rawValue].formUnion(ProofViews.distinctions(of: pattern))
            }
            for rule in rules {
                for pattern in [rule.path?.scopes, rule.path?.pattern].compactMap({ $0 }) { add(pattern, .path) }
                if let query = rule.query {
                    parts[URLDimension.query.rawValue].formUnion(
                        ProofViews.distinctions("q\u{0}" + query.key) { ProofViews.queryMachine(query) })
                }
                if let fragment = rule.fragment { add(fragment.pattern, .fragment) }
            }
            for case .items(let itemNames, let patterns, let decode, _) in rules.compactMap(\.query) {
                for name in itemNames {
                    names.formUnion(
                        ProofViews.distinctions("n\u{0}\(decode)\u{0}\(ExactText.key(name))") {
                            ProofViews.nameMachine(name, decode: decode)
                        })
                }
                for pattern in patterns { values.formUnion(ProofViews.distinctions(of: pattern)) }
            }
        }

        mutating func formUnion(_ other: RulesDistinctions) {
            for dimension in parts.indices { parts[dimension].formUnion(other.parts[dimension]) }
            names.formUnion(other.names)
            values.formUnion(other.values)
        }
    }

    /// Each test's distinctions by a key naming the test and its preparation, made once per
    /// process: they depend on the test alone, and a changelog meets the same rules in every
    /// pair of revisions (most of its tests are in all of them). Keys are ASCII, built from
    /// `PatternTest.key`s and names through `ExactText.key`, so they compare exactly.
    private static let knownDistinctions = ProcessMemo<String, MachineDistinctions>(limit: 200_000)

    private static func distinctions(_ key: String, of machine: () -> AnyMachine) -> MachineDistinctions {
        knownDistinctions.value(key) { MachineDistinctions(machine()) }
    }

    /// A pattern test's distinctions, as its decorated machine reads it.
    private static func distinctions(of pattern: PatternTest) -> MachineDistinctions {
        distinctions("m\u{0}\(pattern.preparation.key)\u{0}\(pattern.key)") {
            decorated(PatternMachine(pattern.automaton), pattern.preparation)
        }
    }

    /// Views for the tests of the rules of `lists`; the alphabets tell apart what any of them
    /// does.
    init(lists: [DecisionList]) {
        var union = RulesDistinctions()
        for list in lists { union.formUnion(list.distinctions) }
        for dimension in union.parts.indices {
            union.parts[dimension].raw.scalars.insert(0x2F)
            union.parts[dimension].decoded.scalars.insert(0x2F)
        }
        alphabets = URLDimension.allCases.map { ProofAlphabet(union.parts[$0.rawValue].raw, text: $0.text) }
        decodedAlphabets = URLDimension.allCases.map {
            ProofAlphabet(union.parts[$0.rawValue].decoded, text: $0.text, decoded: true)
        }
        itemAlphabets = (
            ProofAlphabet(union.names.raw, text: .itemName), ProofAlphabet(union.values.raw, text: .itemValue),
            ProofAlphabet(union.names.decoded, text: .itemName, decoded: true),
            ProofAlphabet(union.values.decoded, text: .itemValue, decoded: true)
        )
    }

    /// Alphabets of item names and values, raw and decoded.
    let itemAlphabets:
        (name: ProofAlphabet, value: ProofAlphabet, decodedName: ProofAlphabet, decodedValue: ProofAlphabet)

    /// An item name's machine: the literal name, compared after decoding when the rule decodes.
    static func nameMachine(_ name: String, decode: Bool) -> AnyMachine {
        let literal = LiteralMachine(text: Array(name.unicodeScalars))
        return decode ? AnyMachine(PercentDecodeStage(literal), decoded: AnyMachine(literal)) : AnyMachine(literal)
    }

    func alphabet(_ dimension: URLDimension) -> ProofAlphabet { alphabets[dimension.rawValue] }

    private func cached(_ key: String, _ make: () -> PartView) -> PartView {
        if let view = cache[key] { return view }
        let view = make()
        cache[key] = view
        return view
    }

    // MARK: One rule's tests

    func view(path pattern: PatternTest) -> PartView {
        cached("p" + pattern.key) {
            Self.decorated(PatternMachine(pattern.automaton), pattern.preparation).view(
                .path, absent: nil, views: self)
        }
    }

    func view(_ test: QueryTest) -> PartView {
        cached("q" + test.key) {
            let view = Self.queryMachine(test).view(.query, absent: nil, views: self)
            if case .items(let names, let patterns, let decode, let quantifier) = test {
                view.items = QueryItemsStructure(
                    quantifier: quantifier,
                    names: names.map {
                        Self.nameMachine($0, decode: decode).view(itemAlphabets.name, itemAlphabets.decodedName)
                    },
                    values: patterns.map {
                        Self.decorated(PatternMachine($0.automaton), $0.preparation).view(
                            itemAlphabets.value, itemAlphabets.decodedValue)
                    })
            }
            return view
        }
    }

    func view(_ test: FragmentTest) -> PartView {
        cached("f" + test.key) {
            Self.decorated(PatternMachine(test.pattern.automaton), test.pattern.preparation).view(
                .fragment, absent: test.absentReadsAsEmpty ? nil : false, views: self)
        }
    }

    /// The parts of `rule` that are compared at all (a test accepting everything is not), its
    /// path pattern apart from the scopes it shares with its block. Kept per rule, which holds
    /// on to the rule: every round of every region asks again for the rules it requires.
    func parts(_ rule: ProofRule) -> RuleParts {
        if let known = partsOfRules[ObjectIdentifier(rule)] { return known.parts }
        func keep(_ view: PartView?) -> PartView? { view.flatMap { $0.acceptsEverything ? nil : $0 } }
        let parts = RuleParts(
            scopes: keep(rule.path?.scopes.map { view(path: $0) }),
            path: keep(rule.path?.pattern.map { view(path: $0) }), query: keep(rule.query.map(view)),
            fragment: keep(rule.fragment.map(view)))
        partsOfRules[ObjectIdentifier(rule)] = (rule, parts)
        return parts
    }

    private var partsOfRules: [ObjectIdentifier: (rule: ProofRule, parts: RuleParts)] = [:]

    /// A view accepting what one of `patterns` (all of one preparation) accepts in the path.
    func union(of patterns: [PatternTest]) -> PartView {
        cached("u" + patterns.map(\.key).joined(separator: "\u{5}")) {
            Self.decorated(PatternMachine(.union(patterns.map(\.automaton))), patterns[0].preparation).view(
                .path, absent: nil, views: self)
        }
    }

    // MARK: Machines

    /// A machine erased to what views need: its distinctions and a view over an alphabet; for a
    /// machine decoding first, the machine reading the decoded text too.
    final class AnyMachine {
        private let addDistinctions: (inout ScalarDistinctions) -> Void
        private let makeView: (ProofAlphabet, Bool?, (() -> PartView)?) -> PartView
        let decoded: AnyMachine?

        init<Machine: PartMachine>(_ machine: Machine, decoded: AnyMachine? = nil) {
            addDistinctions = { machine.distinctions(into: &$0) }
            self.decoded = decoded
            makeView = { PartView(machine, alphabet: $0, absent: $1, decoded: $2) }
        }

        func distinctions(into distinctions: inout ScalarDistinctions) { addDistinctions(&distinctions) }

        /// A view over `views`' alphabet of `dimension`; a decoding one knows its decoded view.
        func view(_ dimension: URLDimension, absent: Bool?, views: ProofViews) -> PartView {
            view(views.alphabet(dimension), views.decodedAlphabets[dimension.rawValue], absent: absent)
        }

        /// A view over `alphabet`; a decoding one knows its decoded view, over `decodedAlphabet`.
        func view(_ alphabet: ProofAlphabet, _ decodedAlphabet: ProofAlphabet, absent: Bool? = nil) -> PartView {
            makeView(
                alphabet, absent, decoded.map { decoded in { decoded.makeView(decodedAlphabet, absent, nil) } })
        }
    }

    /// `machine` behind the stages `preparation` names: decode, then fold, then slash rules. A
    /// query's decoded reading takes escaped separators as text (`QuerySeparators`).
    static func decorated(_ machine: PatternMachine, _ preparation: Preparation, query: Bool = false) -> AnyMachine {
        preparation.appleSlash
            ? folded(AppleSlashStage(inner: machine), preparation, query: query)
            : folded(machine, preparation, query: query)
    }

    private static func folded<Machine: PartMachine>(_ machine: Machine, _ preparation: Preparation, query: Bool)
        -> AnyMachine
    {
        preparation.fold
            ? decoded(FoldStage(inner: machine), preparation, query: query)
            : decoded(machine, preparation, query: query)
    }

    private static func decoded<Machine: PartMachine>(_ machine: Machine, _ preparation: Preparation, query: Bool)
        -> AnyMachine
    {
        guard preparation.decode else { return AnyMachine(machine) }
        let reading = query ? AnyMachine(EscapedSeparatorStage(inner: machine)) : AnyMachine(machine)
        return AnyMachine(PercentDecodeStage(machine), decoded: reading)
    }

    static func queryMachine(_ test: QueryTest) -> AnyMachine {
        switch test {
        case .pattern(let pattern):
            return decorated(PatternMachine(pattern.automaton), pattern.preparation, query: true)
        case .items(let names, let values, let decode, let quantifier):
            let literals = names.map { LiteralMachine(text: Array($0.unicodeScalars)) }
            let fold = values.first?.preparation.fold ?? false
            func make<Name: PartMachine, Value: PartMachine>(_ names: [Name], _ values: [Value]) -> QueryItemsMachine<
                Name, Value
            > {
                QueryItemsMachine(
                    names: names, values: values, quantifier: quantifier == .every ? .everyOccurrence : .someOccurrence)
            }
            // Decoded: items split at the query's own separators, their text decoded (escaped
            // separators are text there).
            func decoding<Value: PartMachine>(_ values: [Value]) -> AnyMachine {
                AnyMachine(
                    make(literals.map(PercentDecodeStage.init), values.map { PercentDecodeStage($0) }),
                    decoded: AnyMachine(
                        make(
                            literals.map { EscapedSeparatorStage(inner: $0) },
                            values.map { EscapedSeparatorStage(inner: $0) })))
            }
            let patterns = values.map { PatternMachine($0.automaton) }
            switch (decode, fold) {
            case (false, false): return AnyMachine(make(literals, patterns))
            case (false, true): return AnyMachine(make(literals, patterns.map { FoldStage(inner: $0) }))
            case (true, false): return decoding(patterns)
            case (true, true): return decoding(patterns.map { FoldStage(inner: $0) })
            }
        }
    }
}

/// The compared parts of a rule as views; `nil` where the rule compares nothing.
struct RuleParts {
    var scopes: PartView?
    var path: PartView?
    var query: PartView?
    var fragment: PartView?

    subscript(dimension: URLDimension) -> PartView? {
        switch dimension {
        case .path: path
        case .query: query
        case .fragment: fragment
        }
    }

    /// The parts compared besides the block's scopes.
    var compared: [URLDimension] { URLDimension.allCases.filter { self[$0] != nil } }
}

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
        return found.sorted().filter { list.rules[$0].matches(&values) }
    }
}

/// Rules filed under the literal prefix of their paths, sorted by prefix. Sorting costs a
/// fraction of a trie of dictionaries, which made the index the bulk of a list's first
/// witness check (a changelog checks a few witnesses against each of hundreds of revisions'
/// lists of up to 2,000 rules); a lookup narrows the range of prefixes scalar by scalar.
struct PrefixIndex {
    private let prefixes: [[Unicode.Scalar]]
    private let rules: [Int]

    init(_ entries: [(rule: Int, prefix: [Unicode.Scalar])]) {
        let sorted = entries.sorted { $0.prefix.lexicographicallyPrecedes($1.prefix) }
        prefixes = sorted.map(\.prefix)
        rules = sorted.map(\.rule)
    }

    /// The rules whose prefix `text` starts with.
    func rules(along text: [Unicode.Scalar]) -> [Int] {
        var found: [Int] = []
        // `low..<high` holds the prefixes starting with `text[..<length]`; the one equal to it,
        // if any, sort first, and the others by their scalar at `length`.
        var (low, high, length) = (0, prefixes.count, 0)
        while low < high {
            while low < high && prefixes[low].count == length {
                found.append(rules[low])
                low += 1
            }
            guard length < text.count else { break }
            let scalar = text[length]
            low = firstPosition(in: low..<high) { $0[length] >= scalar }
            high = firstPosition(in: low..<high) { $0[length] > scalar }
            length += 1
        }
        return found
    }

    /// The first position in `range` whose prefix `isPast`, which holds from some position on.
    private func firstPosition(in range: Range<Int>, where isPast: ([Unicode.Scalar]) -> Bool) -> Int {
        var (low, high) = (range.lowerBound, range.upperBound)
        while low < high {
            let middle = (low + high) / 2
            if isPast(prefixes[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension Automaton {
    /// Each way from the start followed while it consumes one literal scalar, to where it
    /// consumes anything else or accepts, with whether it ended by accepting (`/$(section)/a*`
    /// with sections `en` and `fr`: `/en/a` and `/fr/a`, neither accepting). `nil` past `limit`
    /// ways, where comparing them would cost more than the search they save. One walk gives
    /// both the prefixes and the texts (`ProofRule` keeps both).
    func literalWays(limit: Int = 32) -> LiteralWays? {
        var found: [(prefix: [Unicode.Scalar], accepted: Bool)] = []
        // Each way with the splits passed since it last consumed: coming back to one consumes
        // nothing new, and its other branches are followed already.
        var ways: [(node: Int, prefix: [Unicode.Scalar], splits: Set<Int>)] = [(start, [], [])]
        var steps = 0
        while let (node, prefix, splits) = ways.popLast() {
            steps += 1
            guard steps <= 64 * limit, found.count + ways.count <= limit else { return nil }
            switch nodes[node] {
            case .consume(.scalar(let scalar), let next) where prefix.count < 256:
                ways.append((next, prefix + [scalar], []))
            case .split(let targets):
                guard !splits.contains(node) else { continue }
                ways += targets.map { ($0, prefix, splits.union([node])) }
            case .consume:
                found.append((prefix, false))
            case .accept:
                found.append((prefix, true))
            }
        }
        return LiteralWays(ways: found)
    }

    /// The scalars every accepted text starts with: followed from the start while the only way
    /// on is one literal scalar (a branch ends it: the nodes reached without consuming are not
    /// searched further than one step).
    var forcedPrefix: [Unicode.Scalar] {
        var prefix: [Unicode.Scalar] = []
        var node = start
        while prefix.count < 256 {
            // Through single-branch splits only, so no closure is computed.
            while case .split(let targets) = nodes[node], targets.count == 1 { node = targets[0] }
            guard case .consume(.scalar(let scalar), let next) = nodes[node] else { break }
            prefix.append(scalar)
            node = next
        }
        return prefix
    }
}

extension Automaton {
    /// The scalars every accepted text ends with: walked back from `accept` while every
    /// transition entering the nodes reached (without consuming) consumes one and the same
    /// literal scalar, and the start is not among them (so no shorter text is accepted there).
    var forcedSuffix: [Unicode.Scalar] {
        var consumedInto = [[Int]](repeating: [], count: nodes.count)
        var splitInto = [[Int]](repeating: [], count: nodes.count)
        for (index, node) in nodes.enumerated() {
            switch node {
            case .consume(_, let next): consumedInto[next].append(index)
            case .split(let targets): for target in targets { splitInto[target].append(index) }
            case .accept: break
            }
        }
        func reachingWithoutConsuming(_ seeds: [Int]) -> Set<Int> {
            var reached = Set(seeds)
            var stack = seeds
            while let node = stack.popLast() {
                for origin in splitInto[node] where reached.insert(origin).inserted { stack.append(origin) }
            }
            return reached
        }
        var suffix: [Unicode.Scalar] = []
        var current = reachingWithoutConsuming([accept])
        while suffix.count < 256, !current.contains(start) {
            let entering = current.flatMap { consumedInto[$0] }
            guard case .consume(.scalar(let scalar), _)? = entering.first.map({ nodes[$0] }),
                entering.allSatisfy({
                    if case .consume(.scalar(scalar), _) = nodes[$0] { true } else { false }
                })
            else { break }
            suffix.append(scalar)
            current = reachingWithoutConsuming(entering)
        }
        return suffix.reversed()
    }
}

/// The literal ways through an automaton (`Automaton.literalWays`).
struct LiteralWays {
    let ways: [(prefix: [Unicode.Scalar], accepted: Bool)]

    /// Texts one of which starts every accepted text.
    var prefixes: [[Unicode.Scalar]] { ways.map(\.prefix) }

    /// The texts accepted, when every way ends by accepting (`/help`; `/$(lang)/help` with
    /// languages `en` and `fr`: `/en/help` and `/fr/help`); `nil` when the automaton accepts
    /// anything not written out (a wildcard, a class, a text past 256 scalars).
    var texts: [[Unicode.Scalar]]? { ways.allSatisfy(\.accepted) ? prefixes : nil }
}
