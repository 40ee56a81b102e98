/// What one step of an automaton consumes: exactly one Unicode scalar.
enum ScalarTest: Hashable, Sendable {
    case scalar(Unicode.Scalar)
    case any
    /// Any scalar but one: the loop of Android's lazy `*`, which stops at the next literal.
    case anyExcept(Unicode.Scalar)
    case set(ScalarSet)
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

    /// Every scalar of the set.
    var scalars: [Unicode.Scalar] { ranges.flatMap { $0.compactMap(Unicode.Scalar.init) } }
}

/// A Thompson automaton: nodes that consume one scalar, nodes that branch without consuming, and
/// one accepting node. Simulated breadth-first over state sets, so a match costs at most
/// (input length) × (nodes + edges) steps whatever the pattern: nothing backtracks.
/// Immutable, and a class: compiled patterns, the proof's tests and rule indexes all hold it,
/// and copying its arrays one by one multiplied reference counting.
final class Automaton: Sendable {
    enum Node: Sendable {
        case consume(ScalarTest, next: Int)
        /// Branches without consuming; an empty branch list is a dead end.
        case split([Int])
        case accept
    }

    let nodes: [Node]
    let start: Int
    let accept: Int
    /// The nodes again as flat arrays, which simulation reads without reference counting: per
    /// node its kind and operand (a scalar value or an index into `sets`), and its successor
    /// (consume) or first branch in `branches` (split).
    private let kinds: [Kind]
    private let operands: [UInt32]
    private let links: [Int]
    private let branchCounts: [Int]
    private let branches: [Int]
    private let sets: [ScalarSet]

    private enum Kind: UInt8 {
        case scalar, any, anyExcept, set, split, accept
    }

    init(nodes: [Node], start: Int, accept: Int) {
        self.nodes = nodes
        self.start = start
        self.accept = accept
        var kinds: [Kind] = []
        var operands: [UInt32] = []
        var links: [Int] = []
        var branchCounts: [Int] = []
        var branches: [Int] = []
        var sets: [ScalarSet] = []
        for node in nodes {
            var operand: UInt32 = 0
            var link = 0
            var count = 0
            switch node {
            case .consume(let test, let next):
                link = next
                switch test {
                case .scalar(let scalar):
                    kinds.append(.scalar)
                    operand = scalar.value
                case .any:
                    kinds.append(.any)
                case .anyExcept(let scalar):
                    kinds.append(.anyExcept)
                    operand = scalar.value
                case .set(let set):
                    kinds.append(.set)
                    operand = UInt32(sets.count)
                    sets.append(set)
                }
            case .split(let targets):
                kinds.append(.split)
                link = branches.count
                count = targets.count
                branches += targets
            case .accept:
                kinds.append(.accept)
            }
            operands.append(operand)
            links.append(link)
            branchCounts.append(count)
        }
        self.kinds = kinds
        self.operands = operands
        self.links = links
        self.branchCounts = branchCounts
        self.branches = branches
        self.sets = sets
    }

    /// Whether the automaton accepts the whole of `input`.
    func matches(_ input: some Sequence<Unicode.Scalar>) -> Bool {
        // A node belongs to the current set when its mark is the current generation, so sets
        // are never cleared.
        var marks = [UInt32](repeating: 0, count: kinds.count)
        var generation: UInt32 = 1
        // Room for the sets of a rule's automaton from the start: grown from empty, the three
        // buffers were reallocated several times per call (a proof checks each witness against
        // the rules in front this way).
        let room = min(kinds.count, 64)
        var current: [Int] = []
        var next: [Int] = []
        var pending: [Int] = []
        current.reserveCapacity(room)
        next.reserveCapacity(room)
        pending.reserveCapacity(room)
        addClosure(of: start, generation: generation, marks: &marks, to: &current, pending: &pending)
        for scalar in input {
            generation += 1
            next.removeAll(keepingCapacity: true)
            for state in current where consumes(state, scalar) {
                addClosure(of: links[state], generation: generation, marks: &marks, to: &next, pending: &pending)
            }
            if next.isEmpty { return false }
            swap(&current, &next)
        }
        return marks[accept] == generation
    }

