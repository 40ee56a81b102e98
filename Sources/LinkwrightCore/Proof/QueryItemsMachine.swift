/// A query dictionary as a machine over the raw query, splitting it as `LinkURL.queryItems` does:
/// items at `&` (empty ones skipped), each name up to its first `=`, no `=` meaning an empty
/// value. Names and values are prepared by their own machines (decoded when the rule decodes,
/// values folded when it ignores case), so `ComparedValues.itemValues` and this agree.
///
/// - Apple (`.everyOccurrence`): every item with a dictionary name must match that name's
///   pattern, and a name no item has reads as the empty value (WWDC19 session 717).
/// - Android (`.someOccurrence`): each dictionary name needs some item matching its pattern,
///   and an item without `=` matches none (`UriRelativeFilter.matchQuery` compares whole
///   `name=value` items). Android also decodes before splitting and splits at `;` when there is
///   no `&` (`ComparedValues.androidQueryItems`); this machine does not, so a witness that
///   depends on `%26`, `%3D` or `;` is caught when the evaluator decides it again.
struct QueryItemsMachine<Name: PartMachine, Value: PartMachine>: PartMachine {
    enum Quantifier {
        case everyOccurrence
        case someOccurrence
    }

    let names: [Name]
    let values: [Value]
    let quantifier: Quantifier
    var constructionWork: Int {
        names.reduce(0) { $0 + $1.constructionWork } + values.reduce(0) { $0 + $1.constructionWork }
    }

    struct State: Hashable {
        /// The current item has at least one scalar.
        var started = false
        /// Past the current item's first `=`; `item` is then the dictionary name it has, or -1.
        var inValue = false
        var item: Int32 = -1
        var nameStates: [Name.State]
        var valueState: Value.State?
        /// Per dictionary name: Apple, an item with it was seen, and one failed; Android, one matched.
        var seen: [Bool]
        var settled: [Bool]
    }

    var start: State {
        State(
            nameStates: names.map(\.start), seen: Array(repeating: false, count: names.count),
            settled: Array(repeating: false, count: names.count))
    }

    func step(_ state: State, _ scalar: Unicode.Scalar) -> State {
        var state = state
        if scalar == "&" {
            finishItem(&state)
            return state
        }
        state.started = true
        if state.inValue {
            if state.item >= 0 { state.valueState = values[Int(state.item)].step(state.valueState!, scalar) }
        } else if scalar == "=" {
            state.inValue = true
            state.item = matchedName(state)
            state.valueState = state.item >= 0 ? values[Int(state.item)].start : nil
            state.nameStates = names.map(\.start)
        } else {
            for index in names.indices { state.nameStates[index] = names[index].step(state.nameStates[index], scalar) }
        }
        return state
    }

    func start(innermost subset: Int) -> State { start }

    func accepts(_ state: State) -> Bool {
        var state = state
        finishItem(&state)
        switch quantifier {
        case .everyOccurrence:
            return names.indices.allSatisfy { index in
                !state.settled[index] && (state.seen[index] || values[index].accepts(values[index].start))
            }
        case .someOccurrence:
            return !state.settled.contains(false)
        }
    }

    /// Apple: a failed item fails the dictionary for good.
    func isDead(_ state: State) -> Bool { quantifier == .everyOccurrence && state.settled.contains(true) }

    func isUniversal(_ state: State) -> Bool { false }

    func distinctions(into distinctions: inout ScalarDistinctions) {
        for name in names { name.distinctions(into: &distinctions) }
        for value in values { value.distinctions(into: &distinctions) }
        distinctions.add("&=".unicodeScalars)
    }

    /// The dictionary name the current item's name is, or -1 (names are distinct).
    private func matchedName(_ state: State) -> Int32 {
        Int32(names.indices.first { names[$0].accepts(state.nameStates[$0]) } ?? -1)
    }

    private func finishItem(_ state: inout State) {
        defer {
            state.started = false
            state.inValue = false
            state.item = -1
            state.valueState = nil
            state.nameStates = names.map(\.start)
        }
        guard state.started else { return }
        // Android compares whole `name=value` items: one without `=` is no dictionary entry's.
        let item = state.inValue ? state.item : quantifier == .someOccurrence ? -1 : matchedName(state)
        guard item >= 0 else { return }
        let index = Int(item)
        let value = values[index]
        let matched = value.accepts(state.valueState ?? value.start)
        switch quantifier {
        case .everyOccurrence:
            state.seen[index] = true
            if !matched { state.settled[index] = true }
        case .someOccurrence:
            if matched { state.settled[index] = true }
        }
    }
}
