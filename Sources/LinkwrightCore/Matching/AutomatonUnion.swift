import Synchronization

/// Many automata run as one: a DFA over their union, whose states know which of the automata
/// accept, so one pass over an input answers "which patterns match it" for any number of
/// patterns. Matching cost per input then depends on the input's length, not on the number of
/// patterns (issue 8).
///
/// The DFA is built lazily, one transition at a time as inputs need it, so pattern sets whose
/// full DFA would explode (many `*` in the middle) only pay for the states inputs reach. The
/// cache is bounded: past `stateLimit` states (or `nodeLimit` stored nodes) it starts over, as RE2 does, which costs time on
/// adversarial inputs but never memory. Answers never depend on the cache.
final class AutomatonUnion: Sendable {
    /// The number of automata.
    let count: Int
    private let program: Program
    private let cache: Mutex<Cache>
    private let stateLimit: Int
    private let nodeLimit: Int

    /// The union of `automata`, where `labels[i]` (by default `i`) names `automata[i]` in answers.
    init(
        _ automata: [Automaton], labels: [Int32]? = nil, stateLimit: Int = 1 << 16, nodeLimit: Int = 1 << 22
    ) {
        count = automata.count
        program = Program(automata, labels: labels ?? automata.indices.map(Int32.init))
        self.stateLimit = stateLimit
        self.nodeLimit = nodeLimit
        cache = Mutex(Cache(program: program))
    }

    /// The labels of the members that accept all of `input`, in increasing order.
    func accepting(_ input: [Unicode.Scalar]) -> [Int32] {
        cache.withLock { cache in
            if cache.stateCount > stateLimit || cache.storedNodes > nodeLimit { cache = Cache(program: program) }
            var state = cache.start
            if state == Cache.dead { return [] }
            for scalar in input {
                state = cache.next(from: state, on: scalar, program: program)
                if state == Cache.dead { return [] }
            }
            return cache.accepting[Int(state)]
        }
    }

    /// The automata as one Thompson automaton whose nodes know which member they accept for.
    struct Program: Sendable {
        let nodes: Automaton
        let starts: [Int32]
        /// For an accept node, its member's label; -1 for the others.
        let owners: [Int32]
        /// Alphabet classes of ASCII scalars: scalars no test tells apart share a class.
        let asciiClasses: [UInt8]
        let classCount: Int

        init(_ automata: [Automaton], labels: [Int32]) {
            let (nodes, offsets) = Automaton.concatenating(automata)
            self.nodes = nodes
            starts = zip(automata, offsets).map { Int32($0.start + $1) }
            var owners = [Int32](repeating: -1, count: nodes.nodes.count)
            for (member, (automaton, offset)) in zip(automata, offsets).enumerated() {
                owners[automaton.accept + offset] = labels[member]
            }
            self.owners = owners
            (asciiClasses, classCount) = Self.asciiClasses(of: nodes.tests)
        }

        var count: Int { owners.count }

        /// Gives two ASCII scalars the same class when every test answers the same for both,
        /// so a DFA state needs one transition per class, not per scalar.
        private static func asciiClasses(of tests: [ScalarTest]) -> ([UInt8], Int) {
            var named: Set<UInt32> = []
            var sets: [ScalarSet] = []
            for test in tests {
                switch test {
                case .scalar(let scalar), .anyExcept(let scalar): named.insert(scalar.value)
                case .set(let set) where !sets.contains(set): sets.append(set)
                case .set, .any: break
                }
            }
            var classes: [[Int]: UInt8] = [:]
            var table: [UInt8] = []
            for value in UInt32(0)..<128 {
                let scalar = Unicode.Scalar(value)!
                let key = [named.contains(value) ? Int(value) : -1] + sets.map { $0.contains(scalar) ? 1 : 0 }
                if classes[key] == nil { classes[key] = UInt8(classes.count) }
                table.append(classes[key]!)
            }
            return (table, classes.count)
        }
    }

    /// The DFA built so far.
    struct Cache {
        static let dead: Int32 = 0
        /// The state before any input: the dead state when there is no automaton at all.
        private(set) var start: Int32 = 0
        /// Unknown transition.
        private static let unknown: Int32 = -1

        /// Per state, its sorted, closed set of program nodes.
        private var members: [[Int32]] = []
        /// Per state, the members accepting there.
        private(set) var accepting: [[Int32]] = []
        private var ids: [[Int32]: Int32] = [:]
        /// `classCount` entries per state.
        private var transitions: [Int32] = []
        /// Transitions on scalars beyond ASCII, per state.
        private var wide: [[UInt32: Int32]] = []
        private var marks: [UInt32]
        private var generation: UInt32 = 0
        private let classCount: Int

        var stateCount: Int { members.count }
        /// Program nodes held by all states together.
        private(set) var storedNodes = 0

        init(program: Program) {
            classCount = program.classCount
            marks = Array(repeating: 0, count: program.count)
            _ = add([], program: program)
            start = add(closure(of: program.starts, program: program), program: program)
        }

        mutating func next(from state: Int32, on scalar: Unicode.Scalar, program: Program) -> Int32 {
            if scalar.value < 128 {
                let slot = Int(state) * classCount + Int(program.asciiClasses[Int(scalar.value)])
                let known = transitions[slot]
                if known != Self.unknown { return known }
                let target = step(state, scalar, program: program)
                transitions[slot] = target
                return target
            }
            if let known = wide[Int(state)][scalar.value] { return known }
            let target = step(state, scalar, program: program)
            wide[Int(state)][scalar.value] = target
            return target
        }

        private mutating func step(_ state: Int32, _ scalar: Unicode.Scalar, program: Program) -> Int32 {
            var moved: [Int32] = []
            for node in members[Int(state)] where program.nodes.consumes(Int(node), scalar) {
                moved.append(Int32(program.nodes.successor(of: Int(node))))
            }
            return add(closure(of: moved, program: program), program: program)
        }

        /// The state for `nodes`, made when new.
        private mutating func add(_ nodes: [Int32], program: Program) -> Int32 {
            if let id = ids[nodes] { return id }
            let id = Int32(members.count)
            members.append(nodes)
            storedNodes += nodes.count
            accepting.append(nodes.lazy.map { program.owners[Int($0)] }.filter { $0 >= 0 }.sorted())
            ids[nodes] = id
            // The dead state goes nowhere; every other transition is found on first use.
            transitions += Array(repeating: nodes.isEmpty ? Self.dead : Self.unknown, count: classCount)
            wide.append([:])
            return id
        }

        /// `nodes` and every node reachable from them without consuming, sorted.
        private mutating func closure(of nodes: [Int32], program: Program) -> [Int32] {
            generation &+= 1
            if generation == 0 {
                marks = Array(repeating: 0, count: marks.count)
                generation = 1
            }
            var result: [Int32] = []
            var pending: [Int32] = []
            for node in nodes where marks[Int(node)] != generation {
                marks[Int(node)] = generation
                pending.append(node)
            }
            while let node = pending.popLast() {
                result.append(node)
                for target in program.nodes.branchTargets(of: Int(node)) where marks[target] != generation {
                    marks[target] = generation
                    pending.append(Int32(target))
                }
            }
            return result.sorted()
        }
    }
}
