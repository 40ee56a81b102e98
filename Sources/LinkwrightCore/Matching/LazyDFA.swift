/// A DFA over a `PatternTrie.Program`, built one transition at a time as inputs need it, whose
/// states know which members accept. Once a transition is known, a scalar costs one table
/// lookup, whatever the number of patterns.
///
/// A transition may also report members as matched: those whose ending `*` loop it reaches
/// (`PatternTrie.Program.matchesAnyRest`). They match whatever follows, so the loop is not kept
/// in the state: `/a/*`, `/b/*`, … then leave no trace in the states of the rest of the path,
/// and states stay as few as the patterns still undecided.
///
/// The cache is bounded as RE2 bounds its DFA cache: past `limits` it starts over, which costs
/// time on adversarial inputs but never memory; answers never depend on the cache. Building
/// one state steps each of its nodes once and sorts them: a scalar never costs more than
/// O(n log n) for the n nodes of the program, so deciding an input stays linear in its length.
/// When the cache filled up while inputs made a new state every few scalars (hundreds of
/// `*a*b*c*…` rules, each input advancing a different mix of them), the states are not worth
/// keeping: as RE2 falls back to its NFA, the next `Limits.simulatedInputs` inputs are decided
/// by stepping the node sets without storing them, about n steps a scalar and no hashing.
final class LazyDFA: Sendable {
    struct Limits: Sendable {
        /// States kept before starting over.
        var states: Int
        /// Program nodes held by all states plus transition slots, before starting over: at four
        /// bytes each, the cache's memory.
        var cells: Int

        /// Inputs decided without the cache after it filled up with states used fewer than
        /// `scalarsPerState` scalars each, before trying it again.
        var simulatedInputs = 10_000
        /// A cache that filled up while its states served fewer scalars each than this was thrashing.
        var scalarsPerState = 10

        /// About 64 MB at most per DFA.
        static let standard = Limits(states: 1 << 16, cells: 1 << 24)
    }

    private let program: Program
    private let cache: LockedValue<Cache>
    private let limits: Limits

    init(_ trie: PatternTrie.Program, limits: Limits = .standard) {
        program = Program(trie)
        self.limits = limits
        cache = LockedValue(Cache(program: program))
    }

    /// Appends the labels of the members accepting all of `input` to `labels`, possibly more
    /// than once each and in no particular order.
    func accepting(_ input: [Unicode.Scalar], into labels: inout [Int32]) {
        cache.withLock { cache in
            if cache.simulationsLeft > 0 {
                cache.simulationsLeft -= 1
                cache.simulate(input[...], from: nil, program: program, into: &labels)
                return
            }
            labels += cache.startMatches
            var state = cache.start
            for (offset, scalar) in input.enumerated() {
                if state == Cache.dead { return }
                let (target, matched) = cache.next(from: state, on: scalar, program: program)
                if matched != 0 {
                    labels += cache.matched[Int(matched)]
                    // A long input may report the same members at every step: keep each once.
                    if labels.count > 2 * program.count + 64 { AutomatonUnion.removeRepeats(&labels) }
                }
                state = target
                cache.scalars += 1
                guard cache.stateCount > limits.states || cache.cells > limits.cells else { continue }
                // Full, even within one input: start over from the state reached, or, when the
                // states were hardly reused, decide the rest without them.
                let nodes = cache.nodes(of: state)
                let thrashing = cache.scalars < limits.scalarsPerState * cache.stateCount
                cache = Cache(program: program)
                if thrashing {
                    cache.simulationsLeft = limits.simulatedInputs
                    cache.simulate(input[(offset + 1)...], from: nodes, program: program, into: &labels)
                    return
                }
                state = cache.state(for: nodes, program: program)
            }
            labels += cache.accepting[Int(state)]
        }
    }

    /// How many states and cells the cache holds now: between two inputs, never more than
    /// `limits` (tests check it; a step may build one state past them before starting over).
    var cacheSize: (states: Int, cells: Int) { cache.withLock { ($0.stateCount, $0.cells) } }

    /// The trie's automaton with flat per-node facts.
    struct Program: Sendable {
        let nodes: Automaton
        let accepting: [[Int32]]
        let matchesAnyRest: [[Int32]]
        /// Alphabet classes of ASCII scalars: scalars no test tells apart share a class.
        let asciiClasses: [UInt8]
        let classCount: Int

