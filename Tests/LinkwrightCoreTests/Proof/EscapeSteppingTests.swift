import Testing

@testable import LinkwrightCore

/// Escapes stepped as one symbol (`DimensionSearch.stepsEscapesWhole`) against the search
/// stepping them scalar by scalar: on seeded lists where some rules decode and others read the
/// path as written, both must find the same witnesses, byte for byte, and settle the same pairs
/// wherever the scalar-by-scalar search settles them.
@Suite struct EscapeSteppingProofTests {
    /// Paths of rules over words that spell hex digits (`be`, `c0`), hold an escape (`%2F`,
    /// `%e9`), a `%` that starts none (`%z`), a scalar beyond ASCII, and wildcards on either
    /// side, so escapes, lone `%`s and UTF-8 sequences are what tells the rules apart.
    static let words = ["be", "c0", "x", "a%2Fb", "%e9t", "caf\u{E9}", "9%z", "F1", "%C3%A9"]

    static func rules(_ generator: inout SplitMix64, count: Int) -> [String] {
        let shapes: [(String) -> String] = [
            { "/\($0)*" }, { "*/\($0).html" }, { "/\($0)/*" }, { "/\($0)" }, { "*\($0)*" }, { "/\($0)?" },
        ]
        return (0..<count).map { _ in
            let word = words.randomElement(using: &generator)!
            var rule = "      - path: \"\(shapes.randomElement(using: &generator)!(word))\"\n"
            if Int.random(in: 0..<5, using: &generator) == 0 { rule += "        exclude: true\n" }
            if Int.random(in: 0..<4, using: &generator) == 0 { rule += "        percent_encoded: false\n" }
            if Int.random(in: 0..<6, using: &generator) == 0 { rule += "        case_sensitive: false\n" }
            return rule
        }
    }

    /// One proof's outcome as text: each difference with its deciding rules and witness, and
    /// each pair left unsettled.
    static func outcome(_ result: BehaviourProof.Result) -> (differences: [String], unsettled: Set<String>) {
        let differences = result.differences.map {
            "\($0.identity) \($0.base?.key ?? "-") | \($0.head?.key ?? "-") -> \($0.witness.url(host: "h"))"
        }
        let unsettled = Set(result.unsettled.map { "\($0.identity) \($0.base?.key ?? "-") | \($0.head?.key ?? "-")" })
        return (differences, unsettled)
    }

    @Test func bothSearchesFindTheSameWitnesses() throws {
        var generator = SplitMix64(seed: 0xE5C)
        let (android, platform) = (false, Platform.ios)
        let limits = ProofLimits(region: 3_000_000, total: 100_000_000)
        var settledByBoth = 0
        for round in 0..<24 {
            let base = Self.rules(&generator, count: Int.random(in: 3...9, using: &generator))
            var head = base
            // A toggled default, or an edit of one rule's flags.
            let toggled = round % 2 == 0
            if !toggled, let index = head.indices.randomElement(using: &generator) {
                head[index] =
                    head[index].contains("percent_encoded")
                    ? head[index].replacingOccurrences(of: "        percent_encoded: false\n", with: "")
                    : head[index] + "        percent_encoded: false\n"
            }
            let environment = ["environments/production.yaml": BehaviourProofTests.environment(android: android)]
            func lists(_ rules: [String], defaults: Bool) throws -> [DecisionList] {
                let domain =
                    (defaults ? "defaults:\n  percent_encoded: false\n" : "")
                    + BehaviourProofTests.domain(rules.joined(), android: android)
                let revision = try snapshot(environment.merging(["domains/example.yaml": domain]) { $1 })
                return try #require(revision.decisionLists("production", host: "example.com", platform: platform))
            }
            let old = try lists(base, defaults: false)
            let new = try lists(head, defaults: toggled)
            let outcomes = [false, true].map { whole in
                Self.outcome(
                    BehaviourProof(limits: limits, includesEmptyPath: android, stepsEscapesWhole: whole).compare(
                        old: old, new: new, meter: WorkMeter(limits.total)))
            }
            let (scalarByScalar, whole) = (outcomes[0], outcomes[1])
            let context = "round \(round):\n\(base.joined())->\n\(head.joined())"
            // Every pair the scalar-by-scalar search settles is settled alike.
            let settled = whole.differences.filter { difference in
                !scalarByScalar.unsettled.contains { difference.hasPrefix($0 + " -> ") }
            }
            #expect(settled.sorted() == scalarByScalar.differences.sorted(), "\(context)")
            #expect(whole.unsettled.isSubset(of: scalarByScalar.unsettled), "\(context)")
            settledByBoth += scalarByScalar.differences.count
        }
        // The lists do differ, with escapes in their witnesses.
        #expect(settledByBoth > 20)
    }
}
