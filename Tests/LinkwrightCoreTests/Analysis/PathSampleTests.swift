import Testing

@testable import LinkwrightCore

/// The rule analysis skips its search for a path when a sample written from the pattern
/// matches (`RuleAnalysis.pathSample`): wherever it does, the search must find paths too, and
/// a sample must be a path browsers send.
@Suite struct PathSampleTests {
    @Test func aSampleIsOnlyGivenWhereTheSearchFindsAPath() throws {
        var generator = SplitMix64(seed: 0x5A_4D1E)
        let pieces = ["/", "a", "b", ".", "*", "?", "?*", "-", "%", " "]
        var sampled = 0
        for round in 0..<600 {
            // Most patterns are paths from the root; some start with a wildcard or nothing.
            let pattern =
                (round % 4 == 0 ? "" : "/")
                + (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                    pieces.randomElement(using: &generator)!
                }.joined()
            for caseSensitive in [true, false] {
                let file = """
                    {"applinks": {"details": [{"appIDs": ["\(exampleApp)"], "components": [
                      {"/": "\(pattern)", "caseSensitive": \(caseSensitive)}]}]}}
                    """
                let rule = try #require(CompiledAASA(readAASA(file)).entries.first?.rules.first)
                guard let sample = RuleAnalysis.pathSample(rule) else { continue }
                sampled += 1
                #expect(sample.hasPrefix("/") && !sample.contains("//"), "\(pattern): \(sample)")
                #expect(RuleAnalysis().neverMatches(RuleLanguages(rule)) == nil, "\(pattern): \(sample)")
            }
        }
        #expect(sampled > 200, "\(sampled)")
    }
}
