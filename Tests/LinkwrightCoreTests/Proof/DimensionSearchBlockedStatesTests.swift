import Testing

@testable import LinkwrightCore

/// Product states a required view can no longer accept in, or a rejected view accepts
/// everything from, are left out of the search (`DimensionSearch.skipsBlockedStates`). On
/// seeded lists where rules decode or not, on both platforms, the proof must find the same
/// witnesses, leave the same pairs unsettled and spend the same budget as the search that
/// interns every state, with the standard limits and with limits so small that regions run
/// out.
@Suite struct DimensionSearchBlockedStatesTests {
    @Test(arguments: [false, true])
    func skippingBlockedStatesChangesNoAnswerAndNoBudget(android: Bool) throws {
        var generator = SplitMix64(seed: android ? 0xB10C_A : 0xB10C_1)
        let platform: Platform = android ? .android : .ios
        let environment = ["environments/production.yaml": BehaviourProofTests.environment(android: android)]
        func lists(_ rules: [String]) throws -> [DecisionList] {
            let domain = BehaviourProofTests.domain(rules.joined(), android: android)
            let revision = try snapshot(environment.merging(["domains/example.yaml": domain]) { $1 })
            return try #require(revision.decisionLists("production", host: "example.com", platform: platform))
        }
        var differences = 0
        var unsettled = 0
        for round in 0..<16 {
            let base = EscapeSteppingProofTests.rules(&generator, count: Int.random(in: 3...8, using: &generator))
            var head = base
            head.insert(contentsOf: EscapeSteppingProofTests.rules(&generator, count: 2), at: 0)
            if let index = head.indices.randomElement(using: &generator), head.count > 3 { head.remove(at: index) }
            let old = try lists(base)
            let new = try lists(head)
            for limits in [ProofLimits.standard, ProofLimits(region: 400, total: 3_000)] {
                let outcomes = [false, true].map { skips in
                    let meter = WorkMeter(limits.total)
                    var proof = BehaviourProof(limits: limits, includesEmptyPath: android)
                    proof.skipsBlockedStates = skips
                    let result = proof.compare(old: old, new: new, meter: meter)
                    return (EscapeSteppingProofTests.outcome(result), meter.remaining)
                }
                let context = "round \(round), limits \(limits.region):\n\(base.joined())->\n\(head.joined())"
                #expect(outcomes[0].0.differences == outcomes[1].0.differences, "\(context)")
                #expect(outcomes[0].0.unsettled == outcomes[1].0.unsettled, "\(context)")
                #expect(outcomes[0].1 == outcomes[1].1, "budget left, \(context)")
                differences += outcomes[1].0.differences.count
                unsettled += outcomes[1].0.unsettled.count
            }
        }
        // The lists do differ, and the small limits leave some pairs unsettled.
        #expect(differences > 10)
        #expect(unsettled > 0)
    }
}
