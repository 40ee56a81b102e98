import Synchronization

/// A rule list's `RuleIndex`, built once the list has tried enough rules one by one.
///
/// Building the index costs as much as trying every rule in turn on dozens to hundreds of URLs
/// (more the cheaper the rules are to try), and many lists decide only a few: a changelog
/// compiles each of hundreds of revisions of a long file to decide its witnesses and examples,
/// and a `check` compiles two revisions for the URLs its behaviour diff found. So URLs first try the rules in order,
/// which gives the same first match (the traced decision does the same, and `RuleIndexTests`
/// compares both ways on seeded rule lists), until `triesPerRule` times the rule count have
/// been tried, and the index is built for the next URL: a list deciding many URLs pays a
/// fraction of an index more. A URL longer than `linearScalars` divided by the rule count
/// gets the index at once: the index decides any URL in time linear in its length, while
/// trying 10,000 `*ab*cd*…` rules in turn on a 100 KB path would take minutes.
///
/// A list made as an edit of another (a changelog's next revision of a file: `init(_:editing:kept:)`)
/// shares the other's indexes, built or not, with their tries: the rules both lists hold decide
/// through them, the few rules only the new list holds are tried in turn in front of the rule
/// they find, and the rules only the other held are left out of their answers. Once the rules
/// tried in turn grow past `freshLimit`, they get an index of their own, a new layer: each layer
/// indexes some of the list's rules in the list's order, so the first match is the earliest of
/// the layers' first matches. A new layer takes in the newest layers holding no more rules than
/// it (as a binary counter carries) and the layers holding less than half the rules they index,
/// so a list has a few layers, a rule is indexed again a few times over a long chain of edits
/// rather than at every few edits, and the large layers, with the states their automata made,
/// keep serving.
final class LazyRuleIndex: @unchecked Sendable {
    /// Rules tried per rule of the list before the index is built.
    static let triesPerRule = 32
    /// The most rule count × URL length (in UTF-8 bytes) one URL is decided rule by rule at.
    static let linearScalars = 65_536
    /// Tests set it (0 builds the index for the first URL).
    @TaskLocal static var triesPerRuleForTests: Int? = nil
    /// Tests set it to make many small layers.
    @TaskLocal static var freshLimitForTests: Int? = nil

    /// Rules indexed together, shared by the lists made as edits of the list they were indexed for.
    private final class Base: @unchecked Sendable {
        let constraints: [[RuleIndex.Constraint]?]
        /// Rules tried one by one before the index is built.
        let linearTries: Int
        /// Rules tried one by one so far, by every thread and every list sharing it.
        let tried: Atomic<Int>
        /// A thread arriving while the index is built waits rather than builds it too.
        let built = Once<RuleIndex>()

        /// With `buildAtFirstURL`, the index is built for the first URL decided.
        init(_ constraints: [[RuleIndex.Constraint]?], buildAtFirstURL: Bool = false) {
            self.constraints = constraints
            linearTries = constraints.count * (LazyRuleIndex.triesPerRuleForTests ?? LazyRuleIndex.triesPerRule)
            tried = Atomic(buildAtFirstURL ? linearTries : 0)
        }

        var index: RuleIndex { built.value { RuleIndex(constraints) } }
    }

    /// Some of this list's rules indexed together (`base`), in this list's order.
    private struct Layer {
        let base: Base
        /// Per rule of `base`, its position in this list, or -1 for one this list does not hold;
        /// `nil` when `base` indexes this whole list.
        let ruleOfBase: [Int32]?
        /// How many rules of `base` this list holds.
        let held: Int

        /// The positions in this list of the rules it indexes.
        var positions: [Int] {
            ruleOfBase.map { $0.filter { $0 >= 0 }.map(Int.init) } ?? Array(base.constraints.indices)
        }
    }

