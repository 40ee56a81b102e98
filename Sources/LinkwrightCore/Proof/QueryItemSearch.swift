/// The items of one query dictionary, as views of single item names and values.
final class QueryItemsStructure {
    let quantifier: ItemQuantifier
    /// Per dictionary name: a view accepting the raw item names that are this name, and a view
    /// accepting the raw values its pattern matches (both with the rule's decoding and folding).
    let names: [PartView]
    let values: [PartView]

    init(quantifier: ItemQuantifier, names: [PartView], values: [PartView]) {
        self.quantifier = quantifier
        self.names = names
        self.values = values
    }
}

/// The query searched item by item rather than scalar by scalar, for searches where every view
/// of the query is a dictionary: what a dictionary decides depends only on which items the query
/// holds (`LinkURL.queryItems`: split at `&`, each name up to its first `=`), not on their order
/// or on other items. So the search finds the classes of item names (which dictionary names, of
/// which rules, a raw name is), then per name class the classes of values, then combines one
/// choice of values per name class: Apple's dictionaries need every occurrence to match (an
/// absent name reads as empty), Android's some occurrence. Each class comes with its shortest
/// text, so the cheapest query for every combination of verdicts is found exactly, without
/// walking every spelling of every value of every item in every order.
struct QueryItemSearch {
    let lanes: [QueryItemsStructure]
    let roles: [DimensionSearch.Role]
    /// `DimensionSearch.stepsEscapesWhole`.
    var stepsEscapesWhole = true
    /// `DimensionSearch.skipsBlockedStates`.
    var skipsBlockedStates = true