        init(_ trie: PatternTrie.Program) {
            nodes = trie.automaton
            accepting = trie.accepting
            matchesAnyRest = trie.matchesAnyRest
            (asciiClasses, classCount) = Self.asciiClasses(of: nodes.tests)
        }

        var count: Int { accepting.count }

        /// Gives two ASCII scalars the same class when every test answers the same for both,
        /// so a DFA state needs one transition per class, not per scalar.
        private static func asciiClasses(of tests: [ScalarTest]) -> ([UInt8], Int) {
            // Only ASCII scalars get a class: a flag per ASCII value named, not a set of all.
            var named = [Bool](repeating: false, count: 128)
            var sets: [ScalarSet] = []
            for test in tests {
                switch test {
                case .scalar(let scalar), .anyExcept(let scalar):
                    if scalar.value < 128 { named[Int(scalar.value)] = true }
                case .set(let set) where !sets.contains(set): sets.append(set)
                case .set, .any: break
                }
            }
            var classes: [[Int]: UInt8] = [:]
            var table: [UInt8] = []
            for value in UInt32(0)..<128 {
                let scalar = Unicode.Scalar(value)!
                let key = [named[Int(value)] ? Int(value) : -1] + sets.map { $0.contains(scalar) ? 1 : 0 }
                if classes[key] == nil { classes[key] = UInt8(classes.count) }
                table.append(classes[key]!)
            }
            return (table, classes.count)
        }
    }

    /// The DFA built so far.
    struct Cache {
        static let dead: Int32 = 0
        /// Unknown transition.
        private static let unknown: Int32 = -1

        /// The state before any input: the dead state when nothing can match.
        private(set) var start: Int32 = 0
        /// Members matched before any input (a pattern that is only `*`).
        private(set) var startMatches: [Int32] = []

        /// Per state, the sorted stepping and accepting nodes of its closed node set (matched `*`
        /// endings left out).
        private var members: [[Int32]] = []
        /// Per state, the members accepting there.
        private(set) var accepting: [[Int32]] = []
        private var ids: [[Int32]: Int32] = [:]
        /// `classCount` entries per state.
        private var transitions: [Int32] = []
        /// Per transition slot, what it reports matched: an index into `matched`, 0 for nothing.
        private var transitionMatches: [Int32] = []
        /// Transitions on scalars beyond ASCII, per state.
        private var wide: [[UInt32: (state: Int32, matched: Int32)]] = []
        /// Lists of members reported matched by transitions; the first is empty.
        private(set) var matched: [[Int32]] = [[]]
        private var matchedIDs: [[Int32]: Int32] = [[]: 0]
        private var marks: [UInt32]
        private var generation: UInt32 = 0
        /// Buffers `step` and `closure` reuse: each state built allocated its own before.
        private var moved: [Int] = []
        private var reached: [Int] = []
        private var pending: [Int] = []
        private let classCount: Int

        var stateCount: Int { members.count }
        /// Program nodes held by all states plus transition slots.
        private(set) var cells = 0
        /// Scalars decided with this cache.
        var scalars = 0
        /// Inputs still to decide without the cache.
        var simulationsLeft = 0

        init(program: Program) {
            classCount = program.classCount
            marks = Array(repeating: 0, count: program.count)
            _ = add([], program: program)
            let (nodes, matches) = closure(of: [program.nodes.start], program: program)
            startMatches = matches
            start = add(nodes, program: program)
        }

        /// The target of `state` on `scalar`, and the index of the members the transition reports
        /// matched: a lookup once the transition is known, the only case inlined.
        @inline(__always)
        mutating func next(from state: Int32, on scalar: Unicode.Scalar, program: Program) -> (Int32, Int32) {
            if scalar.value < 128 {
                let slot = Int(state) * classCount + Int(program.asciiClasses[Int(scalar.value)])
                let known = transitions[slot]
                if known != Self.unknown { return (known, transitionMatches[slot]) }
            }
            return learn(from: state, on: scalar, program: program)
        }

        /// `next` for a transition not known yet, made and kept.
        @inline(never)
        private mutating func learn(from state: Int32, on scalar: Unicode.Scalar, program: Program) -> (Int32, Int32) {
            if scalar.value < 128 {
                let slot = Int(state) * classCount + Int(program.asciiClasses[Int(scalar.value)])
                let (target, matched) = step(state, scalar, program: program)
                transitions[slot] = target
                transitionMatches[slot] = matched
                return (target, matched)
            }
            if let known = wide[Int(state)][scalar.value] { return known }
            let target = step(state, scalar, program: program)
            wide[Int(state)][scalar.value] = target
            cells += 2
            return target
        }