    private let layers: [Layer]
    /// The base whose tries decide when the layers' indexes are built; `isBuilt` is its index's.
    private let lead: Base
    /// Per rule of this list, the layer indexing it and its position in that layer's base, -1
    /// for a rule tried in turn; empty when the one layer indexes the whole list.
    private let layerOfRule: [Int32]
    private let baseOfRule: [Int32]
    /// The positions of the rules tried in turn, in order.
    private let fresh: [Int]
    /// Each layer's number with the position of its first rule in this list, in that order: a
    /// layer whose first rule comes after a match found is not searched. A changelog's witness
    /// is mostly decided by rules its revision inserted, which the newest layers and the rules
    /// tried in turn hold.
    private let passes: [(layer: Int, first: Int)]
    /// Whether the first rule tried in turn comes before every layer's, so it is tried first.
    private let freshFirst: Bool
    /// Whether this list decides through an index made for another list it is an edit of.
    let isShared: Bool
    /// Whether this list was made as an edit; if not, its one layer indexes it whole.
    private let isEdit: Bool

    /// `constraints[i]` lists what rule `i` compares (see `RuleIndex.init`).
    init(_ constraints: [[RuleIndex.Constraint]?]) {
        lead = Base(constraints)
        layers = [Layer(base: lead, ruleOfBase: nil, held: constraints.count)]
        (layerOfRule, baseOfRule, fresh, isShared) = ([], [], [], false)
        (passes, freshFirst, isEdit) = ([(0, 0)], false, false)
    }

    /// The index of a list made as an edit of `earlier`'s list: `kept[i]` is the position in
    /// that list of a rule testing URLs as rule `i` does, increasing with `i`
    /// (`RuleListEdit.keptInOrder`), `nil` for a rule it did not hold. `constraints(i)` lists
    /// what rule `i` compares, asked for the rules of a new layer, which is built at the first
    /// URL if `earlier`'s indexes were.
    init(_ constraints: (Int) -> [RuleIndex.Constraint]?, editing earlier: LazyRuleIndex, kept: [Int?]) {
        var ruleOfBase = earlier.layers.map { [Int32](repeating: -1, count: $0.base.constraints.count) }
        var held = [Int](repeating: 0, count: earlier.layers.count)
        var fresh: [Int] = []
        for (position, earlierPosition) in kept.enumerated() {
            guard let earlierPosition, let place = earlier.place(of: earlierPosition) else {
                fresh.append(position)
                continue
            }
            ruleOfBase[place.layer][place.base] = Int32(position)
            held[place.layer] += 1
        }
        var layers = earlier.layers.indices.map {
            Layer(base: earlier.layers[$0].base, ruleOfBase: ruleOfBase[$0], held: held[$0])
        }
        var lead = earlier.lead
        if fresh.count > Self.freshLimit {
            var taken = fresh
            while let newest = layers.last, newest.held <= taken.count {
                taken += newest.positions
                layers.removeLast()
            }
            layers.removeAll { layer in
                guard layer.held * 2 < layer.base.constraints.count else { return false }
                taken += layer.positions
                return true
            }
            taken.sort()
            let base = Base(taken.map(constraints), buildAtFirstURL: earlier.isBuilt)
            layers.append(Layer(base: base, ruleOfBase: taken.map(Int32.init), held: taken.count))
            fresh = []
            if !layers.contains(where: { $0.base === lead }) { lead = base }
        }
        layers.removeAll { $0.held == 0 }
        var layerOfRule = [Int32](repeating: -1, count: kept.count)
        var baseOfRule = [Int32](repeating: -1, count: kept.count)
        for (number, layer) in layers.enumerated() {
            for (basePosition, position) in layer.ruleOfBase!.enumerated() where position >= 0 {
                (layerOfRule[Int(position)], baseOfRule[Int(position)]) = (Int32(number), Int32(basePosition))
            }
        }
        var first = [Int?](repeating: nil, count: layers.count)
        for (position, layer) in layerOfRule.enumerated() where layer >= 0 && first[Int(layer)] == nil {
            first[Int(layer)] = position
        }
        let passes: [(layer: Int, first: Int)] = first.enumerated().map { ($0, $1!) }.sorted { $0.first < $1.first }
        freshFirst = fresh.first.map { position in passes.allSatisfy { position < $0.first } } ?? false
        self.passes = passes
        isShared = layers.contains { layer in earlier.layers.contains { $0.base === layer.base } }
        isEdit = true
        (self.layers, self.lead, self.layerOfRule, self.baseOfRule, self.fresh) =
            (layers, lead, layerOfRule, baseOfRule, fresh)
    }

