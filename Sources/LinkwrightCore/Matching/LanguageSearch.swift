/// Exploration of pattern languages for static analysis: deterministic views of the matching
/// automata, run side by side over a finite alphabet of representative scalars, breadth-first,
/// so the first string found that shows a property is a shortest one.

/// The subset construction of one automaton, built lazily and memoised.
///
/// One thread owns a DFA (a proof's or an analysis's views are not shared), and no method
/// reaches its state twice at once, so its stored state skips the runtime's exclusivity
/// checks (`@exclusivity(unchecked)`), which cost a behaviour proof dearly.
final class SubsetDFA {
    let automaton: Automaton
    @exclusivity(unchecked) private var sets: [[Int]] = []
    /// Positions in `sets` by content, or -1 for a free slot; at most half full: cheaper than a
    /// dictionary keyed by the sets, each hashed with the standard library's seeded hash.
    @exclusivity(unchecked) private var ids = [Int32](repeating: -1, count: 16)
    /// Transitions on ASCII scalars, nearly all a proof steps: 128 per state, -1 until taken.
    /// Indexing costs far less than hashing, and a proof's DFAs have few states.
    @exclusivity(unchecked) private var asciiSteps: [Int32] = []
    /// A new state's row of `asciiSteps`, copied whole rather than filled entry by entry.
    private static let untakenASCIISteps = [Int32](repeating: -1, count: 128)
    /// Transitions on the other scalars.
    @exclusivity(unchecked) private var transitions = StepTable()
    @exclusivity(unchecked) private(set) var start = 0
    /// Automaton nodes visited building states so far: stepping a set and closing the result.
    /// Over a union of thousands of rules one new state costs thousands of these, so searches
    /// that bound their work count them as well as their steps.
    @exclusivity(unchecked) private(set) var constructionWork = 0

    /// Nodes from which every continuation is accepted (see `universalNodes`), found on first
    /// use: many DFAs are made only for what their automaton tests.
    private lazy var universal: [Bool] = Self.universalNodes(automaton)
    @exclusivity(unchecked) private var universalSets: [Bool?] = []

    init(_ automaton: Automaton) {
        self.automaton = automaton
        start = intern(automaton.closure(of: [automaton.start]))
    }

    /// Nodes from which every continuation is accepted: a branch node that accepts the empty
    /// text and branches to a step on any scalar leading back to such a node (the trailing `*`
    /// of `/buy/*`). The greatest set closed that way, found by shrinking; a sound
    /// under-approximation, linear per round in the automaton's size.
    private static func universalNodes(_ automaton: Automaton) -> [Bool] {
        let nodes = automaton.nodes
        func targets(_ node: Int) -> [Int] {
            if case .split(let targets) = nodes[node] { return targets }
            return []
        }
        // Least fixpoints over branch nodes, in rounds until nothing changes.
        func leastFixpoint(_ base: (Int) -> Bool) -> [Bool] {
            var member = nodes.indices.map(base)
            var changed = true
            while changed {
                changed = false
                for node in nodes.indices where !member[node] && targets(node).contains(where: { member[$0] }) {
                    member[node] = true
                    changed = true
                }
            }
            return member
        }
        let acceptsEmpty = leastFixpoint { $0 == automaton.accept }
        var universal = nodes.indices.map { node in
            if case .split = nodes[node] { return acceptsEmpty[node] }
            return false
        }
        while true {
            let stepsToUniversal = leastFixpoint { node in
                if case .consume(.any, let next) = nodes[node] { return universal[next] }
                return false
            }
            let narrowed = nodes.indices.map { universal[$0] && stepsToUniversal[$0] }
            if narrowed == universal { return universal }
            universal = narrowed
        }
    }

    private func intern(_ set: [Int]) -> Int {
        var slot = Self.hash(set) & (ids.count - 1)
        while ids[slot] >= 0 {
            if sets[Int(ids[slot])] == set { return Int(ids[slot]) }
            slot = (slot + 1) & (ids.count - 1)
        }
        ids[slot] = Int32(sets.count)
        sets.append(set)
        universalSets.append(nil)
        asciiSteps.append(contentsOf: Self.untakenASCIISteps)
        if sets.count * 2 > ids.count {
            ids = [Int32](repeating: -1, count: ids.count * 2)
            for (id, known) in sets.enumerated() {
                var slot = Self.hash(known) & (ids.count - 1)
                while ids[slot] >= 0 { slot = (slot + 1) & (ids.count - 1) }
                ids[slot] = Int32(id)
            }
        }
        return sets.count - 1
    }

