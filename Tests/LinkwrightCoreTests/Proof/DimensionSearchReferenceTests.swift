import Testing

@testable import LinkwrightCore

/// `DimensionSearch.run` against a plain breadth-first search written here from its contract:
/// product states visited once each, at the first text reaching them, cheapest first and then
/// in symbol order; every state expanded spends a step per view and symbol, and the views'
/// construction work, before its successors are made; a blocked state (a required view dead, a
/// rejected one universal) is not expanded, nor, when skipped, interned. On seeded paths, with
/// views in every role and budgets that run out, both must visit the same values with the same
/// verdicts and texts, in the same order, and leave the same budget.
@Suite struct DimensionSearchReferenceTests {
    /// One value visited: the tracked views' verdicts, its cost and its text.
    struct Visit: Equatable {
        var tracked: [Bool]
        var cost: Int
        var text: String?
    }

    /// The plain search over `search`'s views, roles and starts, stepping scalar by scalar (the
    /// search's `stepsEscapesWhole: false`); the values visited and whether it finished.
    static func plainSearch(_ search: DimensionSearch, skipsBlocked: Bool, budget: inout ProofBudget) -> (
        visits: [Visit], complete: Bool
    ) {
        let views = search.views
        func admitted(_ states: [Int32]) -> [Bool]? {
            var tracked: [Bool] = []
            for (view, state) in states.enumerated() {
                let accepts = views[view].accepts(state)
                switch search.roles[view] {
                case .required: if !accepts { return nil }
                case .rejected: if accepts { return nil }
                case .tracked: tracked.append(accepts)
                }
            }
            return tracked
        }
        func blocked(_ states: [Int32]) -> Bool {
            states.indices.contains { view in
                switch search.roles[view] {
                case .required: views[view].isDead(states[view])
                case .rejected: views[view].isUniversal(states[view])
                case .tracked: false
                }
            }
        }
        let alphabet = views.first?.alphabet.scalars ?? []
        let symbols =
            views.isEmpty ? Array(alphabet.indices) : DimensionSearch.firstOfEachClass(views.map(\.symbolClasses))
        var first = search.starts
        if let slash = alphabet.firstIndex(of: "/") {
            first = views.indices.map { views[$0].step(search.starts[$0], slash) }
        }
        var seen: Set<[Int32]> = [first]
        var queue: [(states: [Int32], text: [Int])] = [(first, [])]
        var visits: [Visit] = []
        var head = 0
        while head < queue.count {
            let (states, text) = queue[head]
            head += 1
            if let tracked = admitted(states) {
                var written = "/"
                written.unicodeScalars.append(contentsOf: text.map { alphabet[$0] })
                if search.readsDecoded { written = search.escapedText(written) }
                visits.append(Visit(tracked: tracked, cost: text.count + 1, text: written))
            }
            if blocked(states) || symbols.isEmpty { continue }
            budget.remaining -= views.count * symbols.count
            if budget.isExhausted { return (visits, false) }
            let built = views.reduce(0) { $0 + $1.constructionWork }
            for symbol in symbols {
                let next = views.indices.map { views[$0].step(states[$0], symbol) }
                if skipsBlocked && blocked(next) { continue }
                if seen.insert(next).inserted { queue.append((next, text + [symbol])) }
            }
            budget.remaining -= views.reduce(0) { $0 + $1.constructionWork } - built
        }
        return (visits, true)
    }

    @Test(arguments: [false, true])
    func theSearchVisitsWhatAPlainSearchVisits(android: Bool) throws {
        var generator = SplitMix64(seed: android ? 0xD5EA_7C4A : 0xD5EA_7C41)
        let platform: Platform = android ? .android : .ios
        let environment = ["environments/production.yaml": BehaviourProofTests.environment(android: android)]
        var visited = 0
        var unfinished = 0
        for round in 0..<40 {
            let rules = EscapeSteppingProofTests.rules(&generator, count: Int.random(in: 2...6, using: &generator))
            let domain = BehaviourProofTests.domain(rules.joined(), android: android)
            let revision = try snapshot(environment.merging(["domains/example.yaml": domain]) { $1 })
            let lists = try #require(revision.decisionLists("production", host: "example.com", platform: platform))
            // Which rules' paths take part, and in which role (0 required, 1 rejected, 2 tracked).
            let roles = lists.flatMap(\.rules).map { _ in Int.random(in: 0..<4, using: &generator) }
            let limit = [200, 2_000, 50_000].randomElement(using: &generator)!
            for skipsBlocked in [false, true] {
                // Fresh views for each search: the budget counts the transitions they build.
                func search() -> DimensionSearch {
                    let views = ProofViews(lists: lists)
                    var lanes: [[DimensionSearch.Lane]] = [[], [], []]
                    for (rule, role) in zip(lists.flatMap(\.rules), roles) where role < 3 {
                        if let path = views.parts(rule).path { lanes[role].append(DimensionSearch.Lane(path)) }
                    }
                    return DimensionSearch(
                        .path, required: lanes[0], rejected: lanes[1], tracked: lanes[2], stepsEscapesWhole: false,
                        skipsBlockedStates: skipsBlocked)
                }
                var budget = ProofBudget(remaining: limit)
                var visits: [Visit] = []
                let complete = search().run(budget: &budget) { tracked, cost, text in
                    visits.append(Visit(tracked: tracked, cost: cost, text: text()))
                    return false
                }
                var plainBudget = ProofBudget(remaining: limit)
                let plain = Self.plainSearch(search(), skipsBlocked: skipsBlocked, budget: &plainBudget)
                let context = "round \(round), skips \(skipsBlocked), limit \(limit):\n\(rules.joined())"
                #expect(visits == plain.visits, "\(context)")
                #expect(complete == plain.complete, "\(context)")
                #expect(budget.remaining == plainBudget.remaining, "budget left, \(context)")
                visited += visits.count
                if !complete { unfinished += 1 }
            }
        }
        // Values are found, and some budgets run out.
        #expect(visited > 100)
        #expect(unfinished > 0)
    }
}
