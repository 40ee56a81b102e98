import LinkwrightCore
import Testing

/// Findings for one entry holding `components`, as "ID@component".
private func findings(_ components: String, variables: String = "{}", android: Bool = false) -> [RuleFinding] {
    let file =
        ##"""
        {"applinks": {"substitutionVariables": \##(variables),
          "details": [{"appIDs": ["\##(exampleApp)"], "components": [\##(components)]}]}}
        """##
    return RuleAnalysis(comparesAndroidSemantics: android).findings(in: readAASA(file))
}

private func summary(_ findings: [RuleFinding]) -> [String] { findings.map { "\($0.id)@\($0.ruleIndex)" } }

@Suite("Rule analysis")
struct RuleAnalysisTests {
    // Overlapping `*a*b*…` rules ask a search per pair: past the entry's budget the analysis
    // names where it stopped instead of running on; within it, nothing is said.
    @Test func anEntryPastItsWorkBudgetSaysWhereTheAnalysisStopped() throws {
        let letters = Array("abcdefgh")
        let components = (0..<40).map { index in
            let pieces = (0..<4).map { step in "\(letters[(index + step) % 8])\(letters[(index * 3 + step) % 8])" }
            return ##"{"/": "*\##(pieces.joined(separator: "*"))*x"}"##
        }
        let file =
            ##"{"applinks": {"details": [{"appIDs": ["\##(exampleApp)"], "components": [\##(components.joined(separator: ","))]}]}}"##
        let stopped = RuleAnalysis(fileWorkLimit: 20_000).findings(in: readAASA(file))
        let note = try #require(stopped.last)
        #expect(note.id == .analysisIncomplete && note.diagnostic.severity == .note)
        #expect(note.ruleIndex > 0 && note.ruleIndex < 40)
        #expect(note.message.contains("\(40 - note.ruleIndex) of 40 rules"))
        #expect(!RuleAnalysis().findings(in: readAASA(file)).contains { $0.id == .analysisIncomplete })
    }

    // The budget is the file's: a file of many costly entries stops once, not once per entry.
    @Test func theEntriesOfAFileShareItsBudget() throws {
        let letters = Array("abcdefgh")
        let components = (0..<40).map { index in
            let pieces = (0..<4).map { step in "\(letters[(index + step) % 8])\(letters[(index * 3 + step) % 8])" }
            return ##"{"/": "*\##(pieces.joined(separator: "*"))*x"}"##
        }.joined(separator: ",")
        let entry = ##"{"appIDs": ["\##(exampleApp)"], "components": [\##(components)]}"##
        let file = ##"{"applinks": {"details": [\##(Array(repeating: entry, count: 3).joined(separator: ","))]}}"##
        let notes = RuleAnalysis(fileWorkLimit: 20_000).findings(in: readAASA(file)).filter {
            $0.id == .analysisIncomplete
        }
        #expect(notes.map(\.entryIndex) == [0, 1, 2])
        #expect(notes.map(\.ruleIndex).dropFirst() == [0, 0])
    }

    // swcutil order/reversed-makes-exclude-unreachable: "/a/*" first makes the exclude dead.
    @Test func shadowedByOneEarlierComponent() throws {
        let result = findings(##"{"/": "/a/*"}, {"/": "/a/private/*", "exclude": true}"##)
        #expect(summary(result) == ["UNREACHABLE_RULE@1"])
        let finding = try #require(result.first)
        #expect(finding.decidedBy == [0] && finding.isExact)
        #expect(finding.origin?.line == 2)
        #expect(finding.diagnostic.severity == .warning)
        #expect(summary(findings(##"{"/": "/a/private/*", "exclude": true}, {"/": "/a/*"}"##)).isEmpty)
    }

    // Coverage by a union: no single earlier component covers, together they do.
    @Test func shadowedByAUnion() throws {
        let paths = findings(##"{"/": "/a*"}, {"/": "/b*"}, {"/": "/$(ab)/x"}"##, variables: ##"{"ab": ["a", "b"]}"##)
        #expect(summary(paths) == ["UNREACHABLE_RULE@2"])
        #expect(paths.first?.decidedBy == [0, 1])
        // Across parts: an absent fragment reads as "" (covered by the first), any other by the second.
        let parts = findings(##"{"/": "/p/*", "#": ""}, {"/": "/p/*", "#": "?*"}, {"/": "/p/1"}"##)
        #expect(summary(parts) == ["UNREACHABLE_RULE@2"])
        #expect(parts.first?.isExact == true)
        // One uncovered value is enough to keep a component alive.
        #expect(summary(findings(##"{"/": "/a*"}, {"/": "/b*"}, {"/": "/?/x"}"##)).isEmpty)
        #expect(summary(findings(##"{"/": "/p/*", "#": "x"}, {"/": "/p/1"}"##)).isEmpty)
    }

    // Apple's slash rules count: "/buy/*" also covers "/buy" and "/buy/".
    @Test func shadowingFollowsApplePathRules() {
        #expect(summary(findings(##"{"/": "/buy/*"}, {"/": "/buy"}"##)) == ["UNREACHABLE_RULE@1"])
        #expect(summary(findings(##"{"/": "/buy/*"}, {"/": "buy/"}"##)) == ["UNREACHABLE_RULE@1"])
        #expect(summary(findings(##"{"/": "/buy/*/x"}, {"/": "/buy/x"}"##)).isEmpty)
    }

    @Test func wholeQueriesAreExact() {
        #expect(summary(findings(##"{"?": "a=*"}, {"/": "/x", "?": "a=1"}"##)) == ["UNREACHABLE_RULE@1"])
        #expect(summary(findings(##"{"?": "a=*"}, {"/": "/x", "?": "b=1"}"##)).isEmpty)
    }

    // Corpus, SOURCES.md: Provenance's "/skins/install" exclude is dead because the rule before
    // it has ?url="*", which also matches URLs without the item.
    @Test func queryDictionariesAreConservative() throws {
        let provenance = findings(
            ##"""
            {"#": "no_universal_links", "exclude": true}, {"/": "/skins/install", "?": {"url": "*"}},
            {"/": "/skins/install", "exclude": true}
            """##
        )
        #expect(summary(provenance) == ["UNREACHABLE_RULE@2"])
        let finding = try #require(provenance.first)
        #expect(finding.decidedBy == [1] && !finding.isExact)
        // A later dictionary item narrower than the earlier one's is covered…
        #expect(summary(findings(##"{"?": {"id": "?*"}}, {"?": {"id": "42", "x": "y"}}"##)) == ["UNREACHABLE_RULE@1"])
        // …a wider one is not, and neither is a missing one ("?*" rejects absent items).
        #expect(summary(findings(##"{"?": {"id": "4?"}}, {"?": {"id": "?*"}}"##)).isEmpty)
        #expect(summary(findings(##"{"?": {"id": "?*"}}, {"/": "/x"}"##)).isEmpty)
    }

    // Components with other flags are left out, so nothing is claimed about them.
    @Test func differentFlagsAreLeftOut() {
        #expect(summary(findings(##"{"/": "/a/*", "caseSensitive": false}, {"/": "/a/b"}"##)).isEmpty)
        #expect(summary(findings(##"{"/": "/a/*", "percentEncoded": false}, {"/": "/a/b"}"##)).isEmpty)
    }

    @Test func catchAll() {
        #expect(summary(findings("{}")) == ["CATCH_ALL@0"])
        #expect(findings("{}").first?.severity == .note)
        #expect(summary(findings(##"{"/": "*", "?": {"a": "*"}, "#": "*"}"##)) == ["CATCH_ALL@0"])
        let exclude = findings(##"{"/": "/*", "exclude": true}, {"/": "/a"}"##)
        #expect(summary(exclude) == ["CATCH_ALL@0", "UNREACHABLE_RULE@1"])
        #expect(exclude.first?.severity == .warning)
        #expect(summary(findings(##"{"/": "/?*"}"##)).isEmpty)  // "/" itself does not match
        #expect(summary(findings(##"{"?": {"a": "?*"}}"##)).isEmpty)
    }

    @Test func neverMatches() {
        #expect(summary(findings(##"{"/": "/$(none)/*"}"##, variables: ##"{"none": []}"##)) == ["NEVER_MATCHES@0"])
        #expect(summary(findings(##"{"/": "/$(missing)"}"##)) == ["NEVER_MATCHES@0"])
        #expect(summary(findings(##"{"?": {"a": "$(none)"}}"##, variables: ##"{"none": []}"##)) == ["NEVER_MATCHES@0"])
        // A never-matching component shadows nothing.
        #expect(
            summary(findings(##"{"/": "/$(none)"}, {"/": "/a"}"##, variables: ##"{"none": []}"##)) == [
                "NEVER_MATCHES@0"
            ])
    }

    // Google: Android's `*` stops at the next character; Apple's is greedy and its paths have
    // slash rules. The witness must really be decided differently by the two evaluators.
    @Test(arguments: ["/*/edit", "/buy/*", "/docs/*.pdf", "*/x"])
    func androidSemanticsDiffer(pattern: String) throws {
        let result = findings(##"{"/": "\##(pattern)"}"##, android: true).filter { $0.id == .androidSemanticsDiffer }
        let witness = try #require(result.first?.witness)
        let url = try #require(LinkURL(witness))
        let apple = componentMatches(##"{"/": "\##(pattern)"}"##, witness)
        let android = CompiledDynamicRules([DynamicComponent(path: pattern)]).decision(for: url).outcome == .match
        #expect(apple != android, "\(pattern): \(witness)")
    }

    @Test func shortestWitnesses() {
        #expect(findings(##"{"/": "/buy/*"}"##, android: true).first?.witness == "/buy")
        #expect(findings(##"{"#": "*x"}"##, android: true).first?.witness == "/#xx")
        let differences = findings(##"{"/": "/a/*"}, {"/": "*"}"##, android: true).filter {
            $0.id == .androidSemanticsDiffer
        }
        #expect(differences.map(\.ruleIndex) == [0])
        #expect(findings(##"{"/": "/a/*"}"##).isEmpty)
    }

    @Test func legacyPathsAreAnalysedToo() {
        let file = ##"{"applinks": {"details": [{"appID": "\##(exampleApp)", "paths": ["*", "NOT /private/*"]}]}}"##
        #expect(summary(RuleAnalysis().findings(in: readAASA(file))) == ["CATCH_ALL@0", "UNREACHABLE_RULE@1"])
    }
}
