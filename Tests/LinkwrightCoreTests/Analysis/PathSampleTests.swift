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

    /// Substitution variables are written as a value of theirs: a custom variable's first, a
    /// predefined one's code or character. The matcher must accept the sample, and the search
    /// must find a path too.
    @Test func variablesAreWrittenAsAValue() throws {
        var generator = SplitMix64(seed: 0x7A_12AB)
        let pieces = [
            "/", "a", "*", "?", "$(lang)", "$(region)", "$(section)", "$(digit)", "$(upper)", "$(alnum)", "-",
        ]
        var sampled = 0
        for _ in 0..<150 {
            let pattern =
                "/"
                + (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                    pieces.randomElement(using: &generator)!
                }.joined()
            let file = """
                {"applinks": {"substitutionVariables": {"section": ["shop", "news"]},
                  "details": [{"appIDs": ["\(exampleApp)"], "components": [{"/": "\(pattern)"}]}]}}
                """
            let compiled = CompiledAASA(readAASA(file))
            let rule = try #require(compiled.entries.first?.rules.first)
            guard let sample = RuleAnalysis.pathSample(rule, variables: compiled.variables) else { continue }
            if pattern.contains("$(") { sampled += 1 }
            #expect(rule.path.matcher?.matches(sample) == true, "\(pattern): \(sample)")
            #expect(RuleAnalysis().neverMatches(RuleLanguages(rule)) == nil, "\(pattern): \(sample)")
        }
        #expect(sampled > 40, "\(sampled)")
        let section = CompiledAASA(
            readAASA(
                """
                {"applinks": {"substitutionVariables": {"section": ["shop"]},
                  "details": [{"appIDs": ["\(exampleApp)"], "components": [{"/": "/$(section)/$(lang)/*"}]}]}}
                """))
        #expect(
            RuleAnalysis.pathSample(try #require(section.entries.first?.rules.first), variables: section.variables)
                == "/shop/\(try #require(ISOCodes.languages.first))/")
    }
}