    /// Where rule `position` of this list is indexed, `nil` for a rule tried in turn.
    private func place(of position: Int) -> (layer: Int, base: Int)? {
        guard !layerOfRule.isEmpty else { return (0, position) }
        return layerOfRule[position] < 0 ? nil : (Int(layerOfRule[position]), Int(baseOfRule[position]))
    }

    /// The most rules an edit tries in turn beside its layers before they get a layer of their
    /// own: each costs a try per URL the layers decide.
    static var freshLimit: Int { freshLimitForTests ?? 16 }

    /// Whether the index has been built.
    var isBuilt: Bool { lead.built.made != nil }

    /// How many indexes the list decides through.
    var layerCount: Int { layers.count }

    /// Builds the index now for a caller about to decide `urls` distinct URLs with the list:
    /// tried one by one, URLs decided halfway down the list would build it after twice
    /// `triesPerRule` of them, each trying half the rules first (`test` decides every path
    /// expectation of a domain with its files). The index decides as the rules tried in turn do
    /// (`RuleIndexTests`).
    func anticipate(urls: Int) {
        guard urls >= 2 * (Self.triesPerRuleForTests ?? Self.triesPerRule), !isBuilt else { return }
        for layer in layers { _ = layer.base.index }
    }

    /// The first of `rules` (the list the constraints were made from) that matches the URL of
    /// `values`, leaving out the rules `skipped` marks. With `trace`, each rule up to it is tried
    /// in turn and recorded with every comparison it made, for `explain`.
    func firstMatch<Rule: DecidingRule>(
        among rules: [Rule], _ values: inout ComparedValues, entryIndex: Int, trace: inout [RuleTrace]?,
        skipping skipped: [Bool]? = nil
    ) -> Rule? {
        guard trace == nil else {
            return RuleIndex.tracedFirstMatch(among: rules, &values, entryIndex: entryIndex, trace: &trace)
        }
        if !isEdit {
            // One layer, the list's own index (`lead`), read directly: `test` decides every
            // expectation through such lists.
            if let index = leadIndex(for: values.url, rules: rules.count) {
                return index.firstMatch(&values) { skipped?[Int($0)] == true }.map { rules[Int($0)] }
            }
        } else if leadIndex(for: values.url, rules: rules.count) != nil {
            var found: Int? = nil
            func tryFresh() {
                var checks: [PartCheck]? = nil
                for position in fresh where skipped?[position] != true {
                    if let found, found < position { break }
                    if rules[position].matches(&values, checks: &checks) {
                        found = position
                        break
                    }
                }
            }
            if freshFirst { tryFresh() }
            for (number, first) in passes {
                if let found, found < first { break }
                let layer = layers[number]
                let ruleOfBase = layer.ruleOfBase!
                let match = layer.base.index.firstMatch(&values) { basePosition in
                    let position = ruleOfBase[Int(basePosition)]
                    return position < 0 || skipped?[Int(position)] == true
                }
                if let match, found.map({ Int(ruleOfBase[Int(match)]) < $0 }) ?? true {
                    found = Int(ruleOfBase[Int(match)])
                }
            }
            if !freshFirst { tryFresh() }
            return found.map { rules[$0] }
        }
        var tries = 0
        defer { lead.tried.add(tries, ordering: .relaxed) }
        for (position, rule) in rules.enumerated() where skipped?[position] != true {
            tries += 1
            var checks: [PartCheck]? = nil
            if rule.matches(&values, checks: &checks) { return rule }
        }
        return nil
    }

    /// The lead's index, built now if this URL should not try the rules one by one; `nil` when
    /// it should. The other layers' indexes are built at their first use.
    private func leadIndex(for url: LinkURL, rules: Int) -> RuleIndex? {
        if let index = lead.built.made { return index }
        if lead.tried.load(ordering: .relaxed) < lead.linearTries && rules * (url.length + 1) <= Self.linearScalars {
            return nil
        }
        return lead.index
    }
}

extension LinkURL {
    /// The length in UTF-8 bytes of what rules compare: path, query and fragment.
    var length: Int { path.utf8.count + (query?.utf8.count ?? 0) + (fragment?.utf8.count ?? 0) }
}
