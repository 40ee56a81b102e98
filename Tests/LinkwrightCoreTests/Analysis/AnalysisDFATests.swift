import Foundation
import Testing

@testable import LinkwrightCore

@Suite struct AnalysisDFATests {
    @Test func oneDFAPerPatternOptionsAndVariablesOnAThread() throws {
        let pattern = try PatternMatcher("/shop/*", options: PatternOptions(appleSlashRules: true))
        #expect(SubsetDFA.shared(pattern) === SubsetDFA.shared(pattern))
        let folded = try PatternMatcher("/shop/*", options: PatternOptions(caseSensitive: false, appleSlashRules: true))
        #expect(SubsetDFA.shared(folded) !== SubsetDFA.shared(pattern))
        let withVariables = try PatternMatcher(
            "/$(lang)/*", options: PatternOptions(appleSlashRules: true), variables: ["lang": ["en"]])
        let otherValues = try PatternMatcher(
            "/$(lang)/*", options: PatternOptions(appleSlashRules: true), variables: ["lang": ["fr"]])
        #expect(SubsetDFA.shared(withVariables) !== SubsetDFA.shared(otherValues))
    }

    /// A second analysis on the same thread reads DFAs the first one built, and stops at the
    /// same rule of a file past its budget: searches count their own steps, not the DFAs'.
    @Test func warmDFAsChangeNoFindingAndNoBudget() throws {
        let letters = Array("abcdefgh")
        let components = (0..<40).map { index in
            let pieces = (0..<4).map { step in "\(letters[(index + step) % 8])\(letters[(index * 3 + step) % 8])" }
            return ##"{"/": "*\##(pieces.joined(separator: "*"))*x"}"##
        }
        let file =
            ##"{"applinks": {"details": [{"appIDs": ["\##(exampleApp)"], "components": [\##(components.joined(separator: ","))]}]}}"##
        let analyse = { (limit: Int) in
            RuleAnalysis(fileWorkLimit: limit).findings(in: readAASA(file)).map {
                "\($0.id)@\($0.ruleIndex) \($0.message)"
            }
        }
        for limit in [20_000, 200_000, 20_000_000] {
            let cold = analyse(limit)
            #expect(analyse(limit) == cold, "limit \(limit)")
        }
        #expect(analyse(20_000).last?.hasPrefix("\(DiagnosticID.analysisIncomplete)@") == true)
    }
}
