/// Rules filed under the literal prefix of their paths, sorted by prefix. Sorting costs a
/// fraction of a trie of dictionaries, which made the index the bulk of a list's first
/// witness check (a changelog checks a few witnesses against each of hundreds of revisions'
/// lists of up to 2,000 rules); a lookup narrows the range of prefixes scalar by scalar.
struct PrefixIndex: Equatable {
    /// Sorted by prefix, then rule.
    private let prefixes: [[Unicode.Scalar]]
    private let rules: [Int]

    typealias Entry = (rule: Int, prefix: [Unicode.Scalar])

    init(_ entries: [Entry]) {
        let sorted = entries.sorted(by: Self.precedes)
        prefixes = sorted.map(\.prefix)
        rules = sorted.map(\.rule)
    }

    private init(prefixes: [[Unicode.Scalar]], rules: [Int]) {
        (self.prefixes, self.rules) = (prefixes, rules)
    }

    private static func precedes(_ one: Entry, _ other: Entry) -> Bool {
        one.prefix == other.prefix ? one.rule < other.rule : one.prefix.lexicographicallyPrecedes(other.prefix)
    }

    var isEmpty: Bool { rules.isEmpty }

    /// The index of this one's entries whose rule `kept` gives a new number (`nil`: the rule is
    /// gone), with `added`: the index made of them all, without sorting the kept ones again.
    /// `kept` must keep the order of the rules it keeps, and `added` take numbers none of them takes.
    func editing(kept number: (Int) -> Int?, adding added: [Entry]) -> PrefixIndex {
        // The kept entries by position here, with their new numbers: no entry is copied twice.
        var kept: [(position: Int, rule: Int)] = []
        kept.reserveCapacity(rules.count)
        for position in rules.indices {
            if let rule = number(rules[position]) { kept.append((position, rule)) }
        }
        var edited = (prefixes: [[Unicode.Scalar]](), rules: [Int]())
        edited.prefixes.reserveCapacity(kept.count + added.count)
        edited.rules.reserveCapacity(kept.count + added.count)
        func keep(_ range: Range<Int>) {
            for entry in kept[range] {
                edited.prefixes.append(prefixes[entry.position])
                edited.rules.append(entry.rule)
            }
        }
        var next = 0
        for entry in added.sorted(by: Self.precedes) {
            // The first kept entry past `entry`, by bisection: the kept ones are many, the added few.
            var (low, high) = (next, kept.count)
            while low < high {
                let middle = (low + high) / 2
                if Self.precedes((kept[middle].rule, prefixes[kept[middle].position]), entry) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            keep(next..<low)
            edited.prefixes.append(entry.prefix)
            edited.rules.append(entry.rule)
            next = low
        }
        keep(next..<kept.count)
        return PrefixIndex(prefixes: edited.prefixes, rules: edited.rules)
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
        var ways: [(node: Int, prefix: [Unicode.Scalar], splits: [Int])] = [(start, [], [])]
        var steps = 0
        while var (node, prefix, splits) = ways.popLast() {
            // The way taken is followed in place while it goes on as one, and a split's last
            // branch with it: a new way per scalar, its prefix copied, cost the most of a new
            // rule's literal facts (`LiteralFacts`). Ways are counted as if each step were one.
            following: while true {
                steps += 1
                guard steps <= 64 * limit, found.count + ways.count <= limit else { return nil }
                switch nodes[node] {
                case .consume(.scalar(let scalar), let next) where prefix.count < 256:
                    prefix.append(scalar)
                    if !splits.isEmpty { splits.removeAll() }
                    node = next
                case .split(let targets):
                    guard !splits.contains(node), let last = targets.last else { break following }
                    splits.append(node)
                    for target in targets.dropLast() { ways.append((target, prefix, splits)) }
                    node = last
                case .consume:
                    found.append((prefix, false))
                    break following
                case .accept:
                    found.append((prefix, true))
                    break following
                }
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
    ///
    /// The edges into each node are kept as flat lists, and the nodes of a round as one array
    /// marked with the round's number: an array per node and a set per round made this the
    /// costliest part of a rule's literal facts (`LiteralFacts`), each made once per process.
    var forcedSuffix: [Unicode.Scalar] {
        // Node `n`'s consuming origins are `consumedInto[consumedStarts[n]..<consumedStarts[n + 1]]`,
        // its branching ones likewise in `splitInto`.
        var consumedStarts = [Int](repeating: 0, count: nodes.count + 1)
        var splitStarts = [Int](repeating: 0, count: nodes.count + 1)
        for node in nodes {
            switch node {
            case .consume(_, let next): consumedStarts[next + 1] += 1
            case .split(let targets): for target in targets { splitStarts[target + 1] += 1 }
            case .accept: break
            }
        }
        for index in nodes.indices {
            consumedStarts[index + 1] += consumedStarts[index]
            splitStarts[index + 1] += splitStarts[index]
        }
        var consumedInto = [Int](repeating: 0, count: consumedStarts[nodes.count])
        var splitInto = [Int](repeating: 0, count: splitStarts[nodes.count])
        var consumedFilled = consumedStarts
        var splitFilled = splitStarts
        for (index, node) in nodes.enumerated() {
            switch node {
            case .consume(_, let next):
                consumedInto[consumedFilled[next]] = index
                consumedFilled[next] += 1
            case .split(let targets):
                for target in targets {
                    splitInto[splitFilled[target]] = index
                    splitFilled[target] += 1
                }
            case .accept: break
            }
        }
        var suffix: [Unicode.Scalar] = []
        // The nodes of the current round: its seeds, then those reaching them without consuming.
        var current = [accept]
        var entering: [Int] = []
        var round = [Int](repeating: -1, count: nodes.count)
        var number = 0
        while true {
            // No seed repeats: a consuming node enters one node.
            for node in current { round[node] = number }
            var next = 0
            while next < current.count {
                let node = current[next]
                next += 1
                for origin in splitInto[splitStarts[node]..<splitStarts[node + 1]] where round[origin] != number {
                    round[origin] = number
                    current.append(origin)
                }
            }
            guard suffix.count < 256, round[start] != number else { break }
            entering.removeAll(keepingCapacity: true)
            var scalar: Unicode.Scalar?
            for node in current {
                for origin in consumedInto[consumedStarts[node]..<consumedStarts[node + 1]] {
                    guard case .consume(.scalar(let consumed), _) = nodes[origin], scalar == nil || scalar == consumed
                    else { return suffix.reversed() }
                    scalar = consumed
                    entering.append(origin)
                }
            }
            guard let scalar else { break }
            suffix.append(scalar)
            swap(&current, &entering)
            number += 1
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
