/// Many patterns compiled as one automaton that shares their common beginnings: a trie of their
/// tokens, each edge compiled as `PatternCompiler` compiles that token. A thousand rules written
/// `*/item1` … `*/item999` then share one `*` loop and one `/item` chain instead of each keeping
/// its own, so the set of automaton nodes a URL keeps active, which is what a DFA state holds
/// (see `LazyDFA`), stays as small as the patterns' overlap, not as large as their number.
///
/// Two kinds of node are marked for the DFA:
/// - a `*` loop ending a pattern that nothing else continues (`/shop/*`): from there every input
///   is accepted, so a DFA reaching it reports the pattern's members as matched at once and does
///   not keep the loop in its state (Aho-Corasick's output function does the same for literals);
/// - the other `*` loops that consume anything: once active they stay active (`persistent`).
struct PatternTrie {
    /// What one trie edge consumes: a pattern token as its platform reads it.
    enum Step: Hashable {
        case literal(Unicode.Scalar)
        case one
        case loop(ScalarTest)
        /// A substitution variable, compiled case-folded or not.
        case variable(String, caseSensitive: Bool)
    }

    /// One node, its children linked through it (a list of children per node cost an
    /// allocation per node).
    private struct Node {
        /// The step leading to it (`nil` for the root).
        let stepInto: Step?
        /// Its first and last child and its next sibling, in the order added (-1 for none).
        var firstChild = -1
        var lastChild = -1
        var nextSibling = -1
        /// The members whose pattern ends here.
        var labels: [Int32] = []
    }

    /// In one array: five arrays grown and checked for uniqueness per node cost more than the
    /// steps' lookups.
    private var nodes = [Node(stepInto: nil)]
    /// Each node's children by step, in one table for the whole trie (a table per node was most
    /// of the cost of indexing a thousand rules): literal steps, nearly all of them, keyed by
    /// node and scalar as one integer, the others by node and step.
    private var literalChildren: [UInt64: Int] = [:]
    private var otherChildren: [OtherChild: Int] = [:]

    /// A trie about to hold about `steps` steps in all, whose table of children is made that
    /// large at once rather than grown (and rehashed) as they are added.
    init(reservingSteps steps: Int = 0) {
        literalChildren.reserveCapacity(steps)
        nodes.reserveCapacity(steps + 1)
    }

    private struct OtherChild: Hashable {
        let node: Int
        let step: Step
    }

    private func child(of node: Int, _ step: Step) -> Int? {
        if case .literal(let scalar) = step { return literalChildren[UInt64(node) << 21 | UInt64(scalar.value)] }
        return otherChildren[OtherChild(node: node, step: step)]
    }

    /// Adds the pattern of `matcher` for member `label`.
    mutating func insert(_ matcher: PatternMatcher, label: Int32) {
        insert(matcher.tokens, options: matcher.options, label: label)
    }

    /// Adds the pattern `tokens`, read with `options`, for member `label`.
    mutating func insert(_ tokens: [PatternToken], options: PatternOptions, label: Int32) {
        var node = 0
        // Whether `node` was added by this pattern: it has no child to look up yet, and nor have
        // the nodes added after it (most of a pattern past the beginning it shares).
        var added = false
        for index in tokens.indices {
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            guard let step = Self.step(tokens[index], next: next, options: options) else { continue }
            if !added, let child = child(of: node, step) {
                node = child
                continue
            }
            let child = nodes.count
            nodes.append(Node(stepInto: step))
            if nodes[node].lastChild < 0 {
                nodes[node].firstChild = child
            } else {
                nodes[nodes[node].lastChild].nextSibling = child
            }
            nodes[node].lastChild = child
            if case .literal(let scalar) = step {
                literalChildren[UInt64(node) << 21 | UInt64(scalar.value)] = child
            } else {
                otherChildren[OtherChild(node: node, step: step)] = child
            }
            node = child
            added = true
        }
        nodes[node].labels.append(label)
    }