    /// Every combination of the tracked views' verdicts some query reaches while the required
    /// views accept and the rejected ones do not, with the cheapest query text (empty: no query)
    /// and its cost (`DimensionSearch`'s: the text and its `?`); `nil` when the budget ran out.
    func run(budget: inout ProofBudget) -> [[Bool]: (cost: Int, text: String)]? {
        // Dictionary slots: one per name of each dictionary.
        let slots = lanes.indices.flatMap { lane in lanes[lane].names.indices.map { (lane: lane, name: $0) } }
        guard
            let nameClasses = classes(
                of: slots.map { lanes[$0.lane].names[$0.name] }, text: .itemName, budget: &budget)
        else { return nil }
        // Per name class, the slots it feeds and its value classes.
        var itemClasses: [(slots: [Int], name: String, values: [(accepted: [Bool], text: String)])] = []
        // Classes in the order of their texts, and ties between equally cheap queries broken by
        // their items (`cheaper`): witnesses do not depend on the order dictionaries are walked.
        for (fed, name) in nameClasses.sorted(by: { $0.value < $1.value }) where fed.contains(true) {
            let fedSlots = slots.indices.filter { fed[$0] }
            guard
                let values = classes(
                    of: fedSlots.map { lanes[slots[$0].lane].values[slots[$0].name] }, text: .part(.queryItem),
                    budget: &budget)
            else { return nil }
            itemClasses.append((fedSlots, name, values.map { ($0.key, $0.value) }.sorted { $0.1 < $1.1 }))
        }
        // What a query's items make of each slot: some item is there, all match, one matches.
        struct Effect: Hashable {
            var present: [Bool]
            var all: [Bool]
            var any: [Bool]
        }
        let nothing = Effect(
            present: Array(repeating: false, count: slots.count), all: Array(repeating: true, count: slots.count),
            any: Array(repeating: false, count: slots.count))
        var reached: [Effect: (cost: Int, items: [String])] = [nothing: (0, [])]
        // Android compares whole `name=value` items, so its empty values keep their `=`.
        let keepsEquals = lanes.contains { $0.quantifier == .some }
        for itemClass in itemClasses {
            // The choices for this name: none, or a set of its value classes (what matters of a
            // set is which slots all of them, and one of them, satisfy).
            var choices: [[Bool]: (all: [Bool], any: [Bool], cost: Int, items: [String])] = [:]
            var pending: [(all: [Bool], any: [Bool], cost: Int, items: [String])] = []
            for value in itemClass.values {
                let item = Self.item(name: itemClass.name, value: value.text, keepsEquals: keepsEquals)
                pending.append((value.accepted, value.accepted, item.unicodeScalars.count + 1, [item]))
            }
            while let choice = pending.popLast() {
                let key = choice.all + choice.any
                if let known = choices[key], !Self.cheaper((choice.cost, choice.items), than: (known.cost, known.items))
                {
                    continue
                }
                choices[key] = choice
                budget.remaining -= itemClass.values.count
                if budget.isExhausted { return nil }
                for value in itemClass.values {
                    let item = Self.item(name: itemClass.name, value: value.text, keepsEquals: keepsEquals)
                    pending.append(
                        (
                            zip(choice.all, value.accepted).map { $0 && $1 },
                            zip(choice.any, value.accepted).map { $0 || $1 },
                            choice.cost + item.unicodeScalars.count + 1, choice.items + [item]
                        ))
                }
            }
            var next = reached
            for (effect, known) in reached {
                for choice in choices.values {
                    var combined = effect
                    for (position, slot) in itemClass.slots.enumerated() {
                        combined.present[slot] = true
                        combined.all[slot] = combined.all[slot] && choice.all[position]
                        combined.any[slot] = combined.any[slot] || choice.any[position]
                    }
                    let cost = known.cost + choice.cost
                    let items = known.items + choice.items
                    if let existing = next[combined], !Self.cheaper((cost, items), than: existing) { continue }
                    next[combined] = (cost, items)
                }
            }
            budget.remaining -= next.count
            if budget.isExhausted { return nil }
            reached = next
        }
        // Each dictionary's verdict, and the verdicts the search is about.
        var results: [[Bool]: (cost: Int, text: String)] = [:]
        for (effect, found) in reached {
            var tracked: [Bool] = []
            var admitted = true
            for (lane, structure) in lanes.enumerated() {
                let laneSlots = slots.indices.filter { slots[$0].lane == lane }
                let verdict = laneSlots.allSatisfy { slot in
                    switch structure.quantifier {
                    case .every:
                        let value = structure.values[slots[slot].name]
                        return effect.present[slot] ? effect.all[slot] : value.accepts(value.start)
                    case .some:
                        return effect.any[slot]
                    }
                }
                switch roles[lane] {
                case .required: admitted = admitted && verdict
                case .rejected: admitted = admitted && !verdict
                case .tracked: tracked.append(verdict)
                }
            }
            guard admitted else { continue }
            let text = found.items.joined(separator: "&")
            if let known = results[tracked], (known.cost, known.text) <= (found.cost, text) { continue }
            results[tracked] = (found.cost, text)
        }
        return results
    }

    /// Whether `a` costs less than `b`, or as much with items that sort first.
    private static func cheaper(_ a: (cost: Int, items: [String]), than b: (cost: Int, items: [String])) -> Bool {
        a.cost != b.cost ? a.cost < b.cost : a.items.lexicographicallyPrecedes(b.items)
    }

    /// One item as written: `name=value`, or, unless `keepsEquals`, the name alone for an empty
    /// value (Apple reads a valueless item as empty), or `=` for an empty name and value.
    static func item(name: String, value: String, keepsEquals: Bool) -> String {
        value.isEmpty && !keepsEquals ? (name.isEmpty ? "=" : name) : name + "=" + value
    }

    /// Every acceptance vector of `views` some text reaches, with its shortest text, written as
    /// `text` holds it (read decoded, and escaped, when every view decodes).
    func classes(of views: [PartView], text: TextKind, budget: inout ProofBudget) -> [[Bool]: String]? {
        DimensionSearch.verdictClasses(
            .query, required: [], rejected: [], tracked: views.map { DimensionSearch.Lane($0) }, text: text,
            stepsEscapesWhole: stepsEscapesWhole, skipsBlockedStates: skipsBlockedStates, budget: &budget
        )?.mapValues { $0.text ?? "" }
    }
}
