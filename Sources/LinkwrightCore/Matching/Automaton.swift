/// What one step of an automaton consumes: exactly one Unicode scalar.
enum ScalarTest: Hashable, Sendable {
    case scalar(Unicode.Scalar)
    case any
    /// Any scalar but one: the loop of Android's lazy `*`, which stops at the next literal.
    case anyExcept(Unicode.Scalar)
    case set(ScalarSet)

    func accepts(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .scalar(let expected): scalar == expected
        case .any: true
        case .anyExcept(let excluded): scalar != excluded
        case .set(let set): set.contains(scalar)
        }
    }
}

/// A set of scalars as sorted, disjoint ranges of scalar values.
struct ScalarSet: Hashable, Sendable {
    let ranges: [ClosedRange<UInt32>]

    init(_ ranges: [ClosedRange<UInt32>]) {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        self.ranges = merged
    }

    init(_ scalars: some Sequence<Unicode.Scalar>) { self.init(scalars.map { $0.value...$0.value }) }

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < scalar.value {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < ranges.count && ranges[low].contains(scalar.value)
    }

    var isEmpty: Bool { ranges.isEmpty }

    /// Every scalar of the set.
    var scalars: [Unicode.Scalar] { ranges.flatMap { $0.compactMap(Unicode.Scalar.init) } }
}

/// A Thompson automaton: nodes that consume one scalar, nodes that branch without consuming, and
/// one accepting node. Simulated breadth-first over state sets, so a match costs at most
/// (input length) × (nodes + edges) steps whatever the pattern: nothing backtracks.
struct Automaton: Sendable {
    enum Node: Sendable {
        case consume(ScalarTest, next: Int)
        /// Branches without consuming; an empty branch list is a dead end.
        case split([Int])
        case accept
    }

    var nodes: [Node]
    var start: Int
    var accept: Int

    /// Whether the automaton accepts the whole of `input`.
    func matches(_ input: some Sequence<Unicode.Scalar>) -> Bool {
        var current = StateSet(capacity: nodes.count)
        var next = StateSet(capacity: nodes.count)
        addClosure(of: start, to: &current)
        for scalar in input {
            next.removeAll()
            for state in current.members {
                if case .consume(let test, let target) = nodes[state], test.accepts(scalar) {
                    addClosure(of: target, to: &next)
                }
            }
            if next.members.isEmpty { return false }
            swap(&current, &next)
        }
        return current.contains(accept)
    }

    /// Adds `state` and every state reachable from it without consuming. Iterative, so a long
    /// chain of branches cannot exhaust the stack.
    func addClosure(of state: Int, to set: inout StateSet) {
        guard set.insert(state) else { return }
        var pending = [state]
        while let node = pending.popLast() {
            guard case .split(let targets) = nodes[node] else { continue }
            for target in targets where set.insert(target) { pending.append(target) }
        }
    }

    /// The states reachable from `states` without consuming, as a sorted list (a DFA state).
    func closure(of states: some Sequence<Int>) -> [Int] {
        var set = StateSet(capacity: nodes.count)
        for state in states { addClosure(of: state, to: &set) }
        return set.members.sorted()
    }

    /// The DFA step from a closed state set on `scalar`, closed again.
    func step(_ states: [Int], on scalar: Unicode.Scalar) -> [Int] {
        closure(
            of: states.compactMap { state in
                if case .consume(let test, let target) = nodes[state], test.accepts(scalar) { return target }
                return nil
            })
    }

    /// Every test the automaton performs, for splitting the alphabet into classes.
    var tests: [ScalarTest] {
        nodes.compactMap { node in
            if case .consume(let test, _) = node { return test }
            return nil
        }
    }
}

/// A set of automaton states with constant-time insertion and membership, iterated in insertion
/// order; clearing costs the number of members, not the capacity.
struct StateSet {
    private var words: [UInt64]
    private(set) var members: [Int] = []

    init(capacity: Int) { words = Array(repeating: 0, count: (capacity + 63) / 64) }

    func contains(_ state: Int) -> Bool { words[state >> 6] & (1 << UInt64(state & 63)) != 0 }

    /// Inserts `state`; `false` when it was already there.
    mutating func insert(_ state: Int) -> Bool {
        let mask: UInt64 = 1 << UInt64(state & 63)
        if words[state >> 6] & mask != 0 { return false }
        words[state >> 6] |= mask
        members.append(state)
        return true
    }

    mutating func removeAll() {
        for state in members { words[state >> 6] = 0 }
        members.removeAll(keepingCapacity: true)
    }
}
