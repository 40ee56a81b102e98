extension PathScope {
    /// The scope as an automaton over the decoded path, accepting what `matches` accepts
    /// (`AndroidPathAttribute`): the literal, the prefix followed by anything, or the glob.
    var automaton: Automaton {
        switch AndroidPathAttribute(self) {
        case .path(let text): return Self.literal(AndroidPathAttribute.unescaped(text), then: nil)
        case .prefix(let text): return Self.literal(AndroidPathAttribute.unescaped(text), then: .any)
        case .pattern(let text): return SimpleGlob(AndroidPathAttribute.unescaped(text)).automaton
        case .suffix(let text):
            // Not produced by the compiler (`PathScope` has none): anything, then the suffix.
            let suffix = AndroidPathAttribute.unescaped(text)
            var nodes: [Automaton.Node] = [.accept]
            var next = 0
            for scalar in suffix.reversed() {
                nodes.append(.consume(.scalar(scalar), next: next))
                next = nodes.count - 1
            }
            nodes.append(.split([]))
            nodes.append(.consume(.any, next: nodes.count - 1))
            nodes[nodes.count - 2] = .split([nodes.count - 1, next])
            return Automaton(nodes: nodes, start: nodes.count - 2, accept: 0)
        }
    }

    /// `text`, then the whole rest when `rest` is `.any`.
    private static func literal(_ text: [Unicode.Scalar], then rest: ScalarTest?) -> Automaton {
        var nodes: [Automaton.Node] = [.accept]
        var next = 0
        if rest != nil {
            nodes.append(.split([]))
            nodes.append(.consume(.any, next: 1))
            nodes[1] = .split([2, 0])
            next = 1
        }
        for scalar in text.reversed() {
            nodes.append(.consume(.scalar(scalar), next: next))
            next = nodes.count - 1
        }
        return Automaton(nodes: nodes, start: next, accept: 0)
    }
}

extension SimpleGlob {
    /// The pass as an automaton: one branching node per state the pass can reach, stepping on
    /// each pattern scalar and on every other scalar (which the pass never tells apart).
    var automaton: Automaton {
        Automaton(
            deterministic: start, alphabet: Set(pattern),
            step: { state, scalar in
                let next = step(state, scalar)
                return next == .failed ? nil : next
            }, accepts: accepts)
    }
}

extension ScalarSet {
    /// Every scalar value not in the set.
    var complement: ScalarSet {
        var ranges: [ClosedRange<UInt32>] = []
        var low: UInt32 = 0
        for range in self.ranges {
            if range.lowerBound > low { ranges.append(low...(range.lowerBound - 1)) }
            low = range.upperBound + 1
        }
        if low <= 0x10_FFFF { ranges.append(low...0x10_FFFF) }
        return ScalarSet(ranges)
    }
}