    /// Whether consuming node `state` accepts `scalar` (false for other nodes).
    func consumes(_ state: Int, _ scalar: Unicode.Scalar) -> Bool {
        switch kinds[state] {
        case .scalar: scalar.value == operands[state]
        case .any: true
        case .anyExcept: scalar.value != operands[state]
        case .set: sets[Int(operands[state])].contains(scalar)
        case .split, .accept: false
        }
    }

    /// Adds `state` and every state reachable from it without consuming, each once per
    /// `generation` of `marks`: the closure of every subset construction of the engine
    /// (`matches`, `SubsetDFA` through `closure(of:)`, `LazyDFA`). A branching state for which
    /// `stops` holds is added but not followed (`LazyDFA`'s ending `*` loops). Iterative, so a
    /// long chain of branches cannot exhaust the stack.
    @inline(__always)
    func addClosure(
        of state: Int, generation: UInt32, marks: inout [UInt32], to members: inout [Int], pending: inout [Int],
        stoppingAt stops: (Int) -> Bool = { _ in false }
    ) {
        guard marks[state] != generation else { return }
        marks[state] = generation
        members.append(state)
        pending.append(state)
        while let node = pending.popLast() {
            guard kinds[node] == .split, !stops(node) else { continue }
            for target in branches[links[node]..<(links[node] + branchCounts[node])] where marks[target] != generation {
                marks[target] = generation
                members.append(target)
                pending.append(target)
            }
        }
    }

    /// Whether node `state` branches without consuming.
    func branches(_ state: Int) -> Bool { kinds[state] == .split }

    /// Several automata side by side in one node array, node `n` of `automata[i]` at
    /// `offsets[i] + n`; its own start and accept are meaningless (see `AutomatonUnion`).
    static func concatenating(_ automata: [Automaton]) -> (automaton: Automaton, offsets: [Int]) {
        var nodes: [Node] = []
        var offsets: [Int] = []
        for automaton in automata {
            let offset = nodes.count
            offsets.append(offset)
            nodes += automaton.nodes.map { node in
                switch node {
                case .consume(let test, let next): .consume(test, next: next + offset)
                case .split(let targets): .split(targets.map { $0 + offset })
                case .accept: .accept
                }
            }
        }
        return (Automaton(nodes: nodes, start: 0, accept: 0), offsets)
    }

    /// The states reachable from `states` without consuming, as a sorted list (a DFA state).
    func closure(of states: some Sequence<Int>) -> [Int] {
        var marks = [UInt32](repeating: 0, count: kinds.count)
        var members: [Int] = []
        var pending: [Int] = []
        for state in states { addClosure(of: state, generation: 1, marks: &marks, to: &members, pending: &pending) }
        return members.sorted()
    }

    /// Appends to `moved` where the consuming states among `states` go on `scalar`: a subset
    /// construction's move, before its closure.
    func move(_ states: some Sequence<Int>, on scalar: Unicode.Scalar, into moved: inout [Int]) {
        for state in states where consumes(state, scalar) { moved.append(links[state]) }
    }

    /// The DFA step from a closed state set on `scalar`, closed again, with buffers the caller
    /// keeps across steps: `marks`, one per node, none of them holding `generation` yet.
    func step(
        _ states: [Int], on scalar: Unicode.Scalar, generation: UInt32, marks: inout [UInt32], pending: inout [Int]
    ) -> [Int] {
        var members: [Int] = []
        for state in states where consumes(state, scalar) {
            addClosure(of: links[state], generation: generation, marks: &marks, to: &members, pending: &pending)
        }
        members.sort()
        return members
    }

    /// Every test the automaton performs, for splitting the alphabet into classes.
    var tests: [ScalarTest] {
        nodes.compactMap { node in
            if case .consume(let test, _) = node { return test }
            return nil
        }
    }
}