    /// FNV-1a over the node numbers: sets of small integers need no seeded hash.
    private static func hash(_ set: [Int]) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for node in set {
            hash ^= UInt64(UInt32(truncatingIfNeeded: node))
            hash &*= 0x100_0000_01B3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    /// The state of the nodes `nodes` and all they reach without consuming.
    func state(closureOf nodes: [Int]) -> Int { intern(automaton.closure(of: nodes)) }

    func step(_ state: Int, _ scalar: Unicode.Scalar) -> Int {
        if scalar.isASCII {
            let slot = state &* 128 &+ Int(scalar.value)
            if asciiSteps[slot] >= 0 { return Int(asciiSteps[slot]) }
            let next = taken(state, scalar)
            asciiSteps[slot] = Int32(next)
            return next
        }
        let key = UInt64(state) << 32 | UInt64(scalar.value)
        if let next = transitions[key] { return next }
        let next = taken(state, scalar)
        transitions.insert(key, next)
        return next
    }

    /// The state `state` moves to on `scalar`, built for a transition not taken before and
    /// counted as construction work.
    private func taken(_ state: Int, _ scalar: Unicode.Scalar) -> Int {
        let next = intern(closure(ofMoved: sets[state], on: scalar))
        constructionWork += sets[state].count + sets[next].count
        return next
    }

    /// Marks of the closure being built (a node is in it when its mark is `generation`) and
    /// the nodes left to follow, kept across steps: most steps of a search build a state
    /// nobody built before, and most of those are the empty state or a few nodes, for which
    /// fresh buffers the size of the automaton cost more than the step.
    @exclusivity(unchecked) private var marks: [UInt32] = []
    @exclusivity(unchecked) private var generation: UInt32 = 0
    @exclusivity(unchecked) private var pending: [Int] = []

    /// `Automaton.step`, with this DFA's buffers.
    private func closure(ofMoved states: [Int], on scalar: Unicode.Scalar) -> [Int] {
        if marks.isEmpty { marks = [UInt32](repeating: 0, count: automaton.nodes.count) }
        if generation == .max {
            marks = [UInt32](repeating: 0, count: marks.count)
            generation = 0
        }
        generation += 1
        return automaton.step(states, on: scalar, generation: generation, marks: &marks, pending: &pending)
    }

    func accepts(_ state: Int) -> Bool { sets[state].contains(automaton.accept) }

    func isEmpty(_ state: Int) -> Bool { sets[state].isEmpty }

    /// Whether every continuation from `state` is accepted, as far as `universalNodes` tells.
    func isUniversal(_ state: Int) -> Bool {
        if let known = universalSets[state] { return known }
        let universal = sets[state].contains { self.universal[$0] }
        universalSets[state] = universal
        return universal
    }
}

/// A state of a `LanguageView`: a subset id, or for Apple raw paths a pair of them.
struct ViewState: Hashable {
    var first: Int
    var second: Int
}

/// A deterministic acceptor of raw strings for one pattern.
struct LanguageView {
    let dfa: SubsetDFA
    /// Reads raw URL paths the way `PatternOptions.appleSlashRules` prepares them: the
    /// automaton sees `/core/` for a path whose slashes around `core` are dropped. The state
    /// pairs the automaton state after everything read with the one after the last non-slash,
    /// so trailing slashes need no lookahead; `(-1, -1)` means only slashes so far.
    let readsAppleRawPaths: Bool

    static let leadingSlashes = ViewState(first: -1, second: -1)

    var initial: ViewState {
        readsAppleRawPaths ? Self.leadingSlashes : ViewState(first: dfa.start, second: dfa.start)
    }

    func step(_ state: ViewState, _ scalar: Unicode.Scalar) -> ViewState {
        guard readsAppleRawPaths else {
            let next = dfa.step(state.first, scalar)
            return ViewState(first: next, second: next)
        }
        if state == Self.leadingSlashes {
            if scalar == "/" { return state }
            let next = dfa.step(dfa.step(dfa.start, "/"), scalar)
            return ViewState(first: next, second: next)
        }
        let full = dfa.step(state.first, scalar)
        return ViewState(first: full, second: scalar == "/" ? state.second : full)
    }

    /// Whether no continuation from `state` can change the verdict any more: the automaton
    /// has no live state left (for raw paths, only trailing slashes may follow, which keep the
    /// verdict as it is).
    func isDead(_ state: ViewState) -> Bool {
        if readsAppleRawPaths && state == Self.leadingSlashes { return false }
        return dfa.isEmpty(state.first)
    }

