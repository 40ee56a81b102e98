import Testing

@testable import LinkwrightCore

/// The engine's static analysis as `lint` and `check` report it: at the YAML rule, naming the
/// deciding rules by line, once per rule however many environments share it.
@Suite struct ConfigurationRuleAnalysisTests {
    /// The rule examples' production and staging environments with `domain` as the shop's rules.
    func compiled(_ domain: String) throws -> CompiledConfiguration {
        var files = RuleExampleConfiguration.files
        files["domains/shop.yaml"] = domain
        return try snapshot(files).compiled
    }

    @Test func aRuleSharedByEveryEnvironmentIsReportedOnceAtItsLine() throws {
        let diagnostics = ConfigurationRuleAnalysis().diagnostics(
            in: try compiled(
                """
                applinks:
                  - apps: [shop]
                    rules:
                      - path: /products/*
                      - path: /products/sale/*
                        exclude: true

                """))
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.id == .unreachableRule)
        #expect(diagnostics.first?.location == SourceLocation(file: "domains/shop.yaml", line: 5, column: 9))
        #expect(
            diagnostics.first?.message
                == "rule \"/products/sale/*\" is never reached: the rule at line 4 decides every URL it matches first")
    }

    /// Past the entry's work budget, lint says at which YAML rule the analysis stopped, in its
    /// own words (not as a rule that never matches).
    @Test func anAnalysisPastItsBudgetSaysWhereItStopped() throws {
        let letters = Array("abcdefgh")
        let rules = (0..<30).map { index in
            let pieces = (0..<4).map { step in "\(letters[(index + step) % 8])\(letters[(index * 3 + step) % 8])" }
            return "      - path: \"*\(pieces.joined(separator: "*"))*x\""
        }
        let domain = "applinks:\n  - apps: [shop]\n    rules:\n" + rules.joined(separator: "\n") + "\n"
        let analysis = ConfigurationRuleAnalysis(analysis: RuleAnalysis(fileWorkLimit: 20_000))
        let stopped = try #require(analysis.diagnostics(in: try compiled(domain)).last)
        #expect(stopped.id == .analysisIncomplete && stopped.severity == .note)
        #expect(stopped.message.hasPrefix("rule \"*"))
        #expect(stopped.message.contains(": the rule analysis stopped at its work budget here:"))
        #expect(stopped.location?.file == "domains/shop.yaml")
    }

    /// One budget spans every file of a call (here two domains of production): a configuration
    /// of many costly domains costs what the budget allows, not that times their number. The
    /// same rules served to other apps (staging's) are analysed once, and say the same.
    @Test func theFilesOfOneCallShareItsBudget() throws {
        let letters = Array("abcdefgh")
        let rules = (0..<30).map { index in
            let pieces = (0..<4).map { step in "\(letters[(index + step) % 8])\(letters[(index * 3 + step) % 8])" }
            return "      - path: \"*\(pieces.joined(separator: "*"))*x\""
        }
        let domain = "applinks:\n  - apps: [shop]\n    rules:\n" + rules.joined(separator: "\n") + "\n"
        var files = RuleExampleConfiguration.replacing(
            "  shop.example: shop\n", with: "  shop.example: shop\n  other.example: other\n",
            in: "environments/production.yaml")
        files["domains/shop.yaml"] = domain
        files["domains/other.yaml"] = domain
        let analysis = ConfigurationRuleAnalysis(totalWorkLimit: 20_000)
        let notes = analysis.findings(in: try snapshot(files).compiled).filter { $0.finding.id == .analysisIncomplete }
        #expect(
            notes.map { "\($0.environment) \($0.host)" } == [
                "production shop.example", "production other.example", "staging staging.shop.example",
            ])
        #expect(notes.first.map { $0.finding.ruleIndex > 0 } == true)
        #expect(notes[1].finding.ruleIndex == 0)
        #expect(notes[1].finding.message.contains("30 of 30 rules"))
        #expect(notes.last?.finding.ruleIndex == notes.first?.finding.ruleIndex)
    }

    /// Files are analysed on several threads, each against a budget of its own: whatever the
    /// total and however the threads run, the findings are those of one analysis after another,
    /// so they never change from run to run, and a total large enough leaves nothing incomplete.
    @Test func findingsDoNotDependOnHowTheThreadsRan() throws {
        let letters = Array("abcdefgh")
        var files = RuleExampleConfiguration.replacing(
            "  shop.example: shop\n", with: "  shop.example: shop\n  other.example: other\n  third.example: third\n",
            in: "environments/production.yaml")
        for (offset, name) in ["shop", "other", "third"].enumerated() {
            let rules = (0..<12).map { index in
                let pieces = (0..<3).map { step in
                    "\(letters[(index + step + offset) % 8])\(letters[(index * 3 + step) % 8])"
                }
                return "      - path: \"*\(pieces.joined(separator: "*"))*x\""
            }
            files["domains/\(name).yaml"] =
                "applinks:\n  - apps: [shop]\n    rules:\n" + rules.joined(separator: "\n") + "\n"
        }
        let compiled = try snapshot(files).compiled
        for limit in [2_000, 8_000, 30_000, 400_000_000] {
            let runs = (0..<4).map { _ in ConfigurationRuleAnalysis(totalWorkLimit: limit).findings(in: compiled) }
            let described = runs.map { findings in
                findings.map { "\($0.environment) \($0.host) \($0.finding.id) \($0.finding.ruleIndex) \($0.message)" }
            }
            #expect(Set(described).count == 1, "limit \(limit)")
            let incomplete = runs[0].filter { $0.finding.id == .analysisIncomplete }
            #expect(incomplete.isEmpty == (limit == 400_000_000), "limit \(limit)")
        }
    }

    @Test func aRuleOfSomeEnvironmentsNamesThem() throws {
        let diagnostics = ConfigurationRuleAnalysis().diagnostics(
            in: try compiled(
                """
                applinks:
                  - apps: [shop]
                    rules:
                      - path: /help/*
                      - path: /help/contact
                        environments: [staging]

                """))
        #expect(
            diagnostics.map(\.message) == [
                "rule \"/help/contact\" is never reached: the rule at line 4 decides every URL it matches first (in staging)"
            ])
    }

    @Test func queryDictionariesAreComparedConservativelyAndSaySo() throws {
        let findings = ConfigurationRuleAnalysis().findings(
            in: try compiled(
                """
                applinks:
                  - apps: [shop]
                    rules:
                      - path: /search
                        query: {q: "*"}
                      - path: /search
                        query: {q: "?*", page: "*"}

                """))
        let unreachable = findings.filter { $0.finding.id == .unreachableRule }
        #expect(unreachable.count == 2, "one per environment")
        #expect(unreachable.allSatisfy { !$0.finding.isExact })
        #expect(
            unreachable.allSatisfy {
                $0.message.hasSuffix(
                    "(query dictionaries were compared conservatively, so other unreachable rules may go unreported)")
            })
    }

    @Test func identitiesIgnoreLinesAndComments() throws {
        let before = ConfigurationRuleAnalysis().findings(
            in: try compiled(
                """
                applinks:
                  - apps: [shop]
                    rules:
                      - path: /products/*
                      - path: /products/new

                """))
        let after = ConfigurationRuleAnalysis().findings(
            in: try compiled(
                """
                # A comment moves every line.
                applinks:
                  - apps: [shop]
                    rules:
                      - path: /products/*
                        comment: everything about products
                      - path: /products/new

                """))
        #expect(before.map(\.identity) == after.map(\.identity))
        #expect(before.map(\.finding.origin?.line) != after.map(\.finding.origin?.line))
    }

    @Test func anExcludedCatchAllSaysNoLinkOpens() throws {
        let diagnostics = ConfigurationRuleAnalysis().diagnostics(
            in: try compiled(
                """
                applinks:
                  - apps: [shop]
                    rules:
                      - path: "*"
                        exclude: true

                """))
        #expect(diagnostics.map(\.id) == [.catchAll])
        #expect(diagnostics.first?.severity == .warning)
        #expect(diagnostics.first?.message.contains("no link there opens the app") == true)
    }
}