    /// How a token compiles, as `PatternCompiler.automaton(for:)` compiles it; `nil` for Android's
    /// `*` before `?`, `*` or a variable, which is satisfied at once and adds no node.
    private static func step(_ token: PatternToken, next: PatternToken?, options: PatternOptions) -> Step? {
        switch token {
        case .literal(let scalar): return .literal(scalar)
        case .one: return .one
        case .any where options.semantics == .apple: return .loop(.any)
        case .any:
            switch next {
            case nil: return .loop(.any)
            case .literal(let stop)?: return .loop(.anyExcept(stop))
            case .one?, .any?, .variable?: return nil
            }
        case .variable(let name): return .variable(name, caseSensitive: options.caseSensitive)
        }
    }

    /// The compiled union.
    struct Program: Sendable {
        let automaton: Automaton
        /// Per node: the members accepting at it (accept nodes only).
        let accepting: [[Int32]]
        /// Per node: the members reaching it matches whatever follows (ending `*` loops only).
        let matchesAnyRest: [[Int32]]
        /// Per node: a `*` loop step that stays active once reached.
        let persistent: [Bool]
    }

    /// The trie as one automaton. `variables` are the custom substitution variables of the
    /// members (they come from one file).
    func compile(variables: [String: [String]]) -> Program {
        let trie = self.nodes
        // Per node, as `Program` holds them; grown with the nodes (`add`, and after a variable).
        var accepting: [[Int32]] = [[]]
        var matchesAnyRest: [[Int32]] = [[]]
        var persistent = [false]
        // Node 0 becomes the start; variables are compiled by a `PatternCompiler` lent the
        // node array, folded or not as their pattern was.
        var nodes: [Automaton.Node] = [.split([])]
        func grow() {
            let added = nodes.count - accepting.count
            accepting += repeatElement([], count: added)
            matchesAnyRest += repeatElement([], count: added)
            persistent += repeatElement(false, count: added)
        }
        func add(_ node: Automaton.Node) -> Int {
            nodes.append(node)
            accepting.append([])
            matchesAnyRest.append([])
            persistent.append(false)
            return nodes.count - 1
        }
        // Up to about two automaton nodes per trie node (a step and a branch, or a loop's two).
        let capacity = 2 * trie.count
        nodes.reserveCapacity(capacity)
        accepting.reserveCapacity(capacity)
        matchesAnyRest.reserveCapacity(capacity)
        persistent.reserveCapacity(capacity)
        // Children are made after their parents, so walking backwards compiles each child
        // before the node that branches to it: no recursion, however long the patterns.
        var entries = Array(repeating: 0, count: trie.count)
        // One list for every node's branches: most nodes have one, which needs no list of its
        // own (an array made per node cost an allocation and a release per node).
        var branches: [Int] = []
        for index in trie.indices.reversed() {
            branches.removeAll(keepingCapacity: true)
            if !trie[index].labels.isEmpty {
                branches.append(add(.accept))
                accepting[branches[0]] = trie[index].labels
            }
            var child = trie[index].firstChild
            while child >= 0 {
                defer { child = trie[child].nextSibling }
                let step = trie[child].stepInto!
                let target = entries[child]
                switch step {
                case .literal(let scalar): branches.append(add(.consume(.scalar(scalar), next: target)))
                case .one: branches.append(add(.consume(.any, next: target)))
                case .loop(let test):
                    let split = add(.split([]))
                    let consume = add(.consume(test, next: split))
                    nodes[split] = .split([consume, target])
                    branches.append(split)
                    guard test == .any else { break }
                    if trie[child].firstChild < 0 {
                        matchesAnyRest[split] = trie[child].labels
                    } else {
                        persistent[consume] = true
                    }
                case .variable(let name, let caseSensitive):
                    var variableCompiler = PatternCompiler(
                        options: PatternOptions(caseSensitive: caseSensitive), variables: variables)
                    variableCompiler.nodes = nodes
                    do {
                        branches.append(try variableCompiler.variable(name, then: target))
                    } catch {
                        preconditionFailure("the pattern compiled alone, so its variables are defined: \(error)")
                    }
                    nodes = variableCompiler.nodes
                    grow()
                }
            }
            entries[index] = branches.count == 1 ? branches[0] : add(.split(branches))
        }
        nodes[0] = .split([entries[0]])
        // Accepting nodes are many and labelled in `accepting`: the automaton's own one is unused.
        return Program(
            automaton: Automaton(nodes: nodes, start: 0, accept: 0), accepting: accepting,
            matchesAnyRest: matchesAnyRest, persistent: persistent)
    }
}