    /// Whether the view accepts `text`.
    func accepts(_ text: String) -> Bool { accepts(text.unicodeScalars.reduce(initial) { step($0, $1) }) }

    func accepts(_ state: ViewState) -> Bool {
        guard readsAppleRawPaths else { return dfa.accepts(state.first) }
        let beforeFinalSlash = state == Self.leadingSlashes ? dfa.start : state.second
        return dfa.accepts(dfa.step(beforeFinalSlash, "/"))
    }
}

/// Breadth-first search over the product of several views.
struct LanguageSearch {
    /// The views searched; with `pathsOnly`, the first is the filter of real paths.
    private let views: [LanguageView]
    private let pathsOnly: Bool
    let alphabet: [Unicode.Scalar]
    /// The most view steps (states × views × alphabet) a search may take before giving up.
    let workLimit: Int
    /// Where the steps taken are counted against a larger budget, when one applies.
    private let meter: WorkMeter?
    /// The view whose dead states end a branch: only strings it may still accept matter.
    private let guide: Int?

    /// A search over `views`. `pathsOnly` restricts it to URL paths as browsers send them
    /// (starting with `/`); `guide` names a view that must still be able to accept.
    init(_ views: [LanguageView], pathsOnly: Bool, workLimit: Int, guide: Int? = nil, meter: WorkMeter? = nil) {
        self.meter = meter
        self.pathsOnly = pathsOnly
        self.views = pathsOnly ? [Self.realPaths] + views : views
        self.workLimit = workLimit
        self.guide = guide.map { pathsOnly ? $0 + 1 : $0 }
        let tests = self.views.flatMap(\.dfa.automaton.tests)
        alphabet = Self.representatives(
            for: tests + (views.contains(where: \.readsAppleRawPaths) ? [.scalar("/")] : []))
        // Setting up costs too: a budget that counted only the steps would let thousands of
        // small searches run far past it.
        meter?.spend(tests.count + alphabet.count * self.views.count)
    }

    /// Strings starting with "/".
    static var realPaths: LanguageView {
        LanguageView(dfa: SubsetDFA(PatternMatcher(androidDynamic: "/*").automaton), readsAppleRawPaths: false)
    }

    enum Outcome {
        /// A shortest string reaching a state that satisfies the predicate, with each view's verdict.
        case found(witness: String, accepted: [Bool])
        case notFound
        /// The search reached its work limit before an answer.
        case inconclusive
    }

    /// A shortest string whose acceptance vector (one verdict per view) satisfies `predicate`.
    func first(where predicate: ([Bool]) -> Bool) -> Outcome {
        var result = Outcome.notFound
        let complete = explore { accepted, witness in
            guard predicate(accepted) else { return false }
            result = .found(witness: witness(), accepted: accepted)
            return true
        }
        if case .found = result { return result }
        return complete ? .notFound : .inconclusive
    }

    /// Every acceptance vector some string reaches, each with a shortest such string; `nil`
    /// when the search reached its work limit.
    func reachableVerdicts() -> [[Bool]: String]? {
        var verdicts: [[Bool]: String] = [:]
        let complete = explore { accepted, witness in
            if verdicts[accepted] == nil { verdicts[accepted] = witness() }
            return false
        }
        return complete ? verdicts : nil
    }

    /// Visits reachable product states in breadth-first order until `visit` returns true.
    /// Returns false when stopped by the work limit.
    ///
    /// Product states are rows of `ProductStates`, two numbers per view state, rather than a set
    /// of arrays: allocating and hashing an array per step cost more than the steps (a `check`
    /// searches once per rule of a changed file).
    private func explore(_ visit: ([Bool], () -> String) -> Bool) -> Bool {
        let initial = views.map(\.initial)
        var next = initial.flatMap { [Int32($0.first), Int32($0.second)] }
        var product = ProductStates(width: next.count)
        _ = product.insert(next)
        var parents: [(parent: Int, scalar: Unicode.Scalar?)] = [(-1, nil)]
        var current = initial
        var head = 0
        var work = 0
        let limit = min(workLimit, meter?.remaining ?? workLimit)
        defer { meter?.spend(work) }
        while head < parents.count {
            let index = head
            head += 1
            for view in views.indices {
                let at = (index * views.count + view) * 2
                current[view] = ViewState(first: Int(product.rows[at]), second: Int(product.rows[at + 1]))
            }
            let accepted = views.indices.map { views[$0].accepts(current[$0]) }
            if pathsOnly
                ? accepted[0] && visit(Array(accepted.dropFirst()), { Self.witness(endingAt: index, in: parents) })
                : visit(accepted, { Self.witness(endingAt: index, in: parents) })
            {
                return true
            }
            if let guide, views[guide].isDead(current[guide]) { continue }
            work += views.count * alphabet.count
            if work > limit { return false }
            for scalar in alphabet {
                for view in views.indices {
                    let stepped = views[view].step(current[view], scalar)
                    next[2 * view] = Int32(stepped.first)
                    next[2 * view + 1] = Int32(stepped.second)
                }
                if product.insert(next) { parents.append((index, scalar)) }
            }
        }
        return true
    }

