import Testing

@testable import LinkwrightCore

/// `test` decides a path expectation once per situation of its hosts; every host still gets its
/// own result, and an absolute URL is checked on its own host only.
@Suite struct ExpectationRunnerTests {
    private func run(hosts: [String], expectations: String) throws -> [ExpectationRunner.Result] {
        let files = [
            "environments/production.yaml":
                "tier: production\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
                + "    android: {package: com.example.shop, fingerprints: {play-signing: \""
                + Array(repeating: "AB", count: 32).joined(separator: ":") + "\"}}\n"
                + "hosts:\n" + hosts.map { "  \"\($0)\": shop\n" }.joined(),
            "domains/shop.yaml":
                "applinks:\n  - apps: [shop]\n    rules:\n      - path: /admin/*\n        exclude: true\n"
                + "      - path: /p/*\nexpectations:\n" + expectations,
        ]
        let (configuration, diagnostics) = ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
        let loaded = try #require(configuration, "\(diagnostics)")
        return ExpectationRunner.run(loaded, Compiler().compile(loaded).compiled)
    }

    @Test func everyHostGetsItsOwnResult() throws {
        let results = try run(
            hosts: ["a.example", "b.example", "c.example", "*.c.example"],
            expectations:
                "  - url: /p/1\n    opens_app: shop\n  - url: https://b.example/admin/x\n    opens_web: true\n"
                + "  - url: /q\n    opens_app: shop\n")
        let lines = results.map { "\($0.host) \($0.platform.rawValue) \($0.url) \($0.passed)" }
        // By expectation and platform, then by host: the order `checks` groups them in.
        #expect(
            lines == [
                "a.example ios https://a.example/p/1 true", "b.example ios https://b.example/p/1 true",
                "c.example ios https://c.example/p/1 true", "*.c.example ios https://www.c.example/p/1 true",
                "a.example android https://a.example/p/1 true", "b.example android https://b.example/p/1 true",
                "c.example android https://c.example/p/1 true",
                "*.c.example android https://www.c.example/p/1 true",
                "b.example ios https://b.example/admin/x true", "b.example android https://b.example/admin/x true",
                "a.example ios https://a.example/q false", "b.example ios https://b.example/q false",
                "c.example ios https://c.example/q false", "*.c.example ios https://www.c.example/q false",
                "a.example android https://a.example/q false", "b.example android https://b.example/q false",
                "c.example android https://c.example/q false",
                "*.c.example android https://www.c.example/q false",
            ])
    }

    @Test func countsWithoutMakingPassedResults() throws {
        let files = [
            "environments/production.yaml":
                "tier: production\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
                + "hosts:\n  a.example: shop\n  b.example: shop\n",
            "domains/shop.yaml":
                "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\nexpectations:\n"
                + "  - url: /p/1\n    opens_app: shop\n  - url: /q\n    opens_app: shop\n",
        ]
        let (configuration, _) = ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
        let loaded = try #require(configuration)
        var failed: [String] = []
        let tally = ExpectationRunner.forEach(loaded, Compiler().compile(loaded).compiled, includingPassed: false) {
            failed.append("\($0.host) \($0.url)")
        }
        #expect(tally.checks == 4)
        #expect(tally.environments == ["production"])
        #expect(failed == ["a.example https://a.example/q", "b.example https://b.example/q"])
    }

    /// Two environments where a rule exists in production only: the hosts of each environment
    /// share one outcome, and the report says each failure once with its hosts.
    private func promotedRule(hosts: Int = 5, moreExpectations: String = "") throws
        -> (Configuration, CompiledConfiguration)
    {
        var files = [
            "domains/shop.yaml":
                "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\n        environments: [production]\n"
                + "      - path: /q\nexpectations:\n  - url: /p/1\n    opens_app: shop\n    platforms: [ios]\n"
                + "    comment: the product page\n  - url: /q\n    opens_app: shop\n    platforms: [ios]\n"
                + moreExpectations
        ]
        for (name, tier, prefix) in [("production", "production", ""), ("staging", "staging", "staging.")] {
            files["environments/\(name).yaml"] =
                "tier: \(tier)\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop.\(name)}\n"
                + "hosts:\n" + (1...hosts).map { "  \(prefix)h\($0).example: shop\n" }.joined()
        }
        let (configuration, diagnostics) = ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
        let loaded = try #require(configuration, "\(diagnostics)")
        return (loaded, Compiler().compile(loaded).compiled)
    }

    @Test func hostsWithOneOutcomeAreOneOutcome() throws {
        let (configuration, compiled) = try promotedRule()
        let (checks, tally) = ExpectationRunner.checks(configuration, compiled, keeping: .everyPlace)
        #expect(tally.checks == 20)
        #expect(checks.map(\.url.description) == ["/p/1", "/q"])
        let product = try #require(checks.first)
        #expect(product.outcomes.map(\.passed) == [true, false])
        #expect(product.outcomes.map(\.count) == [5, 5])
        #expect(product.outcomes[1].places.map(\.host) == (1...5).map { "staging.h\($0).example" })
        #expect(product.url(at: product.outcomes[1].places[0]) == "https://staging.h1.example/p/1")
        #expect(checks[1].outcomes.map(\.count) == [10])

        // Failures only: the passing check and outcome are counted, not kept.
        let (failed, counted) = ExpectationRunner.checks(configuration, compiled, keeping: .failures)
        #expect(counted.checks == 20)
        #expect(failed.count == 1 && failed[0].outcomes.map(\.passed) == [false])
        // Every check, but passing hosts only counted: what JUnit needs.
        let (every, _) = ExpectationRunner.checks(configuration, compiled, keeping: .everyCheck)
        #expect(every.map { $0.outcomes.map(\.places.count) } == [[0, 5], [0]])
    }

    /// An outcome's places join its host groups' arrays: indexing, iterating and counting must
    /// see one list, in order, whatever the segments' lengths.
    @Test func placesOfManyGroupsReadAsOneList() {
        var expected: [ExpectationRunner.Place] = []
        var list: ExpectationRunner.PlaceList = []
        for (group, length) in [3, 0, 1, 5, 0, 2, 1].enumerated() {
            let places = (0..<length).map {
                ExpectationRunner.Place(environment: "e\(group)", host: "h\($0).example", urlHost: "h\($0).example")
            }
            list.append(contentsOf: places)
            expected += places
        }
        #expect(list.count == expected.count)
        #expect(Array(list) == expected)
        #expect(list.indices.map { list[$0] } == expected)
        #expect(list.reversed() == expected.reversed())
        #expect(Array(list.prefix(4)) == Array(expected.prefix(4)))
        let empty: ExpectationRunner.PlaceList = []
        #expect(empty.isEmpty && Array(empty).isEmpty)
    }

    /// Lists joining the same arrays share an identity (what the report writes once); another
    /// array, even of the same places, is another.
    @Test func placeListsOfTheSameArraysShareAnIdentity() {
        let production = (1...3).map {
            ExpectationRunner.Place(environment: "production", host: "h\($0)", urlHost: "h\($0)")
        }
        let staging = [ExpectationRunner.Place(environment: "staging", host: "s1", urlHost: "s1")]
        var first = ExpectationRunner.PlaceList(production)
        first.append(contentsOf: staging)
        var second = ExpectationRunner.PlaceList(production)
        second.append(contentsOf: staging)
        #expect(first.identity == second.identity)
        #expect(ExpectationRunner.PlaceList(production).identity != first.identity)
        #expect(
            ExpectationRunner.PlaceList(Array(production.prefix(2))).identity
                != ExpectationRunner.PlaceList(production).identity)
        #expect(
            ExpectationRunner.PlaceList(production.map { $0 }).identity
                != ExpectationRunner.PlaceList(production).identity)
    }

    /// Reports read an outcome's places per environment: consecutive places of one environment
    /// are one run, however they were appended, and each run names its first hosts.
    @Test func placesReadAsRunsOfOneEnvironment() {
        func places(_ environment: String, _ hosts: ClosedRange<Int>) -> [ExpectationRunner.Place] {
            hosts.map { ExpectationRunner.Place(environment: environment, host: "h\($0)", urlHost: "h\($0)") }
        }
        // A literal mixing environments, then groups continuing and changing the last one.
        var list = ExpectationRunner.PlaceList(places("production", 1...2) + places("staging", 1...1))
        list.append(contentsOf: places("staging", 2...4))
        list.append(contentsOf: places("production", 3...3) + places("dev", 1...2))
        let runs = list.environmentRuns(naming: 3)
        #expect(runs.map(\.environment) == ["production", "staging", "production", "dev"])
        #expect(runs.map(\.count) == [2, 4, 1, 2])
        #expect(runs.map(\.hosts) == [["h1", "h2"], ["h1", "h2", "h3"], ["h3"], ["h1", "h2"]])
        #expect(list.environmentRuns(naming: 0).map(\.hosts) == [[], [], [], []])
        // Per segment: staging's two groups are two segments of one run.
        #expect(Array(list.segmentEnvironments) == ["production", "staging", "staging", "production", "dev"])
        #expect(Array(list).map(\.environment) == runs.flatMap { Array(repeating: $0.environment, count: $0.count) })
    }

    /// One outcome in two environments: each names its first three hosts and counts the rest.
    @Test func theReportNamesTheFirstHostsOfEachEnvironment() throws {
        let (configuration, compiled) = try promotedRule(
            hosts: 4, moreExpectations: "  - url: /r\n    opens_app: shop\n    platforms: [ios]\n")
        let report = ExpectationReport(configuration, compiled, keeping: .failures, pathPrefix: "")
        let lines = report.text(.plain).out.split(separator: "\n").map(String.init)
        let places =
            "  where: production: h1.example, h2.example, h3.example and 1 more host; "
            + "staging: staging.h1.example, staging.h2.example, staging.h3.example and 1 more host"
        #expect(lines.first?.hasSuffix("got web on 8 hosts in 2 environments [EXPECTATION_FAILED]") == true)
        #expect(lines.dropFirst().first == places)
    }

    @Test func theReportSaysAFailureOnceWithItsHosts() throws {
        let (configuration, compiled) = try promotedRule()
        let report = ExpectationReport(configuration, compiled, keeping: .failures, pathPrefix: "")
        #expect(report.findings.count == 1)
        #expect(
            report.text(.plain).out == """
                domains/shop.yaml:8:5: error: /p/1 on ios: expected shop, got web on 5 hosts in staging [EXPECTATION_FAILED]
                  where: staging: staging.h1.example, staging.h2.example, staging.h3.example and 2 more hosts
                  hint: the product page
                5 of 20 checks failed, as 1 failure listed above

                """)
        #expect(report.findings[0].witnesses.count == 5)
        #expect(report.blocks)
    }

    /// The text writes each failure's line without making its finding, and the exit status is
    /// decided without them: both must still say what the findings say.
    @Test func theTextAndTheExitStatusSayWhatTheFindingsSay() throws {
        let (configuration, compiled) = try promotedRule(
            hosts: 3,
            moreExpectations: "  - url: /r\n    opens_app: shop\n    platforms: [ios]\n    comment: gone\n"
                + "  - url: https://h1.example/q\n    opens_web: true\n    platforms: [ios]\n")
        let report = ExpectationReport(configuration, compiled, keeping: .failures, pathPrefix: "repo/")
        let written = report.text(.plain).out.split(separator: "\n").map(String.init)
        let lines = written.filter { !$0.hasPrefix("  where: ") && $0.contains("[EXPECTATION_FAILED]") }
        let hints = written.filter { $0.hasPrefix("  hint: ") }
        #expect(report.failures.count == 3 && report.failures.contains { $0.outcome.places.count == 1 })
        #expect(
            lines
                == report.findings.map { finding in
                    DiagnosticText.line(
                        id: finding.rule, severity: finding.severity, message: finding.message, at: finding.location,
                        hint: nil, pathPrefix: "repo/", style: .plain)
                })
        #expect(hints == report.findings.compactMap { $0.hint.map { "  hint: \($0)" } })
        #expect(report.blocks && report.findings.contains(where: report.blocks))
        // Passing everywhere: nothing blocks, and no finding does.
        let files = [
            "environments/production.yaml":
                "tier: production\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
                + "hosts:\n  h1.example: shop\n",
            "domains/shop.yaml":
                "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\nexpectations:\n"
                + "  - url: /p/1\n    opens_app: shop\n",
        ]
        let (loaded, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let passing = try #require(loaded, "\(diagnostics)")
        let clean = ExpectationReport(
            passing, Compiler().compile(passing).compiled, keeping: .failures, pathPrefix: "")
        #expect(clean.checkCount > 0 && !clean.blocks && clean.findings.isEmpty)
    }

    /// Failures come most important first: those failing in production, then those failing on
    /// more hosts, then in file order.
    @Test func failuresAreRankedProductionFirstThenByHosts() throws {
        var files = [
            "domains/shop.yaml": """
            applinks:
              - apps: [shop]
                rules:
                  - path: /prod-only/*
                    environments: [production]
                  - path: /staging-only/*
                    environments: [staging]
            expectations:
              - url: /prod-only/1
                opens_app: shop
              - url: /staging-only/1
                opens_app: shop
              - url: /prod-only/2
                opens_app: shop
              - url: /nowhere
                opens_app: shop

            """
        ]
        // Production has one host, staging three: a failure in staging alone is on more hosts.
        for (name, hosts) in [("production", ["p1.example"]), ("staging", ["s1.example", "s2.example", "s3.example"])] {
            files["environments/\(name).yaml"] =
                "tier: \(name)\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
                + "hosts:\n" + hosts.map { "  \($0): shop\n" }.joined()
        }
        let (loaded, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let configuration = try #require(loaded, "\(diagnostics)")
        let compiled = Compiler().compile(configuration).compiled
        let report = ExpectationReport(configuration, compiled, keeping: .failures, pathPrefix: "")
        let ranked = report.failures.map { "\($0.check.url) \($0.outcome.count)" }
        // /nowhere fails everywhere (production, 4 hosts); /staging-only/1 in production (1 host);
        // the two /prod-only URLs in staging (3 hosts each), in file order.
        #expect(ranked == ["/nowhere 4", "/staging-only/1 1", "/prod-only/1 3", "/prod-only/2 3"])
        // The findings follow the same order.
        #expect(report.findings.map(\.location?.line) == report.failures.map(\.check.location.line))
    }

    /// The report writes each distinct list of places once, for every failure listing it: each
    /// failure's `where:` line is still the one its own places give, whether its hosts are all
    /// of the domain's groups, some of them, or an absolute URL's own host.
    @Test func sharedWhereLinesAreEachFailuresOwn() throws {
        var expectations = ""
        for path in ["/prod-only/1", "/staging-only/1", "/prod-only/2", "/nowhere", "/staging-only/2", "/nowhere/2"]
            + ["https://s1.example/nowhere", "https://p1.example/staging-only/3"]
        {
            expectations += "  - url: \(path)\n    opens_app: shop\n"
        }
        var files = [
            "domains/shop.yaml":
                "applinks:\n  - apps: [shop]\n    rules:\n      - path: /prod-only/*\n        environments: [production]\n"
                + "      - path: /staging-only/*\n        environments: [staging]\nexpectations:\n" + expectations
        ]
        for (name, hosts) in [
            ("production", ["p1.example", "p2.example"]), ("staging", ["s1.example", "s2.example"]),
        ] {
            files["environments/\(name).yaml"] =
                "tier: \(name)\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
                + "    android:\n      package: com.example.shop\n      fingerprints: {release: \""
                + (0..<32).map { _ in "AB" }.joined(separator: ":") + "\"}\n"
                + "hosts:\n" + hosts.map { "  \($0): shop\n" }.joined()
        }
        let (loaded, diagnostics) = try ConfigLoader().load(from: InMemorySourceTree(files))
        let configuration = try #require(loaded, "\(diagnostics)")
        let report = ExpectationReport(
            configuration, Compiler().compile(configuration).compiled, keeping: .failures, pathPrefix: "")
        let written = report.text(.plain).out.split(separator: "\n").filter { $0.hasPrefix("  where: ") }
        let own = report.failures.filter { $0.outcome.places.count > 1 }.map {
            "  where: " + ExpectationReport.places($0)
        }
        // Both platforms, and failures sharing their places with others and not.
        #expect(Set(report.failures.map(\.check.platform)) == [.ios, .android])
        #expect(own.count >= 8 && Set(own).count >= 3, "\(own)")
        #expect(written.map(String.init) == own)
    }

    /// `build` counts a fleet's hosts rather than listing them all on one line.
    @Test func theBuildSummaryNamesTheFirstHostsOfAFleet() throws {
        let (_, compiled) = try promotedRule(hosts: 12)
        let text = BuildReport(
            plan: OutputPlan(), check: false, outPath: "dist", environments: compiled.environments, diagnostics: [],
            pathPrefix: ""
        ).text(.plain).out
        #expect(
            text.contains(
                "production (production): 12 hosts (" + (1...10).map { "h\($0).example" }.joined(separator: ", ")
                    + " and 2 more), "), "\(text)")
    }
}
