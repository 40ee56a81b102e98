import Testing

@testable import LinkwrightCore

/// Decision lists and compiled dynamic rules are made once for every app, host and environment
/// that reads the same rules, and never shared with one that reads others.
@Suite struct SharedDecisionListsTests {
    static let fingerprint = RuleExampleConfiguration.fingerprint

    /// Apps `one` and `two` share an entry; `three` has its own rules.
    static func files(stagingOnlyRule: Bool = false) -> [String: String] {
        func environment(_ tier: String, host: String) -> String {
            var text = "tier: \(tier)\nteam_id: ABCDE12345\napps:\n"
            for app in ["one", "two", "three"] {
                text += "  \(app):\n    ios: {bundle_id: com.example.\(app)}\n"
                text += "    android:\n      package: com.example.\(app)\n      fingerprints:\n"
                text += "        play-signing: \"\(fingerprint)\"\n"
            }
            return text + "hosts:\n  \(host): example\n"
        }
        let stagingOnly = stagingOnlyRule ? "      - path: /preview/*\n        environments: [staging]\n" : ""
        let domain = """
            applinks:
              - apps: [one, two]
                rules:
            \(stagingOnly)      - path: /a/*
                  - path: /b/*
                    exclude: true
              - apps: [three]
                rules:
                  - path: /c/*
            emit:
              android_dynamic_rules: true

            """
        return [
            "environments/production.yaml": environment("production", host: "example.com"),
            "environments/staging.yaml": environment("staging", host: "staging.example.com"),
            "domains/example.yaml": domain,
        ]
    }

    func lists(_ snapshot: CachedRevision, _ environment: String, _ host: String, _ platform: Platform) throws
        -> [String: DecisionList]
    {
        let lists = try #require(snapshot.decisionLists(environment, host: host, platform: platform))
        return Dictionary(uniqueKeysWithValues: lists.map { ($0.identity, $0) })
    }

    func sameRules(_ one: DecisionList, _ other: DecisionList) -> Bool {
        one.rules.count == other.rules.count && zip(one.rules, other.rules).allSatisfy { $0 === $1 }
    }

    @Test func appsReadingTheSameRulesShareTheirList() throws {
        let snapshot = try snapshot(Self.files())
        for platform in Platform.allCases {
            let production = try lists(snapshot, "production", "example.com", platform)
            let names =
                platform == .ios
                ? ["ABCDE12345.com.example.one", "ABCDE12345.com.example.two", "ABCDE12345.com.example.three"]
                : ["com.example.one", "com.example.two", "com.example.three"]
            let (one, two, three) = (
                try #require(production[names[0]]), try #require(production[names[1]]),
                try #require(production[names[2]])
            )
            #expect(sameRules(one, two), "\(platform)")
            #expect(!one.rules.isEmpty && !sameRules(one, three), "\(platform)")
            #expect([one.identity, two.identity, three.identity] == names)
            #expect(one.rules.map(\.label) != three.rules.map(\.label))
            // Lists name the rules they read: the staging environment serving the same domain
            // file reads production's.
            let staging = try lists(snapshot, "staging", "staging.example.com", platform)
            #expect(sameRules(one, try #require(staging[names[0]])), "\(platform)")
        }
    }

    /// A rule only staging has makes staging's file, and its lists, its own.
    @Test func environmentsReadingOtherRulesMakeTheirOwnLists() throws {
        let snapshot = try snapshot(Self.files(stagingOnlyRule: true))
        for platform in Platform.allCases {
            let name = platform == .ios ? "ABCDE12345.com.example.one" : "com.example.one"
            let production = try #require(try lists(snapshot, "production", "example.com", platform)[name])
            let staging = try #require(try lists(snapshot, "staging", "staging.example.com", platform)[name])
            #expect(staging.rules.count > production.rules.count, "\(platform)")
            #expect(staging.rules.contains { $0.label.hasPrefix("/preview/*") }, "\(platform)")
            #expect(!production.rules.contains { $0.label.hasPrefix("/preview/*") }, "\(platform)")
        }
    }

    /// Rules compiled once for the process and shared by statements (and read again for another
    /// release) decide as a compilation of their own does, each naming its own statement.
    @Test func sharedDynamicRulesDecideAsTheirOwnCompilation() throws {
        let at = { (line: Int) in SourceLocation(file: "domains/example.yaml", line: line, column: 9) }
        let components = [
            DynamicComponent(path: "/a/*", origin: at(4)),
            DynamicComponent(path: "/b/?*", exclude: true, origin: at(5)),
            DynamicComponent(path: "/c.d", origin: at(6)),
        ]
        for release in AndroidRelease.allCases {
            let own = CompiledDynamicRules(components, entryIndex: 2, release: release)
            let asked = [
                CompiledDynamicRules.shared(components, entryIndex: 2, release: release),
                CompiledDynamicRules.shared(components, entryIndex: 0, release: .latest).reading(release),
                CompiledDynamicRules.shared(components, entryIndex: 2, release: release),
            ]
            for path in ["/a/x", "/b/", "/b/x", "/c.d", "/cxd", "/"] {
                let url = try #require(LinkURL("https://example.com" + path))
                let expected = own.decision(for: url)
                for (position, rules) in asked.enumerated() {
                    let decision = rules.decision(for: url)
                    #expect(
                        decision.outcome == expected.outcome && decision.ruleIndex == expected.ruleIndex
                            && decision.origin == expected.origin,
                        "\(release) \(path) (\(position))")
                    #expect(decision.entryIndex == (position == 1 ? 0 : 2) || decision.outcome == .noMatch)
                }
            }
        }
    }

    /// Lists share a proof when their signatures are equal: the same rules, each written at the
    /// same place (a proof's answer names where). Moving a rule to another line, or another
    /// file, makes another signature; copies of the rules written at the same places do not.
    @Test func signaturesTellRulesWrittenElsewhereApart() throws {
        func list(_ lines: [Int], file: String = "domains/example.yaml", paths: [String] = ["/a/*", "/b/*"]) throws
            -> DecisionList
        {
            let rules = try zip(paths, lines).map { path, line in
                ProofRule(
                    opens: true, isExclusion: false,
                    path: PathTest(
                        scopes: nil,
                        pattern: PatternTest(try PatternMatcher(path), preparation: Preparation(PatternOptions()))),
                    query: nil, fragment: nil, origin: SourceLocation(file: file, line: line, column: 9), label: path
                ) { _ in false }
            }
            return DecisionList(identity: "app", blocks: [(nil, rules)])
        }
        let base = try list([4, 5])
        #expect(try list([4, 5]).rulesSignature == base.rulesSignature)
        #expect(try list([4, 6]).rulesSignature != base.rulesSignature)
        #expect(try list([4, 5], file: "domains/other.yaml").rulesSignature != base.rulesSignature)
        #expect(try list([4, 5], paths: ["/a/*", "/c/*"]).rulesSignature != base.rulesSignature)
        #expect(try list([4, 6]).ruleKeys == base.ruleKeys)
    }
}