    private static func witness(endingAt index: Int, in parents: [(parent: Int, scalar: Unicode.Scalar?)]) -> String {
        var scalars: [Unicode.Scalar] = []
        var index = index
        while let scalar = parents[index].scalar {
            scalars.append(scalar)
            index = parents[index].parent
        }
        return String(String.UnicodeScalarView(scalars.reversed()))
    }

    /// One scalar per class of scalars that every test treats alike, preferring readable ones
    /// that case folding leaves alone, so witnesses are real, already-prepared values.
    static func representatives(for tests: [ScalarTest]) -> [Unicode.Scalar] {
        var cuts: Set<UInt32> = [0, 0x11_0000]
        for test in tests {
            switch test {
            case .scalar(let scalar), .anyExcept(let scalar):
                cuts.formUnion([scalar.value, scalar.value + 1])
            case .set(let set):
                for range in set.ranges { cuts.formUnion([range.lowerBound, range.upperBound + 1]) }
            case .any:
                break
            }
        }
        let bounds = cuts.sorted()
        let readable = Array("abcdefghijklmnopqrstuvwxyz0123456789-_~.".unicodeScalars)
        return zip(bounds, bounds.dropFirst()).compactMap { low, high in
            if let choice = readable.first(where: { (low..<high).contains($0.value) }) { return choice }
            return (low..<high).lazy.compactMap(Unicode.Scalar.init).first
        }
    }
}

/// Numbers by a 64-bit key (never `UInt64.max`): the transitions a `SubsetDFA` has taken, by
/// state and scalar in one key, and the ids of a `PartView`'s packed states. One flat
/// open-addressing table rather than a dictionary per state, whose allocation and growth cost
/// more than the lookups when most states are new (a proof builds the states of every new rule).
/// Each slot holds its key and value side by side in one buffer, read through a pointer: one
/// allocation per size, and no checks per probe.
struct StepTable {
    private static let empty = UInt64.max
    /// Slot `i`'s key at `2 * i`, its value at `2 * i + 1`.
    private var entries = [UInt64](repeating: empty, count: 16)
    private var count = 0

    private var mask: Int { entries.count / 2 - 1 }

    private static func slot(_ key: UInt64, _ mask: Int) -> Int {
        // The state sits in the high half: the product's high bits, folded down, carry it.
        var hash = key &* 0x9E37_79B9_7F4A_7C15
        hash ^= hash >> 32
        return Int(truncatingIfNeeded: hash) & mask
    }

    subscript(key: UInt64) -> Int? {
        let mask = mask
        return entries.withUnsafeBufferPointer { entries in
            var index = Self.slot(key, mask)
            while true {
                let found = entries[2 * index]
                if found == key { return Int(truncatingIfNeeded: entries[2 * index + 1]) }
                if found == Self.empty { return nil }
                index = (index + 1) & mask
            }
        }
    }

    /// Records `value` for `key`, which is not in the table yet.
    mutating func insert(_ key: UInt64, _ value: Int) {
        if (count + 1) * 2 > entries.count / 2 {
            let old = entries
            entries = [UInt64](repeating: Self.empty, count: old.count * 2)
            entries.withUnsafeMutableBufferPointer { entries in
                for index in stride(from: 0, to: old.count, by: 2) where old[index] != Self.empty {
                    Self.place(old[index], old[index + 1], in: entries)
                }
            }
        }
        entries.withUnsafeMutableBufferPointer { Self.place(key, UInt64(truncatingIfNeeded: value), in: $0) }
        count += 1
    }

    /// Puts `key` in the first free slot from its own.
    private static func place(_ key: UInt64, _ value: UInt64, in entries: UnsafeMutableBufferPointer<UInt64>) {
        let mask = entries.count / 2 - 1
        var index = slot(key, mask)
        while entries[2 * index] != empty { index = (index + 1) & mask }
        entries[2 * index] = key
        entries[2 * index + 1] = value
    }
}