        private mutating func step(_ state: Int32, _ scalar: Unicode.Scalar, program: Program) -> (Int32, Int32) {
            moved.removeAll(keepingCapacity: true)
            program.nodes.move(members[Int(state)].lazy.map(Int.init), on: scalar, into: &moved)
            let (nodes, matches) = closure(ofMoved: program)
            return (add(nodes, program: program), matches.isEmpty ? 0 : matchedID(matches.sorted()))
        }

        /// Decides `input` from `nodes` (from the start when `nil`) by stepping node sets,
        /// storing nothing: what `accepting` finds with the DFA, without its cost of making states.
        mutating func simulate(
            _ input: ArraySlice<Unicode.Scalar>, from nodes: [Int32]?, program: Program, into labels: inout [Int32]
        ) {
            var current: [Int32]
            if let nodes {
                current = nodes
            } else {
                let start = closure(of: [program.nodes.start], program: program)
                current = start.nodes
                labels += start.matched
            }
            for scalar in input {
                if current.isEmpty { return }
                moved.removeAll(keepingCapacity: true)
                program.nodes.move(current.lazy.map(Int.init), on: scalar, into: &moved)
                let next = closure(ofMoved: program)
                current = next.nodes
                labels += next.matched
                if labels.count > 2 * program.count + 64 { AutomatonUnion.removeRepeats(&labels) }
            }
            for node in current { labels += program.accepting[Int(node)] }
        }

        /// The nodes of `state`.
        func nodes(of state: Int32) -> [Int32] { members[Int(state)] }

        /// The state made of `nodes`, a state's nodes from another cache of the same program.
        mutating func state(for nodes: [Int32], program: Program) -> Int32 { add(nodes, program: program) }

        /// The state for `nodes`, made when new.
        private mutating func add(_ nodes: [Int32], program: Program) -> Int32 {
            let nodes = nodes.sorted()
            if let id = ids[nodes] { return id }
            let id = Int32(members.count)
            members.append(nodes)
            var labels: [Int32] = []
            for node in nodes { labels += program.accepting[Int(node)] }
            accepting.append(labels)
            ids[nodes] = id
            // The dead state goes nowhere; every other transition is found on first use.
            transitions.append(contentsOf: repeatElement(nodes.isEmpty ? Self.dead : Self.unknown, count: classCount))
            transitionMatches.append(contentsOf: repeatElement(0, count: classCount))
            wide.append([:])
            cells += nodes.count + 2 * classCount
            return id
        }

        private mutating func matchedID(_ labels: [Int32]) -> Int32 {
            if let id = matchedIDs[labels] { return id }
            let id = Int32(matched.count)
            matched.append(labels)
            matchedIDs[labels] = id
            cells += labels.count
            return id
        }

        /// `nodes` and every node reachable from them without consuming, and the members whose
        /// ending `*` loop was reached on the way (those loops left out), in no order.
        private mutating func closure(of nodes: [Int], program: Program) -> (nodes: [Int32], matched: [Int32]) {
            moved.removeAll(keepingCapacity: true)
            moved += nodes
            return closure(ofMoved: program)
        }

        /// `closure(of:program:)` of the nodes in `moved`.
        private mutating func closure(ofMoved program: Program) -> (nodes: [Int32], matched: [Int32]) {
            generation &+= 1
            if generation == 0 {
                marks = Array(repeating: 0, count: marks.count)
                generation = 1
            }
            reached.removeAll(keepingCapacity: true)
            for node in moved {
                program.nodes.addClosure(
                    of: node, generation: generation, marks: &marks, to: &reached, pending: &pending,
                    stoppingAt: { !program.matchesAnyRest[$0].isEmpty })
            }
            var result: [Int32] = []
            var matched: [Int32] = []
            for node in reached {
                let ending = program.matchesAnyRest[node]
                if !ending.isEmpty {
                    matched += ending
                } else if !program.nodes.branches(node) {
                    // Branching nodes only lead on: a state is its stepping and accepting nodes.
                    result.append(Int32(node))
                }
            }
            return (result, matched)
        }
    }
}
